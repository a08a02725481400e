#!/usr/bin/env bash
# run.sh [TEST...]: run kernel-scripts tests (default: every tests/NNN-*.sh), blktests style.
#
# A test passes when it exits 0 and its standard output equals its golden file NNN-name.out;
# it is skipped when its output starts with "SKIP: reason". Prints PASS/FAIL/SKIP per test (with
# the seconds it took) and a final "N passed, N failed, N skipped"; exits non-zero on any failure.
# A test's standard error goes to $TMPDIR/lab-tests/NAME.err (kept on failure). A test gets 420 s
# unless its header says otherwise ("# timeout: SECONDS").
#
# Tests run one at a time, in order, except those whose header says "# lane: beside": they run one
# at a time too, in a second lane beside the first, from the start (the fleet's tests: they make no
# device, load no module and touch no registry, and wait mostly on ssh and Ansible; one lane
# after the other they took 181 s of a 1217 s ./lab test here, 2026-12-07). Their verdicts
# print as each ends, marked "(beside)"; the summary counts both lanes.
set -euo pipefail

TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LOG_DIR=${TMPDIR:-/tmp}/lab-tests
mkdir -p "$LOG_DIR"

# run_one TEST [MARK]: runs TEST, prints its verdict line (MARK after its name) and its reasons;
# returns 0 (passed), 1 (failed) or 3 (skipped)
run_one() {
	local t=$1 mark=${2:-} name out err rc=0 limit t0 took
	name=$(basename "$t" .sh)
	out=$LOG_DIR/$name.out err=$LOG_DIR/$name.err
	# a test that needs longer says so in a "# timeout: SECONDS" line (the lab kernel's build)
	limit=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$TESTS_DIR/$name.sh" | head -n 1)
	t0=$SECONDS
	timeout "${limit:-420}" bash "$TESTS_DIR/$name.sh" >"$out" 2>"$err" || rc=$?
	took="$((SECONDS - t0)) s"
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $name$mark (exit $rc, $took; stderr: $err)"
		tail -n 5 "$err" | sed 's/^/    /'
		return 1
	elif head -n 1 "$out" | grep -q '^SKIP: '; then
		echo "SKIP $name$mark ($(head -n 1 "$out" | sed "s/^SKIP: //"))"
		return 3
	elif [ -f "$TESTS_DIR/$name.out" ] && ! diff -u "$TESTS_DIR/$name.out" "$out" >"$LOG_DIR/$name.diff"; then
		echo "FAIL $name$mark (output differs from $name.out, $took)"
		sed 's/^/    /' "$LOG_DIR/$name.diff"
		return 1
	fi
	echo "PASS $name$mark ($took)"
}

# count: adds run_one's return to the tallies
pass=0 fail=0 skip=0
count() {
	case $1 in 0) pass=$((pass + 1)) ;; 3) skip=$((skip + 1)) ;; *) fail=$((fail + 1)) ;; esac
}

if [ $# -gt 0 ]; then tests=("$@"); else tests=("$TESTS_DIR"/[0-9][0-9][0-9]-*.sh); fi
serial=() beside=()
for t in "${tests[@]}"; do
	if grep -qx '# lane: beside' "$TESTS_DIR/$(basename "$t" .sh).sh"; then beside+=("$t"); else serial+=("$t"); fi
done

# the second lane: its verdicts to the terminal as they come, its tallies to a file
lane=$LOG_DIR/beside.tally
: >"$lane"
lane_pid=
if [ ${#beside[@]} -gt 0 ]; then
	(
		for t in "${beside[@]}"; do
			rc=0
			run_one "$t" " (beside)" || rc=$?
			echo "$rc" >>"$lane"
		done
	) &
	lane_pid=$!
fi
for t in "${serial[@]}"; do
	rc=0
	run_one "$t" || rc=$?
	count "$rc"
done
if [ -n "$lane_pid" ]; then wait "$lane_pid" || true; fi
while read -r rc; do count "$rc"; done <"$lane"
if [ "$(wc -l <"$lane")" -ne ${#beside[@]} ]; then
	echo "FAIL: the second lane ended after $(wc -l <"$lane") of its ${#beside[@]} tests"
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
