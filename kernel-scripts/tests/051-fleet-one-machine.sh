#!/usr/bin/env bash
# 051: hosts that are not what their names say. Two inventory names for one machine (twin-a,
# twin-b: one address, one machine id) are refused before anything runs: exit 2, one line naming
# both and the machine id, no results folder, nothing shipped to the machine. A host whose key
# ssh does not know (host key checking is the user's, on here: the lab no longer turns it off) is
# unreachable, with ssh's reason and what to do about it, and nothing else runs there. Mutations,
# measured: without the machine-id check the twins are checked and paired (exit 0 or 1, a
# results folder); with ANSIBLE_HOST_KEY_CHECKING=False set by the lab again, host-a is reached.
# Needs root, sshd, unshare and ansible-core.
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
_fleet_same_machine_inventory "$F/twins"

rc=0
env -u LAB_STATE "$ROOT/lab" fleet "$F/twins" --results "$F/results" -- pair zram-init-lock --quick --threads 1 \
	>"$F/out" 2>"$F/err" || rc=$?
echo "twins: exit: $rc"
mid=$(cat "$F/hosts/host-a/machine-id")
echo "twins: one line naming both and the machine id: $([ "$(wc -l <"$F/err")" -eq 1 ] && grep -q "^lab: fleet: twin-a and twin-b are one machine (machine id $mid): refused, nothing made" "$F/err" && echo yes || echo no)"
echo "twins: results folder: $([ -e "$F/results" ] && echo made || echo none)"
echo "twins: left on the machine: $(find "$F/twin-a" "$F/twin-b" -mindepth 1 | wc -l)"

_fleet_forget_host host-a
rc=0
env -u LAB_STATE "$ROOT/lab" fleet "$F/inventory" --limit host-a --results "$F/results" --id unknown-key \
	-- pair zram-init-lock --quick --threads 1 >"$F/out" 2>"$F/err" || rc=$?
echo "unknown key: exit: $rc"
reason=$(awk -F'\t' '$1 == "host-a" { print $2 ": " $3 }' "$F/results/unknown-key/raw/fleet/hosts.tsv")
echo "unknown key: host-a unreachable, ssh's reason: $(grep -q '^unreachable: .*Host key verification failed' <<<"$reason" && echo yes || echo "no: $reason")"
echo "unknown key: and what to do: $(grep -q 'known_hosts' <<<"$reason" && grep -q 'host_key_checking = False' <<<"$reason" && echo yes || echo no)"
echo "unknown key: left on the host: $(find "$F/host-a" -mindepth 1 | wc -l)"
