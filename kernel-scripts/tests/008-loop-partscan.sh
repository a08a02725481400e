#!/usr/bin/env bash
# 008: loop:SIZE:partscan with a partition table shows the partition; down removes both.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver loop
if command -v sfdisk >/dev/null 2>&1; then tool=sfdisk
elif command -v parted >/dev/null 2>&1; then tool=parted
else _skip "neither sfdisk nor parted is installed (partition table case)"; fi
_test_begin

l=$("$LK" up loop:64M:partscan)
if [ "$tool" = sfdisk ]; then
	echo ',,L' | sfdisk -q "$l" >/dev/null
else
	parted -s "$l" mklabel msdos mkpart primary 1MiB 100%
fi
partx -u "$l" 2>/dev/null || blockdev --rereadpt "$l"
sleep 0.5
[ -e "/sys/block/${l#/dev/}/${l#/dev/}p1" ] && echo "partition p1 present"
"$LK" down "$l"
[ ! -e "/sys/block/${l#/dev/}/${l#/dev/}p1" ] && echo "partition gone"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
