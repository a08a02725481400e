#!/usr/bin/env bash
# 017: cgroup v2 in the guest VM: test 009 passes there (io.bfq.weight on a lab null_blk device
# with BFQ) with the same output as on the host, and cleanup takes away the +io the lab added
# to the root's subtree_control. Skips without root, qemu or a built (or buildable) guest.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_have_guest
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
_guest_test_run "$KS_DIR/guest/cgroup-v2.sh" "$out"
cat "$out/v2.txt" >&2
grep -q '^009 exit: 0$' "$out/v2.txt" || { cat "$out/009.err" >&2; exit 1; }
diff -u "$KS_DIR/tests/009-cgroup-bfq-weight.out" "$out/009.out" >&2 && echo "009 under cgroup v2: same output as on the host"
grep -q '^subtree before: *$' "$out/v2.txt" && echo "io was off in the root's subtree_control"
grep -q '^subtree after: *$' "$out/v2.txt" && echo "cleanup took +io away again"
grep -q '^lab cgroups left: 0$' "$out/v2.txt" && echo "no lab cgroup left"
grep -q '^nullb left: 0$' "$out/v2.txt" && echo "no null_blk device left"
