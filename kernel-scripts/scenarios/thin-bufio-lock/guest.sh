#!/usr/bin/env bash
# scenarios/thin-bufio-lock/guest.sh: the thin-bufio-lock scenario (run.sh) where the host kernel
# lacks brd, device-mapper or dm-thin-pool. Runs INSIDE the guest VM (kernel-scripts/guest/guest.sh
# run), started by /init under busybox sh, and goes on under the guest's bash-static with the
# host's kernel-scripts (as /mnt/in/ks): the same registry, _counted, devices and rounds as on a
# host that has them (scenarios/thin-bufio-lock/lib.sh). /init has loaded dm-mod, dm-bufio,
# dm-persistent-data (after crc32c_generic and libcrc32c) and dm-thin-pool.
#
# Reads $OUT/thin-bufio-lock.params (written by run.sh: runtime, rounds, volume_mb, data_mb,
# flame, bridge_why) and $OUT/jobs/ (the job files the host rendered: the guest has no JVM). Runs
# the emulation probe (zram), loads brd (ram0 data, ram1 metadata), makes the thin pool, the thin
# volume (written whole) and the dm-linear, and runs the rounds: fio (psync) on thin and linear,
# numjobs 1 and the guest's cores; with flame=1 a kernel flamegraph run of thin. Writes into $OUT
# the host's names, perf-missing.txt, dm-table.txt, thin-status.txt and thin-bufio-lock-guest.txt
# (key: value lines the host puts into env.txt). Not for the host: there it refuses.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail

OUT=${OUT:-/mnt/out}
KS=/mnt/in/ks
if [ ! -r "$KS/scenarios/thin-bufio-lock/lib.sh" ] || [ ! -r "$OUT/thin-bufio-lock.params" ]; then
	echo "thin-bufio-lock-guest: runs inside the lab guest VM (started by scenarios/thin-bufio-lock/run.sh)" >&2
	exit 1
fi
export LAB_STATE=/tmp/lab-state
# shellcheck source=SCRIPTDIR/../../common/rc.sh
. "$KS/common/rc.sh"
# shellcheck source=SCRIPTDIR/lib.sh
. "$KS/scenarios/thin-bufio-lock/lib.sh"

_guest_params "$OUT/thin-bufio-lock.params" runtime rounds volume_mb data_mb flame bridge_why # into P

TB_OUT=$OUT TB_RUNTIME=${P[runtime]} TB_ROUNDS=${P[rounds]} TB_VOLUME_MB=${P[volume_mb]} TB_DATA_MB=${P[data_mb]}
TB_FLAME=${P[flame]}
TB_NUMJOBS=(1)
if [ "$(nproc)" -gt 1 ]; then TB_NUMJOBS+=("$(nproc)"); fi
TB_JOBS_FROM=$OUT/jobs

_scenario_traps
_lab_msg "thin-bufio-lock-guest: $(uname -r), $(nproc) cpus, volume ${TB_VOLUME_MB}M, modules: $(for m in dm_mod dm_bufio dm_persistent_data dm_thin_pool; do [ -d "/sys/module/$m" ] && printf '%s ' "$m"; done)"

tb_jobs
labmod zram num_devices=0
_emulation_probe "$TB_OUT" guest "$TB_ROUNDS" "$(tb_runtime_opt)" thin-bufio-lock
_made_remove
tb_setup
tb_rounds
_made_remove

tb_facts "fio (psync); bridge skipped: ${P[bridge_why]}" >"$OUT/thin-bufio-lock-guest.txt"
