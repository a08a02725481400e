#!/usr/bin/env bash
# 045: ./lab fleet over an inventory of three hosts. Two are this machine: an sshd of the test's
# own on a private loopback port, a key made for the test, a user of the test's own (not root,
# so each pairing is the JVM side only), each host its own working directory. The third is not
# there (a closed port). The fleet checks all three and leaves out the unreachable one with its
# reason, ships this commit to the two, runs a short JVM-only pairing on both in parallel (each
# calibrated from the shipped lab's committed run, as its kernel side cannot run), fetches both
# run folders whole and writes one comparison of them; it exits 1 (a host did not run) and leaves
# nothing on the hosts. With the fetches removed from fleet/run.yml the two hosts have no run
# folder and the output differs; with the pairs writing outside the shipped lab's results/ and
# Calibrations looking only beside the run, neither host is calibrated. Needs root, sshd and
# ansible-core.
# timeout: 600
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

id=${LAB_FLEET_ID:-fleet-loopback}
rc=0
# the two hosts run at once, as two machines would (common/fleet.sh)
env -u LAB_STATE "$ROOT/lab" fleet "$F/inventory" --limit 400 --results "$F/results" --id "$id" \
	-- pair zram-init-lock --quick --threads 1 --rounds 1 --headline-budget 10 --no-flamegraphs >"$F/out" 2>"$F/err" || rc=$?
echo "exit: $rc"
run=$F/results/$id
if [ ! -d "$run" ]; then
	tail -n 30 "$F/err" >&2
	exit 1
fi
# every host, its state, and the unreachable one's reason
while IFS=$'\t' read -r host state reason _; do
	[ "$host" = host ] && continue
	case $state in unreachable) echo "$host: $state: $(grep -qi 'connect' <<<"$reason" && echo "a connection reason" || echo "$reason")" ;;
	*) echo "$host: $state" ;;
	esac
done <"$run/raw/fleet/hosts.tsv"
for h in host-a host-b; do
	d=$run/hosts/$h/$id
	echo "$h: run folder fetched: $([ -f "$d/summary.json" ] && [ -f "$d/NOTEBOOK.md" ] && [ -d "$d/raw" ] && echo yes || echo no)"
	echo "$h: its pair's terminal: $([ -s "$run/hosts/$h/pair.log" ] && echo yes || echo no)"
	echo "$h: calibrated from a committed run of the shipped lab: $(grep -q 'taken from the committed run' "$run/hosts/$h/pair.log" && echo yes || echo no)"
	echo "$h: JVM side only: $(awk -F'\t' -v h="$h" '$1 == h' "$run/raw/fleet/hosts.tsv" | grep -q 'not root' && echo yes || echo no)"
	echo "$h: left on the host: $(find "$F/$h" -mindepth 1 | wc -l)"
done
echo "compared: $(find "$run/raw/compare" -name '*.summary.json' | sed 's|.*/||' | sort | paste -sd' ' -)"
for s in '## Hosts' '## Runs compared' '## Headlines per run'; do
	echo "notebook has $s: $(grep -qx "$s" "$run/NOTEBOOK.md" && echo yes || echo no)"
done
echo "notebook lists the unreachable host: $(grep -qF "| \`gone\` | unreachable |" "$run/NOTEBOOK.md" && echo yes || echo no)"
echo "a headline chart per fix: $(find "$run/charts" -name 'compare-*-headline.svg' | wc -l)"
echo "processes of the run left: $(_fleet_run_procs "$id")"
"$ROOT/lab" notebook "$run" --check >/dev/null 2>&1 && echo "its notebook regenerates from raw/: yes"
# LAB_FLEET_KEEP=DIR keeps the fleet's folder (results/fleet-loopback-* is one such run)
if [ -n "${LAB_FLEET_KEEP:-}" ]; then cp -a "$run" "$LAB_FLEET_KEEP"; fi
