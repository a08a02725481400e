#!/usr/bin/env bash
# 046: ./lab fleet stopped while its hosts pair (SIGTERM, as Ctrl-C's SIGINT; a background job
# here ignores SIGINT): the lab runs fleet/stop.yml on the hosts whose run started, which kills
# the run's processes (LAB_FLEET_RUN in their environment) and removes its folder, then exits
# with 143; nothing of the run is left on either host or here (the archive it shipped, its work
# folder) and its results folder stays *.partial. The hosts are common/fleet.sh's. With
# stop-tasks.yml's kill removed the run's processes outlive the lab and this test fails (measured:
# 4 processes and every file of the shipped lab left on each host). Needs root, sshd and
# ansible-core.
# timeout: 300
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(cd "$KS_DIR/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_fleet_have
_test_begin
_test_cleanup() { _fleet_cleanup; }
_fleet_hosts
F=$FLEET_DIR
id=fleet-stop

env -u LAB_STATE ANSIBLE_PIPELINING=True "$ROOT/lab" fleet "$F/inventory" --time-limit 400 --results "$F/results" --id "$id" \
	-- pair zram-init-lock --quick --threads 1 --rounds 1 --no-flamegraphs >"$F/out" 2>"$F/err" &
lab=$!
# both hosts' pairings under way: their JVMs carry the run's mark
for _ in $(seq 120); do
	[ "$(_fleet_run_procs "$id")" -ge 4 ] && break
	sleep 1
done
echo "both hosts pairing before the stop: $([ "$(_fleet_run_procs "$id")" -ge 4 ] && echo yes || echo no)"
kill -TERM "$lab"
rc=0
wait "$lab" || rc=$?
echo "exit: $rc"
echo "processes of the run left: $(_fleet_run_procs "$id")"
for h in host-a host-b; do echo "$h: left on the host: $(find "$F/$h" -mindepth 1 | wc -l)"; done
echo "left here (the lab's shipped archive, its work folder): $(find "$ROOT/.lab/fleet" -mindepth 1 -maxdepth 1 -newer "$F/inventory" 2>/dev/null | wc -l)"
echo "results: $(find "$F/results" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort | paste -sd' ' -)"
echo "it said so: $(grep -q 'fleet: stopping the run on host-a, host-b' "$F/err" && echo yes || echo no)"
echo "each host's stop said nothing was left: $(grep -c '^lab: fleet: host-[ab]: stopped; left: nothing$' "$F/err")"
