#!/usr/bin/env bash
# 052: ./lab profile as a user without root, and ./lab fleet gathering a cost profile per host.
# A --profile file with a kind missing is refused (exit 2, one line naming the file and the field,
# no results folder). -- profile --profile FILE is refused by the fleet (a host has no file of the
# controller's). Then ./lab fleet -- profile runs ./lab profile on host-a (a user without root; a
# quick profile at one thread, the sweep a test can afford), with the committed pair runs the
# prediction reads shipped beside the lab: the host's run folder comes back with a profile.json
# that prices every kind, a notebook with an at-scale section for each of the four contention
# fixes and the seeds' table with a row each, which ./lab notebook --check regenerates byte for
# byte; the fleet's run keeps the profile as raw/profiles/host-a.json and its page lists it kind
# by kind, with the ./lab profile line that predicts on it; nothing is left on the host.
# Mutations, measured: the missing-kind check taken out of CostProfile.read, the bad file is
# taken and the profile runs and fails later (exit 1, a results folder); the seeds' rows left out
# of the page, "seed rows: 0"; run.yml with ./lab pair hard-coded again, host-a fails (state
# failed, the fleet exits 1) and no profile is gathered. Needs root, sshd, unshare and ansible-core.
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

sed 's/"mutex"/"mutexes"/' "$ROOT/app/src/main/resources/lab/profile/published/ice-lake-sp-2x32.json" >"$F/other.json"
rc=0
env -u LAB_STATE "$ROOT/lab" profile --profile "$F/other.json" --quick --threads 1 --results "$F/results" >"$F/out" 2>"$F/err" || rc=$?
echo "a profile without the mutex: exit $rc"
echo "a profile without the mutex: one line naming the file and field: $([ "$(wc -l <"$F/err")" -eq 1 ] \
	&& grep -q "^lab: profile: $F/other.json: kinds.mutex: missing" "$F/err" && echo yes || echo no)"
echo "a profile without the mutex: results folder: $([ -e "$F/results" ] && echo made || echo none)"
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
awk -F'\t' 'NR > 1 { print $1 ": " $2 ": " $3 }' "$run/raw/fleet/hosts.tsv"
P=$run/hosts/host-a/$id
for k in rmw cas rwsem-read mutex store srcu percpu-slot; do
	printf '%s' "host-a's profile.json prices $k: "
	python3 -c 'import json,sys; k=json.load(open(sys.argv[1]))["kinds"][sys.argv[2]]; print("yes" if k["service_ns"]["value"] >= 0 and len(k["transfer_ns"]["ci95"]) == 2 else "no")' \
		"$P/profile.json" "$k" 2>/dev/null || echo no
done
for f in dm-css-ref zram-init-lock part-acct thin-bufio-lock; do
	echo "$f at scale on host-a: $(grep -q "^## $f: at scale" "$P/NOTEBOOK.md" && echo yes || echo no)"
done
echo "seed rows: $(grep -cE '^\| (dm-css-ref|zram-init-lock|part-acct|thin-bufio-lock) \| [0-9.]+ \|' "$P/NOTEBOOK.md" || true)"
rc=0
"$ROOT/lab" notebook "$P" --check >"$F/out" 2>"$F/err" || rc=$?
echo "host-a's notebook regenerates: exit $rc"
echo "the fleet keeps it as raw/profiles/host-a.json: $(cmp -s "$P/profile.json" "$run/raw/profiles/host-a.json" && echo yes || echo no)"
row="^| host-a | .*| \`cas\` .*\`rmw\` "
echo "its page lists host-a's profile: $(grep -q "$row" "$run/NOTEBOOK.md" && echo yes || echo no)"
echo "and the line to predict on it: $(grep -q "./lab profile --profile $id/raw/profiles/host-a.json" "$run/NOTEBOOK.md" && echo yes || echo no)"
echo "host-a: left on the host: $(find "$F/host-a" -mindepth 1 | wc -l)"
rc=0
"$ROOT/lab" notebook "$run" --check >"$F/out" 2>"$F/err" || rc=$?
echo "the fleet's notebook regenerates: exit $rc"
