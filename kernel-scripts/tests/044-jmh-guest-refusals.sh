#!/usr/bin/env bash
# 044: lab-kernel.sh jmh-guest (kernel/jmh.sh, the JVM model's JMH runs in the guest, issue 34)
# refuses what it cannot run before it boots anything: no LAB_OUT folder, a folder without a runs
# file, an unknown --kernel or --source, an unknown option; each exits 2 with its reason and leaves
# the folder as it was (no guest.txt, no console.log). The guest half refuses to run on a host.
# Needs nothing but bash: nothing here boots.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_test_begin
out=$LAB_STATE/out
mkdir -p "$out"

# refused WHAT REASON [ENV=VALUE...] -- ARG...: runs jmh-guest with ARG (LAB_OUT=$out unless an
# ENV says otherwise) and prints its exit status and whether REASON was given
refused() {
	local what=$1 reason=$2 rc=0
	shift 2
	local env=(LAB_OUT="$out")
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	env "${env[@]}" bash "$KS_DIR/lab-kernel.sh" jmh-guest "$@" 2>"$LAB_STATE/err" || rc=$?
	echo "$what: exit $rc, $(if grep -qF -- "$reason" "$LAB_STATE/err"; then echo "$reason"; else echo "no reason given: $(cat "$LAB_STATE/err")"; fi)"
}

refused "no folder" "LAB_OUT must name a folder holding the runs files" LAB_OUT="$LAB_STATE/none" --
refused "no runs file" "no runs-*.txt in" --
echo "cell Primitives.getPut\$ -t 1" >"$out/runs-r1.txt"
refused "--kernel ubuntu" "--kernel 'ubuntu' is not debian or lab" -- --kernel ubuntu
refused "--source 5.10" "--source '5.10' is not 6.1 or 6.12" -- --source 5.10
refused "--kernel without a value" "--kernel needs debian or lab" -- --kernel
refused "--forks 2" "unknown option '--forks'" -- --forks 2
echo "folder left as it was: $(cd "$out" && echo *)"
echo "no folder made: $(if [ -e "$LAB_STATE/none" ]; then echo no; else echo yes; fi)"

rc=0
OUT=$out bash "$KS_DIR/kernel/jmh-guest.sh" 2>"$LAB_STATE/err" || rc=$?
echo "the guest half on a host: exit $rc, $(grep -o 'runs inside the lab guest VM' "$LAB_STATE/err" || echo "no reason given")"
