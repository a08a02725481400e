#!/usr/bin/env bash
# 043: the lab kernel's A/B over boots (issue 34: a boot is a level of the estimate), its host half
# alone: kernel/ab-rows.py turns trials of two boots (rounds numbered across them) into lab-ab.tsv
# with each trial's boot in its last column, and a trials.tsv of one boot without the column (a run
# before boots) into boot 1; lab-ab refuses LAB_AB_BOOTS=0 with its reason and exit 2, writing no
# folder. Needs python3 only: the trials' files are made here, as the guest leaves them.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_have_cmd python3
_test_begin
out=$LAB_STATE/out
mkdir -p "$out/ab"

# trial PREFIX IOS TASK_CLOCK_MS OPS: the files one trial leaves in the guest
trial() {
	printf '{"jobs": [{"job options": {"numjobs": "2"}, "read": {"total_ios": %d, "runtime": 2000}, "write": {"total_ios": 0, "runtime": 0}}]}\n' \
		"$2" >"$out/$1.json"
	printf '%s,msec,task-clock,100,100.00,,\n' "$3" >"$out/$1.perf.csv"
	echo "0 $4" >"$out/$1.ops"
}
printf 'count\tround\tslot\tvariant\tvalue\tprefix\tboot\n' >"$out/ab/trials.tsv"
for b in 1 2; do
	r=$b # boot 1 ran round 1, boot 2 round 2
	trial "ab/N4-r$r-s1-before" 1000 $((2 + b)) 40000
	trial "ab/N4-r$r-s2-after" 1000 2 0
	printf '4\t%s\t1\tbefore\ton\tab/N4-r%s-s1-before\t%s\n4\t%s\t2\tafter\toff\tab/N4-r%s-s2-after\t%s\n' \
		"$r" "$r" "$b" "$r" "$r" "$b" >>"$out/ab/trials.tsv"
done
python3 "$KS_DIR/kernel/ab-rows.py" ab "$out"
echo "header: $(head -n 1 "$out/lab-ab.tsv")"
# round, variant, ns_per_io, ops_delta, boot
tail -n +2 "$out/lab-ab.tsv" | awk -F'\t' '{print "trial: round " $2 ", " $4 ", " $11 " ns/io, ops " $12 ", boot " $14}'

# a trials.tsv from before boots: no boot column, every trial boot 1
sed -i 's/\tboot$//; s/\t[12]$//' "$out/ab/trials.tsv"
python3 "$KS_DIR/kernel/ab-rows.py" ab "$out"
echo "without the column, boots: $(tail -n +2 "$out/lab-ab.tsv" | cut -f14 | sort -u | xargs)"

rc=0
LAB_OUT=$LAB_STATE/refused LAB_AB_BOOTS=0 bash "$KS_DIR/lab-kernel.sh" lab-ab dm-css-ref 2>"$LAB_STATE/err" || rc=$?
echo "LAB_AB_BOOTS=0: exit $rc, $(grep -o "LAB_AB_BOOTS must be a count >= 1, not '0'" "$LAB_STATE/err" || echo "no reason given")"
echo "no folder written: $(if [ -e "$LAB_STATE/refused" ]; then echo no; else echo yes; fi)"
