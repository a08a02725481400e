#!/usr/bin/env bash
# 022: a lab device that something else holds is refused even with --i-own-this-device, by the
# bridge's O_EXCL open, and left as it was: a lab loop held by another program's O_EXCL open
# (what dm, md and bcache do too), and one with a mounted ext4. Let go, the same device is
# written, and while the bridge writes, nothing else can take it exclusively.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
# shellcheck source=SCRIPTDIR/../common/bridge.sh
. "$KS_DIR/common/bridge.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver loop
_have_cmd python3 mkfs.ext4 sha256sum
_have_bridge
holder='' mnt=''
_test_cleanup() {
	if [ -n "$holder" ]; then kill "$holder" 2>/dev/null || true; wait "$holder" 2>/dev/null || true; fi
	if [ -n "$mnt" ]; then umount "$mnt" 2>/dev/null || true; rmdir "$mnt" 2>/dev/null || true; fi
}
_test_begin
_bridge_init

# hold DEV: open DEV with O_EXCL in another process until it is killed; sets holder.
hold() {
	local ready=$BR_DIR/held
	rm -f "$ready"
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").close()
time.sleep(600)' "$1" "$ready" &
	holder=$!
	for _ in $(seq 1 100); do [ -e "$ready" ] && return 0; sleep 0.05; done
	echo "holder never opened $1" >&2
	return 1
}

lab=$("$LK" up loop:16M)
dd if=/dev/urandom of="$lab" bs=1M count=16 oflag=direct status=none
write=$(_bridge_job_engines w randwrite)

hold "$lab"
before=$(_sum "$lab")
_bridge_try "held" "$write" "$lab"
_bridge_try "held, --i-own-this-device" "$write" "$lab" --i-own-this-device
[ "$(_sum "$lab")" = "$before" ] && echo "held: unchanged"
kill "$holder"
wait "$holder" 2>/dev/null || true
holder=''

# no lazy init: ext4lazyinit would zero inode tables after the mount and change the sum
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$lab"
mnt=$(mktemp -d /tmp/lab-mnt.XXXXXX)
mount "$lab" "$mnt"
before=$(_sum "$lab")
_bridge_try "mounted, --i-own-this-device" "$write" "$lab" --i-own-this-device 2>&1 | sed "s|$mnt|<mnt>|"
[ "$(_sum "$lab")" = "$before" ] && echo "mounted: unchanged"
umount "$mnt"
rmdir "$mnt"
mnt=''

# Let go: written, and held for the run (a second exclusive open fails while it writes).
long=$(_bridge_job long randwrite runtime=3 time_based=1)
writes() { awk '{ print $5 }' "/sys/block/${lab#/dev/}/stat"; }
w0=$(writes)
"${LAB_BRIDGE[@]}" run "$long" --filename "$lab" --output "$BR_DIR/long.json" 2>"$BR_DIR/long.err" &
run=$!
for _ in $(seq 1 100); do
	[ "$(writes)" -gt "$w0" ] && break
	sleep 0.1
done
if python3 -c 'import os, sys; os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)' "$lab" 2>/dev/null; then
	echo "while written: another O_EXCL open succeeded"
else
	echo "while written: another O_EXCL open is refused"
fi
wait "$run" && echo "free: exit 0"
[ "$(_sum "$lab")" != "$before" ] && echo "free: written"
grep -q 'held with O_EXCL for the run' "$BR_DIR/long.json" && echo "free: the report says it was held"
