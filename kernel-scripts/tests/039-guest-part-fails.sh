#!/usr/bin/env bash
# 039: a kernel scenario whose guest part fails exits 1, keeps what its other parts wrote, and its
# run folder says which part failed and why (FAILED, one line a part, and the part's own status in
# guest-parts.tsv, the manifest or env.txt). Here qemu is a stand-in whose guest ends at once: for
# smoke (quick, 500 ms runs: zram and loop natively, the device-mapper part in the guest) it
# writes nothing, the user's "guest wrote no exit-status"; for part-acct (null_blk alone, in the
# guest) it writes the exit status 3 into the guest's output share, a guest script that failed.
# No guest boots: about 20 s. Skips where null_blk is native: there neither part goes to the guest.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram loop
_have_cmd fio perf sfdisk
_have_bridge
_have_guest
if _driver_native null_blk; then _skip "this kernel has null_blk: smoke's device-mapper part and part-acct's null_blk run natively, no guest part to fail"; fi
_test_begin_guest
_test_mods_begin

bin=$LAB_STATE/bin
mkdir -p "$bin"
cat >"$bin/qemu-system-x86_64" <<'EOF'
#!/usr/bin/env bash
# a qemu whose guest ends at once: it writes FAKE_GUEST_STATUS, where set, as the guest's exit
# status into the output share (-virtfs local,path=DIR,mount_tag=out,...), else nothing
out=
for a in "$@"; do
	case $a in local,path=*,mount_tag=out,*)
		out=${a#local,path=}
		out=${out%%,mount_tag=out,*}
		;;
	esac
done
if [ -n "${FAKE_GUEST_STATUS:-}" ] && [ -n "$out" ]; then echo "$FAKE_GUEST_STATUS" >"$out/exit-status"; fi
EOF
chmod +x "$bin/qemu-system-x86_64"
# TCG said outright: no KVM probe, which would boot the stand-in and cache its failure as the lab's
export PATH=$bin:$PATH LAB_GUEST_ACCEL=tcg LAB_RESULTS=$LAB_STATE/results
mkdir -p "$LAB_RESULTS"
yes() { if "$@"; then echo yes; else echo no; fi; }

# ---------------------------------------------------------------- smoke: no exit status

rc=0
dir=$(LAB_RUNTIME=500ms "$LK" run smoke --quick 2>"$LAB_STATE/smoke.err") || rc=$?
echo "smoke, its guest writing no exit-status: exit $rc"
basename "$dir" | sed 's/[0-9]\{8\}T[0-9]\{6\}Z$/<time>/'
echo "FAILED: $(cat "$dir/FAILED")"
sed 's/^/guest-parts.tsv: /' "$dir/raw/guest-parts.tsv"
echo "the manifest's guest_parts say it failed: $(yes grep -q '"guest_parts": {"dm-linear-x5-over-brd": "failed: guest.sh run exited 1: guest wrote no exit-status' "$dir/manifest.json")"
kept() { [ -s "$dir/raw/zram.fio.json" ] && [ -s "$dir/raw/loop.bridge.json" ]; }
echo "zram and loop results kept: $(yes kept)"
echo "said on stderr: $(yes grep -q "lab-kernel: smoke: 1 part(s) failed ($dir/FAILED says which and why)" "$LAB_STATE/smoke.err")"

# ---------------------------------------------------------------- part-acct: exit status 3

out=$LAB_STATE/part-acct
rc=0
FAKE_GUEST_STATUS=3 LAB_OUT=$out LAB_RUNTIME=300ms LAB_ROUNDS=1 LAB_PART_ACCT_DEVICES=nullb "$LK" run part-acct --quick \
	2>"$LAB_STATE/part-acct.err" || rc=$?
echo "part-acct (null_blk alone), its guest script exiting 3: exit $rc"
echo "FAILED: $(cat "$out/FAILED")"
echo "env.txt $(grep '^guest: ' "$out/env.txt")"
echo "said on stderr: $(yes grep -q "lab-kernel: part-acct: 1 part(s) failed ($out/FAILED says which and why)" "$LAB_STATE/part-acct.err")"

echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
compgen -G "$LAB_RESULTS/*.partial" >/dev/null || echo "no partial folder"
_test_mods_left
