#!/usr/bin/env bash
# 053: ./lab fleet gathers a cost profile per host: -- profile runs ./lab profile on each host
# (here host-a, a user without root, a quick profile at one thread) with the committed pair runs
# the prediction reads shipped beside the lab; the host's run folder comes back with its
# profile.json and its notebook (each fix at scale on that host), the fleet's run keeps the
# profile as raw/profiles/host-a.json and its page lists it kind by kind, with the ./lab profile
# line that predicts on it; nothing is left on the host; the gathered profile is taken by
# ./lab profile --profile (refused files are exit 2, so a clean notebook --check is the proof
# here). -- profile --profile FILE is refused (a host has no file of the controller's). Mutation,
# measured: run.yml with ./lab pair hard-coded again, host-a fails (state failed, the fleet exits 1) and no profile
# is gathered. Needs root, sshd, unshare and ansible-core.
# timeout: 300
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(cd "$KS_DIR/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_fleet_have
_test_begin
_test_cleanup() { _fleet_cleanup; }
_fleet_hosts host-a
F=$FLEET_DIR

rc=0
env -u LAB_STATE "$ROOT/lab" fleet "$F/inventory" --results "$F/results" -- profile --profile "$F/x.json" >"$F/out" 2>"$F/err" || rc=$?
echo "-- profile --profile: exit $rc, $(grep -c 'a host has no FILE' "$F/err") line saying why"

id=fleet-profile
rc=0
env -u LAB_STATE "$ROOT/lab" fleet "$F/inventory" --limit host-a --results "$F/results" --id "$id" \
	-- profile --quick --threads 1 >"$F/out" 2>"$F/err" || rc=$?
echo "exit: $rc"
run=$F/results/$id
if [ ! -d "$run" ]; then
	tail -n 30 "$F/err" >&2
	exit 1
fi
awk -F'\t' 'NR > 1 { print $1 ": " $2 }' "$run/raw/fleet/hosts.tsv"
echo "host-a's run folder came back with its profile.json and notebook: $([ -s "$run/hosts/host-a/$id/profile.json" ] \
	&& grep -q '^## dm-css-ref: at scale' "$run/hosts/host-a/$id/NOTEBOOK.md" && echo yes || echo no)"
echo "the fleet keeps it as raw/profiles/host-a.json: $(cmp -s "$run/hosts/host-a/$id/profile.json" "$run/raw/profiles/host-a.json" && echo yes || echo no)"
row="^| host-a | .*| \`cas\` .*\`rmw\` "
echo "its page lists host-a's profile: $(grep -q "$row" "$run/NOTEBOOK.md" && echo yes || echo no)"
echo "and the line to predict on it: $(grep -q "./lab profile --profile $id/raw/profiles/host-a.json" "$run/NOTEBOOK.md" && echo yes || echo no)"
echo "host-a: left on the host: $(find "$F/host-a" -mindepth 1 | wc -l)"
rc=0
"$ROOT/lab" notebook "$run" --check >"$F/out" 2>"$F/err" || rc=$?
echo "the fleet's notebook regenerates: exit $rc"
