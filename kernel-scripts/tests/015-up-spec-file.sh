#!/usr/bin/env bash
# 015: up takes a spec file (words, comments); status lists the registry and every driver; down undoes it.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram loop
_test_begin

spec=$LAB_STATE/two.spec
printf '# two devices\nzram:16M loop:16M  # both native\n' >"$spec"
"$LK" up "$spec" | sed 's/[0-9]*$/N/'
"$LK" status >"$LAB_STATE/status"
awk '/^  (zram|loop)\t/ { print "status:", $1 }' "$LAB_STATE/status"
for d in zram loop brd null_blk dm-mod dm-thin-pool; do
	grep -Eq "^  $d (native|guest) \((built in|module, loaded( by the lab)?|module, not loaded: .*|not in this kernel)\)$" "$LAB_STATE/status" &&
		echo "driver listed: $d"
done
_expect_refusal "unknown spec word" "$LK" up nvme:1G
"$LK" down
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
# a forged sysfs line outside any block queue is refused, not written
_reg_add sysfs /proc/sys/vm/swappiness 0
# shellcheck disable=SC2016 # expanded by the inner shell
_expect_refusal "forged sysfs restore" bash -c '. "$1"; _restore sysfs /proc/sys/vm/swappiness' _ "$KS_DIR/common/rc.sh"
_reg_del sysfs /proc/sys/vm/swappiness
