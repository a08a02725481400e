#!/usr/bin/env bash
# 045: ./lab fleet over hosts that look like machines (common/fleet.sh: each an sshd in namespaces
# of its own on 127.0.0.N, its own machine id and host key, keys checked; a user of the test's
# own, not root, so each pairing is the JVM side only, calibrated from the committed run the lab
# ships): host-a, host-c, and one that is not there (gone: connection refused). host-c dies in
# the middle of its pairing: its namespace killed (its sshd, the pair's JVMs, everything in it),
# as a machine that loses power. The fleet leaves gone out with its reason, records host-c
# "unreachable during the run" and, since it is still away at the end, that what it left is
# unknown; host-a finishes and is compared (the notebook's hosts table, its headline with its
# interval); the fleet ends within a minute of it, leaves nothing of the run on it, and exits 1
# (a host did not finish). LAB_FLEET_KEEP=DIR keeps the run and adds a second survivor, host-b, so
# that the kept notebook has a host-to-host ratio (checked too: exit 1 without it); the output
# is the same (results/fleet-hosts-* is such a run).
# Mutations, measured: run.yml waiting as it did before (async with `poll: 5`, whose polls retry a
# dead host's ssh errors until the time limit) holds the fleet until --time-limit and fails here;
# without the end's stop.yml on hosts that were cut off (cleanCutOff) host-c's left is "?".
# Needs root, sshd, unshare and ansible-core.
# timeout: 600
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(cd "$KS_DIR/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_fleet_have
_test_begin
_test_cleanup() { _fleet_cleanup; }
survivors=(host-a)
if [ -n "${LAB_FLEET_KEEP:-}" ]; then survivors=(host-a host-b); fi
_fleet_hosts "${survivors[@]}" host-c
F=$FLEET_DIR

id=${LAB_FLEET_ID:-fleet-hosts}
rc=0
# pipelining, as a user's ansible.cfg would set it: each task's module on the ssh session's stdin
env -u LAB_STATE ANSIBLE_PIPELINING=True "$ROOT/lab" fleet "$F/inventory" --time-limit 400 --results "$F/results" \
	--id "$id" -- pair zram-init-lock --quick --threads 1 --rounds 1 --headline-budget 10 --no-flamegraphs \
	>"$F/out" 2>"$F/err" &
lab=$!
# host-c's pair under way (its ./lab, timeout and JVM carry the run's mark), then host-c dies
pairing=no
for _ in $(seq 400); do
	if [ "$(_fleet_host_run_procs host-c "$id")" -ge 3 ]; then
		pairing=yes
		break
	fi
	kill -0 "$lab" 2>/dev/null || break
	sleep 0.5
done
echo "host-c pairing when it died: $pairing"
_fleet_kill_host host-c
wait "$lab" || rc=$?
ended=$(date +%s.%N)
echo "exit: $rc"
run=$F/results/$id
if [ ! -d "$run" ]; then
	tail -n 30 "$F/err" >&2
	exit 1
fi
# gone's and host-c's state and reasons, and each survivor's
# (awk: read would merge the tabs around an empty column)
ok=yes
while IFS='|' read -r host state reason left; do
	case $host in
	gone) echo "$host: $state: $(grep -q 'Connection refused' <<<"$reason" && echo "connection refused" || echo "$reason")" ;;
	host-c) echo "$host: $state${left:+ (left: ${left%%:*})}" ;;
	*) [ "$state" = ok ] || ok="no ($host: $state: $reason)" ;;
	esac
done < <(awk -F'\t' 'NR > 1 { print $1 "|" $2 "|" $3 "|" $13 }' "$run/raw/fleet/hosts.tsv")
echo "the survivors: ok: $ok"
# each check over every survivor: yes when it holds for all
each() {
	local h
	for h in "${survivors[@]}"; do
		d=$run/hosts/$h
		eval "$1" || {
			echo "no ($h)"
			return 0
		}
	done
	echo yes
}
# shellcheck disable=SC2016 # each() evaluates it, per survivor
echo "the survivors: run folder fetched: $(each '[ -f "$d/$id/summary.json" ] && [ -f "$d/$id/NOTEBOOK.md" ] && [ -d "$d/$id/raw" ]')"
# shellcheck disable=SC2016 # each() evaluates it, per survivor
echo "the survivors: their pair's terminal: $(each '[ -s "$d/pair.log" ]')"
# shellcheck disable=SC2016 # each() evaluates it, per survivor
echo "the survivors: their cleanup's output says nothing left: $(each 'grep -qx "left: nothing" "$d/cleanup.log"')"
# shellcheck disable=SC2016 # each() evaluates it, per survivor
echo "the survivors: calibrated from a committed run of the shipped lab: $(each 'grep -q "taken from the committed run" "$d/pair.log"')"
# shellcheck disable=SC2016 # each() evaluates it, per survivor
echo "the survivors: nothing left on them: $(each '[ -z "$(find "$F/$h" -mindepth 1)" ]')"
echo "host-c: processes left: $(_fleet_host_procs host-c)"
# the last survivor's pair ended (its event's time) less than a minute before the fleet did
python3 - "$run/raw/fleet/run/events.jsonl" "$ended" "${survivors[@]}" <<'PY'
import json, sys
last = max(e["time"] for e in map(json.loads, open(sys.argv[1]))
           if e.get("task") == "how the pair ended" and e.get("host") in sys.argv[3:])
print("the fleet ended within a minute of the last survivor:", "yes" if float(sys.argv[2]) - last < 60 else "no (%.0f s)" % (float(sys.argv[2]) - last))
PY
echo "compared: the survivors: $([ "$(find "$run/raw/compare" -name '*.summary.json' | sed 's|.*/[0-9]*-||; s|\.summary\.json$||' | sort | paste -sd' ' -)" = "${survivors[*]}" ] && echo yes || echo no)"
echo "the inventory used in place: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("yes" if d["inventory"] == [sys.argv[2]] and d["hosts"] == sorted(["gone", "host-c"] + sys.argv[3:]) else d)' "$run/raw/fleet/inventory.json" "$F/inventory" "${survivors[@]}")"
echo "no copy of it: $([ ! -e "$run/raw/fleet/inventory" ] && echo yes || echo no)"
echo "the shipped archive's size logged: $(grep -qE '^lab: fleet: shipping [0-9.]+ MB: the lab at HEAD without results/' "$F/err" && echo yes || echo no)"
for s in '## Hosts' '## Runs compared' '## Headlines per run'; do
	echo "notebook has $s: $(grep -qx "$s" "$run/NOTEBOOK.md" && echo yes || echo no)"
done
echo "notebook lists host-c's state: $(grep -qF "\`host-c\` | unreachable during the run |" "$run/NOTEBOOK.md" && echo yes || echo no)"
# shellcheck disable=SC2016 # the backquotes are the notebook's
echo "notebook has each survivor's headline with its interval: $(each 'grep -qE "^\| \`$h\` \| calibrated, .* \| [0-9.]+ \[[0-9.]+–[0-9.]+\]x, " "$run/NOTEBOOK.md"')"
# shellcheck disable=SC2016 # the backquotes are the notebook's
echo "notebook flags the calibration as another machine's: $(each 'grep -q "^| \`$h\` | ok |.*\*\*another machine.s (run pair-zram-init-lock-" "$run/NOTEBOOK.md"')"
echo "Ansible's logs name the lab as ./, not its path here: $(grep -rqF "$ROOT/" "$run/raw/fleet" && echo no || echo yes)"
echo "processes of the run left: $(_fleet_run_procs "$id")"
"$ROOT/lab" notebook "$run" --check >/dev/null 2>&1 && echo "its notebook regenerates from raw/: yes"
# LAB_FLEET_KEEP=DIR keeps the fleet's folder, whose notebook must have host-a over host-b with its interval
if [ -n "${LAB_FLEET_KEEP:-}" ]; then
	cp -a "$run" "$LAB_FLEET_KEEP"
	# shellcheck disable=SC2016 # the backquotes are the notebook's
	grep -qE '^\| `host-a` \| `host-b` \| calibrated \| (~ )?[0-9.]+ \[[0-9.]+–[0-9.]+\]x' "$run/NOTEBOOK.md" ||
		{ echo "the kept notebook has no host-a over host-b ratio with its interval" >&2; exit 1; }
fi
