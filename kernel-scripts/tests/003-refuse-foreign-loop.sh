#!/usr/bin/env bash
# 003: a loop device the lab did not attach is refused, even with a lab-looking registry line.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver loop
file='' loop=''
_test_cleanup() {
	if [ -n "$loop" ]; then losetup -d "$loop" 2>/dev/null || true; fi
	rm -f "$file"
}
_test_begin

file=$(mktemp /tmp/lab-foreign.XXXXXX)
truncate -s 16M "$file"
loop=$(losetup --find --show "$file")
iostats=/sys/block/${loop#/dev/}/queue/iostats
before=$(cat "$iostats")
sched=/sys/block/${loop#/dev/}/queue/scheduler
sched_before=$(cat "$sched")
_expect_refusal "check" "$LK" check "$loop"
_expect_refusal "fill" "$LK" fill "$loop" zero
_expect_refusal "down" "$LK" down "$loop"
_expect_refusal "iostats" "$LK" iostats "$loop" 0
# sched, and weight's device (its scheduler is set through the same check): bfq on a foreign disk
_expect_refusal "sched" "$LK" sched "$loop" mq-deadline
# a forged registry line: the backing file is not the lab's, so still refused
_reg_add loop "$loop" "$file"
_expect_refusal "forged registry line" "$LK" fill "$loop" zero
_reg_del loop "$loop"
_reg_add loop "$loop" "$LAB_KDIR/loop/lab-forged.img"
_expect_refusal "wrong backing file" "$LK" down "$loop"
_reg_del loop "$loop"
[ "$(cat "/sys/block/${loop#/dev/}/loop/backing_file")" = "$file" ] && echo "still attached"
[ "$(cat "$iostats")" = "$before" ] && echo "iostats unchanged"
[ "$(cat "$sched")" = "$sched_before" ] && echo "scheduler unchanged"
[ "$(od -An -tx1 -N16 "$file" | tr -d ' \n')" = 00000000000000000000000000000000 ] && echo "data unchanged"
