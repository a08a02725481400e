#!/usr/bin/env bash
# 041: the zram-floor scenario's quick plan (issue 33: a quick run records what the quick notebook
# reads): with LAB_FLAMEGRAPH=1 and --quick, a kernel flamegraph (or the file saying why perf could
# not record one) of randread at numjobs = cores alone, through the bridge and through fio, and of
# no other job; env.txt's quick_leaves_out says so. Every job still runs under both tools with its
# counters. Nothing of the lab is left afterwards. The checks read the files alone, in bash; the
# golden output says what they found.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram
_have_cmd fio perf
_have_bridge
_test_begin
out=$LAB_STATE/out
zrams() { compgen -G '/sys/block/zram*' | sort; }
zrams_before=$(zrams)
cores=$(nproc)

LAB_OUT=$out LAB_FLAMEGRAPH=1 "$LK" run zram-floor --quick 2>"$LAB_STATE/zram-floor.err" ||
	{ tail -n 20 "$LAB_STATE/zram-floor.err" >&2; exit 1; }

yes() { if "$@"; then echo yes; else echo no; fi; }
# flamed NAME: NAME has a kernel flamegraph, or the file saying why perf could not record it
flamed() { [ -s "$out/$1.kernel.collapsed.gz" ] || [ -s "$out/$1.kernel-flamegraph-missing.txt" ]; }

echo "quick_leaves_out names randwrite's and numjobs 1's flamegraphs: $(yes grep -q \
	"^the kernel flamegraphs of randwrite and of numjobs 1 (here: randread at $cores job(s)" <<<"$(sed -n 's/^quick_leaves_out: //p' "$out/env.txt")")"
missing=() extra=() runs=()
for rw in randread randwrite; do
	for n in 1 "$cores"; do
		for tool in bridge fio; do
			name=$rw-j$n.$tool
			[ -s "$out/$name.json" ] && [ -s "$out/$name.perf.csv" ] || runs+=("$name")
			if [ "$rw" = randread ] && [ "$n" = "$cores" ]; then
				flamed "$name" || missing+=("$name")
			elif flamed "$name"; then
				extra+=("$name")
			fi
		done
	done
done
echo "jobs without their run's JSON or counters: ${runs[*]:-none}"
echo "randread at the most jobs without its flamegraph: ${missing[*]:-none}"
echo "flamegraphs of any other job: ${extra[*]:-none}"
echo "registry lines: $(grep -c . "$LAB_REGISTRY" 2>/dev/null || true)"
if [ "$(zrams)" = "$zrams_before" ]; then echo "no zram device left"; else echo "zram devices left: $(zrams)"; fi
