#!/bin/sh
# shellcheck shell=bash
# guest/as-host.sh: the lab's native path on a user's host, played by the guest VM (test 034).
# Runs INSIDE the guest, booted by guest.sh with LAB_GUEST_MODE=host: Debian's stock kernel with
# zram, null_blk, brd, loop, dm-mod and dm-thin-pool as modules nobody has loaded, kmod's
# modprobe, Debian's userland; the lab's tree as /mnt/in/lab (kernel-scripts, examples, the
# bridge's jar) and the runtime as /mnt/in/bridge/jre. It runs, unchanged, what a user runs
# there, and writes what it found to $OUT/as-host.txt (034's golden output):
#   - each driver loadable and not loaded at first (lab-kernel.sh status says so too);
#   - lab-kernel.sh up zram, nullb and loop: the lab loads each module, records it, and down
#     unloads it;
#   - lab-kernel.sh sched on that loop device: bfq-iosched, a module too, loaded and unloaded
#     (test 009, the BFQ weight on a lab cgroup, runs in the guest in 017: not again here; it took
#     41 s of this test's 459 beside a Maven build, kernel-scripts/tests/run.sh of 034, 2026-12-05);
#   - test 026 (thin-bufio-lock: brd, dm-mod, dm-thin-pool), a fix's path ./lab demo takes, on its
#     golden output, with LAB_TEST_NATIVE=1: its runs must take the native branch; its modules
#     loaded by the lab and unloaded again (LAB_MODULE_LOG). Not 014 (smoke): its drivers are
#     026's and part-acct's, and its 3 min under TCG kept ./lab test past its 20. Not 025
#     (dm-css-ref) either: its modules, brd and dm-mod, are 026's, loaded by the same _mod_need;
#     its scenario's code past the few lines of its native branch (lib.sh: the stack, the child
#     cgroup, the rounds) runs in the lab's guest in 025 itself, on the same Debian kernel; and it
#     took 58 s of this test's 201 (its step's time in the console, the last full ./lab test
#     rehearsal here before 2026-12-07);
#   - part-acct's null_blk natively (LAB_PART_ACCT_DEVICES=nullb; the cells nullb-disk-j1, the
#     quick plan's calibration cell, and nullb-part-jmax, a partition on null_blk, which the quick
#     plan that test 019 pins has not: one and the most jobs, the disk and a partition, in 4 runs
#     where every cell took 8 and about 25 s more under TCG): every run's file, no error, the
#     disk's and partition's stat still with iostats 0 and moving with 1, env.txt native;
#   - nothing left: the registry empty, no lab device, the modules loaded those of the boot.
# Logs for a failure in $OUT/logs/. Not for the host: there it refuses.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail

OUT=${OUT:-/mnt/out}
LAB=/mnt/in/lab
KS=$LAB/kernel-scripts
if [ ! -r "$KS/common/rc.sh" ] || [ ! -x /mnt/in/bridge/jre/bin/java ] || ! grep -qw lab.mode=host /proc/cmdline; then
	echo "as-host: runs inside the lab's guest VM booted as a user's host (LAB_GUEST_MODE=host; test 034)" >&2
	exit 1
fi
export LAB_JDK=/mnt/in/bridge/jre LD_LIBRARY_PATH=/mnt/in/bridge/lib LAB_STATE=/tmp/lab-state TMPDIR=/tmp/as-host
mkdir -p "$TMPDIR" "$OUT/logs"
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS/common/rc.sh"
LK=$KS/lab-kernel.sh
R=$OUT/as-host.txt
: >"$R"
say() { echo "$*" >>"$R"; }
yes() { if "$@"; then echo yes; else echo no; fi; }
# mods WHAT LOG: the NAMEs of LOG's "WHAT NAME: ..." lines (loaded, unloaded), sorted, comma-joined
mods() { sed -n "s/^$1 \([^:]*\):.*/\1/p" "$2" 2>/dev/null | sort -u | paste -sd, - | sed 's/,/, /g'; }
# loaded_unloaded LOG: "loaded A, B; each unloaded again: yes|no"
loaded_unloaded() {
	echo "the lab loaded ${1:+$(mods loaded "$1")}; each unloaded again: $(yes [ "$(mods loaded "$1")" = "$(mods unloaded "$1")" ])$(left_loaded "$1")"
}
left_loaded() { if grep -q '^left loaded' "$1" 2>/dev/null; then echo " (left loaded: $(mods 'left loaded' "$1"))"; fi; }
boot_mods=$(_mod_list | sort)
step() { echo "as-host: [$(cut -d' ' -f1 /proc/uptime)s] $*" >&2; }

# The concessions to the emulated CPU, for every JVM the scripts start (the bridge's job renders
# and runs), through JAVA_TOOL_OPTIONS; the scripts themselves are as a user runs them:
#   - C1 only (-XX:TieredStopAtLevel=1), as the lab's own guest halves run the bridge: when C2
#     replaces a method's C1 code the JVM patches a jump over its entry, and under multi-threaded
#     TCG another vCPU can run that entry torn (a #GP in the bridge at a patched entry: 2 of 2
#     runs of this test here with tiered JVMs). C1 only is also faster under TCG (measured here,
#     20 runs each: a 500 ms bridge run 6.8 s against 9.6 s, a render 2.5 s against 3.3 s).
#   - a JVM that crashes writes its report into $OUT/logs (-XX:ErrorFile), which 034 prints.
# No AOT cache of the bridge's classes any more: it halved a render's start-up (7.1 s against
# 3.8 s) but took 14-17 s to train, and since 014 and 025 left this test two JVMs start here
# (026's render and part-acct's), which it would save about 6.6 s.
export JAVA_TOOL_OPTIONS="-XX:TieredStopAtLevel=1 -XX:ErrorFile=$OUT/logs/hs_err_pid%p.log"

# ---------------------------------------------------------------- the host as a user has it

step "drivers"
for d in zram null_blk brd loop dm-mod dm-thin-pool; do say "$d: $(_mod_state "$d")"; done
"$LK" status >"$OUT/logs/status.txt"
say "status says each loads on use: $(yes [ "$(grep -c 'native (module, not loaded: the lab loads it' "$OUT/logs/status.txt")" = 6 ])"

# ---------------------------------------------------------------- up and down

step "up and down"
# a failure is reported and the rest still runs: the report then says what else failed
rc=0
LAB_MODULE_LOG=$TMPDIR/up.log "$LK" up zram:64M nullb:64M loop:64M >"$OUT/logs/up.out" 2>"$OUT/logs/up.err" || rc=$?
if [ "$rc" != 0 ]; then say "up zram, nullb, loop: exit $rc: $(grep -m1 . "$OUT/logs/up.err")"; fi
say "up zram, nullb, loop: the lab loaded $(mods loaded "$TMPDIR/up.log")"
say "their registry lines: $(awk -F'\t' '$1 == "module" { print $2 }' "$LAB_STATE/kernel/registry" 2>/dev/null | sort | paste -sd, - | sed 's/,/, /g')"
# BFQ on the loop device: the I/O scheduler a module too (bfq-iosched), loaded through the scheduler's
# name; 017 runs test 009 (the weight on a lab cgroup) in the guest, so here only the module's path
rc=0
loopdev=$(grep -m1 '^/dev/loop' "$OUT/logs/up.out" || true)
LAB_MODULE_LOG=$TMPDIR/up.log "$LK" sched "${loopdev:-none}" bfq 2>>"$OUT/logs/up.err" || rc=$?
say "sched bfq on the loop: exit $rc, the lab loaded $(grep -q '^loaded bfq-iosched:' "$TMPDIR/up.log" && echo bfq-iosched || echo nothing more)"
rc=0
LAB_MODULE_LOG=$TMPDIR/up.log "$LK" down 2>>"$OUT/logs/up.err" || rc=$?
if [ "$rc" != 0 ]; then say "down: exit $rc"; fi
say "down: each unloaded again: $(yes [ "$(mods loaded "$TMPDIR/up.log")" = "$(mods unloaded "$TMPDIR/up.log")" ]), modules as at boot: $(yes [ "$(_mod_list | sort)" = "$boot_mods" ])"

# ---------------------------------------------------------------- the host's tests, unchanged

# host_test NNN: the host's test NNN, unchanged, with LAB_TEST_NATIVE=1 (its runs must take the
# native branch): its verdict and the modules it loaded and unloaded in the report, its logs in
# $OUT/logs (NNN.run, and its .out, .err and .diff, which 034 prints on a failure)
host_test() {
	local t=$1 f rc=0
	f=$(cd "$KS/tests" && echo "$t"-*.sh)
	step "test $f"
	LAB_TEST_NATIVE=1 LAB_MODULE_LOG=$TMPDIR/$t.log "$KS/tests/run.sh" "$KS/tests/$f" >"$TMPDIR/$t.run" 2>&1 || rc=$?
	cp "$TMPDIR/$t.run" "$OUT/logs/$t.run"
	cp "$TMPDIR/lab-tests/${f%.sh}".* "$OUT/logs/" 2>/dev/null || true
	say "$(sed -n 's/^\(PASS\|FAIL\|SKIP\) \([^ ]*\).*/\1 \2/p' "$TMPDIR/$t.run" | head -n 1)$([ "$rc" = 0 ] || echo " (run.sh exit $rc)")"
	say "  $(loaded_unloaded "$TMPDIR/$t.log")"
}
host_test 026

# ---------------------------------------------------------------- part-acct's null_blk

step "part-acct, null_blk"
pa=$TMPDIR/pa
rc=0
LAB_MODULE_LOG=$TMPDIR/pa.log LAB_OUT=$pa LAB_PART_ACCT_DEVICES=nullb LAB_PART_ACCT_CELLS="nullb-disk-j1 nullb-part-jmax" \
	LAB_RUNTIME=300ms LAB_ROUNDS=1 \
	"$LK" run part-acct --quick 2>"$OUT/logs/part-acct.err" || rc=$?
say "part-acct, null_blk: exit $rc"
env() { sed -n "s/^$1: //p" "$pa/env.txt" 2>/dev/null; }
say "  environment: $(env environment); guest: $(env guest)"
say "  targets: $(env targets); numjobs is 1 and the cores: $(yes [ "$(env numjobs)" = "$(if [ "$(nproc)" -gt 1 ]; then echo "1 $(nproc)"; else echo 1; fi)" ])"
bad=() still=() moved=()
read -r -a njs <<<"$(env numjobs)"
for t in $(env targets); do
	for n in "${njs[@]}"; do
		case $t-j$n in nullb-disk-j1 | "nullb-part-j${njs[-1]}") ;; *) continue ;; esac
		[ -f "$pa/job-$t-j$n.fio" ] || bad+=("job-$t-j$n.fio missing")
		for v in 0 1; do
			name=$t-iostats$v-j$n-r1.fio
			for ext in .json .perf.csv .before.stat .after.stat; do [ -f "$pa/$name$ext" ] || bad+=("$name$ext missing"); done
			[ -f "$pa/$name.json" ] || continue
			grep -q '"error" *: *0' "$pa/$name.json" || bad+=("$name: an error")
			awk '/"read" *: *\{/ { r = 1 } r && /"iops" *:/ { v = $0; sub(/^[^:]*: */, "", v); exit !(v + 0 > 0) }' "$pa/$name.json" ||
				bad+=("$name: no read IOPS")
			read -r b _ <"$pa/$name.before.stat"
			read -r a _ <"$pa/$name.after.stat"
			if [ "$v" = 0 ] && [ "$a" != "$b" ]; then moved+=("$name"); fi
			if [ "$v" = 1 ] && [ "$a" = "$b" ]; then still+=("$name"); fi
		done
	done
done
say "  runs missing a file, with an error or no IOPS: ${bad[*]:-none}"
say "  runs whose stat counted with iostats 0: ${moved[*]:-none}; did not count with iostats 1: ${still[*]:-none}"
say "  modules: $(env modules)"
say "  $(loaded_unloaded "$TMPDIR/pa.log")"

# ---------------------------------------------------------------- nothing left

step "what is left"
say "registry lines: $(wc -l <"$LAB_STATE/kernel/registry" 2>/dev/null || echo 0)"
say "lab devices: $(find /sys/block -maxdepth 1 \( -name 'zram*' -o -name 'nullb*' -o -name 'labnb*' -o -name 'ram*' -o -name 'dm-*' \) | wc -l), attached loops: $(cat /sys/block/loop*/loop/backing_file 2>/dev/null | wc -l)"
say "modules as at boot: $(yes [ "$(_mod_list | sort)" = "$boot_mods" ])$([ "$(_mod_list | sort)" = "$boot_mods" ] || echo ": $(comm -13 <(echo "$boot_mods") <(_mod_list | sort) | paste -sd' ' -) more")"
step "done"
