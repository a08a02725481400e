#!/usr/bin/env bash
# 020: the guest survives perf stat's static-key patching under multi-threaded TCG: 150 short
# perf stats under a context-switch load all finish (without /init's key holder, 3 guests of 3
# hung within 140, after 20 to 140; guest/README.md), with both vCPUs online after a maxcpus=1
# boot. It ran 200 until 2026-12-05; 150 still outlasts the latest hang seen and leaves ./lab
# test room for the fleet's tests. Skips without root, qemu or a built (or buildable) guest.
# timeout: 480
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_have_guest
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# A hung guest is the failure, and a hung guest never finishes: the limit only has to outlast a
# slow one. 200 flips took about 70 s under TCG on a quiet host, and more than 160 s in CI on
# 2026-12-02 (a busier host, the lab kernels building beside it); the guest prints its progress
# every 50 flips, which a failure shows.
GUEST_TIMEOUT=360 _guest_test_run "$KS_DIR/guest/perf-keys.sh" "$out"
cat "$out/perf-keys.txt" >&2
grep -q '^holder: yes$' "$out/perf-keys.txt" && echo "init's perf stat holds the keys"
grep -q '^cpus_online: 0-1$' "$out/perf-keys.txt" && echo "init brought the second vCPU online"
grep -q '^flips: 150$' "$out/perf-keys.txt" && echo "150 perf stats finished"
ctx=$(sed -n 's/^context_switches: //p' "$out/perf-keys.txt")
[ "$ctx" -gt 10000 ] && echo "under a context-switch load"
