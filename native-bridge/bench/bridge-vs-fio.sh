#!/usr/bin/env bash
# bridge-vs-fio.sh: the bridge beside fio, on the same job files and one zram device.
#
# Makes a zram device of its own (hot_add; never touches one it did not add), fills it
# with half-compressible data, then runs every row's repetitions as fio, bridge, fio again:
# the second fio run (tool "fio-aa") is the A/A control, fio against itself with the bridge
# between, and the two fio runs swap places every other repetition. Writes results/<id>/ with
# raw JSON, the job files, a manifest and NOTEBOOK.md (via ./lab bench report bridge-vs-fio).
# The device is reset and removed on exit, whatever happens.
#
#   native-bridge/bench/bridge-vs-fio.sh [--reps N] [--runtime SEC] [--size SIZE] [--id ID] [--c1]
#
# Rows: 4k randread, direct, io_uring at iodepth 1, 32, and 32 with fixedbufs and
# registerfiles; psync; libaio at iodepth 1 and 32; each at 1 and 2 jobs; ramp_time 2 s, then
# the measured runtime. --c1 also runs the iodepth-32 io_uring rows with a C1-only JVM
# (LAB_JAVA_OPTS=-XX:TieredStopAtLevel=1, tool "bridge-c1"), the diagnostic of
# results/bridge-vs-fio-zram-20261130.
# Each command also runs under /usr/bin/time, for its whole-process CPU (startup,
# ramp and the io-wq kernel workers of its rings included).
set -euo pipefail

reps=3
runtime=5
size=1G
id=bridge-vs-fio-$(date -u +%Y%m%d-%H%M%S)
c1=0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cmdline="native-bridge/bench/bridge-vs-fio.sh $*"

while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=$2; shift 2 ;;
	--runtime) runtime=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--id) id=$2; shift 2 ;;
	--c1) c1=1; shift ;;
	*) echo "usage: $0 [--reps N] [--runtime SEC] [--size SIZE] [--id ID] [--c1]" >&2; exit 2 ;;
	esac
done

[ "$(id -u)" -eq 0 ] || { echo "$0: needs root (it makes a zram device)" >&2; exit 2; }
command -v fio >/dev/null || { echo "$0: needs fio (apt-get install fio)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "$0: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
# shellcheck source=native-bridge/bench/zram-bench.sh
. "$here/zram-bench.sh"
run_start "$root" "$id"
zram_add "$size"
echo "$0: filling $dev ($size, half-compressible)" >&2
zram_fill "$raw/fill-fio.json"
zram_describe >"$raw/device.txt"

# job ROW DESCRIPTION KEY=VALUE...: a job file both fio and the bridge run as it is.
: >"$raw/rows.tsv"
job() {
	local row=$1 desc=$2
	shift 2
	{
		echo "; $desc"
		echo "[global]"
		echo "rw=randread"
		echo "bs=4k"
		echo "direct=1"
		echo "size=$size"
		echo "ramp_time=2"
		echo "runtime=$runtime"
		echo "time_based=1"
		printf '%s\n' "$@"
		echo "[$row]"
	} >"$raw/jobs/$row.fio"
	printf '%s\t%s\n' "$row" "$desc" >>"$raw/rows.tsv"
}
for n in 1 2; do
	job "uring-qd1-j$n" "io_uring iodepth 1, $n job(s)" ioengine=io_uring iodepth=1 numjobs=$n
	job "uring-qd32-j$n" "io_uring iodepth 32, $n job(s)" ioengine=io_uring iodepth=32 numjobs=$n
	job "uring-qd32-fixed-j$n" "io_uring iodepth 32 fixedbufs registerfiles, $n job(s)" \
		ioengine=io_uring iodepth=32 fixedbufs=1 registerfiles=1 numjobs=$n
	job "psync-j$n" "psync, $n job(s)" ioengine=psync iodepth=1 numjobs=$n
	job "libaio-qd1-j$n" "libaio iodepth 1, $n job(s)" ioengine=libaio iodepth=1 numjobs=$n
	job "libaio-qd32-j$n" "libaio iodepth 32, $n job(s)" ioengine=libaio iodepth=32 numjobs=$n
done

# timed ROW REP TOOL CMD...: CMD under /usr/bin/time into ROW-rREP-TOOL.time (user sys wall).
timed() {
	local out=$raw/$1-r$2-$3.time
	shift 3
	/usr/bin/time -f '%U %S %e' -o "$out" "$@"
}
# run_fio ROW REP [TOOL]: TOOL fio (default) or fio-aa, the A/A's second run
run_fio() {
	local tool=${3:-fio}
	timed "$1" "$2" "$tool" fio --output-format=json --output="$raw/$1-r$2-$tool.json" --filename="$dev" \
		"$raw/jobs/$1.fio" >/dev/null
}
# run_bridge ROW REP [TOOL JAVA_OPTS]
run_bridge() {
	local tool=${3:-bridge}
	LAB_JAVA_OPTS=${4:-} timed "$1" "$2" "$tool" "$root/lab" bridge run "$raw/jobs/$1.fio" --filename "$dev" \
		--output "$raw/$1-r$2-$tool.json" 2> >(sed "s#$root/##g" >>"$raw/bridge-stderr.log")
}
run_bridges() {
	run_bridge "$1" "$2"
	case $c1:$1 in 1:uring-qd32*) run_bridge "$1" "$2" bridge-c1 -XX:TieredStopAtLevel=1 ;; esac
}

cut -f1 "$raw/rows.tsv" | while read -r row; do
	for rep in $(seq 1 "$reps"); do
		echo "$0: $row, repetition $rep/$reps" >&2
		if [ $((rep % 2)) -eq 1 ]; then
			run_fio "$row" "$rep"
			run_bridges "$row" "$rep"
			run_fio "$row" "$rep" fio-aa
		else
			run_fio "$row" "$rep" fio-aa
			run_bridges "$row" "$rep"
			run_fio "$row" "$rep"
		fi
	done
done

zram_remove
"$root/lab" bench report bridge-vs-fio "$work" --command "$cmdline"
run_commit "$root" "$id"
echo "$0: wrote results/$id" >&2
