#!/usr/bin/env bash
# 002: a lab loop device that is mounted is refused (fill, down, iostats) until unmounted.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver loop
_have_cmd mkfs.ext4
mnt=
_test_cleanup() { if [ -n "$mnt" ]; then umount "$mnt" 2>/dev/null || true; rmdir "$mnt"; fi; }
_test_begin

loop=$("$LK" up loop:32M)
mkfs.ext4 -q "$loop"
mnt=$(mktemp -d)
mount "$loop" "$mnt"
_expect_refusal "check mounted" "$LK" check "$loop"
_expect_refusal "fill mounted" "$LK" fill "$loop" zero
_expect_refusal "down mounted" "$LK" down "$loop"
_expect_refusal "iostats mounted" "$LK" iostats "$loop" 0
[ -e "/sys/block/${loop#/dev/}/loop/backing_file" ] && echo "still attached and mounted"
umount "$mnt"
_expect_refusal "down unmounted" "$LK" down "$loop"
[ ! -e "/sys/block/${loop#/dev/}/loop/backing_file" ] && echo "detached"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
