#!/usr/bin/env bash
# 013: the smoke scenario killed with SIGKILL mid-run leaves nothing of the lab after cleanup.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram loop
_have_cmd fio perf setsid
_have_bridge
pid=''
_test_cleanup() { if [ -n "$pid" ]; then kill -KILL -- "-$pid" 2>/dev/null || true; fi; }
_test_begin
export LAB_RESULTS=$LAB_STATE/results LAB_NO_GUEST=1
mkdir -p "$LAB_RESULTS"

setsid "$LK" run smoke --quick >"$LAB_STATE/smoke.log" 2>&1 &
pid=$!
# wait until both devices exist and I/O has started
for _ in $(seq 1 300); do
	if grep -q '^loop' "$LAB_REGISTRY" 2>/dev/null && compgen -G "$LAB_RESULTS/*.partial/raw/zram.*.perf.csv" >/dev/null; then break; fi
	sleep 0.1
done
grep -q '^zram' "$LAB_REGISTRY" && grep -q '^loop' "$LAB_REGISTRY" && echo "scenario running with zram and loop"
kill -KILL -- "-$pid"
wait "$pid" 2>/dev/null || true
pid=''
zrams=$(awk -F'\t' '$1 == "zram" { print $2 }' "$LAB_REGISTRY")
"$LK" cleanup && echo "cleanup: exit 0"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
for z in $zrams; do [ -e "/sys/block/$z" ] && echo "left: $z"; done
[ -z "$(_loop_orphans)" ] && echo "no lab loop devices"
[ -z "$(ls "$LAB_KDIR/loop")" ] && echo "no backing files"
[ ! -e "$LAB_KDIR/guest/qemu.pid" ] && echo "no qemu"
compgen -G "$LAB_RESULTS/kernel-smoke-*Z" >/dev/null || echo "no finished run folder"
