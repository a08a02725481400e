#!/usr/bin/env bash
# kernel/jvm-primitives-guest.sh: the JVM model's primitives, INSIDE the guest booted on the lab
# kernel (started by kernel/refscale.sh through guest/guest.sh run, under busybox sh, then re-run
# under bash), on the same vCPUs refscale's readers had: JMH's Primitives.getPut of the kinds that
# match refscale's types, on a shared and a private line, at each thread count: per round, per
# kind, one JVM (lab.engine.bench.PrimitivesByKind: JMH in that JVM, a run a thread count).
#
# Reads $OUT/jvm.params (kinds, lines, threads, rounds, jmh: warm-ups, their ms, iterations, their
# ms) and runs /mnt/in/bridge/benchmarks.jar on the jlink'd runtime guest.sh staged
# (/mnt/in/bridge/jre). Leaves in $OUT: jvm-guest-KIND-rR-tT.json (JMH's), jvm-guest.txt (key:
# value: the runtime, the CPUs online, each JVM's wall time).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail
OUT=${OUT:-/mnt/out}
B=/mnt/in/bridge
[ -r "$OUT/jvm.params" ] || { echo "jvm-primitives-guest: runs inside the lab guest VM (kernel/refscale.sh)" >&2; exit 1; }
if [ ! -x "$B/jre/bin/java" ] || [ ! -r "$B/benchmarks.jar" ]; then
	echo "jvm-primitives-guest: no runtime or benchmarks.jar staged in $B (guest.sh stage_bridge)" >&2
	exit 1
fi
# param KEY: KEY=VALUE of jvm.params
param() { sed -n "s/^$1=//p" "$OUT/jvm.params"; }
read -r -a threads <<<"$(param threads)"
read -r -a jmh <<<"$(param jmh)"
rounds=$(param rounds)
# JMH's runner and its fork talk over a loopback socket: the guest boots with lo down
if command -v ip >/dev/null; then ip link set lo up; else ifconfig lo 127.0.0.1 up; fi
export LD_LIBRARY_PATH=$B/lib
java=$B/jre/bin/java
{
	echo "java: $("$java" -version 2>&1 | head -n 1)"
	echo "cpus_online: $(cat /sys/devices/system/cpu/online)"
	echo "nproc: $(nproc)"
} >"$OUT/jvm-guest.txt"
IFS=, read -r -a kinds <<<"$(param kinds)"
for ((r = 1; r <= rounds; r++)); do
	for k in "${kinds[@]}"; do
		t0=$(cut -d' ' -f1 /proc/uptime)
		log=$OUT/jvm-guest-$k-r$r.log
		# a JVM that crashes (measured: a SIGSEGV in C1 code at 2 threads, 1 JVM in 4: multi-threaded
		# TCG and a JIT's cross-modified code) runs again, up to 3 times; each crash's hs_err header
		# is kept in crashes/ and counted in jvm-guest.txt
		for try in 1 2 3; do
			if "$java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Xmx256m -XX:-CreateCoredumpOnCrash -XX:ErrorFile="$OUT/hs_err.log" \
				-cp "$B/benchmarks.jar" lab.engine.bench.PrimitivesByKind "$k" "$(param lines)" "$(IFS=,; echo "${threads[*]}")" \
				"$OUT/jvm-guest" "$r" "${jmh[@]}" >"$log" 2>&1; then
				break
			fi
			mkdir -p "$OUT/crashes"
			if [ -f "$OUT/hs_err.log" ]; then head -n 40 "$OUT/hs_err.log" >"$OUT/crashes/$k-r$r-try$try.txt"; rm -f "$OUT/hs_err.log"; fi
			tail -n 5 "$log" >>"$OUT/crashes/$k-r$r-try$try.txt"
			echo "jvm_crash: $k round $r try $try" >>"$OUT/jvm-guest.txt"
			[ "$try" -lt 3 ] || { tail -n 20 "$log" >&2; exit 1; }
		done
		echo "jvm_${k}_r${r}_wall_s: $(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }')" >>"$OUT/jvm-guest.txt"
	done
done
