#!/usr/bin/env bash
# zram-init-lock: the kernel side of the fix "zram-init-lock" (seed 001_8702db15985e6798.txt:
# fio randread / randwrite / randrw on a 1 GiB zram, 4 CPUs, perf stat -r 10, with
# scramble_buffers=0 and zero_buffers because "the data pattern matters").
#
# Today's kernel has no init_lock in zram's I/O path at all, so this measures today's real zram:
# the JVM model's "none" guard, for the jobs the model runs (lab.engine.bench.ZramInitLock).
# For each data pattern (zero, random, compressible50) the zram device is removed and made again
# (the kernel's default compressor; 256 MiB with --quick, 1 GiB without) and filled with that
# pattern, so reads see it; writes use the same pattern (the options are in the job file). Then
# 4k randread, randwrite and randrw (rwmixread=50), O_DIRECT, time based, numjobs 1 and
# numjobs = cores (and 4, the seed's worker count, without --quick, even on fewer cores), each
# through fio (psync), the lab's bridge (psync) and the bridge with io_uring (iodepth 8), under
# perf stat -r REPEATS, with /sys/block stat, mm_stat and io_stat before and after. Job files are
# the fix's examples/zram-init-lock-<rw>.fio with this scenario's overrides (bridge.jar spec
# render: engine, size, runtime, numjobs, data pattern, section name). The tool
# order is reversed from one job to the next (fio bridge bridge-uring, bridge-uring bridge fio,
# ...) so no tool always runs on a warmer device.
#
# With LAB_QUICK=1 the scenario runs what a quick run's notebook reads, and no more (issue 33):
# the patterns zero (the seed's, and the calibration's) and compressible50 (the two the quick JVM
# sweep runs), numjobs 1 only (the model's `none` beside the kernel, and the calibration, are at
# one job), fio on every (rw, pattern), the bridge and bridge-uring at the seed's job alone
# (randrw-zero-j1: the tools side by side), and the flamegraph (LAB_FLAMEGRAPH=1) of
# randrw-compressible50-j1 through fio alone: 8 runs, not 54. env.txt's quick_leaves_out says
# what that leaves out; the notebook says it once.
#
# Writes into $LAB_OUT (required), the zram-floor contract: job-<rw>-<pattern>-j<N>.fio (fio and
# the bridge), job-<rw>-<pattern>-j<N>.uring.fio (the bridge with io_uring, where it runs),
# <rw>-<pattern>-j<N>.<tool>.json (tool: fio, bridge, bridge-uring), .perf.csv,
# .before/.after .stat/.mm_stat/.io_stat, <pattern>.fill.mm_stat (mm_stat after the fill: the
# pattern's compression ratio), perf-missing.txt, env.txt; with LAB_FLAMEGRAPH=1 also
# <rw>-compressible50-j<max>.{fio,bridge}.kernel.collapsed.gz/.svg. Environment: LAB_QUICK=1
# (2 s runs, 256 MiB, the quick plan above), LAB_REPEATS (perf stat -r, default 3, 1 quick), LAB_FLAMEGRAPH=1,
# LAB_JDK (common/jvm.sh).
set -euo pipefail

KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../../common/rc.sh
. "$KS_DIR/common/rc.sh"

OUT=${LAB_OUT:?LAB_OUT must name the output folder}
QUICK=${LAB_QUICK:-0}
if [ "$QUICK" = 1 ]; then RUNTIME=2; SIZE=256M; REPEATS=${LAB_REPEATS:-1}; else RUNTIME=3; SIZE=1G; REPEATS=${LAB_REPEATS:-3}; fi
CORES=$(nproc)
PATTERNS=(zero random compressible50)
RWS=(randread randwrite randrw)
URING_DEPTH=8
SEED_JOB=randrw-zero-j1 # the seed's job at one job: the calibration's, and quick's one bridge job
if [ "$QUICK" = 1 ]; then PATTERNS=(zero compressible50); fi
_scenario_traps

_driver_native zram || { _lab_msg "zram-init-lock: zram is not in this kernel"; exit 1; }
_lab_jvm_init
mkdir -p "$OUT"

# numjobs: 1 and the cores, plus the seed's 4 without --quick (1 alone with it); each once, ascending
NUMJOBS=()
wanted=(1)
if [ "$QUICK" != 1 ]; then wanted+=("$CORES" 4); fi
for n in "${wanted[@]}"; do
	[[ " ${NUMJOBS[*]} " == *" $n "* ]] || NUMJOBS+=("$n")
done
mapfile -t NUMJOBS < <(printf '%s\n' "${NUMJOBS[@]}" | sort -n)
NMAX=${NUMJOBS[${#NUMJOBS[@]} - 1]}

# pattern_opts PATTERN: set PATTERN_ARGS to the overrides that make fio and the bridge write
# PATTERN (the data _fill PATTERN leaves on the device). scramble_buffers=0 as in the seed: writes
# are the pattern as it is (refill_buffers and buffer_compress_percentage make scrambling moot
# anyway). The example has the seed's zero_buffers; the other patterns drop it.
pattern_opts() {
	case $1 in
	zero) PATTERN_ARGS=(--set zero_buffers --set scramble_buffers=0) ;;
	random) PATTERN_ARGS=(--unset zero_buffers --set refill_buffers --set scramble_buffers=0) ;;
	compressible50)
		PATTERN_ARGS=(--unset zero_buffers --set buffer_compress_percentage=50 --set refill_buffers --set scramble_buffers=0)
		;;
	*) _lab_msg "zram-init-lock: unknown pattern $1"; return 1 ;;
	esac
}

# job RW PATTERN N ENGINE: the job file, derived from the fix's example for RW
# (examples/zram-init-lock-RW.fio: the seed's rw, 4k, O_DIRECT, group_reporting) with this
# scenario's choices: ENGINE at iodepth 1 (psync) or URING_DEPTH (io_uring), the device's size,
# RUNTIME seconds time based, N jobs, PATTERN's data keys, the section named RW-PATTERN-jN, and
# for randrw rwmixread=50 (fio's default, said outright). The filename is given on the command line.
job() {
	local rw=$1 pat=$2 n=$3 engine=$4 depth=1 mix=()
	[ "$engine" = io_uring ] && depth=$URING_DEPTH
	if [ "$rw" = randrw ]; then mix=(--set rwmixread=50); fi
	pattern_opts "$pat"
	_job_render "zram-init-lock-$rw.fio" --set "ioengine=$engine" --set "iodepth=$depth" "${mix[@]}" \
		--set "size=$SIZE" --set "runtime=${RUNTIME}s" --set time_based "${PATTERN_ARGS[@]}" \
		--set "numjobs=$n" --name "$rw-$pat-j$n"
}

# the zram device: one at a time, re-made for every pattern so each starts from empty
zram=
zram_remake() {
	if [ -n "$zram" ]; then
		_made_remove || { _lab_msg "zram-init-lock: could not remove $zram"; exit 1; }
	fi
	zram=$(_zram_add "$SIZE")
	MADE+=("zram $zram")
}

# run_tool NAME TOOL FLAME: NAME is <rw>-<pattern>-j<N>; FLAME 1 adds a kernel flamegraph run
run_tool() {
	local name=$1 tool=$2 flame=$3 dev=/dev/$zram
	case $tool in
	fio)
		_counted "$OUT" "$name.fio" "$dev" "$REPEATS" \
			fio --output-format=json --output="$OUT/$name.fio.json" --filename="$dev" "$OUT/job-$name.fio"
		if [ "$flame" = 1 ]; then
			_kernel_flamegraph "$OUT" "$name.fio" \
				fio --output-format=json --output="$FLAME_TMP/x.json" --filename="$dev" "$OUT/job-$name.fio"
		fi
		;;
	bridge)
		_counted "$OUT" "$name.bridge" "$dev" "$REPEATS" \
			"${LAB_BRIDGE[@]}" run "$OUT/job-$name.fio" --filename "$dev" --output "$OUT/$name.bridge.json"
		if [ "$flame" = 1 ]; then
			_kernel_flamegraph "$OUT" "$name.bridge" \
				"${LAB_BRIDGE[@]}" run "$OUT/job-$name.fio" --filename "$dev" --output "$FLAME_TMP/x.json"
		fi
		;;
	bridge-uring)
		_counted "$OUT" "$name.bridge-uring" "$dev" "$REPEATS" \
			"${LAB_BRIDGE[@]}" run "$OUT/job-$name.uring.fio" --filename "$dev" --output "$OUT/$name.bridge-uring.json"
		;;
	esac
}

# tools NAME: the tools that run job NAME (<rw>-<pattern>-j<N>), in the order K (the job's index)
# gives: all three, reversed from one job to the next; with LAB_QUICK=1 fio alone but on SEED_JOB
tools() {
	if [ "$QUICK" = 1 ] && [ "$1" != "$SEED_JOB" ]; then echo fio; return; fi
	if [ $((k % 2)) -eq 0 ]; then echo "fio bridge bridge-uring"; else echo "bridge-uring bridge fio"; fi
}

# flame_wanted RW PATTERN N: 1 where the job gets kernel flamegraphs (LAB_FLAMEGRAPH=1): compressible50
# at the most jobs, every rw; with LAB_QUICK=1 randrw alone
flame_wanted() {
	if [ "$2" != compressible50 ] || [ "$3" != "$NMAX" ] || { [ "$QUICK" = 1 ] && [ "$1" != randrw ]; }; then echo 0; else echo 1; fi
}

k=0
algo=
for pat in "${PATTERNS[@]}"; do
	zram_remake
	algo=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$zram/comp_algorithm")
	_lab_msg "zram-init-lock: $pat: filling $zram ($SIZE, $algo)"
	_fill "/dev/$zram" "$pat"
	cat "/sys/block/$zram/mm_stat" >"$OUT/$pat.fill.mm_stat"
	for rw in "${RWS[@]}"; do
		for n in "${NUMJOBS[@]}"; do
			name=$rw-$pat-j$n
			order=$(tools "$name")
			job "$rw" "$pat" "$n" psync >"$OUT/job-$name.fio"
			if [[ " $order " == *" bridge-uring "* ]]; then job "$rw" "$pat" "$n" io_uring >"$OUT/job-$name.uring.fio"; fi
			flame=$(flame_wanted "$rw" "$pat" "$n")
			for tool in $order; do
				_lab_msg "zram-init-lock: $rw, $pat, $n job(s), $tool"
				run_tool "$name" "$tool" "$flame"
			done
			k=$((k + 1))
		done
	done
done

{
	echo "environment: native"
	echo "kernel: $(uname -r)"
	echo "device: zram ($algo, $SIZE, removed, made again and filled with each pattern before its jobs)"
	echo "cores: $CORES"
	echo "perf_repeats: $REPEATS"
	echo "patterns: ${PATTERNS[*]}"
	if [ "$QUICK" = 1 ]; then
		echo "numjobs: ${NUMJOBS[*]}"
	else
		echo "numjobs: ${NUMJOBS[*]} (4 is the seed's worker count, run even on $CORES cores)"
	fi
	echo "rw: ${RWS[*]} (randrw: rwmixread=50)"
	if [ "$QUICK" = 1 ]; then
		echo "tools: fio (psync); bridge (psync) and bridge-uring (io_uring, iodepth $URING_DEPTH) on $SEED_JOB only"
		more=$(printf '%s\n' "$CORES" 4 | sort -nu | grep -vx 1 | paste -sd' ' -)
		echo "quick_leaves_out: the random pattern, numjobs ${more// / and } (the cores and the seed's 4 workers), and the bridge and bridge-uring on every job but $SEED_JOB (the seed's)"
	else
		echo "tools: fio (psync), bridge (psync), bridge-uring (io_uring, iodepth $URING_DEPTH)"
	fi
	echo "runtime_s: $RUNTIME"
	echo "compressible50: buffer_compress_percentage=50, refill_buffers, fio's default 512-byte buffer_compress_chunk (the bridge accepts no buffer_compress_chunk; the JVM model uses 512-byte chunks too)"
} >"$OUT/env.txt"
_lab_msg "zram-init-lock: done, results in $OUT"
