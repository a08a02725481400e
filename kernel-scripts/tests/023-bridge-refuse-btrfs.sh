#!/usr/bin/env bash
# 023: a lab loop with a mounted btrfs is refused even with --i-own-this-device, and left as it
# was. btrfs reports an anonymous 0:NN in /proc/self/mountinfo's device field, so a check by
# major:minor alone misses the mount: the O_EXCL open refuses it, and the message still names
# the mount, found by its source.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
# shellcheck source=SCRIPTDIR/../common/bridge.sh
. "$KS_DIR/common/bridge.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver loop
_have_cmd mkfs.btrfs sha256sum
_have_bridge
grep -qw btrfs /proc/filesystems || _skip "this kernel has no btrfs"
mnt=''
_test_cleanup() {
	if [ -n "$mnt" ]; then umount "$mnt" 2>/dev/null || true; rmdir "$mnt" 2>/dev/null || true; fi
}
_test_begin
_bridge_init

lab=$("$LK" up loop:128M)
mkfs.btrfs -q -f "$lab" >/dev/null
mnt=$(mktemp -d /tmp/lab-mnt.XXXXXX)
mount -t btrfs "$lab" "$mnt"
devno=$(awk -v m="$mnt" '$5 == m { print $3 }' /proc/self/mountinfo)
case $devno in 0:*) echo "mountinfo names an anonymous device" ;; *) echo "mountinfo names $devno" ;; esac
write=$(_bridge_job_engines w randwrite)
before=$(_sum "$lab")
{
	_bridge_try "btrfs" "$write" "$lab"
	_bridge_try "btrfs, --i-own-this-device" "$write" "$lab" --i-own-this-device
} | sed "s|$mnt|<mnt>|"
[ "$(_sum "$lab")" = "$before" ] && echo "btrfs: unchanged"
