#!/bin/bash
# The raw thin model's fork-to-fork CV, one thread, with its RAM disk's pages as 4 KiB allocations from
# a JVM arena (BEFORE: benchmarks.jar built at 407c2dc) and as one mapping advised for huge pages
# (AFTER: built at the commit that adds lab.engine.block.DirectMap): two invocations of thin (striped,
# mutex) and one of dm-linear over the same disk each, 6 forks per invocation, 2 x 500 ms warm-up and
# 5 x 500 ms measured, without base. Usage: run-page-memory.sh BEFORE.jar AFTER.jar; then
# python3 pagecv.py. The script that made raw/page-memory ran the two jars one after the other
# (before at 08:14-08:18, after at 08:18-08:21 UTC).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
J=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
out=$here/raw/page-memory
mkdir -p "$out"
flags=(--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow)
for tag in before after; do
  jar=$1; [ "$tag" = after ] && jar=$2
  for rep in 1 2; do
    "$J" "${flags[@]}" -jar "$jar" 'lab\.engine\.bench\.ThinBufioLock\.io$' -f 6 -wi 2 -w 500ms -i 5 -r 500ms -t 1 \
      -p variant=striped,mutex -p target=thin -p cache=whole -p baseNs=0 -p userNs=0 -jvmArgs "${flags[*]}" \
      -rf json -rff "$out/$tag-thin-$rep.json" > "$out/$tag-thin-$rep.log" 2>&1
  done
  "$J" "${flags[@]}" -jar "$jar" 'lab\.engine\.bench\.ThinBufioLock\.io$' -f 6 -wi 2 -w 500ms -i 5 -r 500ms -t 1 \
    -p variant=mutex -p target=linear -p cache=whole -p baseNs=0 -p userNs=0 -jvmArgs "${flags[*]}" \
    -rf json -rff "$out/$tag-linear.json" > "$out/$tag-linear.log" 2>&1
done
