#!/usr/bin/env bash
# 034: native, in the guest: the lab's native path on a user's host, played by the guest VM.
# timeout: 900
#
# Users run stock Debian and Ubuntu kernels, whose zram, null_blk, brd, loop, dm-mod and
# dm-thin-pool are modules nothing has loaded; this machine has them built in or not at all. So
# the guest plays that host: guest.sh boots Debian's kernel with LAB_GUEST_MODE=host (only the
# 9p shares' drivers and configfs loaded, kmod's modprobe and the kernel's module tree, Debian's
# userland, no labmod), shares in the lab's scripts, job files, bridge and runtime, and
# guest/as-host.sh runs there, unchanged, the native path: lab-kernel.sh up and down (zram,
# null_blk, loop; sched bfq on the loop, bfq-iosched a module too), test 026 (thin-bufio-lock:
# brd, dm-mod, dm-thin-pool) with LAB_TEST_NATIVE=1 (its runs must take the native branch) and
# part-acct's null_blk. The golden output is its report: each driver loadable and not loaded at
# first, the test passed, each module loaded by the lab and unloaded again, nothing left. With
# module loading removed (_mod_need a no-op) the first device fails and so does this test. It took
# 201 s under TCG in the last full ./lab test here (4.8 min before the scenarios rendered their
# job files in one JVM and part-acct ran 2 cells, not 4), 58 s of it test 025 (dm-css-ref), whose
# modules are 026's, and 14 s the training of an AOT cache for the JVMs (as-host.sh says why
# neither runs here any more): about 2.3 min without them, not yet measured.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_have_guest
_have_bridge
_test_begin_guest
out=$LAB_STATE/out
mkdir -p "$out"

rc=0
LAB_GUEST_MODE=host GUEST_MEM=2048 GUEST_TIMEOUT=840 "$KS_DIR/guest/guest.sh" run "$KS_DIR/guest/as-host.sh" "$out" \
	>"$LAB_STATE/guest-run.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] || [ ! -f "$out/as-host.txt" ]; then
	cat "$LAB_STATE/guest-run.log" >&2
	tail -n 40 "$out/console.log" >&2 2>/dev/null || true
	exit 1
fi
cat "$out/as-host.txt"
# its steps' times (the guest's uptime at each), for the log: where the test's minutes go
grep -a 'as-host: \[' "$out/console.log" >&2 || true
# a test that failed inside: its output's difference and its stderr's end, for the log
for f in "$out"/logs/*.run; do
	t=$(sed -n 's/^FAIL \([^ ]*\).*/\1/p' "$f")
	[ -n "$t" ] || continue
	for g in "$out/logs/$t.diff" "$out/logs/$t.err"; do
		if [ -s "$g" ]; then echo "== ${g##*/}" >&2; tail -n 30 "$g" >&2; fi
	done
done
# a JVM that crashed in there: its report's head
for f in "$out"/logs/hs_err_pid*.log; do
	if [ -f "$f" ]; then echo "== ${f##*/}" >&2; head -n 40 "$f" >&2; fi
done
grep -q '^mode: host$' "$out/guest.txt" && echo "the guest ran as a user's host, on Debian's kernel"
