#!/usr/bin/env bash
# End-to-end test of the guest VM path: boots the guest, runs the smoke
# scenario, checks every fio JSON reports non-zero read IOPS and that the guest
# recorded its environment. Skips (exit 0, "SKIP: reason") where it cannot run:
# not root, no qemu, no apt metadata for the guest packages.
#
# The smoke's guest half runs unchanged but for its runs' length: SMOKE_RUNTIME seconds (default
# 1; the scenario's own is 2), passed in by a two-line script that sets RUNTIME and runs the
# shared scenarios/smoke/guest.sh. Non-zero IOPS needs no longer, and the 8 timed runs (6 fio, 2
# bridge) under TCG are a second shorter each.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT=
SCRIPT=

skip() { echo "SKIP: $*"; exit 0; }
fail() { echo "FAIL: $*" >&2; exit 1; }

cleanup() {
  [[ -z $OUT ]] || rm -rf -- "$OUT"
  [[ -z $SCRIPT ]] || rm -f -- "$SCRIPT"
}

preflight() {
  [[ $(id -u) == 0 ]] || skip "needs root (guest build extracts kernel modules)"
  command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed"
  command -v python3 >/dev/null || skip "python3 not installed (JSON check)"
  # A built guest is enough; otherwise apt must know the packages.
  [[ -f ${LAB_STATE:-$REPO/.lab}/guest/initramfs.cpio ]] ||
    apt-cache show linux-image-amd64 >/dev/null 2>&1 ||
    skip "linux-image-amd64 not known to apt (no Debian mirror?)"
}

# Every fio-*.json must parse and show read IOPS > 0.
check_fio_json() {
  python3 - "$@" <<'EOF'
import json, sys
for path in sys.argv[1:]:
    with open(path) as f:
        iops = json.load(f)["jobs"][0]["read"]["iops"]
    print(f"{path.rsplit('/', 1)[-1]}: {iops:.0f} IOPS")
    if not iops > 0:
        sys.exit(f"zero IOPS in {path}")
EOF
}

main() {
  preflight
  trap cleanup EXIT
  OUT=$(mktemp -d "${TMPDIR:-/tmp}/lab-guest-test.XXXXXX")
  SCRIPT=$(mktemp "${TMPDIR:-/tmp}/lab-guest-smoke.XXXXXX")
  local runtime=${SMOKE_RUNTIME:-1}
  [[ $runtime =~ ^[1-9][0-9]*$ ]] || fail "SMOKE_RUNTIME must be whole seconds, not '$runtime'"
  # the guest's /init runs it under busybox sh; the lab's tree is shared as /mnt/in/lab
  printf '#!/bin/sh\nRUNTIME=%s; export RUNTIME\nexec sh /mnt/in/lab/kernel-scripts/scenarios/smoke/guest.sh\n' \
    "$runtime" > "$SCRIPT"
  "$HERE/guest.sh" run "$SCRIPT" "$OUT" ||
    fail "guest run failed"
  local jsons=("$OUT"/fio-*.json)
  [[ ${#jsons[@]} -ge 5 && -f ${jsons[0]} ]] || fail "expected >= 5 fio JSONs, got ${#jsons[@]}"
  check_fio_json "${jsons[@]}" || fail "fio JSON check"
  local bridges=("$OUT"/bridge-*.json)
  if [[ -f ${bridges[0]} ]]; then       # the bridge ran in the guest too (guest.sh had LAB_JDK)
    [[ ${#bridges[@]} -ge 2 ]] || fail "bridge JSON for ${#bridges[@]} devices, expected dm-linear5 and thin"
    check_fio_json "${bridges[@]}" || fail "bridge JSON check"
  fi
  grep -Eq '^env: (kvm|tcg)$' "$OUT/guest.txt" || fail "guest.txt lacks env"
  grep -q '^kernel: ' "$OUT/guest.txt" || fail "guest.txt lacks kernel"
  if pgrep -f '^qemu-system-x86_64 .*lab.accel=' >/dev/null; then
    fail "a lab qemu is still running"
  fi
  echo "PASS: guest smoke ($(sed -n 's/^env: //p' "$OUT/guest.txt"))"
}

main "$@"
