#!/usr/bin/env bash
# kernel/jmh-guest.sh: INSIDE the guest (kernel/jmh.sh boots it through guest/guest.sh run, under
# busybox sh, then re-run under bash): each $OUT/runs-*.txt in one JVM of its own, in file-name
# order: lab.engine.bench.JmhBatch on the staged benchmarks.jar, each run's JSON into
# $OUT/NAME.json, a JVM retried as common/jvm.sh's _lab_jvm_tries says, started on CPU 0 alone and
# widened to every vCPU after its file's first run. Then, where the app wrote one,
# $OUT/contention-runs.txt in one JVM more: lab.engine.bench.ContentionMain, the model's
# contention counts of the sweep's cells (its first line a warm-up, as a runs file's), each
# line's JSON into $OUT/NAME.json.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail
OUT=${OUT:-/mnt/out}
KS=/mnt/in/ks
if [ ! -r "$KS/common/rc.sh" ]; then
	echo "jmh-guest: runs inside the lab guest VM (kernel/jmh.sh)" >&2
	exit 1
fi
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS/common/rc.sh"
_lab_guest_jvm_init "$OUT"
# each JVM starts on CPU 0 alone and JmhBatch widens it to every vCPU online after the file's first
# run (a warm-up not read): under multi-threaded TCG a JVM crashed in its first compiled code in 6 of
# 22 starts on 2 vCPUs, and in 0 of 8 started so (measured; JmhBatch's comment says more)
cpus=$(cat /sys/devices/system/cpu/online)
widen=()
if [ "$cpus" != 0 ]; then
	export LAB_JVM_TASKSET=0
	widen=(--cpus-after-first "$cpus")
fi
echo "jvm_cpus: the first run of a file on CPU 0 alone, the rest on $cpus" >>"$OUT/jvm-guest.txt"
for f in "$OUT"/runs-*.txt; do
	name=$(basename "$f" .txt)
	_lab_jvm_tries "$OUT" "jvm-$name" -Xmx512m -cp "$LAB_BENCHMARKS_JAR" lab.engine.bench.JmhBatch "$f" "$OUT" "${widen[@]}"
done
if [ -f "$OUT/contention-runs.txt" ]; then
	_lab_jvm_tries "$OUT" jvm-contention -Xmx512m -cp "$LAB_BENCHMARKS_JAR" lab.engine.bench.ContentionMain "$OUT/contention-runs.txt" \
		"$OUT" "${widen[@]}"
fi
