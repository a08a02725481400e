#!/usr/bin/env bash
# 048: a process a scenario leaves running when it ends (one its parent left behind, as fio's job
# process is when a Ctrl-C ends fio as it starts the job: test 033) is killed by the scenario's
# teardown (_scenario_strays), and the teardown says so; a process started outside the scenario,
# the same program, is left alone. Needs nothing but /proc.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_test_begin
stray=

# outside any scenario: must survive the scenario's teardown
env -u LAB_SCENARIO sleep 300 </dev/null >/dev/null 2>&1 &
outside=$!
_test_cleanup() { kill "$outside" ${stray:+"$stray"} 2>/dev/null || true; }

# the scenario: its traps, then a sleep orphaned at once (a subshell starts it and ends), then exit
# shellcheck disable=SC2016 # expanded by the scenario's bash
env -u LAB_SCENARIO bash -c '
	. "$1/common/rc.sh"
	_scenario_traps
	( sleep 300 </dev/null >/dev/null 2>&1 & echo $! >"$2/stray.pid" )
	exit 0
' scenario "$KS_DIR" "$LAB_STATE" 2>"$LAB_STATE/scenario.err"
stray=$(cat "$LAB_STATE/stray.pid")
# running: there and not a zombie (a killed orphan waits for init to reap it)
running() { [ -e "/proc/$1" ] && [ "$(cut -d' ' -f3 "/proc/$1/stat")" != Z ]; }
for _ in $(seq 50); do if ! running "$stray"; then break; fi; sleep 0.1; done
if running "$stray"; then echo "the stray: still running"; else echo "the stray: gone"; fi
if kill -0 "$outside" 2>/dev/null; then echo "the sleep outside the scenario: running"; else echo "the sleep outside the scenario: gone"; fi
sed -n 's/^lab-kernel: killed a process the run left behind: [0-9]* /teardown: killed a process the run left behind: /p' "$LAB_STATE/scenario.err"
