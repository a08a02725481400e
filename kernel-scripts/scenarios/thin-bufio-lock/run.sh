#!/usr/bin/env bash
# thin-bufio-lock: the kernel side of the fix "thin-bufio-lock" (seed 004_779fcd164b83d477.txt:
# a thin volume over pmem, written fully first, then fio psync randrw bs=4k O_DIRECT, 12 jobs;
# dm-bufio's client lock taken once per btree walk, and made a rw_semaphore, took the run from
# 286+286 MiB/s to 442+442).
#
# Today's kernel has the fix, so what is real here is what the fix's lock rode on: the cost of a
# thin volume's I/O (a btree lookup through dm-bufio per bio, on provisioned blocks) against the
# same I/O through dm-linear over the same data device, at 1 job and at the cores. Devices, all
# the lab's own: brd (it loads the module: ram0 the pool's data, ram1 its metadata, both 576 MiB,
# 192 MiB quick: brd takes one rd_size for all its disks and allocates a page only when written),
# the thin pool lab-pool (64 KiB data blocks as LVM's default, skip_block_zeroing), its thin
# volume 0 as lab-thin (512 MiB, 128 MiB quick), written once whole so every block is
# provisioned (as in the seed), and lab-lin, dm-linear over the first 512 MiB (128 MiB) of ram0,
# the brd pages the fill gave the thin volume. Natively where this kernel has brd, dm-mod and
# dm-thin-pool and brd is not loaded; else in the guest VM (Debian's kernel under qemu,
# guest/guest.sh run; scenarios/thin-bufio-lock/guest.sh inside), the host rendering the job
# files (the guest has no JVM).
#
# Workload: examples/thin-bufio-lock.fio (randrw, bs=4k, O_DIRECT, psync, time based,
# group_reporting) rendered with iodepth 1, the span the whole volume, numjobs 1 and numjobs =
# cores where the runs run (the guest's 2 vCPUs there), under perf stat -r 1 with the device's
# /sys stat before and after (_counted). fio only: the seed's own tool (the bridge is skipped,
# env.txt says why). Where the runs go to the guest, the emulation probe (common/perf.sh,
# _emulation_probe) runs on both sides of qemu first, as in dm-css-ref.
#
# Rounds (LAB_ROUNDS, default 3, 2 quick): one unrecorded warm-up run on each device, then in each
# round every (numjobs, device) once: numjobs ascending in odd rounds, descending in even ones;
# thin and linear back to back, which first flipping from numjobs to numjobs and round to round.
#
# Writes into $LAB_OUT (required):
#   <DEV>-j<N>-r<K>.fio.json  (DEV thin|linear, N numjobs, K round from 1), .fio.perf.csv,
#       .fio.before.stat, .fio.after.stat (the stat of the dm device the I/O went to)
#   job-<DEV>-j<N>.fio, thin-status.txt (dmsetup status lab-pool after the fill and after the
#   rounds), dm-table.txt, perf-missing.txt, env.txt (key: value), guest/ (the guest's
#   console.log, guest.txt, guest-run.log, thin-bufio-lock-guest.txt); in the guest
#   tcg-zram-host-rK.fio.* and tcg-zram-guest-rK.fio.*; with LAB_FLAMEGRAPH=1
#   thin-j<N>.fio.kernel.collapsed.gz (N the highest numjobs) or
#   thin-j<N>.fio.kernel-flamegraph-missing.txt
# Environment: LAB_QUICK=1 (1 s runs, 2 rounds, a 128 MiB volume; else 5 s, 3 rounds, 512 MiB),
# LAB_RUNTIME (seconds, or a fio time such as 500ms), LAB_ROUNDS, LAB_FLAMEGRAPH=1, LAB_JDK
# (common/jvm.sh: renders the job files), GUEST_MEM (the guest's MiB; default enough for the
# ram disks).
set -euo pipefail

KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../../common/rc.sh
. "$KS_DIR/common/rc.sh"
# shellcheck source=SCRIPTDIR/lib.sh
. "$KS_DIR/scenarios/thin-bufio-lock/lib.sh"

OUT=${LAB_OUT:?LAB_OUT must name the output folder}
QUICK=${LAB_QUICK:-0}
if [ "$QUICK" = 1 ]; then RUNTIME=1 ROUNDS=2 VOLUME_MB=128; else RUNTIME=5 ROUNDS=3 VOLUME_MB=512; fi
DATA_MB=$((VOLUME_MB + 64)) # the pool's data device: the volume and headroom
RUNTIME=${LAB_RUNTIME:-$RUNTIME}
ROUNDS=${LAB_ROUNDS:-$ROUNDS}
FLAME=${LAB_FLAMEGRAPH:-0}
_scenario_runtime thin-bufio-lock "$RUNTIME" "$ROUNDS" # sets RUNTIME_S, RUNTIME_CEIL_S

TB_OUT=$OUT TB_RUNTIME=$RUNTIME TB_ROUNDS=$ROUNDS TB_VOLUME_MB=$VOLUME_MB TB_DATA_MB=$DATA_MB TB_FLAME=$FLAME
BRIDGE_WHY="not needed: fio is the seed's own tool and thin vs linear compares two kernel paths under one runner (under TCG the JVM's start-up would dominate the short runs)"

# the guest (run_guest) runs in the background; on the way out it is stopped before anything of
# the lab here goes
_guest_scenario_traps

command -v fio >/dev/null 2>&1 || { _lab_msg "thin-bufio-lock: fio is not installed (./lab kernel installs it)"; exit 1; }
command -v perf >/dev/null 2>&1 || { _lab_msg "thin-bufio-lock: perf is not installed (./lab kernel installs linux-perf)"; exit 1; }
_lab_jvm_init # renders every job file (spec render)
mkdir -p "$OUT"

nwhy=$(_dm_native_why brd dm-mod dm-thin-pool)
gwhy=
if [ -n "$nwhy" ]; then gwhy=$(_guest_why); fi
if [ -n "$nwhy" ] && [ -n "$gwhy" ]; then _guest_scenario_none thin-bufio-lock "$nwhy" "$gwhy" "$OUT"; fi

# ---------------------------------------------------------------- native

# run_native: the whole scenario on this kernel; writes FACTS_FILE
run_native() {
	TB_NUMJOBS=(1)
	if [ "$(nproc)" -gt 1 ]; then TB_NUMJOBS+=("$(nproc)"); fi
	tb_jobs
	tb_setup
	tb_rounds
	_made_remove || { _lab_msg "thin-bufio-lock: could not remove everything it made"; exit 1; }
	tb_facts "fio (psync); bridge skipped: $BRIDGE_WHY" >"$FACTS_FILE"
}

# ---------------------------------------------------------------- the guest VM

GOUT=$OUT/guest

# guest_params: thin-bufio-lock.params and jobs/ in the guest's output share: the guest has no JVM
# to render its job files with, so the host renders them for numjobs 1 and the guest's vCPUs
# (GUEST_VCPUS: _guest_vcpus), and the guest copies those it runs (tb_job_file)
guest_params() {
	local dev n
	_guest_params_write "$GOUT" thin-bufio-lock "runtime=$RUNTIME" "rounds=$ROUNDS" "volume_mb=$VOLUME_MB" \
		"data_mb=$DATA_MB" "flame=$FLAME" "bridge_why=$BRIDGE_WHY"
	for dev in "${TB_DEVS[@]}"; do
		for n in $(_guest_numjobs); do tb_job "$dev-j$n" "$n" "$GOUT/jobs/job-$dev-j$n.fio"; done
	done
	_job_flush
}

# run_guest: the whole scenario in the guest VM; sets GUEST_STATUS and FACTS_FILE's contents (a
# guest that fails: env.txt says so, and the scenario exits 1)
run_guest() {
	local nruns tmo mem
	mkdir -p "$GOUT"
	mem=$((DATA_MB + 1024))
	if [ "$mem" -lt 1536 ]; then mem=1536; fi
	_guest_vcpus "$mem"
	guest_params
	# the rounds, the warm-ups, the probe's and the flamegraph's runs
	nruns=$((ROUNDS * 2 * $(wc -w <<<"$(_guest_numjobs)") + 2 + ROUNDS + FLAME))
	# a fio run is its runtime plus about 3 s under TCG; boot, the fill (about 10 s a 100 MiB),
	# perf's probe and the devices about 60 s
	tmo=$((nruns * (RUNTIME_CEIL_S + 5) + VOLUME_MB / 10 + 180))
	_lab_msg "thin-bufio-lock: guest VM ($nruns fio runs), log in $GOUT/guest-run.log, at most ${tmo}s"
	_guest_scenario_run thin-bufio-lock "$GOUT" "$tmo" "$mem"
	_guest_collect "$GOUT" "$OUT" 'thin-j[0-9]*' 'linear-j[0-9]*' 'tcg-zram-guest-*' 'job-*' perf-missing.txt dm-table.txt thin-status.txt
	_guest_scenario_ran thin-bufio-lock "$GOUT" "$FACTS_FILE" env_write
}

# ---------------------------------------------------------------- env.txt

# env_write WHERE: env.txt from the facts of where the runs ran (WHERE native or guest)
env_write() {
	local where=$1
	{
		_guest_env_head "$where" "$GOUT" "$FACTS_FILE"
		echo "perf_repeats: 1"
		echo "rounds: $ROUNDS"
		echo "runtime_s: $RUNTIME_S"
		grep -E '^(numjobs|devices|volume_mb|data_block_kb|provisioned|dm_bufio|tools|flamegraph|left_after|modules): ' "$FACTS_FILE" 2>/dev/null || true
		echo "span: the whole volume (${VOLUME_MB}M), on thin and on linear"
		echo "rw: randrw (fio's default 50/50), bs=4k, O_DIRECT, psync (iodepth 1), time based, group_reporting"
		echo "order: one unrecorded warm-up run on each device, then per round every (numjobs, device) once; numjobs ascending in odd rounds, descending in even ones; thin and linear back to back, the first flipping from numjobs to numjobs and round to round"
		_guest_env_tail "$where" "$GUEST_STATUS"
	} >"$OUT/env.txt"
}

FACTS_FILE=$FLAME_TMP/facts
GUEST_STATUS=
if [ -z "$nwhy" ]; then
	GUEST_STATUS="skipped: not needed: this kernel has brd, dm-mod and dm-thin-pool (the runs ran natively)"
	run_native
	env_write native
else
	_lab_msg "thin-bufio-lock: natively $nwhy: the runs go to the guest VM"
	_guest_scenario_probe thin-bufio-lock "$OUT" "$ROUNDS" "$(tb_runtime_opt)"
	run_guest
	env_write guest
fi
_scenario_done thin-bufio-lock "$OUT"
