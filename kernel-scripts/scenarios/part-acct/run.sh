#!/usr/bin/env bash
# part-acct: the kernel side of the fix "part-acct" (seed 002_84cddfb167739f27.txt: block I/O
# accounting, the per-partition refcount and in-flight counters made per-CPU; "~15% throughput
# with fio randread over null_blk").
#
# Today's kernel has the fix (and more: per-CPU in-flight counts, no atomic partition ref in
# the I/O path), so the before/after that is real here is accounting on vs off:
# /sys/block/DEV/queue/iostats 1 vs 0 (the old value recorded in the registry and restored),
# and I/O to a partition vs to the whole disk. Devices, each made by the lab:
#   zram   the whole disk (zram cannot be partitioned); filled once, 50% compressible
#   loop   a sparse file with a DOS partition table (sfdisk) whose partition 1 covers half the
#          device from 1 MiB; I/O to the partition, and to the disk over the same sectors
#   nullb  natively where this kernel has null_blk (built in, or a module the lab loads and
#          unloads again), else in the guest VM (qemu, Debian's kernel); memory backed so the
#          table survives: the disk and, where the null_blk takes one, partition 1
# Workload: 4k randread, O_DIRECT, time based, numjobs 1 and numjobs = cores, through fio
# (psync) and, on the host, also through the lab's bridge (io_uring, iodepth 8), every run under
# perf stat -r 1 with the target's /sys stat before and after (_counted). Every target reads
# the same span: OFFSET..OFFSET+SIZE of the disk, the whole partition on the partition.
#
# Rounds (LAB_ROUNDS, default 3, 2 quick): in each, for every device/target/numjobs/tool,
# iostats 1 and iostats 0 back to back (one ratio a round); which goes first flips from one
# pair to the next, and from one round to the next for the same pair.
#
# Writes into $LAB_OUT (required), the zram-floor contract:
#   <dev>-<target>-iostats<0|1>-j<N>-r<K>.<tool>.json  (dev zram|loop|nullb, target disk|part,
#       tool fio|bridge-uring, K the round from 1), .perf.csv, .before.stat, .after.stat
#       (+ .mm_stat/.io_stat on zram); the stat is the target's own (a partition's for part)
#   job-<dev>-<target>-j<N>.fio (fio), job-<dev>-<target>-j<N>.uring.fio (bridge-uring)
#   perf-missing.txt, env.txt (key: value), guest/ (the guest's console, guest.txt, log, where
#   null_blk ran there), FAILED (where the guest part failed: "guest (nullb): why"; the native
#   results stand, and the scenario exits 1)
#   with LAB_FLAMEGRAPH=1: zram-disk-iostats<0|1>-j<max>.fio.kernel.collapsed.gz/.svg
# Environment: LAB_QUICK=1 (2 s runs, 2 rounds, 256 MiB devices; else 3 s, 3 rounds, 1 GiB),
# LAB_RUNTIME (seconds, or a fio time such as 500ms), LAB_ROUNDS, LAB_FLAMEGRAPH=1,
# LAB_PART_ACCT_DEVICES (default "zram loop nullb": the devices to run),
# LAB_PART_ACCT_GUEST=0 (no guest part), LAB_PART_ACCT_TOOLS (default "fio bridge-uring", "fio"
# with LAB_QUICK=1: the bridge's runs double the quick scenario's time and add no device),
# LAB_PART_ACCT_CELLS (the DEV-TARGET-jN cells to run, jmax the highest numjobs; default "all",
# with LAB_QUICK=1 the quick plan below), LAB_JDK (common/jvm.sh).
#
# A quick run measures what its notebook reads (issue 33), the cells zram-disk-j1 (the
# calibration's: fio, 1 job, iostats 1, where null_blk is not native), nullb-disk-j1 (the
# calibration's where it is), nullb-disk-jmax (the headline's: the whole disk at the most jobs),
# and loop-disk-jmax with loop-part-jmax (the partition against the whole disk, at one numjobs):
# 20 runs, not 40, 8 of them in the guest VM, not 16. env.txt's cells and quick_leaves_out say
# what ran and what it left out; the notebook says it once.
set -euo pipefail

KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../../common/rc.sh
. "$KS_DIR/common/rc.sh"
# shellcheck source=SCRIPTDIR/lib.sh
. "$KS_DIR/scenarios/part-acct/lib.sh"

OUT=${LAB_OUT:?LAB_OUT must name the output folder}
QUICK=${LAB_QUICK:-0}
if [ "$QUICK" = 1 ]; then RUNTIME=2 ROUNDS=2 SIZE_MB=256; else RUNTIME=3 ROUNDS=3 SIZE_MB=1024; fi
RUNTIME=${LAB_RUNTIME:-$RUNTIME}
ROUNDS=${LAB_ROUNDS:-$ROUNDS}
_scenario_runtime part-acct "$RUNTIME" "$ROUNDS" # sets RUNTIME_S, RUNTIME_CEIL_S
CORES=$(nproc)
START_MB=1                   # partition 1 starts here (and the disk targets read from here)
PART_MB=$((SIZE_MB / 2))     # partition 1's size: half the device
GUEST_WANTED=${LAB_PART_ACCT_GUEST:-1}

PA_OUT=$OUT PA_RUNTIME=$RUNTIME PA_ROUNDS=$ROUNDS PA_DEPTH=8
PA_SPAN="$START_MB $PART_MB" PA_PART_MIB=$PART_MB
PA_NUMJOBS=(1)
if [ "$CORES" -gt 1 ]; then PA_NUMJOBS+=("$CORES"); fi
QUICK_CELLS="zram-disk-j1 nullb-disk-j1 nullb-disk-jmax loop-disk-jmax loop-part-jmax"
if [ "$QUICK" = 1 ]; then cells=$QUICK_CELLS; else cells=all; fi
PA_CELLS=${LAB_PART_ACCT_CELLS:-$cells}
for c in $PA_CELLS; do
	[[ $c =~ ^((zram|loop|nullb)-(disk|part)-j([1-9][0-9]*|max)|all)$ ]] ||
		{ _lab_msg "part-acct: LAB_PART_ACCT_CELLS: $c is not all or DEV-TARGET-jN (zram|loop|nullb, disk|part, N or max)"; exit 1; }
done
if [ "$QUICK" = 1 ]; then tools="fio"; else tools="fio bridge-uring"; fi
read -r -a PA_TOOLS <<<"${LAB_PART_ACCT_TOOLS:-$tools}"
for tool in "${PA_TOOLS[@]}"; do
	case $tool in fio | bridge-uring) ;; *) _lab_msg "part-acct: LAB_PART_ACCT_TOOLS: unknown tool $tool (fio, bridge-uring)"; exit 1 ;; esac
done
PA_FLAME="zram-disk"
PA_TARGETS=()
read -r -a DEVICES <<<"${LAB_PART_ACCT_DEVICES:-zram loop nullb}"
[ ${#DEVICES[@]} -gt 0 ] || { _lab_msg "part-acct: LAB_PART_ACCT_DEVICES names no device"; exit 1; }
for d in "${DEVICES[@]}"; do
	case $d in zram | loop | nullb) ;; *) _lab_msg "part-acct: LAB_PART_ACCT_DEVICES: unknown device $d (zram, loop, nullb)"; exit 1 ;; esac
done
# want DEV: DEV is among the devices to run
want() { [[ " ${DEVICES[*]} " == *" $1 "* ]]; }

# the guest part runs in the background; on the way out it is stopped before the devices go
_guest_scenario_traps

for d in zram loop; do
	if want "$d"; then _driver_native "$d" || { _lab_msg "part-acct: $d is not in this kernel"; exit 1; }; fi
done
# null_blk: natively where this kernel has it; else in the guest
NULLB_WHERE=
if want nullb; then
	NULLB_WHERE=guest
	if _driver_native null_blk; then NULLB_WHERE=native; fi
fi
for c in fio perf sfdisk blockdev; do
	command -v "$c" >/dev/null 2>&1 || { _lab_msg "part-acct: $c is not installed (./lab kernel installs fio, linux-perf, fdisk)"; exit 1; }
done
_lab_jvm_init # the bridge runs bridge-uring and renders every job file (spec render)
mkdir -p "$OUT"

# ---------------------------------------------------------------- native devices

declare -A IOSTATS_DEFAULT
DEVICE_LINES=()
if want zram; then
	zram=$(_zram_add "${SIZE_MB}M")
	MADE+=("zram $zram")
	algo=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$zram/comp_algorithm")
	_lab_msg "part-acct: filling $zram (${SIZE_MB}M, $algo, 50% compressible)"
	_fill "/dev/$zram" 50
	pa_iostats_own "$zram"
	IOSTATS_DEFAULT[zram]=$PA_IOSTATS_OLD
	PA_TARGETS+=("zram disk /dev/$zram /dev/$zram")
	DEVICE_LINES+=("zram (${SIZE_MB}M, $algo, filled once 50% compressible, 4 KiB chunks)")
fi

if want loop; then
	loop=$(_loop_add "${SIZE_MB}M" partscan)
	MADE+=("loop $loop")
	_mbr_image "$FLAME_TMP/loop.mbr" "$(blockdev --getss "$loop")" "$START_MB" "$PART_MB"
	read -r part part_how <<<"$(_mbr_write "$loop" "$FLAME_TMP/loop.mbr")"
	[ -n "$part" ] || exit 1
	# read the whole device once, so the backing file's pages are cached before anything is timed
	fio --name=lab-warm --filename="$loop" --rw=read --bs=1M --direct=1 --ioengine=psync --size=100% --output=/dev/null
	pa_iostats_own "$loop"
	IOSTATS_DEFAULT[loop]=$PA_IOSTATS_OLD
	PA_TARGETS+=("loop disk $loop $loop" "loop part $loop $part")
	DEVICE_LINES+=("loop (${SIZE_MB}M sparse file, DOS table by sfdisk, partition 1 $part from ${START_MB}M for ${PART_MB}M, made by: $part_how, read once before the runs)")
fi

# null_blk natively, as the guest half makes it (guest.sh): memory backed, 4 KiB blocks, its table
# counted in those; I/O to partition 1 where this null_blk takes one
if [ "$NULLB_WHERE" = native ]; then
	nb=$(_nullb_add "${SIZE_MB}M" mem)
	MADE+=("nullb ${nb#/dev/}")
	pa_iostats_own "$nb"
	IOSTATS_DEFAULT[nullb]=$PA_IOSTATS_OLD
	PA_TARGETS+=("nullb disk $nb $nb")
	_mbr_image "$FLAME_TMP/nullb.mbr" "$(blockdev --getss "$nb")" "$START_MB" "$PART_MB"
	if made=$(_mbr_write "$nb" "$FLAME_TMP/nullb.mbr" 2>"$FLAME_TMP/nullb-part.err"); then
		read -r nbpart nbhow <<<"$made"
		NULLB_PART="yes: $nbpart, ${PART_MB}M from ${START_MB}M, made by: $nbhow"
		PA_TARGETS+=("nullb part $nb $nbpart")
	else
		NULLB_PART="no: $(tr '\n' ' ' <"$FLAME_TMP/nullb-part.err")"
	fi
	DEVICE_LINES+=("nullb ${nb#/dev/} (null_blk through configfs, ${SIZE_MB}M, 4 KiB blocks, blk-mq, memory_backed=1; partition: $NULLB_PART)")
	_lab_msg "part-acct: $nb, partition: $NULLB_PART"
fi
if ! want zram; then PA_FLAME=; fi

# ---------------------------------------------------------------- native runs

if [ ${#PA_TARGETS[@]} -gt 0 ]; then
	pa_jobs
	pa_rounds
fi
_made_remove || { _lab_msg "part-acct: could not remove every device"; exit 1; }

# ---------------------------------------------------------------- the guest: null_blk

GUEST_STATUS=
guest_env=() # guest_* lines for env.txt
gout=$OUT/guest
guest_unavailable() {
	if [ "$NULLB_WHERE" = native ]; then echo "not needed: this kernel has null_blk (it ran natively)"; return; fi
	if [ "$NULLB_WHERE" != guest ]; then echo "not asked: nullb is not among LAB_PART_ACCT_DEVICES (${DEVICES[*]})"; return; fi
	if [ "$GUEST_WANTED" = 0 ]; then echo "LAB_PART_ACCT_GUEST=0"; return; fi
	_guest_why
}
why=$(guest_unavailable)
if [ -n "$why" ]; then
	GUEST_STATUS="skipped: $why"
	_lab_msg "part-acct: guest part skipped: $why"
else
	mkdir -p "$gout"
	# the guest's null_blk has 4 KiB logical blocks (_nullb_add): the table counts in those
	_mbr_image "$gout/part-acct.mbr" 4096 "$START_MB" "$PART_MB"
	# the guest has no JVM to render its job files (fio's, psync) with: the host renders them into
	# jobs/, for numjobs 1 and the guest's vCPUs (GUEST_VCPUS: _guest_vcpus, guest.sh's default
	# memory), and the guest copies those it runs into its output (pa_job_file)
	_guest_vcpus 1536
	_guest_params_write "$gout" part-acct "runtime=$RUNTIME" "rounds=$ROUNDS" "size_mb=$SIZE_MB" "start_mb=$START_MB" \
		"part_mb=$PART_MB" mbr_sector_size=4096 "cells=$PA_CELLS"
	read -r -a gnj <<<"$(_guest_numjobs)" # 1 and its vCPUs: the highest last
	for t in disk part; do
		for n in "${gnj[@]}"; do
			pa_wanted nullb "$t" "$n" "${gnj[-1]}" || continue
			pa_job "nullb-$t-j$n" psync "$n" "$t" "$gout/jobs/job-nullb-$t-j$n.fio"
		done
	done
	_job_flush
	# a run is fio's runtime plus about 2 s under TCG; boot and perf's probe about 30 s
	gtimeout=$((ROUNDS * 2 * 2 * $(wc -w <<<"$(_guest_numjobs)") * (RUNTIME_CEIL_S + 6) + 120))
	_lab_msg "part-acct: guest VM (null_blk), log in $gout/guest-run.log, at most ${gtimeout}s"
	_guest_scenario_run part-acct "$gout" "$gtimeout"
	_guest_collect "$gout" "$OUT" 'nullb-*' 'job-nullb-*'
	if [ "$GUEST_RC" -eq 0 ]; then
		GUEST_STATUS="ran: null_blk in the guest VM (fio only; guest/ has its console and log)"
	else
		# the native results stand; the run fails (exit 1) at its end
		_part_failed "guest (nullb)" "$GUEST_FAILURE"
	fi
	if [ -f "$gout/guest.txt" ]; then
		accel=$(sed -n 's/^env: //p' "$gout/guest.txt")
		guest_env+=("guest_environment: $accel ($(_guest_qemu "$gout")$(_guest_speed_note "$accel"))")
		guest_env+=("guest_kernel: $(sed -n 's/^kernel: //p' "$gout/guest.txt")")
		guest_env+=("guest_cores: $(sed -n 's/^cpus: //p' "$gout/guest.txt")")
	fi
	if [ -f "$gout/part-acct-guest.txt" ]; then
		while IFS= read -r l; do guest_env+=("guest_$l"); done <"$gout/part-acct-guest.txt"
	fi
fi

# ---------------------------------------------------------------- env.txt

# the dev-targets that ran, in order
targets=()
for dt in zram-disk loop-disk loop-part nullb-disk nullb-part; do
	if compgen -G "$OUT/$dt-iostats*.json" >/dev/null; then targets+=("$dt"); fi
done
# moved: "DT iostatsV M/T" for every target and iostats value, comma-separated
moved() {
	local dt v out=()
	for dt in "${targets[@]}"; do
		for v in 0 1; do out+=("$dt iostats$v $(pa_moved "$dt" "$v")"); done
	done
	(IFS=,; echo "${out[*]}") | sed 's/,/, /g'
}
# quick_leaves_out: with LAB_QUICK=1, env.txt's line saying what the quick run left out: the cells
# of the devices it ran that PA_CELLS does not name, and a full run's runtime and rounds
quick_leaves_out() {
	local dt n gone=() nj
	[ "$QUICK" = 1 ] || return 0
	for dt in zram-disk loop-disk loop-part nullb-disk nullb-part; do
		[[ " ${targets[*]} " == *" ${dt%%-*}-disk "* ]] || continue # a device that ran
		nj=("${PA_NUMJOBS[@]}")
		if [ "${dt%%-*}" = nullb ] && [ "$NULLB_WHERE" = guest ]; then read -r -a nj <<<"$(_guest_numjobs)"; fi
		for n in "${nj[@]}"; do
			pa_wanted "${dt%%-*}" "${dt#*-}" "$n" "${nj[-1]}" || gone+=("$dt-j$n")
		done
	done
	echo "quick_leaves_out: ${gone[*]:+the cells ${gone[*]} (DEV-TARGET-jN), and }a full run's 3 s runs and 3 rounds (here: ${RUNTIME_S} s, $ROUNDS)"
}
native=()
for d in zram loop nullb; do
	if [[ " ${targets[*]} " == *" $d-disk "* ]] && { [ "$d" != nullb ] || [ "$NULLB_WHERE" = native ]; }; then native+=("$d"); fi
done
env_line="native ($(_mod_join "${native[@]}"))"
if [ "$NULLB_WHERE" = guest ] && [[ " ${targets[*]} " == *" nullb-disk "* ]]; then env_line+="; guest VM (nullb)"; fi
{
	echo "environment: $env_line"
	echo "kernel: $(uname -r)"
	echo "cores: $CORES"
	echo "perf_repeats: 1"
	echo "rounds: $ROUNDS"
	echo "runtime_s: $RUNTIME_S"
	echo "devices: $(_mod_join "${DEVICE_LINES[@]}")"
	echo "span: ${PART_MB}M from ${START_MB}M on a disk target, the whole partition 1 (the same sectors) on a part target"
	echo "targets: ${targets[*]}"
	echo "numjobs: ${PA_NUMJOBS[*]}"
	if [ "$PA_CELLS" != all ]; then echo "cells: $PA_CELLS (DEV-TARGET-jN; jmax: the most jobs)"; fi
	quick_leaves_out
	tools_line=
	for tool in "${PA_TOOLS[@]}"; do
		case $tool in
		fio) tools_line+="${tools_line:+; }fio (psync)" ;;
		bridge-uring) tools_line+="${tools_line:+; }bridge-uring (the lab's bridge, io_uring, iodepth $PA_DEPTH; native only)" ;;
		esac
	done
	echo "tools: $tools_line"
	echo "rw: randread, 4k, O_DIRECT, time based"
	echo "order: per round, for each target, numjobs and tool, iostats 1 and 0 back to back; the first of a pair flips from pair to pair and from round to round"
	iostats_line=
	for d in zram loop nullb; do
		if [ -n "${IOSTATS_DEFAULT[$d]:-}" ]; then iostats_line+="${iostats_line:+ }$d=${IOSTATS_DEFAULT[$d]}"; fi
	done
	echo "iostats_default: ${iostats_line:-none} (queue/iostats before the lab set it; restored after)"
	if [ "$NULLB_WHERE" = native ]; then echo "nullb_part: $NULLB_PART"; fi
	echo "modules: $(_mod_facts)"
	echo "stat_moved: $(moved) (runs whose target /sys stat counted read I/Os, of all runs with that iostats)"
	echo "guest: $GUEST_STATUS"
	if [ ${#guest_env[@]} -gt 0 ]; then printf '%s\n' "${guest_env[@]}"; fi
} >"$OUT/env.txt"
_scenario_done part-acct "$OUT"
