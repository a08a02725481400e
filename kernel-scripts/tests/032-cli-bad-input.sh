#!/usr/bin/env bash
# 032: every ./lab subcommand, given malformed arguments (three or more each), exits 2 with one
# line on stderr, no stack trace and no raw shell error, and makes nothing: no device, no registry
# line, no results folder. ./lab runs with the lab's own state (its build and registry), as a user
# runs it; the test compares that registry, /sys/block and results/ before and after. The rows run
# two at a time (a ./lab that refuses is mostly one JVM's start-up on one thread: 36 s for the 45
# rows one at a time in the last full ./lab test here), each with its own output files; their
# verdicts are read in the table's order.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(cd "$KS_DIR/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_have_root
REAL_REGISTRY=$LAB_REGISTRY
_test_begin

# One malformed command line a row: SUBCOMMAND ARGS...
table=$LAB_STATE/bad-args
cat >"$table" <<'ROWS'
demo --no-such-option
demo extra-argument
demo --quick=maybe
test --no-such-option
test extra-argument
test --quick=maybe
kernel up zram:abc
kernel up zram:-1G
kernel up loop:0
kernel up nosuch:1G
kernel up cgroup:a:5000
kernel run nosuchscenario
kernel run smoke --bogus
kernel frobnicate
kernel lab-ab nosuchfix
engine run /nonexistent.fio
engine run
engine --no-such-option
bridge run /nonexistent.fio
bridge run
bridge run /nonexistent.fio --no-such-option
bench nosuchkind
bench primitives --threads x
bench report bridge-vs-fio /nonexistent --command x
pair nosuchfix
pair --no-such-option
pair zram-init-lock --rounds x
pair zram-init-lock --headline-budget -5
pair zram-init-lock --id pair-zram-init-lock-2core-20261204
notebook /nonexistent
notebook
notebook /nonexistent --no-such-option
compare /nonexistent-a /nonexistent-b
compare
compare --no-such-option
fleet /nonexistent.ini -- pair dm-css-ref
fleet
fleet --no-such-option
fleet /etc/hostname -- frobnicate dm-css-ref
flamegraph /nonexistent out.svg
flamegraph
flamegraph --no-such-option
spec check /nonexistent.fio
spec render nosuchexample
spec frobnicate
ROWS

# state: what the lab has made, seen from outside
state() {
	cat "$REAL_REGISTRY" 2>/dev/null || true
	ls /sys/block
	ls -a "$ROOT/results"
	compgen -G '/sys/fs/cgroup/blkio/lab-*' || true
}

# row N ARGS...: ./lab ARGS, its exit status in row.N.rc, its stdout and stderr in row.N.out and .err
row() {
	local n=$1 rc=0
	shift
	env -u LAB_STATE timeout 60 "$ROOT/lab" "$@" >"$LAB_STATE/row.$n.out" 2>"$LAB_STATE/row.$n.err" </dev/null || rc=$?
	echo "$rc" >"$LAB_STATE/row.$n.rc"
}

env -u LAB_STATE "$ROOT/lab" --help >/dev/null 2>&1 # builds once if the sources changed
before=$(state)
rows=0 running=0
while read -r -a args; do
	rows=$((rows + 1))
	if [ "$running" -ge 2 ]; then wait -n || true; else running=$((running + 1)); fi
	row "$rows" "${args[@]}" &
done <"$table"
wait
after=$(state)
n=0 bad=0
declare -A per=()
while read -r -a args; do
	n=$((n + 1))
	per[${args[0]}]=$((${per[${args[0]}]:-0} + 1))
	rc=$(cat "$LAB_STATE/row.$n.rc" 2>/dev/null || echo none)
	lines=$(wc -l <"$LAB_STATE/row.$n.err")
	if [ "$rc" != 2 ] || [ "$lines" -ne 1 ] || grep -Eq 'Exception|^[[:space:]]+at |line [0-9]+:' "$LAB_STATE/row.$n.err"; then
		echo "FAIL ./lab ${args[*]}: exit $rc, $lines line(s) on stderr:"
		sed 's/^/  /' "$LAB_STATE/row.$n.err"
		bad=$((bad + 1))
	fi
done <"$table"
for sub in demo test kernel engine bridge bench pair notebook compare fleet flamegraph spec; do
	[ "${per[$sub]:-0}" -ge 3 ] || { echo "FAIL: only ${per[$sub]:-0} malformed commands for $sub"; bad=$((bad + 1)); }
done
if [ "$before" != "$after" ]; then
	echo "FAIL: the malformed commands left something behind:"
	diff <(echo "$before") <(echo "$after") | sed 's/^/  /' || true
	bad=$((bad + 1))
fi
echo "malformed commands: $((rows - bad)) of $rows gave exit 2 and one line, nothing made"
[ "$bad" -eq 0 ]
