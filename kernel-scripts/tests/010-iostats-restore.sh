#!/usr/bin/env bash
# 010: iostats 0 on a lab device records the old value; cleanup restores it.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver loop
_test_begin

l=$("$LK" up loop:32M)
path=/sys/block/${l#/dev/}/queue/iostats
old=$(cat "$path")
echo "old: $old"
"$LK" iostats "$l" 0
echo "now: $(cat "$path")"
"$LK" iostats "$l" 0
awk -F'\t' -v p="$path" '$1 == "sysfs" && $2 == p { n++; v = $3 } END { print "registry: sysfs lines " n ", old value " v }' "$LAB_REGISTRY"
"$LK" cleanup
echo "restored: $(cat "$path")"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
