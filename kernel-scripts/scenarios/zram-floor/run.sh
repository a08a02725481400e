#!/usr/bin/env bash
# zram-floor: today's real zram as the per-I/O cost floor (the calibration entry of `./lab pair`).
#
# One zram device (the kernel's default compressor; 256 MiB, 1 GiB without --quick), filled
# once 50% compressible; then 4k randread and randwrite, psync, O_DIRECT, numjobs 1 and
# numjobs = cores, each through the lab's bridge and through fio, under perf stat -r REPEATS,
# with /sys/block stat and mm_stat before and after. Tools alternate (bridge, fio, fio,
# bridge, ...) so neither always runs on a warmer device.
#
# Writes into $LAB_OUT (required; `./lab pair` gives raw/<fix>/kernel): job-<rw>-j<N>.fio,
# <rw>-j<N>.<tool>.json (fio JSON / the bridge's fio-style JSON), .perf.csv, .before/.after
# .stat/.mm_stat/.io_stat, perf-missing.txt, env.txt. Environment: LAB_QUICK=1 (2 s runs),
# LAB_REPEATS (perf stat -r, default 3, 1 quick), LAB_FLAMEGRAPH=1 (a kernel flamegraph of each
# job and tool; quick: of randread at numjobs = cores alone, the bridge's and fio's, and env.txt's
# quick_leaves_out says so: 6 of 8 flamegraph runs of about 3.5 s each), LAB_JDK (common/jvm.sh).
set -euo pipefail

KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../../common/rc.sh
. "$KS_DIR/common/rc.sh"

OUT=${LAB_OUT:?LAB_OUT must name the output folder}
QUICK=${LAB_QUICK:-0}
if [ "$QUICK" = 1 ]; then RUNTIME=2; SIZE=256M; REPEATS=${LAB_REPEATS:-1}; else RUNTIME=5; SIZE=1G; REPEATS=${LAB_REPEATS:-3}; fi
CORES=$(nproc)
_scenario_traps

_driver_native zram || { _lab_msg "zram-floor: zram is not in this kernel"; exit 1; }
_lab_jvm_init
mkdir -p "$OUT"

# job RW N: the job file both tools run (the filename is given on the command line)
job() {
	cat <<JOB
; zram-floor: 4k $1, psync, O_DIRECT, $2 job(s), ${RUNTIME}s
[global]
rw=$1
bs=4k
direct=1
ioengine=psync
size=$SIZE
runtime=${RUNTIME}s
time_based
group_reporting

[$1-j$2]
numjobs=$2
JOB
}

zram=$(_zram_add "$SIZE")
MADE+=("zram $zram")
_fill "/dev/$zram" 50
{
	echo "environment: native"
	echo "kernel: $(uname -r)"
	echo "device: zram ($(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$zram/comp_algorithm"), $SIZE, filled 50% compressible)"
	echo "cores: $CORES"
	echo "perf_repeats: $REPEATS"
	if [ "$QUICK" = 1 ] && [ "${LAB_FLAMEGRAPH:-0}" = 1 ]; then
		echo "quick_leaves_out: the kernel flamegraphs of randwrite and of numjobs 1 (here: randread at $CORES job(s), the bridge's and fio's)"
	fi
} >"$OUT/env.txt"

# flame RW N: whether the kernel flamegraph of RW at N jobs is recorded (LAB_FLAMEGRAPH=1): every
# job's in a full run; a quick one's only randread at the most jobs
flame() {
	[ "${LAB_FLAMEGRAPH:-0}" = 1 ] || return 1
	[ "$QUICK" != 1 ] || { [ "$1" = randread ] && [ "$2" = "$CORES" ]; }
}

run_tool() {  # NAME TOOL FLAME(0|1)
	local name=$1 tool=$2 dev=/dev/$zram
	local LAB_FLAMEGRAPH=$3
	case $tool in
	bridge)
		_counted "$OUT" "$name.bridge" "$dev" "$REPEATS" "${LAB_BRIDGE[@]}" run "$OUT/job-$name.fio" --filename "$dev" --output "$OUT/$name.bridge.json"
		_kernel_flamegraph "$OUT" "$name.bridge" "${LAB_BRIDGE[@]}" run "$OUT/job-$name.fio" --filename "$dev" --output "$FLAME_TMP/x.json"
		;;
	fio)
		_counted "$OUT" "$name.fio" "$dev" "$REPEATS" \
			fio --output-format=json --output="$OUT/$name.fio.json" --filename="$dev" "$OUT/job-$name.fio"
		_kernel_flamegraph "$OUT" "$name.fio" \
			fio --output-format=json --output="$FLAME_TMP/x.json" --filename="$dev" "$OUT/job-$name.fio"
		;;
	esac
}

k=0
for rw in randread randwrite; do
	for n in 1 "$CORES"; do
		[ -e "$OUT/job-$rw-j$n.fio" ] && continue # one core: numjobs 1 only once
		job "$rw" "$n" >"$OUT/job-$rw-j$n.fio"
		if [ $((k % 2)) -eq 0 ]; then order="bridge fio"; else order="fio bridge"; fi
		for tool in $order; do
			_lab_msg "zram-floor: $rw, $n job(s), $tool"
			if flame "$rw" "$n"; then run_tool "$rw-j$n" "$tool" 1; else run_tool "$rw-j$n" "$tool" 0; fi
		done
		k=$((k + 1))
	done
done
