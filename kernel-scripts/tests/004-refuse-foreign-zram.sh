#!/usr/bin/env bash
# 004: a zram device the lab did not hot-add (zram0) is refused; its state does not change.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram
[ -d /sys/block/zram0 ] || _skip "no zram0 on this machine"
_test_begin

z=/sys/block/zram0
snap() { cat "$z/disksize" "$z/comp_algorithm" "$z/queue/iostats" 2>/dev/null; }
before=$(snap)
_expect_refusal "check" "$LK" check /dev/zram0
_expect_refusal "check by name" "$LK" check zram0
_expect_refusal "fill" "$LK" fill /dev/zram0 zero
_expect_refusal "down" "$LK" down /dev/zram0
_expect_refusal "iostats" "$LK" iostats /dev/zram0 0
[ "$(snap)" = "$before" ] && echo "zram0 unchanged"
[ -d "$z" ] && echo "zram0 still there"
