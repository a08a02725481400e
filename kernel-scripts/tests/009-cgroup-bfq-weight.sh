#!/usr/bin/env bash
# 009: a lab blkio cgroup gets a BFQ weight with BFQ selected on the bottom device; cleanup restores the scheduler and removes the cgroup.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver loop
_have_blkio
_test_begin

l=$("$LK" up loop:32M)
sched=/sys/block/${l#/dev/}/queue/scheduler
grep -q bfq "$sched" || _skip "BFQ is not available on loop devices here"
old=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$sched")
cg=$("$LK" up "cgroup:t$$")
[ -d "$cg" ] && echo "cgroup made"
"$LK" weight "$cg" "$l" 300
grep -q '\[bfq\]' "$sched" && echo "scheduler: bfq"
echo "weight: $(awk '$1 == "default" { print $2; exit } NF == 1 { print $1; exit }' "$cg/blkio.bfq.weight")"
_expect_refusal "weight on a foreign cgroup" "$LK" weight "$LAB_BLKIO" "$l" 300
_expect_refusal "weight with the root disk" "$LK" weight "$cg" /dev/vda 300
echo $$ >"$cg/cgroup.procs"
"$LK" cleanup
echo $$ >"$LAB_BLKIO/cgroup.procs"
[ ! -d "$cg" ] && echo "cgroup removed"
grep -q "\[$old\]" "$sched" && echo "scheduler restored"
[ "$(cat "$LAB_REGISTRY")" = "" ] && echo "registry empty"
