#!/usr/bin/env bash
# 006: up zram:SIZE:ALGO hot-adds a zram device, records it, fills it; down resets and removes it.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram
_have_cmd fio
_test_begin

z=$("$LK" up zram:64M:lz4)
awk -F'\t' -v z="$z" '$1 == "zram" && $2 == z && $3 == "-" { print "registry: zram <name> -" }' "$LAB_REGISTRY"
echo "disksize: $(cat "/sys/block/$z/disksize")"
grep -q '\[lz4\]' "/sys/block/$z/comp_algorithm" && echo "comp_algorithm: lz4"
"$LK" fill "/dev/$z" 50
read -r orig compr _ <"/sys/block/$z/mm_stat"
echo "orig_data_size: $orig"
[ "$compr" -lt "$orig" ] && echo "compressed smaller than original"
# a reader keeps the device busy for a moment: reset must retry, not fail
dd if="/dev/$z" of=/dev/null bs=1M count=64 status=none &
"$LK" down "/dev/$z"
wait
[ ! -e "/sys/block/$z" ] && echo "removed"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
