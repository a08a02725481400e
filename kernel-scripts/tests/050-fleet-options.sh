#!/usr/bin/env bash
# 050: ./lab fleet's options mean what Ansible's do, and the user's Ansible set-up is Ansible's.
# The inventory is a directory (hosts, and group_vars/all.yml with the connection variables),
# used where it is; an ansible.cfg found through ANSIBLE_CONFIG sets callback_result_format = yaml
# and pipelining; -v goes to Ansible; --limit host-b runs host-b alone (the run records the
# directory and the one host). --time-limit 5 ends host-b's pairing: recorded "timed out after
# 5 s", its processes gone, nothing left on it, exit 1. Mutations, measured: the --limit not
# passed to ansible-playbook checks host-a and gone too; run.yml without timeout(1) lets the
# pair run on to its end (no "timed out"). Needs root, sshd, unshare and ansible-core.
# timeout: 300
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(cd "$KS_DIR/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_fleet_have
_test_begin
_test_cleanup() { _fleet_cleanup; }
_fleet_hosts host-a host-b
F=$FLEET_DIR
_fleet_inventory_dir "$F/inventory.d"
printf '[defaults]\ncallback_result_format = yaml\n\n[connection]\npipelining = True\n' >"$F/ansible.cfg"

id=fleet-options
rc=0
env -u LAB_STATE ANSIBLE_CONFIG="$F/ansible.cfg" "$ROOT/lab" fleet -v "$F/inventory.d" --limit host-b --time-limit 5 \
	--results "$F/results" --id "$id" -- pair zram-init-lock --quick --threads 1 --rounds 1 --no-flamegraphs \
	>"$F/out" 2>"$F/err" || rc=$?
echo "exit: $rc"
run=$F/results/$id
if [ ! -d "$run" ]; then
	tail -n 30 "$F/err" >&2
	exit 1
fi
echo "hosts in the run: $(cut -f1 "$run/raw/fleet/hosts.tsv" | tail -n +2 | paste -sd' ' -)"
awk -F'\t' 'NR > 1 { print $1 ": " $2 ": " $3 }' "$run/raw/fleet/hosts.tsv"
echo "the inventory directory, used where it is: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("yes" if d["inventory"] == [sys.argv[2]] and d["limit"] == "host-b" and d["hosts"] == ["host-b"] else d)' "$run/raw/fleet/inventory.json" "$F/inventory.d")"
echo "Ansible used the ansible.cfg (-v says so): $(grep -q "^Using $F/ansible.cfg as config file" "$run/raw/fleet/check/ansible.log" && echo yes || echo no)"
echo "its terminal was YAML: $(grep -q '^    changed: false$' "$run/raw/fleet/check/ansible.log" && echo yes || echo no)"
echo "host-b: processes of the run left: $(_fleet_host_run_procs host-b "$id")"
echo "host-b: its cleanup's output says nothing left: $(grep -qx 'left: nothing' "$run/hosts/host-b/cleanup.log" && echo yes || echo no)"
for h in host-a host-b; do echo "$h: left on the host: $(find "$F/$h" -mindepth 1 | wc -l)"; done
