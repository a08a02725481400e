#!/usr/bin/env bash
# 009: a lab cgroup (v1 blkio, or v2 with io) gets a BFQ weight with BFQ selected on the bottom
# device (bfq-iosched loaded first where it is a module not loaded yet, and unloaded by cleanup);
# cleanup restores the scheduler and removes the cgroup. LAB_TEST_DEV picks the device
# (default loop:32M; test 017 runs this inside the guest with cgroup v2 and nullb:64M).
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
spec=${LAB_TEST_DEV:-loop:32M}
_have_root
case $spec in nullb:*) _have_driver null_blk ;; *) _have_driver loop ;; esac
_have_cgroup_io
why=$(_sched_native_why bfq)
[ -z "$why" ] || _skip "$why"
_test_begin

l=$("$LK" up "$spec")
sched=/sys/block/${l#/dev/}/queue/scheduler
old=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$sched")
cg=$("$LK" up "cgroup:t$$")
[ -d "$cg" ] && echo "cgroup made"
"$LK" weight "$cg" "$l" 300
grep -q '\[bfq\]' "$sched" && echo "scheduler: bfq"
echo "weight: $(awk '$1 == "default" { print $2; exit } NF == 1 { print $1; exit }' "$(_cgroup_weight_file "$cg")")"
_expect_refusal "weight on a foreign cgroup" "$LK" weight "$LAB_BLKIO" "$l" 300
# the disk under / on a user's host; the guest's / is no disk (017 and 034 run this there): the
# guest's /dev/vda, as before
root=$(_root_disk)
[ -n "$root" ] || root=/dev/vda
_expect_refusal "weight with the root disk" "$LK" weight "$cg" "$root" 300
echo $$ >"$cg/cgroup.procs"
"$LK" cleanup
echo $$ >"$LAB_BLKIO/cgroup.procs"
[ ! -d "$cg" ] && echo "cgroup removed"
grep -q "\[$old\]" "$sched" 2>/dev/null || [ ! -e "$sched" ] && echo "scheduler restored"
[ "$(cat "$LAB_REGISTRY")" = "" ] && echo "registry empty"
