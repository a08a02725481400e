#!/usr/bin/env bash
# 001: the root disk (whatever backs /: the whole disk under a partition, LVM or dm, and the device
# / is on) is refused by every writing command, for its reason; its queue is unchanged.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_test_begin

src=$(_root_source)
[ -b "$src" ] || _skip "/ is not on a block device ($src)"
# the whole disk under / (through a partition, LVM or dm), whose queue must read before and after:
# an unreadable one would make "unchanged" hold whatever the commands did
disk=$(_root_disk)
q=/sys/block/${disk#/dev/}/queue
if [ ! -r "$q/scheduler" ] || [ ! -r "$q/iostats" ]; then
	echo "no queue to watch for /'s disk ($src: '$disk')" >&2
	exit 1
fi
before=$(cat "$q/scheduler" "$q/iostats")

_expect_refusal "check" "$LK" check "$disk"
_expect_refusal "check the device / is on" "$LK" check "$src"
_expect_refusal "fill" "$LK" fill "$disk" zero
_expect_refusal "down" "$LK" down "$disk"
_expect_refusal "iostats" "$LK" iostats "$disk" 0
_expect_refusal "sched" "$LK" sched "$disk" bfq
after=$(cat "$q/scheduler" "$q/iostats")
[ "$before" = "$after" ] && echo "root disk unchanged"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
