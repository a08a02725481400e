#!/usr/bin/env bash
# 031: the guest half of the smoke scenario passes on the lab kernel too (brd, dm-linear x1 and
# x5, a thin volume, null_blk and zram, made by labmod on the built-in drivers), every switch at
# its default, each run 1 s as in 016 (guest/test-guest-smoke.sh). Runs only with `./lab test
# --lab-kernels` (which builds the kernel when it is not in the cache): 030 already boots the lab
# kernels and runs I/O through every switch on each fix's devices, and this test's 55-62 s at 2 s
# a run (kernel-scripts/tests/run.sh of 030, 031 and 042, and a fresh clone's .ci/run,
# 2026-12-05) kept ./lab test past its 20 min on a machine with the kernels cached. Skips without
# root, qemu or the source package.
# timeout: 1200
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_have_guest
_have_lab_kernel 6.1
[ -n "${LAB_TEST_LAB_KERNELS:-}" ] || _skip "030 boots the lab kernels and runs I/O through every switch; the smoke on the lab kernel too (about 60 s under TCG) with ./lab test --lab-kernels"
bash "$KS_DIR/kernel/build.sh" build >/dev/null || { echo "the lab kernel did not build" >&2; exit 1; }
out=$(LAB_GUEST_KERNEL=lab "$KS_DIR/guest/test-guest-smoke.sh" 2>&1) || { echo "$out" >&2; exit 1; }
case $(tail -n 1 <<<"$out") in # its verdict is its last line (016)
"PASS: guest smoke"*) echo "guest smoke on the lab kernel passed" ;;
*) echo "$out" >&2; exit 1 ;;
esac
