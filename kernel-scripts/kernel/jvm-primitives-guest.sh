#!/usr/bin/env bash
# kernel/jvm-primitives-guest.sh: the JVM model's primitives, INSIDE the guest booted on the lab
# kernel (started by kernel/refscale.sh through guest/guest.sh run, under busybox sh, then re-run
# under bash), on the same vCPUs refscale's readers had: JMH's Primitives.getPut of the kinds that
# match refscale's types, on a shared and a private line, at each thread count, and after it
# Primitives.baseline (the harness alone, refscale's empty type's twin): per round, per kind, one
# JVM (lab.engine.bench.PrimitivesByKind: JMH in that JVM, a run a benchmark and thread count).
#
# Reads $OUT/jvm.params (kinds, lines, threads, rounds, jmh: warm-ups, their ms, iterations, their
# ms) and runs /mnt/in/bridge/benchmarks.jar on the jlink'd runtime guest.sh staged
# (/mnt/in/bridge/jre), a JVM at a time with common/jvm.sh's retries. Leaves in $OUT:
# jvm-guest-KIND-rR-tT.json and jvm-guest-KIND-baseline-rR-tT.json (JMH's), jvm-guest-KIND-rR.log,
# jvm-guest.txt (key: value: the runtime, the CPUs online, each JVM's wall time, its crashes),
# crashes/ where a JVM crashed.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail
OUT=${OUT:-/mnt/out}
KS=/mnt/in/ks
if [ ! -r "$OUT/jvm.params" ] || [ ! -r "$KS/common/rc.sh" ]; then
	echo "jvm-primitives-guest: runs inside the lab guest VM (kernel/refscale.sh)" >&2
	exit 1
fi
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS/common/rc.sh"
_lab_guest_jvm_init "$OUT"
# param KEY: KEY=VALUE of jvm.params
param() { sed -n "s/^$1=//p" "$OUT/jvm.params"; }
read -r -a threads <<<"$(param threads)"
read -r -a jmh <<<"$(param jmh)"
rounds=$(param rounds)
IFS=, read -r -a kinds <<<"$(param kinds)"
for ((r = 1; r <= rounds; r++)); do
	for k in "${kinds[@]}"; do
		_lab_jvm_tries "$OUT" "jvm-guest-$k-r$r" -Xmx256m -cp "$LAB_BENCHMARKS_JAR" lab.engine.bench.PrimitivesByKind "$k" \
			"$(param lines)" "$(IFS=,; echo "${threads[*]}")" "$OUT/jvm-guest" "$r" "${jmh[@]}"
	done
done
