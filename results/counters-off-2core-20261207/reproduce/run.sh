#!/bin/bash
# counters-off A/B: the engine's benchmarks from the jar before issue 55's counters (7798586e) against
# HEAD's (counters off: SharedLines.NONE) and HEAD's against itself (A/A), rounds of the 12 cells
# in a seeded random order, one JMH fork each.
set -euo pipefail
OUT=$1 OLD=$2 NEW=$3 ROUNDS=${ROUNDS:-5}
J=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java # a JDK 25
mkdir -p "$OUT/raw"
cells_all=(
 "dm-css-ref|lab\.engine\.bench\.DmCssRef\.io$|-p variant=atomic"
 "part-acct|lab\.engine\.bench\.PartAcct\.io$|-p variant=atomic -p target=part"
 "thin-bufio-lock|lab\.engine\.bench\.ThinBufioLock\.io$|-p variant=mutex"
 "zram-init-lock|lab\.engine\.bench\.ZramInitLock\.io$|-p guard=rwsem -p rw=randrw -p pattern=zero"

)
cells=()
for c in "${cells_all[@]}"; do [[ -z "${ONLY:-}" || $c == "$ONLY|"* ]] && cells+=("$c"); done
printf 'round\tslot\tfix\tside\tfile\n' > "$OUT/raw/trials.tsv"
for ((r=1; r<=ROUNDS; r++)); do
  mapfile -t order < <(for c in "${!cells[@]}"; do for s in old new aa; do echo "$c $s"; done; done | shuf --random-source=<(yes "$r"))
  slot=0
  for o in "${order[@]}"; do
    read -r c s <<<"$o"; IFS='|' read -r fix re params <<<"${cells[$c]}"
    jar=$NEW; [ "$s" = old ] && jar=$OLD
    slot=$((slot+1)); f=raw/$fix-$s-r$r.json
    # shellcheck disable=SC2086
    $J --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -jar "$jar" "$re" $params -p baseNs=0 -t "${THREADS:-2}" \
      -f 1 -wi 3 -w 300ms -i 5 -r 300ms -rf json -rff "$OUT/$f" > "$OUT/raw/$fix-$s-r$r.log" 2>&1
    printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$slot" "$fix" "$s" "$f" >> "$OUT/raw/trials.tsv"
  done
done
