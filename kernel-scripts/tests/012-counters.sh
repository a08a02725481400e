#!/usr/bin/env bash
# 012: the counters helper runs a workload under perf stat and snapshots the device's stats.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram
_have_cmd perf fio
_test_begin

out=$LAB_STATE/out
mkdir -p "$out"
z=$("$LK" up zram:32M)
"$LK" fill "/dev/$z" zero
_counted "$out" w "/dev/$z" 2 fio --name=w --filename="/dev/$z" --rw=randread --bs=4k --direct=1 \
	--size=32M --runtime=1 --time_based --output=/dev/null
for ev in task-clock context-switches cpu-migrations page-faults; do
	grep -q ",$ev," "$out/w.perf.csv" && echo "perf: $ev"
done
for f in "$out"/w.*; do basename "$f"; done
[ -f "$out/perf-missing.txt" ] && echo "perf-missing.txt present"
read -r -a b <"$out/w.before.stat"
read -r -a a <"$out/w.after.stat"
[ "${a[0]}" -gt "${b[0]}" ] && echo "reads counted in stat"
[ "$(wc -w <"$out/w.after.mm_stat")" -ge 7 ] && echo "mm_stat has its fields"
