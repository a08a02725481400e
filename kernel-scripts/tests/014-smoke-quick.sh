#!/usr/bin/env bash
# 014: the smoke scenario (quick, 500 ms runs) writes a complete run folder and tears everything down. Its
# device-mapper part (brd, dm-linear 5 deep, a thin pool and volume, null_blk) runs natively where
# this kernel has those drivers (built in, or modules the lab loads and unloads again) and is
# otherwise skipped here (LAB_NO_GUEST=1: the guest half is test 016's); the output is the same
# both ways. Run with LAB_TEST_NATIVE=1 where the kernel has (or can load) those drivers, the
# device-mapper part must run natively. JSON is read with awk: a guest has no python.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram loop
_have_cmd fio perf
_have_bridge
native=$(_test_native brd dm-mod dm-thin-pool null_blk)
_test_begin
_test_mods_begin
export LAB_RESULTS=$LAB_STATE/results LAB_NO_GUEST=1
mkdir -p "$LAB_RESULTS"

dir=$(LAB_RUNTIME=500ms "$LK" run smoke --quick 2>"$LAB_STATE/smoke.err") || { tail -n 20 "$LAB_STATE/smoke.err" >&2; exit 1; }
basename "$dir" | sed 's/[0-9]\{8\}T[0-9]\{6\}Z$/<time>/'
# the zram and loop part's files (the device-mapper part's are checked below)
for f in "$dir"/* "$dir"/raw/*; do
	case ${f#"$dir"/} in manifest.json | raw | raw/zram.* | raw/loop.* | raw/job.fio | raw/guest-parts.tsv | raw/perf-missing.txt) echo "${f#"$dir"/}" ;; esac
done

# read_iops FILE: the first job's read iops in a fio-style JSON (fio's or the bridge's: one key a
# line), with its error: "ERROR IOPS"
read_iops() {
	awk '/^ *"error" *:/ && e == "" { v = $0; sub(/^[^:]*: */, "", v); sub(/,$/, "", v); e = v }
		/^ *"read" *: *\{/ { r = 1 }
		r && /^ *"iops" *:/ { v = $0; sub(/^[^:]*: */, "", v); sub(/,$/, "", v); print e, v; exit }' "$1"
}
# iops_ok NAME: True if raw/NAME.json has no error and read iops > 0
iops_ok() {
	local err iops
	read -r err iops <<<"$(read_iops "$dir/raw/$1.json" 2>/dev/null)"
	if [ "${err:-x}" = 0 ] && awk -v i="${iops:-0}" 'BEGIN { exit !(i > 0) }'; then echo True; else echo False; fi
}
manifest() { sed -n "s/^  \"$1\": //p" "$dir/manifest.json"; }

echo "environment of zram and loop: $(manifest environment | grep -o '"zram": "[a-z]*", "loop": "[a-z]*"')"
echo "kernel matches: $([ "$(manifest kernel)" = "\"$(uname -r)\"," ] && echo True || echo False)"
for n in zram.bridge zram.fio loop.bridge loop.fio; do echo "$n read iops > 0: $(iops_ok "$n")"; done

# the device-mapper part: natively, every file, read IOPS, the stack, the environment; else skipped
dm=yes
if [ "$native" = 1 ]; then
	for n in brd.fio dm-linear1.fio dm-linear5.fio dm-linear5.bridge thin.fio thin.bridge null_blk.fio; do
		for ext in .json .perf.csv .before.stat .after.stat; do [ -f "$dir/raw/$n$ext" ] || { dm=no; echo "missing raw/$n$ext" >&2; }; done
		[ "$(iops_ok "$n")" = True ] || { dm=no; echo "no read IOPS in raw/$n.json" >&2; }
	done
	for k in 1 2 3 4 5; do grep -q "^lab-lin$k: 0 [0-9]* linear [0-9]*:[0-9]* 0$" "$dir/raw/dm-table.txt" || dm=no; done
	grep -q '^lab-pool: 0 [0-9]* thin-pool ' "$dir/raw/dm-table.txt" || dm=no
	grep -q '^lab-thin: 0 [0-9]* thin ' "$dir/raw/dm-table.txt" || dm=no
	manifest environment | grep -q '"dm-linear-x5-over-brd": "native", "thin": "native"' || dm=no
	grep -q "^thin	not needed: this kernel has" "$dir/raw/guest-parts.tsv" || dm=no
else
	grep -q "^thin	skipped: natively .*, and LAB_NO_GUEST=1$" "$dir/raw/guest-parts.tsv" || dm=no
	[ -z "$(compgen -G "$dir/raw/dm-linear*")" ] || dm=no
fi
echo "device-mapper part natively where this kernel has its drivers, else skipped: $dm"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
[ -z "$(_loop_orphans)" ] && echo "no lab loop devices"
compgen -G "$LAB_RESULTS/*.partial" >/dev/null || echo "no partial folder"
_test_mods_left
