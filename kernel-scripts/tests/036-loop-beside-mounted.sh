#!/usr/bin/env bash
# 036: "is it mounted, held, swap" asks about a device and its own partitions only. A lab loop
# /dev/loopN beside a foreign /dev/loopN0 with a mounted ext4 (Ubuntu hosts carry snaps' mounted
# loops, often past loop10) can be checked, filled and removed; the foreign one stays attached,
# mounted and unchanged. A lab loop whose own partition is mounted is refused (down, fill) until
# it is unmounted. The bridge asks by major:minor (DeviceUse, its JUnit tests).
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver loop
_have_cmd mkfs.ext4 losetup sfdisk
mnt='' mnt2='' foreign=() files=()
_test_cleanup() {
	local d
	for d in "$mnt" "$mnt2"; do
		if [ -n "$d" ]; then umount "$d" 2>/dev/null || true; rmdir "$d" 2>/dev/null || true; fi
	done
	for d in "${foreign[@]}"; do losetup -d "$d" 2>/dev/null || true; done
	rm -f "${files[@]}"
}
_test_begin

# foreign_loop DEV: attach a foreign file (outside the lab's folder) to DEV, and remember both
# for the cleanup. Not in a command substitution: the arrays would
# be the subshell's, and the files left behind.
foreign_loop() {
	local f dev=$1
	f=$(mktemp /tmp/lab-foreign.XXXXXX)
	files+=("$f")
	truncate -s 64M "$f"
	losetup "$dev" "$f"
	foreign+=("$dev")
}

# the lab's loop must be loop1 or above, so that loopN0 exists beside it: a foreign loop takes
# loop0 when it is free
if [ "$(losetup -f)" = /dev/loop0 ]; then foreign_loop /dev/loop0; fi
lab=$("$LK" up loop:64M)
ten=$lab"0"
foreign_loop "$ten"
mkfs.ext4 -q "$ten"
mnt=$(mktemp -d)
mount "$ten" "$mnt"
echo "hello" >"$mnt/file"
sum=$(md5sum <"$mnt/file")
echo "the lab's loopN beside a foreign mounted loopN0: $([ "${ten#"$lab"}" = 0 ] && echo yes)"
"$LK" check "$lab" >/dev/null 2>&1 && echo "check: owned"
"$LK" fill "$lab" zero >/dev/null 2>&1 && echo "fill: done"
"$LK" down "$lab" 2>/dev/null && echo "down: done"
[ ! -e "/sys/block/${lab#/dev/}/loop/backing_file" ] && echo "the lab's loop is detached"
awk -v d="$ten" '$1 == d { f = 1 } END { exit !f }' /proc/mounts && [ "$(md5sum <"$mnt/file")" = "$sum" ] &&
	echo "the foreign loopN0 is still mounted, its file unchanged"

# a lab loop with its own partition mounted
lab=$("$LK" up loop:64M:partscan)
echo 'start=2048, type=83' | sfdisk -q "$lab" >/dev/null 2>&1
# the kernel reads the table, or (a kernel without partition table parsers) partx tells it
blockdev --rereadpt "$lab" 2>/dev/null || true
[ -b "${lab}p1" ] || partx --add --nr 1 "$lab" 2>/dev/null || true
part=$(compgen -G "${lab}p1" || true)
if [ -n "$part" ]; then
	mkfs.ext4 -q "$part"
	mnt2=$(mktemp -d)
	mount "$part" "$mnt2"
	_expect_refusal "fill, its partition mounted" "$LK" fill "$lab" zero
	_expect_refusal "down, its partition mounted" "$LK" down "$lab"
	umount "$mnt2"
	"$LK" down "$lab" 2>/dev/null && echo "down, unmounted: done"
else
	echo "no partition node ${lab}p1: neither the kernel nor partx read the table"
	"$LK" down "$lab"
fi
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
