#!/usr/bin/env bash
# scenarios/dm-blkcg-clone/guest.sh: the stacks of the dm-blkcg-clone scenario (run.sh) the host
# kernel cannot run: linear and thin where it lacks device-mapper or dm-thin-pool, and loop too
# where it lacks BFQ. Runs INSIDE the guest VM
# (kernel-scripts/guest/guest.sh run), started by /init under busybox sh, and goes on under the
# guest's bash-static with the host's kernel-scripts (as /mnt/in/ks): the same registry, devices,
# cgroups and measurements as on a host that has them (scenarios/dm-blkcg-clone/lib.sh). /init
# has loaded dm-mod, dm-thin-pool (with their dependencies), bfq and ext4.
#
# Reads $OUT/dm-blkcg-clone.params (written by run.sh: runtime, ramp, rounds, weights, paths,
# stacks, dev_mb, file_mb, mbps, dirty) and $OUT/jobs/ (the job files the host rendered: the guest
# has no JVM). Mounts cgroup2 where it is not mounted (unmounted again on the way out), loads
# null_blk (no devices of its own: the lab makes its own through configfs), and makes and measures
# the stacks: linear and thin each on its own bandwidth-limited null_blk, loop on a loop device in
# a tmpfs as natively, each with BFQ, ext4 on top. Writes into $OUT
# the host's names (<stack>-<path>-w<WA>-<WB>-r<K>.*), runs.guest.tsv (runs.tsv's rows),
# dm-table.txt and dm-blkcg-clone-guest.txt (key: value lines the host merges into env.txt). Not
# for the host: there it refuses.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail

OUT=${OUT:-/mnt/out}
KS=/mnt/in/ks
if [ ! -r "$KS/scenarios/dm-blkcg-clone/lib.sh" ] || [ ! -r "$OUT/dm-blkcg-clone.params" ]; then
	echo "dm-blkcg-clone-guest: runs inside the lab guest VM (started by scenarios/dm-blkcg-clone/run.sh)" >&2
	exit 1
fi
export LAB_STATE=/tmp/lab-state
# shellcheck source=SCRIPTDIR/../../common/rc.sh
. "$KS/common/rc.sh"
# shellcheck source=SCRIPTDIR/lib.sh
. "$KS/scenarios/dm-blkcg-clone/lib.sh"

_guest_params "$OUT/dm-blkcg-clone.params" runtime ramp rounds weights paths stacks dev_mb file_mb mbps dirty # into P

BC_OUT=$OUT BC_ENV=guest BC_RUNTIME=${P[runtime]} BC_RAMP=${P[ramp]} BC_ROUNDS=${P[rounds]}
BC_DEV_MB=${P[dev_mb]} BC_FILE_MB=${P[file_mb]} BC_MBPS=${P[mbps]} BC_DIRTY=${P[dirty]}
read -r -a BC_WEIGHTS <<<"${P[weights]}"
read -r -a BC_PATHS <<<"${P[paths]}"
read -r -a BC_STACKS <<<"${P[stacks]}"
BC_JOBS_FROM=$OUT/jobs

_guest_cgroup2_traps # removes the lab's objects, then unmounts the cgroup2 mounted here
_guest_cgroup2_mount
labmod null_blk nr_devices=0
_lab_msg "dm-blkcg-clone-guest: $(uname -r), $(nproc) cpus, stacks ${BC_STACKS[*]}, weights ${BC_WEIGHTS[*]}"

: >"$OUT/runs.guest.tsv"
bc_jobs
bc_setup
bc_rounds
_made_remove

bc_facts >"$OUT/dm-blkcg-clone-guest.txt"
