#!/usr/bin/env bash
# dm-css-ref: the kernel side of the fix "dm-css-ref" (seed 000_c7038be60bc9096a.txt: 5 nested
# dm-linear targets over a ramdisk, fio randrw bs=512 O_DIRECT, 12 jobs; one extra atomic on the
# blkcg css refcount per clone and per completion took the run from 23 s to 40 s, 1.74x).
#
# Today's kernel has the fix (a dm clone takes its blkcg association through per-cpu refs), so
# what is real here is the cost of what the fix's atomic rode on: the cost per dm-linear layer,
# depth 0 (the brd device itself) to 5, and the cost of the job running in a child cgroup (the
# io controller on: every clone associated with the child's blkg, its I/O counted there) vs the
# root cgroup. Devices, all the lab's own: brd (it loads the module: ram0, 1 GiB, 256 MiB quick,
# written once whole so every page is allocated, as in the seed), lab-lin1..lab-lin5 (dm-linear,
# lab-lin1 over ram0 and lab-lin(k) over lab-lin(k-1), each all of the device below, by
# major:minor, DM_DISABLE_UDEV=1), and the child cgroup lab-dmcss (v2 with +io in the root's
# subtree_control, taken away again only if the lab put it there; v1: the blkio hierarchy's).
# Natively where this kernel has brd and dm-mod and brd is not loaded; else in the guest VM
# (Debian's kernel under qemu, guest/guest.sh run; scenarios/dm-css-ref/guest.sh inside), the
# host rendering the job files (the guest has no JVM).
#
# Workload: examples/dm-css-ref.fio (randrw, bs=512, O_DIRECT, psync, group_reporting) rendered
# time based, the span the whole device, numjobs 1 and numjobs = cores where the runs run (the
# guest's 2 vCPUs there). Each run is started by a shell that moves itself into the root or the
# child cgroup and execs fio, all under perf stat -r 1 with the run's device stat before and after
# (_counted). fio always; the lab's bridge (psync) at depths 0 and 5, root cgroup, numjobs 1, only
# without LAB_QUICK=1 (under TCG the JVM's start-up dominates: C1 only there). At depth 0 the
# bridge runs on ram1, a second ram disk like ram0 (it refuses ram0, which dm holds).
#
# Rounds (LAB_ROUNDS, default 3, 2 quick): in each, every (depth, cgroup, numjobs) once; depths go
# up in odd rounds and down in even ones, and for each (depth, numjobs) root and child run back to
# back, which first flipping from pair to pair and from round to round.
#
# Writes into $LAB_OUT (required):
#   d<D>-<CG>-j<N>-r<K>.<TOOL>.json  (D depth 0..5, CG root|child, N numjobs, K round from 1,
#       TOOL fio|bridge), .perf.csv, .before.stat, .after.stat (the stat of the device the I/O
#       went to: ram0 or ram1, or the top dm-N), .cgroup (the run's task's /proc/self/cgroup),
#       .before.cgstat, .after.cgstat (the child
#       cgroup's I/O counters, io.stat on v2, around every run: they move in child runs only)
#   job-d<D>-j<N>.fio (fio and the bridge), dm-table.txt, perf-missing.txt, env.txt (key: value),
#   guest/ (the guest's console.log, guest.txt, guest-run.log, dm-css-ref-guest.txt)
# Environment: LAB_QUICK=1 (1 s runs, 2 rounds, 256 MiB, depths 0 1 5; else 3 s, 3 rounds, 1 GiB,
# depths 0..5), LAB_RUNTIME (seconds, or a fio time such as 500ms), LAB_ROUNDS, LAB_DM_CSS_DEPTHS
# (default "0 1 2 3 4 5", "0 1 5" with LAB_QUICK=1), LAB_JDK (common/jvm.sh: renders the job files), GUEST_MEM (the guest's MiB;
# default enough for the ram disks). LAB_FLAMEGRAPH is ignored here.
#
# A quick run measures what its notebook reads (issue 33): depth 0 (the bare device), 1 and 5 (the
# seed's: the calibration's cell, d5-root-j1, and child against root) give the slope per layer, its
# share of the bare I/O and the table's ends; depths 2..4 only fill in the line. env.txt's
# quick_leaves_out says what a quick run left out; the notebook says it once.
set -euo pipefail

KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../../common/rc.sh
. "$KS_DIR/common/rc.sh"
# shellcheck source=SCRIPTDIR/lib.sh
. "$KS_DIR/scenarios/dm-css-ref/lib.sh"

OUT=${LAB_OUT:?LAB_OUT must name the output folder}
QUICK=${LAB_QUICK:-0}
if [ "$QUICK" = 1 ]; then RUNTIME=1 ROUNDS=2 SIZE_MB=256; else RUNTIME=3 ROUNDS=3 SIZE_MB=1024; fi
RUNTIME=${LAB_RUNTIME:-$RUNTIME}
ROUNDS=${LAB_ROUNDS:-$ROUNDS}
ALL_DEPTHS="0 1 2 3 4 5"
if [ "$QUICK" = 1 ]; then DEFAULT_DEPTHS="0 1 5"; else DEFAULT_DEPTHS=$ALL_DEPTHS; fi
read -r -a DEPTHS <<<"${LAB_DM_CSS_DEPTHS:-$DEFAULT_DEPTHS}"
_scenario_runtime dm-css-ref "$RUNTIME" "$ROUNDS" # sets RUNTIME_S, RUNTIME_CEIL_S
[ ${#DEPTHS[@]} -gt 0 ] || { _lab_msg "dm-css-ref: LAB_DM_CSS_DEPTHS names no depth"; exit 1; }
prev=-1
for d in "${DEPTHS[@]}"; do
	if ! [[ $d =~ ^[0-5]$ ]] || [ "$d" -le "$prev" ]; then
		_lab_msg "dm-css-ref: LAB_DM_CSS_DEPTHS must be ascending depths 0..5: ${DEPTHS[*]}"
		exit 1
	fi
	prev=$d
done

DC_OUT=$OUT DC_RUNTIME=$RUNTIME DC_ROUNDS=$ROUNDS DC_SIZE_MB=$SIZE_MB
DC_DEPTHS=("${DEPTHS[@]}")
DC_BRIDGE=()

# the guest (run_guest) runs in the background; on the way out it is stopped before anything of
# the lab here goes
_guest_scenario_traps

# bridge_why GUEST: why the bridge does not run (nothing when it does); GUEST 1 in the guest
bridge_why() {
	if [ "$QUICK" = 1 ]; then echo "not with LAB_QUICK=1 (under TCG the JVM's start-up dominates a run)"; return; fi
	if [[ " ${DEPTHS[*]} " != *" 0 "* && " ${DEPTHS[*]} " != *" $DC_MAX_DEPTH "* ]]; then
		echo "it runs at depths 0 and $DC_MAX_DEPTH only, and LAB_DM_CSS_DEPTHS has neither"
		return
	fi
	if [ "$1" = 1 ]; then
		[ -x "$LAB_JDK/bin/jlink" ] || { echo "LAB_JDK has no jlink to make the guest's runtime"; return; }
		[ -e /usr/lib/x86_64-linux-gnu/liburing.so.2 ] || echo "no liburing.so.2 on the host (liburing2) for the guest's bridge"
	fi
}

command -v fio >/dev/null 2>&1 || { _lab_msg "dm-css-ref: fio is not installed (./lab kernel installs it)"; exit 1; }
_lab_jvm_init # renders every job file (spec render); runs the bridge natively
mkdir -p "$OUT"

nwhy=$(_dm_native_why brd dm-mod)
gwhy=
if [ -n "$nwhy" ]; then gwhy=$(_guest_why); fi
if [ -n "$nwhy" ] && [ -n "$gwhy" ]; then _guest_scenario_none dm-css-ref "$nwhy" "$gwhy" "$OUT"; fi

# ---------------------------------------------------------------- native

# run_native: the whole scenario on this kernel; sets TOOLS_LINE and writes FACTS_FILE
run_native() {
	local bwhy nr=1
	command -v perf >/dev/null 2>&1 || { _lab_msg "dm-css-ref: perf is not installed (./lab kernel installs linux-perf)"; exit 1; }
	DC_NUMJOBS=(1)
	if [ "$(nproc)" -gt 1 ]; then DC_NUMJOBS+=("$(nproc)"); fi
	bwhy=$(bridge_why 0)
	TOOLS_LINE="fio (psync)"
	if [ -z "$bwhy" ]; then
		DC_BRIDGE=("${LAB_BRIDGE[@]}")
		if [[ " ${DEPTHS[*]} " == *" 0 "* ]]; then nr=2; fi
		TOOLS_LINE+="; bridge (psync; root cgroup, numjobs 1, at depth 0 on ram1, a second ram disk like ram0, and at depth 5)"
	else
		TOOLS_LINE+="; bridge skipped: $bwhy"
		_lab_msg "dm-css-ref: bridge skipped: $bwhy"
	fi
	dc_jobs
	dc_setup "$nr"
	dc_rounds
	_made_remove || { _lab_msg "dm-css-ref: could not remove everything it made"; exit 1; }
	dc_facts "$TOOLS_LINE" >"$FACTS_FILE"
}

# ---------------------------------------------------------------- the guest VM

GOUT=$OUT/guest

# guest_params BRIDGE_WHY: dm-css-ref.params and jobs/ in the guest's output share: the guest has
# no JVM to render its job files with, so the host renders them for numjobs 1 and the guest's
# vCPUs (GUEST_VCPUS: _guest_vcpus), and the guest copies those it runs (dc_job_file)
guest_params() {
	local d n bridge=(bridge=1)
	if [ -n "$1" ]; then bridge=(bridge=0 "bridge_why=$1"); fi
	_guest_params_write "$GOUT" dm-css-ref "runtime=$RUNTIME" "rounds=$ROUNDS" "depths=${DEPTHS[*]}" "size_mb=$SIZE_MB" "${bridge[@]}"
	for d in "${DEPTHS[@]}"; do
		for n in $(_guest_numjobs); do dc_job "d$d-j$n" "$n" "$GOUT/jobs/job-d$d-j$n.fio"; done
	done
	_job_flush
}

# run_guest: the whole scenario in the guest VM; sets GUEST_STATUS and FACTS_FILE's contents (a
# guest that fails: env.txt says so, and the scenario exits 1)
run_guest() {
	local bwhy nruns nbridge tmo mem d nr=1
	bwhy=$(bridge_why 1)
	if [ -n "$bwhy" ]; then _lab_msg "dm-css-ref: bridge skipped: $bwhy"; fi
	mkdir -p "$GOUT"
	nbridge=0
	if [ -z "$bwhy" ]; then
		for d in "${DEPTHS[@]}"; do
			if [ "$d" = 0 ] || [ "$d" = "$DC_MAX_DEPTH" ]; then nbridge=$((nbridge + ROUNDS)); fi
		done
		if [[ " ${DEPTHS[*]} " == *" 0 "* ]]; then nr=2; fi
	fi
	mem=$((nr * SIZE_MB + 1024))
	if [ "$mem" -lt 1536 ]; then mem=1536; fi
	_guest_vcpus "$mem"
	guest_params "$bwhy"
	nruns=$((ROUNDS * ${#DEPTHS[@]} * 2 * $(wc -w <<<"$(_guest_numjobs)")))
	# a fio run is its runtime plus about 2 s under TCG, a bridge run about 25 s more (the JVM's
	# start-up); boot, fill, perf's probe and the stack about 60 s
	tmo=$((nruns * (RUNTIME_CEIL_S + 4) + nbridge * (RUNTIME_CEIL_S + 60) + 180))
	_lab_msg "dm-css-ref: guest VM ($nruns fio runs, $nbridge bridge runs), log in $GOUT/guest-run.log, at most ${tmo}s"
	_guest_scenario_run dm-css-ref "$GOUT" "$tmo" "$mem"
	_guest_collect "$GOUT" "$OUT" 'd[0-9]-*' 'tcg-zram-guest-*' 'job-d*' perf-missing.txt dm-table.txt
	_guest_scenario_ran dm-css-ref "$GOUT" "$FACTS_FILE" env_write
}

# ---------------------------------------------------------------- env.txt

# quick_leaves_out: with LAB_QUICK=1, env.txt's line saying what the quick run left out (the
# depths of 0..5 it did not run, and the bridge); nothing in a full run
quick_leaves_out() {
	local d gone=() what=
	[ "$QUICK" = 1 ] || return 0
	for d in $ALL_DEPTHS; do
		if [[ " ${DEPTHS[*]} " != *" $d "* ]]; then gone+=("$d"); fi
	done
	if [ ${#gone[@]} -gt 0 ]; then what="depths ${gone[*]} (the per-layer slope is fitted over depths ${DEPTHS[*]}), "; fi
	echo "quick_leaves_out: ${what}the lab's bridge at depths 0 and $DC_MAX_DEPTH, and a full run's 3 s runs and 3 rounds (here: ${RUNTIME_S} s, $ROUNDS)"
}

# env_write WHERE: env.txt from the facts of where the runs ran (WHERE native or guest)
env_write() {
	local where=$1
	{
		_guest_env_head "$where" "$GOUT" "$FACTS_FILE"
		echo "perf_repeats: 1"
		echo "rounds: $ROUNDS"
		echo "runtime_s: $RUNTIME_S"
		echo "depths: ${DEPTHS[*]}"
		quick_leaves_out
		grep -E '^numjobs: ' "$FACTS_FILE" 2>/dev/null || true
		echo "cgroups: root child"
		grep -E '^(cgroup|device|tools|cgroup_moved|cgroup_tasks|left_after|modules): ' "$FACTS_FILE" 2>/dev/null || true
		echo "span: the whole device (${SIZE_MB}M), at every depth"
		echo "rw: randrw (fio's default 50/50), bs=512, O_DIRECT, psync (iodepth 1), time based, group_reporting"
		echo "order: per round every (depth, numjobs, cgroup) once; depths up in odd rounds, down in even ones; root and child back to back, the first flipping from pair to pair and round to round"
		_guest_env_tail "$where" "$GUEST_STATUS"
	} >"$OUT/env.txt"
}

FACTS_FILE=$FLAME_TMP/facts
GUEST_STATUS=
if [ -z "$nwhy" ]; then
	GUEST_STATUS="skipped: not needed: this kernel has brd and dm-mod (the runs ran natively)"
	run_native
	env_write native
else
	_lab_msg "dm-css-ref: natively $nwhy: the runs go to the guest VM"
	_guest_scenario_probe dm-css-ref "$OUT" "$ROUNDS" "$(dc_runtime_opt)"
	run_guest
	env_write guest
fi
_scenario_done dm-css-ref "$OUT"
