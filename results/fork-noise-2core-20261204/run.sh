#!/bin/bash
# Fork-to-fork CV of the calibrated model, each fork calibrating its own CPU work (A, the lab before
# the change) against the run's one ns per token given to every fork (B, -Dlab.work.nsPerToken),
# interleaved A B A B A B: dm-css-ref at the seed's depth (percpu, atomic) and thin-bufio-lock,
# whole tree cached (mutex, striped), 2 threads, each at its committed run's calibration, 4 forks
# per invocation, 2 x 500 ms warm-up and 5 x 500 ms measured per fork. Run from the repository root
# after `./lab test` (or any build) made jvm-engine/target/benchmarks.jar; then python3 forkcv.py.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
J=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
JAR=jvm-engine/target/benchmarks.jar
mkdir -p "$here/raw"
NPT=$("$J" -cp "$JAR" "$here/NptOnce.java" 2>/dev/null)
echo "ns per token for the run: $NPT" | tee "$here/raw/ns-per-token.txt"
flags="--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
for rep in 1 2 3; do
  for cfg in A B; do
    extra=""; [ "$cfg" = B ] && extra="-Dlab.work.nsPerToken=$NPT"
    "$J" $flags -jar "$JAR" 'lab\.engine\.bench\.DmCssRef\.io$' -f 4 -wi 2 -w 500ms -i 5 -r 500ms -t 2 \
      -p variant=percpu,atomic -p depth=5 -p device=ram -p inject=none -p baseNs=5473 -p userNs=468 \
      -jvmArgs "$flags $extra" -rf json -rff "$here/raw/dm-$cfg-$rep.json" > "$here/raw/dm-$cfg-$rep.log" 2>&1
    "$J" $flags -jar "$JAR" 'lab\.engine\.bench\.ThinBufioLock\.io$' -f 4 -wi 2 -w 500ms -i 5 -r 500ms -t 2 \
      -p variant=mutex,striped -p target=thin -p cache=whole -p baseNs=2482 -p userNs=115 \
      -jvmArgs "$flags $extra" -rf json -rff "$here/raw/thin-$cfg-$rep.json" > "$here/raw/thin-$cfg-$rep.log" 2>&1
    echo "done $cfg $rep $(date +%T)"
  done
done
