# shellcheck shell=bash
# shellcheck disable=SC2034 # AB_* are read by kernel/ab-guest.sh and kernel/lab-ab.sh, which source this
# scenarios/dm-blkcg-clone/lab-ab.sh: dm-blkcg-clone's switch A/B on the lab kernel, sourced by
# kernel/ab-guest.sh inside the guest (and by kernel/lab-ab.sh on the host, for the job file).
# The scenario's guest stack (scenarios/dm-blkcg-clone/lib.sh): two buffered writers, one in each
# of the cgroups a and b at BFQ weights 1000:500 (cgroup v2, io and memory: cgroup writeback),
# to ext4 files on dm-linear over a null_blk limited to 32 MiB/s. Writeback's bios are submitted
# by the flusher, so a dm clone that loses its source's association (the before) is charged to
# the flusher's cgroup, the root; one that keeps it, to its writer's. A trial's metric is a's
# write bandwidth over b's; each cgroup's bytes at the bottom device say where they were charged.
AB_WORKLOAD="two buffered writers (examples/dm-blkcg-clone.fio: sequential 1 MiB psync writes), cgroups a and b at BFQ weights 1000:500 (cgroup v2, io and memory), to ext4 files on dm-linear over a null_blk limited to 32 MiB/s"
AB_METRIC=share

# the scenario's functions (at file scope: its declare -A tables must stay global); KS_DIR on the
# host (kernel/lab-ab.sh), KS in the guest (kernel/ab-guest.sh)
# shellcheck source=SCRIPTDIR/lib.sh
. "${KS_DIR:-$KS}/scenarios/dm-blkcg-clone/lib.sh"

# ab_lib QUICK: the scenario's guest choices (run.sh's, as in its runs)
ab_lib() {
	BC_ENV=guest BC_DEV_MB=1024 BC_FILE_MB=384 BC_MBPS=32 BC_DIRTY="$((32 << 20)) $((16 << 20))"
	BC_STACKS=(linear) BC_PATHS=(buffered) BC_WEIGHTS=(1000:500) BC_ROUNDS=1
	if [ "${1:-0}" = 1 ]; then BC_RUNTIME=2 BC_RAMP=1; else BC_RUNTIME=8 BC_RAMP=2; fi
}

# ab_host_prepare OUT QUICK: (on the host) the job file the guest cannot render, into OUT/jobs
ab_host_prepare() {
	_lab_jvm_init || return 1
	ab_lib "$2"
	mkdir -p "$1/jobs"
	BC_OUT=$1/jobs
	BC_JOBS_FROM=
	bc_jobs
}

ab_setup() {
	ab_lib "$(sed -n 's/^quick=//p' "$OUT/lab-ab.params")"
	BC_OUT=$OUT/ab BC_JOBS_FROM=$OUT/jobs
	_guest_cgroup2_mount
	labmod null_blk nr_devices=0
	bc_jobs
	bc_setup
	_cgroup_set_weight "${BC_CG[a]}" 1000
	_cgroup_set_weight "${BC_CG[b]}" 500
	AB_DEV=${BC_TOP[linear]}
}

# ab_trial PREFIX: one trial: PREFIX.{a,b}.fio.json, PREFIX.{before,after}.*, PREFIX.cg (the bytes
# the bottom device wrote charged to a and to b, and all it wrote)
ab_trial() {
	local devt=${BC_BDEVT[linear]}
	bc_writers linear buffered "$1"
	echo "$(bc_cg_delta "$1" a "$devt") $(bc_cg_delta "$1" b "$devt") $(bc_dev_wbytes "$1")" >"$1.cg"
}
