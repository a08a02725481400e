#!/usr/bin/env bash
# 001: the root disk (whatever backs /) is refused by every writing command; nothing changes.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_test_begin

src=$(findmnt -no SOURCE /)
[ -b "$src" ] || _skip "/ is not on a block device ($src)"
disk=/dev/$(lsblk -no PKNAME "$src" 2>/dev/null | head -n 1)
[ "$disk" != /dev/ ] || disk=$src
sched_path=/sys/block/${disk#/dev/}/queue/scheduler
before=$(cat "$sched_path" "/sys/block/${disk#/dev/}/queue/iostats" 2>/dev/null || true)

_expect_refusal "check" "$LK" check "$disk"
_expect_refusal "check partition" "$LK" check "$src"
_expect_refusal "fill" "$LK" fill "$disk" zero
_expect_refusal "down" "$LK" down "$disk"
_expect_refusal "iostats" "$LK" iostats "$disk" 0
_expect_refusal "sched" "$LK" sched "$disk" bfq
after=$(cat "$sched_path" "/sys/block/${disk#/dev/}/queue/iostats" 2>/dev/null || true)
[ "$before" = "$after" ] && echo "root disk unchanged"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
