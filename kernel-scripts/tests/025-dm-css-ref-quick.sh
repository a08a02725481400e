#!/usr/bin/env bash
# 025: the dm-css-ref scenario (quick, 300 ms runs, one round; natively where this kernel has brd
# and dm-mod, else in the guest VM) runs the quick plan's depths 0 1 5 (issue 33: LAB_DM_CSS_DEPTHS
# unset) and no other (no file of depths 2..4; env.txt's quick_leaves_out names them), writes every
# file of its LAB_OUT contract, every
# run has no error and non-zero read and write IOPS (randrw), the I/O went to the run's device (the
# dm device's /sys stat counted reads and writes; ram0's is not checked: brd does no I/O accounting
# on 6.1, where its stat stands at 0), the child runs ran in the child cgroup and the root runs did
# not (the child's io.stat moved in every child run and in no root run, as env.txt's cgroup_moved
# says), env.txt has its keys, and nothing of the lab is left afterwards, here or (env.txt's
# left_after) where the runs ran. The checks read the files alone, in bash; the golden output says
# what they found. Skips without root, fio, perf, the bridge (it renders the job files), or both
# brd + dm-mod here and a guest VM. Natively, the modules the lab loaded (brd, dm-mod where they
# are modules nothing had loaded) are unloaded again. Test 034 no longer runs it inside the guest
# VM playing a user's host (LAB_TEST_NATIVE=1 still makes its runs take the native branch): 026
# loads the same modules there, and this scenario's code past its native branch (lib.sh) runs
# wherever this test runs (here, in the lab's guest on the same Debian kernel).
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_cmd fio perf
_have_bridge
native=$(_test_native brd dm-mod)
if [ "$native" = 0 ]; then _have_guest; fi
_test_begin_guest
_test_mods_begin
out=$LAB_STATE/out
depths=(0 1 5)

LAB_OUT=$out LAB_RUNTIME=300ms LAB_ROUNDS=1 "$LK" run dm-css-ref --quick 2>"$LAB_STATE/dm-css-ref.err" ||
	{ tail -n 20 "$LAB_STATE/dm-css-ref.err" >&2; tail -n 30 "$out/guest/console.log" >&2 2>/dev/null; exit 1; }

# ---------------------------------------------------------------- the checks, on the files alone

# env KEY: the value of KEY in env.txt ("KEY: value" lines), or nothing
env() { sed -n "s/^$1: //p" "$out/env.txt"; }
# iops FILE: "ERROR READ_IOPS WRITE_IOPS" of the first job in fio's JSON (one key a line)
iops() {
	awk '/^ *"error" *:/ && e == "" { v = $0; sub(/^[^:]*: */, "", v); sub(/,$/, "", v); e = v }
		/^ *"read" *: *\{/ { s = "r" } /^ *"write" *: *\{/ { s = "w" }
		/^ *"iops" *:/ && s != "" && !(s in got) { v = $0; sub(/^[^:]*: */, "", v); sub(/,$/, "", v); got[s] = v }
		("r" in got) && ("w" in got) { print e, got["r"], got["w"]; exit }' "$1"
}
positive() { awk -v i="${1:-0}" 'BEGIN { exit !(i > 0) }'; }
yes() { if "$@"; then echo yes; else echo no; fi; }

for k in environment kernel cores perf_repeats rounds runtime_s depths numjobs cgroups cgroup device \
	tools cgroup_moved cgroup_tasks left_after modules guest; do
	grep -q "^$k: " "$out/env.txt" || echo "env.txt lacks $k"
done
echo "env.txt: perf_repeats: $(env perf_repeats), rounds: $(env rounds), runtime_s: $(env runtime_s), depths: $(env depths), cgroups: $(env cgroups)"
cores=$(env cores)
jobs=(1)
if [ "${cores:-1}" -gt 1 ]; then jobs+=("$cores"); fi
echo "numjobs is 1 and the cores: $(yes [ "$(env numjobs)" = "${jobs[*]}" ])"
if [ "$native" = 1 ]; then
	where=$(yes [ "$(env environment)" = native ])
	kernel=$(uname -r)
else
	where=$(yes grep -q '^guest VM, ' <<<"$(env environment)")
	kernel=$(sed -n 's/^kernel: //p' "$out/guest/guest.txt")
fi
echo "environment says where the runs ran: $where"
echo "kernel is the one the runs ran on: $(yes [ "$(env kernel)" = "$kernel" ])"
echo "bridge skipped in quick: $(yes grep -q 'bridge skipped: not with LAB_QUICK=1' <<<"$(env tools)")"

missing=() bad=() stat_still=() declare -A moved=() runs=() inchild=()
for d in "${depths[@]}"; do
	for j in "${jobs[@]}"; do
		f=job-d$d-j$j.fio
		if [ ! -f "$out/$f" ]; then
			missing+=("$f")
		elif ! grep -qx 'rw=randrw' "$out/$f" || ! grep -qx 'bs=512' "$out/$f" || ! grep -qx "numjobs=$j" "$out/$f"; then
			bad+=("$f: not randrw, bs=512, numjobs=$j")
		fi
		for cg in root child; do
			name=d$d-$cg-j$j-r1.fio
			ok=1
			for ext in .json .perf.csv .before.stat .after.stat .before.cgstat .after.cgstat .cgroup; do
				[ -f "$out/$name$ext" ] || { missing+=("$name$ext"); ok=0; }
			done
			[ "$ok" = 1 ] || { bad+=("$name: files missing"); continue; }
			read -r err r w <<<"$(iops "$out/$name.json")"
			if [ "${err:-x}" != 0 ] || ! positive "$r" || ! positive "$w"; then
				bad+=("$name: error ${err:-none}, read iops ${r:-none}, write iops ${w:-none}")
			fi
			grep -q ',task-clock,' "$out/$name.perf.csv" || bad+=("$name: no task-clock in perf.csv")
			read -r b1 _ _ _ b5 _ <"$out/$name.before.stat"
			read -r a1 _ _ _ a5 _ <"$out/$name.after.stat"
			if [ "$d" != 0 ] && { [ "$a1" = "$b1" ] || [ "$a5" = "$b5" ]; }; then stat_still+=("$name"); fi
			runs[$cg]=$((${runs[$cg]:-0} + 1))
			if ! cmp -s "$out/$name.before.cgstat" "$out/$name.after.cgstat"; then
				moved[$cg]=$((${moved[$cg]:-0} + 1))
			fi
			if grep -q '/lab-dmcss$' "$out/$name.cgroup"; then inchild[$cg]=$((${inchild[$cg]:-0} + 1)); fi
		done
	done
done
# the depths the quick plan leaves out: no file of theirs, and quick_leaves_out names them
extra=()
for d in 2 3 4; do
	if compgen -G "$out/d$d-*" >/dev/null || compgen -G "$out/job-d$d-*" >/dev/null; then extra+=("$d"); fi
done
echo "depths run beyond the quick plan: ${extra[*]:-none}"
echo "quick_leaves_out names depths 2 3 4: $(yes grep -q '^depths 2 3 4 ' <<<"$(env quick_leaves_out)")"
echo "missing files: ${missing[*]:-none}"
echo "runs with an error or zero IOPS: ${bad[*]:-none}"
echo "runs whose dm device stat did not count reads and writes: ${stat_still[*]:-none}"
# where the I/O was counted: the child's io counters; on cgroup v1, whose blkio.throttle counters
# this kernel leaves empty in a cgroup without limits (env.txt's cgroup_moved says so), none moved
counted=moved
if [ "${moved[child]:-0}" = 0 ] && grep -q 'cgroup v1 this kernel' <<<"$(env cgroup_moved)"; then counted=v1; fi
# (each check a function: in $(yes A && B) the second test would not reach the answer)
moved_every_child() { [ "${moved[child]:-0}" = "${runs[child]:-x}" ] || [ "$counted" = v1 ]; }
echo "child cgroup's io counters moved in every child run (or, on v1, env.txt says why they cannot): $(yes moved_every_child)"
echo "child cgroup's io counters moved in no root run: $(yes [ "${moved[root]:-0}" = 0 ])"
echo "env.txt cgroup_moved agrees: $(yes grep -q "^child ${moved[child]:-0}/${runs[child]:-0}, root ${moved[root]:-0}/${runs[root]:-0} " <<<"$(env cgroup_moved)")"
tasks_in_child_only() { [ "${inchild[child]:-0}" = "${runs[child]:-x}" ] && [ "${inchild[root]:-0}" = 0 ]; }
echo "every child run's task in the child cgroup, no root run's: $(yes tasks_in_child_only)"
echo "env.txt cgroup_tasks agrees: $(yes grep -q "^child ${inchild[child]:-0}/${runs[child]:-0}, root ${inchild[root]:-0}/${runs[root]:-0} " <<<"$(env cgroup_tasks)")"
# the stack: lab-lin1 over the ram disk, each lab-lin(k) over the one below
stack=yes
for k in 1 2 3 4 5; do grep -q "^lab-lin$k: 0 [0-9]* linear [0-9]*:[0-9]* 0$" "$out/dm-table.txt" || stack=no; done
echo "dm-table.txt: lab-lin1..lab-lin5, dm-linear: $stack"
echo "perf-missing.txt: $(yes [ -f "$out/perf-missing.txt" ])"
# the emulation probe: in the guest, the same zram job on both sides of qemu, each with a task-clock
probe=yes
if [ "$native" = 1 ]; then
	probe=$(yes [ -z "$(compgen -G "$out/tcg-zram-*" || true)" ])
else
	for side in host guest; do
		name=tcg-zram-$side-r1.fio
		read -r err r _ <<<"$(iops "$out/$name.json" 2>/dev/null || true)"
		if [ "${err:-x}" != 0 ] || ! positive "$r" || ! grep -q ',task-clock,' "$out/$name.perf.csv" 2>/dev/null; then probe=no; fi
	done
fi
echo "emulation probe where emulated (zram on host and guest), none natively: $probe"
echo "left where the runs ran: $(env left_after)"
_test_mods_left
echo "registry lines here: $(wc -l <"$LAB_REGISTRY")"
[ -z "$(compgen -G "$LAB_BLKIO/lab-dmcss")" ] && echo "no lab cgroup here"
[ ! -e "$LAB_STATE/kernel/guest/qemu.pid" ] && echo "no guest VM left"
