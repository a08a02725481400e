#!/usr/bin/env bash
# 040: the zram-init-lock scenario's quick plan (issue 33: a quick run measures what the quick
# notebook reads, and no more): fio at 1 job for randread, randwrite and randrw on zero and
# compressible50 pages, the bridge and bridge-uring on the seed's job (randrw-zero-j1) alone; no
# file of the random pattern, of more jobs, or of the bridge on any other job; env.txt's patterns,
# numjobs and quick_leaves_out say so. Every run it runs has its files, no error and non-zero IOPS,
# and nothing of the lab is left afterwards. The checks read the files alone, in bash; the golden
# output says what they found.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram
_have_cmd fio perf
_have_bridge
_test_begin
out=$LAB_STATE/out
zrams() { compgen -G '/sys/block/zram*' | sort; }
zrams_before=$(zrams)

LAB_OUT=$out "$LK" run zram-init-lock --quick 2>"$LAB_STATE/zram-init-lock.err" ||
	{ tail -n 20 "$LAB_STATE/zram-init-lock.err" >&2; exit 1; }

# ---------------------------------------------------------------- the checks, on the files alone

# env KEY: the value of KEY in env.txt ("KEY: value" lines), or nothing
env() { sed -n "s/^$1: //p" "$out/env.txt"; }
# first_json FILE: "ERROR IOPS" of the first job in a fio-style JSON (fio's, or the bridge's: both
# pretty-print one key a line), IOPS that job's read iops plus its write iops
first_json() {
	awk '/^ *"error" *:/ && e == "" { v = $0; sub(/^[^:]*: */, "", v); sub(/,$/, "", v); e = v }
		/^ *"(read|write)" *: *\{/ { s = 1 }
		s && /^ *"iops" *:/ { v = $0; sub(/^[^:]*: */, "", v); sub(/,$/, "", v); sum += v; s = 0; n++ }
		n == 2 { print e, sum; exit }' "$1"
}
yes() { if "$@"; then echo yes; else echo no; fi; }

echo "env.txt: patterns: $(env patterns), numjobs: $(env numjobs), perf_repeats: $(env perf_repeats)"
echo "quick_leaves_out names the random pattern, the cores' jobs and the bridge elsewhere: $(yes grep -q \
	"^the random pattern, numjobs .*4 .*, and the bridge and bridge-uring on every job but randrw-zero-j1" <<<"$(env quick_leaves_out)")"

kept=() missing=() bad=()
for pat in zero compressible50; do
	for rw in randread randwrite randrw; do kept+=("$rw-$pat-j1.fio"); done
done
kept+=(randrw-zero-j1.bridge randrw-zero-j1.bridge-uring)
for k in "${kept[@]}"; do
	ok=1
	for ext in .json .perf.csv .before.stat .after.stat; do
		[ -f "$out/$k$ext" ] || { missing+=("$k$ext"); ok=0; }
	done
	[ "$ok" = 1 ] || continue
	read -r err iops <<<"$(first_json "$out/$k.json")"
	if [ "${err:-x}" != 0 ] || ! awk -v i="${iops:-0}" 'BEGIN { exit !(i > 0) }'; then bad+=("$k: error ${err:-none}, iops ${iops:-none}"); fi
done
# every result file's NAME.TOOL, less the kept ones: what ran beyond the plan
extra=()
for f in "$out"/*.json; do
	k=$(basename "$f" .json)
	[[ " ${kept[*]} " == *" $k "* ]] || extra+=("$k")
done
echo "runs of the quick plan missing a file: ${missing[*]:-none}"
echo "runs with an error or zero IOPS: ${bad[*]:-none}"
echo "runs beyond the quick plan: ${extra[*]:-none}"
fills() { [ -f "$out/zero.fill.mm_stat" ] && [ -f "$out/compressible50.fill.mm_stat" ] && [ ! -e "$out/random.fill.mm_stat" ]; }
echo "fill of each pattern, none of random: $(yes fills)"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
[ "$(zrams)" = "$zrams_before" ] && echo "no zram device left"
