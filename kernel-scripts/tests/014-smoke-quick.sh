#!/usr/bin/env bash
# 014: the smoke scenario (quick) writes a complete run folder and tears everything down.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram loop
_have_cmd fio perf
_have_bridge
_test_begin
export LAB_RESULTS=$LAB_STATE/results LAB_NO_GUEST=1
mkdir -p "$LAB_RESULTS"

dir=$("$LK" run smoke --quick 2>"$LAB_STATE/smoke.err")
basename "$dir" | sed 's/[0-9]\{8\}T[0-9]\{6\}Z$/<time>/'
for f in "$dir"/* "$dir"/raw/*; do echo "${f#"$dir"/}"; done
python3 -c '
import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json"))
print("environment:", json.dumps(m["environment"], sort_keys=True))
print("kernel matches:", m["kernel"] == sys.argv[2])
for n in ("zram.bridge", "zram.fio", "loop.bridge", "loop.fio"):
    j = json.load(open(sys.argv[1] + "/raw/" + n + ".json"))
    print(n, "read iops > 0:", j["jobs"][0]["read"]["iops"] > 0)
' "$dir" "$(uname -r)"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
[ -z "$(_loop_orphans)" ] && echo "no lab loop devices"
compgen -G "$LAB_RESULTS/*.partial" >/dev/null || echo "no partial folder"
