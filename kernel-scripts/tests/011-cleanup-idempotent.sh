#!/usr/bin/env bash
# 011: cleanup removes zram, loop, cgroup and the guest's qemu, and a second cleanup is a no-op.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram loop
_have_cgroup_io
fake=''
_test_cleanup() { if [ -n "$fake" ]; then kill "$fake" 2>/dev/null || true; fi; }
_test_begin

z=$("$LK" up zram:32M)
l=$("$LK" up loop:32M)
cg=$("$LK" up "cgroup:c$$")
"$LK" iostats "$l" 0
# a stand-in for the guest: a process whose name starts with qemu
mkdir -p "$LAB_KDIR/guest"
cp "$(command -v sleep)" "$LAB_STATE/qemu-system-x86_64"
"$LAB_STATE/qemu-system-x86_64" 300 &
fake=$!
echo "$fake" >"$LAB_KDIR/guest/qemu.pid"
echo "lines before: $(wc -l <"$LAB_REGISTRY")"
"$LK" cleanup && echo "cleanup 1: exit 0"
"$LK" cleanup && echo "cleanup 2: exit 0"
echo "lines after: $(wc -l <"$LAB_REGISTRY")"
[ ! -e "/sys/block/$z" ] && echo "zram removed"
[ ! -e "/sys/block/${l#/dev/}/loop/backing_file" ] && echo "loop detached"
[ -z "$(ls "$LAB_KDIR/loop")" ] && echo "no backing files"
[ ! -d "$cg" ] && echo "cgroup removed"
sleep 0.3
[ ! -d "/proc/$fake" ] || [ "$(awk '{print $3}' "/proc/$fake/stat")" = Z ] && echo "qemu killed"
wait "$fake" 2>/dev/null || true
fake=''
[ ! -e "$LAB_KDIR/guest/qemu.pid" ] && echo "pid file removed"
# a pid file naming something that is not qemu: cleanup must not kill it
sleep 300 &
other=$!
echo "$other" >"$LAB_KDIR/guest/qemu.pid"
"$LK" cleanup
[ -d "/proc/$other" ] && echo "non-qemu pid spared"
kill "$other"
wait "$other" 2>/dev/null || true
"$LK" status | sed -n 2p
