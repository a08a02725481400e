#!/usr/bin/env bash
# 049: every kernel command that takes a DEV takes a block device's path and refuses anything
# else, exit 2, one line naming the argument, touching nothing: a lab loop's bare name (loop1),
# which fill once handed to fio as a file in the current folder (fio: "you need to specify
# size="), a dm:NAME, a path that is no block device. The same loop by its path passes.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver loop
_test_begin

l=$("$LK" up loop:16M)
name=${l#/dev/}
cg=$LAB_STATE/cgroup-none
cd "$LAB_STATE"
# refusal WHAT CMD...: CMD's exit status and its one line on stderr, the loop's name shown as <loop>
refusal() {
	local what=$1 rc=0 err
	shift
	err=$("$LK" "$@" 2>&1 >/dev/null) || rc=$?
	err=${err//"$name"/<loop>}
	echo "$what: exit $rc, $(wc -l <<<"$err") line: ${err//"$LAB_STATE"/\$LAB_STATE}"
}
refusal "fill by name" fill "$name" zero
refusal "check by name" check "$name"
refusal "iostats by name" iostats "$name" 0
refusal "sched by name" sched "$name" none
refusal "weight by name" weight "$cg" "$name" 300
refusal "down by name" down "$name"
refusal "check dm:NAME" check dm:lab-ours
refusal "fill a path that is no block device" fill /dev/null zero
refusal "fill a file" fill "$LAB_STATE/data" zero
if [ -e "$name" ] || [ -e "$LAB_STATE/data" ]; then echo "a file made in the current folder"; else echo "no file made in the current folder"; fi
"$LK" check "$l" | sed "s|$l|<loop>|"
"$LK" fill "$l" zero && echo "fill by path: done"
