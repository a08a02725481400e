#!/usr/bin/env bash
# run.sh [TEST...]: run kernel-scripts tests (default: every tests/NNN-*.sh), blktests style.
#
# A test passes when it exits 0 and its standard output equals its golden file NNN-name.out;
# it is skipped when its output starts with "SKIP: reason". Prints PASS/FAIL/SKIP per test (with
# the seconds it took) and a final "N passed, N failed, N skipped"; exits non-zero on any failure.
# A test's standard error goes to $TMPDIR/lab-tests/NAME.err (kept on failure). A test gets 420 s
# unless its header says otherwise ("# timeout: SECONDS").
set -euo pipefail

TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LOG_DIR=${TMPDIR:-/tmp}/lab-tests
mkdir -p "$LOG_DIR"

pass=0 fail=0 skip=0
if [ $# -gt 0 ]; then tests=("$@"); else tests=("$TESTS_DIR"/[0-9][0-9][0-9]-*.sh); fi
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	out=$LOG_DIR/$name.out err=$LOG_DIR/$name.err rc=0
	# a test that needs longer says so in a "# timeout: SECONDS" line (the lab kernel's build)
	limit=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$TESTS_DIR/$name.sh" | head -n 1)
	t0=$SECONDS
	timeout "${limit:-420}" bash "$TESTS_DIR/$name.sh" >"$out" 2>"$err" || rc=$?
	took="$((SECONDS - t0)) s"
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $name (exit $rc, $took; stderr: $err)"
		tail -n 5 "$err" | sed 's/^/    /'
		fail=$((fail + 1))
	elif head -n 1 "$out" | grep -q '^SKIP: '; then
		echo "SKIP $name ($(head -n 1 "$out" | sed "s/^SKIP: //"))"
		skip=$((skip + 1))
	elif [ -f "$TESTS_DIR/$name.out" ] && ! diff -u "$TESTS_DIR/$name.out" "$out" >"$LOG_DIR/$name.diff"; then
		echo "FAIL $name (output differs from $name.out, $took)"
		sed 's/^/    /' "$LOG_DIR/$name.diff"
		fail=$((fail + 1))
	else
		echo "PASS $name ($took)"
		pass=$((pass + 1))
	fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
