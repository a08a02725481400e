#!/usr/bin/env bash
# 031: the guest half of the smoke scenario passes on the lab kernel too (brd, dm-linear x1 and
# x5, a thin volume, null_blk and zram, made by labmod on the built-in drivers), every switch at
# its default. Skips without root, qemu or the source package, and when the kernel is neither in
# the cache nor to be built by this run (`./lab test --lab-kernels`).
# timeout: 1200
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_have_guest
_have_lab_kernel 6.1
bash "$KS_DIR/kernel/build.sh" build >/dev/null || { echo "the lab kernel did not build" >&2; exit 1; }
out=$(LAB_GUEST_KERNEL=lab "$KS_DIR/guest/test-guest-smoke.sh" 2>&1) || { echo "$out" >&2; exit 1; }
case $(tail -n 1 <<<"$out") in # its verdict is its last line (016)
"PASS: guest smoke"*) echo "guest smoke on the lab kernel passed" ;;
*) echo "$out" >&2; exit 1 ;;
esac
