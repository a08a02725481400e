#!/usr/bin/env bash
# 030: the lab kernel builds (or comes from the cache), boots in the guest VM, and every switch
# works: flipped to each of its values and read back, a short I/O run with the before and the
# default, and the switch's operation counter moved by K x N x the I/Os with the before and not at
# all with the default (kernel/switch-check.sh, inside the guest): a switch that does not change
# the code path fails here. Skips without root, qemu or the source package.
# timeout: 1200
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_have_guest
[ -f /usr/src/linux-source-6.1.tar.xz ] || _skip "linux-source-6.1 is not installed"
real_state=$LAB_STATE
_test_begin_guest
mkdir -p "$real_state/lab-kernel"
ln -s "$real_state/lab-kernel" "$LAB_STATE/lab-kernel" # the build is cached across tests and runs

bash "$KS_DIR/kernel/build.sh" build >/dev/null || { echo "the lab kernel did not build" >&2; exit 1; }
echo "lab kernel built: yes"
out=$LAB_STATE/out
mkdir -p "$out"
script=$LAB_STATE/switch-check-guest.sh
cat >"$script" <<'GUEST'
#!/bin/sh
sh /mnt/in/ks/kernel/switch-check.sh /mnt/in/ks/kernel/patches/6.1 >/mnt/out/switch-check.txt 2>&1
echo "$?" >/mnt/out/switch-check.rc
GUEST
LAB_GUEST_KERNEL=lab _guest_test_run "$script" "$out"
echo "booted the lab kernel: $(grep -q '^kernel_kind: lab$' "$out/guest.txt" && echo yes || echo no)"
if [ "$(cat "$out/switch-check.rc")" != 0 ] || grep -q '^FAIL' "$out/switch-check.txt" || ! grep -q '^ok' "$out/switch-check.txt"; then
	cat "$out/switch-check.txt" >&2
	echo "switch checks: failed"
else
	echo "switch checks: all ok"
fi
for f in $(bash "$KS_DIR/kernel/build.sh" switches | sed 's/^fix=\([^ ]*\) .*/\1/' | sort); do
	echo "$f checked: $(grep -q "^ok .*$f" "$out/switch-check.txt" && echo yes || echo no)"
done
echo "no qemu left: $(pgrep -f '^qemu-system-x86_64 .*lab.accel=' >/dev/null && echo no || echo yes)"
