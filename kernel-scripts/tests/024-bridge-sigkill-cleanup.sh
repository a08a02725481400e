#!/usr/bin/env bash
# 024: a bridge run killed with SIGKILL in the middle of io_uring writes to a lab zram leaves
# nothing of the lab after ./lab kernel cleanup (the kernel finishes the ring's I/O and lets the
# O_EXCL hold go with the process), and no other device is touched: a foreign loop keeps its
# data, and the block devices are those there were before the lab made its zram.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
# shellcheck source=SCRIPTDIR/../common/bridge.sh
. "$KS_DIR/common/bridge.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram loop
_have_cmd setsid sha256sum
_have_bridge
pid='' foreign='' file=''
_test_cleanup() {
	if [ -n "$pid" ]; then kill -KILL -- "-$pid" 2>/dev/null || true; fi
	if [ -n "$foreign" ]; then losetup -d "$foreign" 2>/dev/null || true; fi
	rm -f "$file"
}
_test_begin
_bridge_init

file=$(mktemp /tmp/lab-foreign.XXXXXX)
head -c 16M /dev/urandom >"$file"
foreign=$(losetup --find --show "$file")
sum=$(_sum "$foreign")
disks() { ls /sys/block; }
disks_before=$(disks)

z=/dev/$("$LK" up zram:64M)
job=$(_bridge_job kill randwrite ioengine=io_uring iodepth=32 size=64m time_based=1 runtime=60)
writes() { awk '{ print $5 }' "/sys/block/${z#/dev/}/stat"; }
setsid "${LAB_BRIDGE[@]}" run "$job" --filename "$z" --output "$BR_DIR/kill.json" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 300); do
	[ "$(writes)" -gt 1000 ] && break
	sleep 0.1
done
[ "$(writes)" -gt 1000 ] && echo "bridge writing to the lab zram"
kill -KILL -- "-$pid"
wait "$pid" 2>/dev/null || true
pid=''
[ ! -e "$BR_DIR/kill.json" ] && echo "no report from the killed run"
"$LK" cleanup && echo "cleanup: exit 0"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
[ ! -e "/sys/block/${z#/dev/}" ] && echo "zram removed"
[ "$(disks)" = "$disks_before" ] && echo "block devices as before"
[ "$(_sum "$foreign")" = "$sum" ] && echo "foreign loop unchanged"
