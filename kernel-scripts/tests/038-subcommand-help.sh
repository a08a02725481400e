#!/usr/bin/env bash
# 038: every lab-kernel.sh command answers --help (first) and -h (after arguments) with its own
# lines of the header (its line and the lines that continue it) and exit 0, acting on nothing:
# cleanup --help leaves a registry line that cleanup would drop. An unknown command stays bad
# input (exit 2). Needs no root.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LK=$KS_DIR/lab-kernel.sh
state=$(mktemp -d /tmp/lab-test.XXXXXX)
trap 'rm -rf "$state"' EXIT
export LAB_STATE=$state

# the header comment as usage prints it
mapfile -t header < <(sed -n '2,/^set /s/^# \{0,1\}//p' "$LK")

# block SUB: SUB's line of the header and the deeper-indented lines under it
block() {
	local i on=
	for i in "${!header[@]}"; do
		if [[ ${header[i]} =~ ^\ \ $1(\ |$) ]]; then
			on=1
		elif [ -n "$on" ] && [[ ${header[i]} != "   "* ]]; then
			break
		fi
		if [ -n "$on" ]; then printf '%s\n' "${header[i]}"; fi
	done
}

# help_of SUB ARG...: lab-kernel.sh SUB ARG...'s standard output; exit 0 and a usage line first,
# else a FAIL line on stderr and nothing
help_of() {
	local out rc=0
	out=$(bash "$LK" "$@" 2>"$state/err" </dev/null) || rc=$?
	if [ "$rc" -ne 0 ] || [[ $out != usage:* ]]; then
		echo "FAIL: lab-kernel.sh $*: exit $rc, stdout: $out, stderr: $(cat "$state/err")" >&2
		return 0
	fi
	printf '%s\n' "$out"
}

for sub in status up down run build lab-ab overhead refscale cleanup check fill iostats sched weight; do
	want=$(block "$sub")
	[ -n "$want" ] || { echo "$sub: no line in the header"; continue; }
	ok=yes
	for form in "--help" "x y -h"; do
		read -r -a args <<<"$form"
		got=$(help_of "$sub" "${args[@]}")
		[ "$(tail -n +2 <<<"$got")" = "$want" ] || ok="no ($form)"
	done
	echo "$sub: --help first and -h after arguments print its usage, exit 0: $ok"
done

# cleanup --help must not clean up: a line of a kind cleanup drops stays
mkdir -p "$state/kernel"
printf 'canary\tlab-test-038\t-\n' >"$state/kernel/registry"
before=$(cat "$state/kernel/registry")
help_of cleanup --help >/dev/null
[ "$(cat "$state/kernel/registry")" = "$before" ] && r=yes || r=no
echo "cleanup --help leaves the registry as it was: $r"

rc=0
bash "$LK" frobnicate --help >/dev/null 2>&1 || rc=$?
echo "an unknown command with --help: exit $rc"
