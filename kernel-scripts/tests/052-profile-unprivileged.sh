#!/usr/bin/env bash
# 052: ./lab profile as a user without root, as a user runs it: a --profile file with a kind
# missing is refused (exit 2, one line naming the file and the field, no results folder); a quick
# profile (one thread, gap 0, one round: the sweep a test can afford) writes profile.json with
# every kind, an at-scale section for each of the four contention fixes, the seeds' table with a
# row each, and a notebook that ./lab notebook --check regenerates byte for byte. ./lab runs with
# the lab's own build (its state), as the user, who owns only the test's folder. Mutations,
# measured: the missing-kind check taken out of CostProfile.read, the bad file is taken and the
# profile runs and fails later (exit 1, a results folder); the seeds' rows left out of the page, "seed rows: 0".
# timeout: 300
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(cd "$KS_DIR/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_have_root
_have_cmd useradd userdel runuser lscpu
REAL_STATE=$LAB_STATE
_test_begin
PROF_USER=labprof$$
_test_cleanup() { userdel "$PROF_USER" 2>/dev/null || true; }
D=$LAB_STATE/profile
mkdir -p "$D/home"
chmod 755 "$LAB_STATE"
useradd --system --no-create-home --home-dir "$D/home" --shell /bin/bash "$PROF_USER"
chown -R "$PROF_USER" "$D"
as_user() { runuser -u "$PROF_USER" -- env HOME="$D/home" LAB_STATE="$REAL_STATE" "$ROOT/lab" "$@"; }

sed 's/"mutex"/"mutexes"/' "$ROOT/app/src/main/resources/lab/profile/published/ice-lake-sp-2x32.json" >"$D/other.json"
rc=0
as_user profile --profile "$D/other.json" --quick --threads 1 --results "$D/results" >"$D/out" 2>"$D/err" || rc=$?
echo "a profile without the mutex: exit $rc"
echo "a profile without the mutex: one line naming the file and field: $([ "$(wc -l <"$D/err")" -eq 1 ] \
	&& grep -q "^lab: profile: $D/other.json: kinds.mutex: missing" "$D/err" && echo yes || echo no)"
echo "a profile without the mutex: results folder: $([ -e "$D/results" ] && echo made || echo none)"

rc=0
as_user profile --quick --threads 1 --results "$D/results" --id p >"$D/out" 2>"$D/err" || rc=$?
echo "quick profile as $([ "$(id -u "$PROF_USER")" -ne 0 ] && echo "a user" || echo root): exit $rc"
P=$D/results/p
for k in rmw cas rwsem-read mutex store srcu percpu-slot; do
	printf '%s' "profile.json prices $k: "
	python3 -c 'import json,sys; k=json.load(open(sys.argv[1]))["kinds"][sys.argv[2]]; print("yes" if k["service_ns"]["value"] >= 0 and len(k["transfer_ns"]["ci95"]) == 2 else "no")' \
		"$P/profile.json" "$k" 2>/dev/null || echo no
done
for f in dm-css-ref zram-init-lock part-acct thin-bufio-lock; do
	echo "$f: at scale: $(grep -q "^## $f: at scale" "$P/NOTEBOOK.md" && echo yes || echo no)"
done
echo "seed rows: $(grep -cE '^\| (dm-css-ref|zram-init-lock|part-acct|thin-bufio-lock) \| [0-9.]+ \|' "$P/NOTEBOOK.md" || true)"
rc=0
as_user notebook "$P" --check >"$D/out" 2>"$D/err" || rc=$?
echo "notebook --check: exit $rc"
