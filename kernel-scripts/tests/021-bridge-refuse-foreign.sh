#!/usr/bin/env bash
# 021: the bridge never writes to a block device the lab did not make, whichever engine writes
# (one job each of psync, sync, pvsync, io_uring and libaio): foreign loop devices
# holding data (plain, a partition table the kernel never scanned, an ext4 file system) are
# refused with exit 2 and left byte for byte as they were, while reads of them work; and the
# bridge and lab-kernel.sh check agree on a foreign loop, a forged registry line and a lab loop.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
# shellcheck source=SCRIPTDIR/../common/bridge.sh
. "$KS_DIR/common/bridge.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver loop
_have_cmd sfdisk mkfs.ext4 sha256sum
_have_bridge
loops=() files=()
_test_cleanup() {
	local l
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null || true; done
	rm -f "${files[@]}"
}
_test_begin
_bridge_init

# foreign FILE FLAVOUR: make FILE someone's 16 MiB of random data, then per flavour with a
# partition table or a file system.
foreign() {
	head -c 16M /dev/urandom >"$1"
	case $2 in
	partitioned) printf 'label: dos\nstart=2048, size=8192, type=83\n' | sfdisk -q "$1" >/dev/null ;;
	ext4) mkfs.ext4 -q -F "$1" ;;
	esac
}

write=$(_bridge_job_engines w randwrite)
read=$(_bridge_job_engines r randread)
for flavour in plain partitioned ext4; do
	files+=("$(mktemp /tmp/lab-foreign.XXXXXX)")
	foreign "${files[-1]}" "$flavour"
	loops+=("$(losetup --find --show "${files[-1]}")") # no --partscan: the kernel never reads the table
	l=${loops[-1]}
	before=$(_sum "$l")
	_bridge_try "$flavour" "$write" "$l"
	_bridge_try "$flavour read" "$read" "$l"
	[ "$(_sum "$l")" = "$before" ] && echo "$flavour: unchanged"
done

# The two rules agree: bridge write vs lab-kernel.sh check, on the same devices.
agree() {
	local what=$1 dev=$2 k=0 b=0
	"$LK" check "$dev" >/dev/null 2>&1 || k=$?
	"${LAB_BRIDGE[@]}" run "$write" --filename "$dev" --output "$BR_DIR/agree.json" >/dev/null 2>&1 || b=$?
	echo "$what: check exit $k, bridge exit $b"
}
agree "foreign loop" "${loops[0]}"
_reg_add loop "${loops[0]}" "${files[0]}"
agree "forged registry line" "${loops[0]}"
_reg_del loop "${loops[0]}"
lab=$("$LK" up loop:16M)
agree "lab loop" "$lab"
