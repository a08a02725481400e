#!/usr/bin/env bash
# 030: the lab kernels (6.1, with four fixes' switches; 6.12, with thin-bufio-lock's) build (or
# come from the cache), boot in the guest VM, and every switch works: flipped to each of its values
# and read back, a short I/O run with the before and the default, and the switch's operation
# counter moved by K x N x the I/Os with the before and not at all with the default
# (kernel/switch-check.sh, inside the guest): a switch that does not change the code path fails
# here. Skips without root, qemu or the source packages, and when a kernel is neither in the cache
# nor to be built by this run (`./lab test --lab-kernels`).
# timeout: 1500
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_have_guest
for v in 6.1 6.12; do
	_have_lab_kernel "$v"
done
_test_begin_guest

for v in 6.1 6.12; do
	bash "$KS_DIR/kernel/build.sh" build --source "$v" >/dev/null || { echo "the $v lab kernel did not build" >&2; exit 1; }
	echo "$v: lab kernel built: yes"
	out=$LAB_STATE/out-$v
	mkdir -p "$out"
	script=$LAB_STATE/switch-check-guest-$v.sh
	cat >"$script" <<GUEST
#!/bin/sh
sh /mnt/in/ks/kernel/switch-check.sh /mnt/in/ks/kernel/patches/$v >/mnt/out/switch-check.txt 2>&1
echo "\$?" >/mnt/out/switch-check.rc
GUEST
	LAB_GUEST_KERNEL=lab LAB_KERNEL_SOURCE=$v _guest_test_run "$script" "$out"
	echo "$v: booted the lab kernel: $(grep -q '^kernel_kind: lab$' "$out/guest.txt" && grep -q "^kernel: $v\." "$out/guest.txt" && echo yes || echo no)"
	# qemu's -smp 2: a kernel that finds one CPU (as one built without ACPI did) measures no contention
	echo "$v: both vCPUs online: $(grep -q '^cpus: 2$' "$out/guest.txt" && echo yes || echo no)"
	if [ "$(cat "$out/switch-check.rc")" != 0 ] || grep -q '^FAIL' "$out/switch-check.txt" || ! grep -q '^ok' "$out/switch-check.txt"; then
		cat "$out/switch-check.txt" >&2
		echo "$v: switch checks: failed"
	else
		echo "$v: switch checks: all ok"
	fi
	for f in $(bash "$KS_DIR/kernel/build.sh" switches --source "$v" | sed 's/^fix=\([^ ]*\) .*/\1/' | sort); do
		echo "$v: $f checked: $(grep -q "^ok $f=.*Lab-Ops" "$out/switch-check.txt" && echo yes || echo no)"
	done
done
echo "no qemu left: $(pgrep -f '^qemu-system-x86_64 .*lab.accel=' >/dev/null && echo no || echo yes)"
