#!/usr/bin/env bash
# 019: the part-acct scenario (quick, 300 ms runs, both tools, zram and loop natively:
# LAB_PART_ACCT_DEVICES="zram loop"; null_blk natively is test 034's, in the guest VM playing a
# user's host) runs the quick plan's cells and no other (issue 33: zram's whole disk at 1 job, the
# calibration's; loop's disk and partition at the most jobs; not zram at the most jobs nor loop at
# 1 job where those differ; env.txt's quick_leaves_out names each cell it left out), writes every
# file of its LAB_OUT contract for the cells it runs, every run has no error
# and non-zero IOPS, queue/iostats really was 0 in the off runs and 1 in the on runs (on loop the
# target's /sys stat stands still with 0, for the disk and for the partition alike, and moves
# with 1; on every device what env.txt's stat_moved says matches the stat files), and nothing
# of the lab is left afterwards. The checks read the files alone, in bash; the golden output says
# what they found.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram loop
_have_cmd fio perf sfdisk
_have_bridge
_test_begin
out=$LAB_STATE/out
zrams() { compgen -G '/sys/block/zram*' | sort; }
zrams_before=$(zrams)

LAB_OUT=$out LAB_RUNTIME=300ms LAB_PART_ACCT_DEVICES="zram loop" LAB_PART_ACCT_GUEST=0 LAB_PART_ACCT_TOOLS="fio bridge-uring" "$LK" run part-acct --quick 2>"$LAB_STATE/part-acct.err" ||
	{ tail -n 20 "$LAB_STATE/part-acct.err" >&2; exit 1; }

# ---------------------------------------------------------------- the checks, on the files alone

# env KEY: the value of KEY in env.txt ("KEY: value" lines), or nothing
env() { sed -n "s/^$1: //p" "$out/env.txt"; }
# first_json FILE: "ERROR IOPS" of the first job in a fio-style JSON (fio's, or the bridge's: both
# pretty-print one key a line), IOPS being that job's read iops
first_json() {
	awk '/^ *"error" *:/ && e == "" { v = $0; sub(/^[^:]*: */, "", v); sub(/,$/, "", v); e = v }
		/^ *"read" *: *\{/ { r = 1 }
		r && /^ *"iops" *:/ { v = $0; sub(/^[^:]*: */, "", v); sub(/,$/, "", v); print e, v; exit }' "$1"
}
# yes TEST: "yes" or "no"
yes() { if "$@"; then echo yes; else echo no; fi; }

for k in environment kernel cores perf_repeats rounds runtime_s devices span targets numjobs cells quick_leaves_out \
	tools iostats_default stat_moved guest; do
	grep -q "^$k: " "$out/env.txt" || echo "env.txt lacks $k"
done
echo "env.txt: perf_repeats: $(env perf_repeats), rounds: $(env rounds), runtime_s: $(env runtime_s), targets: $(env targets), guest: $(env guest)"
cores=$(nproc)
jobs=(1)
if [ "$cores" -gt 1 ]; then jobs+=("$cores"); fi
echo "numjobs is 1 and the cores: $(yes [ "$(env numjobs)" = "${jobs[*]}" ])"
echo "kernel matches: $(yes [ "$(env kernel)" = "$(uname -r)" ])"

# the quick plan: "TARGET N" cells it runs (zram's disk at 1 job, loop's at the most); the others
# must leave no file, and quick_leaves_out must name them
nmax=${jobs[-1]}
kept=" zram-disk-j1 loop-disk-j$nmax loop-part-j$nmax "
extra=() unnamed=()
missing=() bad=()
declare -A moved=() runs=() # "TARGET V": runs whose stat moved, runs
for t in zram-disk loop-disk loop-part; do
	for j in "${jobs[@]}"; do
		if [[ $kept != *" $t-j$j "* ]]; then
			if compgen -G "$out/$t-iostats*-j$j-*" >/dev/null || compgen -G "$out/job-$t-j$j.*" >/dev/null; then extra+=("$t-j$j"); fi
			[[ " $(env quick_leaves_out) " == *" $t-j$j "* ]] || unnamed+=("$t-j$j")
			continue
		fi
		for f in "job-$t-j$j.fio" "job-$t-j$j.uring.fio"; do
			[ -f "$out/$f" ] || missing+=("$f")
		done
		for v in 0 1; do
			for r in 1 2; do
				for tool in fio bridge-uring; do
					name=$t-iostats$v-j$j-r$r.$tool
					ok=1
					for ext in .json .perf.csv .before.stat .after.stat; do
						[ -f "$out/$name$ext" ] || { missing+=("$name$ext"); ok=0; }
					done
					[ "$ok" = 1 ] || { bad+=("$name: files missing"); continue; }
					read -r err iops <<<"$(first_json "$out/$name.json")"
					if [ "${err:-x}" != 0 ] || ! awk -v i="${iops:-0}" 'BEGIN { exit !(i > 0) }'; then
						bad+=("$name: error ${err:-none}, iops ${iops:-none}")
					fi
					read -r b _ <"$out/$name.before.stat"
					read -r a _ <"$out/$name.after.stat"
					runs["$t $v"]=$((${runs["$t $v"]:-0} + 1))
					if [ "$a" != "$b" ]; then
						moved["$t $v"]=$((${moved["$t $v"]:-0} + 1))
					fi
				done
			done
		done
	done
done
echo "cells run beyond the quick plan: ${extra[*]:-none}"
echo "cells left out that quick_leaves_out does not name: ${unnamed[*]:-none}"
echo "missing files: ${missing[*]:-none}"
echo "runs with an error or zero IOPS: ${bad[*]:-none}"
# the stat's read I/Os: still in every off run, moving in every on run
none_moved() { [ "${moved["$1 0"]:-0}" = 0 ] && [ "${runs["$1 0"]:-0}" -gt 0 ]; }
all_moved() { [ "${moved["$1 1"]:-0}" = "${runs["$1 1"]:-x}" ]; }
for t in loop-disk loop-part; do
	echo "$t: read I/Os counted with iostats 0: $(none_moved "$t" && echo none || echo "${moved["$t 0"]:-0} of ${runs["$t 0"]:-0} runs"), with iostats 1: $(all_moved "$t" && echo "every run" || echo "${moved["$t 1"]:-0} of ${runs["$t 1"]:-0} runs")"
done
echo "zram-disk: read I/Os counted with iostats 1: $(all_moved zram-disk && echo "every run" || echo "${moved["zram-disk 1"]:-0} of ${runs["zram-disk 1"]:-0} runs")"
# env.txt's stat_moved: "DT iostatsV M/T, ..." for the 3 targets and both values, as counted here
agree=yes n=0
while read -r dt iv mt; do
	[ -n "$dt" ] || continue
	n=$((n + 1))
	v=${iv#iostats}
	[ "$mt" = "${moved["$dt $v"]:-0}/${runs["$dt $v"]:-0}" ] || agree=no
done < <(env stat_moved | sed 's/ (.*//' | tr ',' '\n' | sed 's/^ *//')
[ "$n" = 6 ] || agree=no
echo "env.txt stat_moved agrees with the stat files: $agree"
echo "perf-missing.txt: $(yes [ -f "$out/perf-missing.txt" ])"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
[ -z "$(_loop_orphans)" ] && echo "no lab loop devices"
[ "$(zrams)" = "$zrams_before" ] && echo "no zram device left"
