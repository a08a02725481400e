#!/usr/bin/env bash
# 016: the guest VM (Debian's kernel under qemu) runs the guest half of the smoke scenario:
# brd, dm-linear x1 and x5, a thin volume, null_blk and zram, each with non-zero IOPS (and the
# bridge on dm-linear x5 and thin), and leaves no qemu behind. Its runs take 1 s each, not the
# scenario's 2 (guest/test-guest-smoke.sh: non-zero IOPS needs no longer; 8 s less of TCG). The
# first test to boot the guest: the image is built here unless ./lab test built it beside the
# unit tests (this test took 95 s in the last full run, building it; a clone's first build took
# 35 s here, 2026-12-07). Skips without root, qemu or a Debian mirror.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$("$here/../guest/test-guest-smoke.sh" 2>&1) || { echo "$out" >&2; exit 1; }
# its verdict is its last line (it exits on "SKIP: why" or after "PASS: guest smoke"): a "SKIP: "
# earlier in a passing run's output (a step's own message) is no skip
case $(tail -n 1 <<<"$out") in
"SKIP: "*) tail -n 1 <<<"$out" ;;
"PASS: guest smoke"*) echo "guest smoke passed" ;;
*) echo "$out" >&2; exit 1 ;;
esac
