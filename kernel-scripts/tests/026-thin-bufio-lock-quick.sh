#!/usr/bin/env bash
# 026: the thin-bufio-lock scenario (quick, 300 ms runs, one round; natively where this kernel has
# brd, dm-mod and dm-thin-pool, else in the guest VM) writes every file of its LAB_OUT contract,
# every run has no error and non-zero read and write IOPS (randrw), the I/O went to the run's
# device (the dm device's /sys stat counted reads and writes, thin's and linear's alike), the thin
# volume was provisioned whole before the rounds and stayed so (data blocks used == the volume's
# blocks, in env.txt and in thin-status.txt before and after the rounds), the devices are what
# env.txt says (dm-table.txt: the pool with 64 KiB blocks and skip_block_zeroing, the thin volume,
# and the linear over the pool's own data device, both the volume's length), env.txt has its keys,
# the emulation probe ran where the runs were emulated, and nothing of the lab is left afterwards,
# here or (env.txt's left_after) where the runs ran. The checks read the files alone, in bash;
# the golden output says what they found. Skips without root, fio, perf, the bridge (it renders
# the job files), or both brd + dm-mod + dm-thin-pool here and a guest VM. Natively, the modules
# the lab loaded (brd, dm-mod, dm-thin-pool and what came with it) are unloaded again; test 034
# runs it so inside the guest VM playing a user's host (LAB_TEST_NATIVE=1: the runs must run
# natively there).
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_cmd fio perf
_have_bridge
native=$(_test_native brd dm-mod dm-thin-pool)
if [ "$native" = 0 ]; then _have_guest; fi
_test_begin_guest
_test_mods_begin
out=$LAB_STATE/out
volume_mb=128 # the quick volume
blocks=$((volume_mb * 1024 / 64))

LAB_OUT=$out LAB_RUNTIME=300ms LAB_ROUNDS=1 "$LK" run thin-bufio-lock --quick 2>"$LAB_STATE/thin-bufio-lock.err" ||
	{ tail -n 20 "$LAB_STATE/thin-bufio-lock.err" >&2; tail -n 30 "$out/guest/console.log" >&2 2>/dev/null; exit 1; }

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

keys=(environment kernel cores perf_repeats rounds runtime_s numjobs devices volume_mb data_block_kb provisioned
	dm_bufio tools flamegraph left_after span rw order guest)
if [ "$native" = 0 ]; then keys+=(host_kernel emulation_probe); fi
for k in "${keys[@]}"; do
	grep -q "^$k: " "$out/env.txt" || echo "env.txt lacks $k"
done
echo "env.txt: perf_repeats: $(env perf_repeats), rounds: $(env rounds), runtime_s: $(env runtime_s), volume_mb: $(env volume_mb), data_block_kb: $(env data_block_kb)"
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
echo "fio only, the bridge skipped: $(yes grep -q '^fio (psync); bridge skipped: ' <<<"$(env tools)")"
echo "no flamegraph unless asked: $(yes grep -q '^off ' <<<"$(env flamegraph)")"

missing=() bad=() stat_still=()
for dev in thin linear; do
	for j in "${jobs[@]}"; do
		f=job-$dev-j$j.fio
		if [ ! -f "$out/$f" ]; then
			missing+=("$f")
		elif ! grep -qx 'rw=randrw' "$out/$f" || ! grep -qx 'bs=4k' "$out/$f" || ! grep -qx "numjobs=$j" "$out/$f" ||
			! grep -qx "size=${volume_mb}M" "$out/$f" || ! grep -qx 'ioengine=psync' "$out/$f"; then
			bad+=("$f: not randrw, bs=4k, psync, numjobs=$j, size=${volume_mb}M")
		fi
		name=$dev-j$j-r1.fio
		ok=1
		for ext in .json .perf.csv .before.stat .after.stat; do
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
		if [ "$a1" = "$b1" ] || [ "$a5" = "$b5" ]; then stat_still+=("$name"); fi
	done
done
echo "missing files: ${missing[*]:-none}"
echo "runs with an error or zero IOPS: ${bad[*]:-none}"
echo "runs whose dm device stat did not count reads and writes: ${stat_still[*]:-none}"

# provisioned whole: env.txt's data blocks used, and thin-status.txt's before and after the rounds
used=$(env provisioned | sed -n 's|^\([0-9]*\)/[0-9]* data blocks used .*|\1|p')
echo "env.txt provisioned: every block of the volume: $(yes [ "${used:-x}" = "$blocks" ])"
st=()
mapfile -t st < <(awk '$3 == "thin-pool" { split($6, d, "/"); print d[1] }' "$out/thin-status.txt")
echo "thin-status.txt: two pool statuses, every block used before and after the rounds: $(yes [ "${st[*]:-}" = "$blocks $blocks" ])"
# the stack: lab-pool (64 KiB blocks, low water 0, skip_block_zeroing), lab-thin (thin 0 of it),
# lab-lin over the pool's data device; thin and linear both the volume's length
tab() { awk -v n="$1:" -v f="$2" '$1 == n { print $f }' "$out/dm-table.txt"; }
sectors=$((volume_mb * 2048))
stack=yes
grep -q '^lab-pool: 0 [0-9]* thin-pool [0-9]*:[0-9]* [0-9]*:[0-9]* 128 0 1 skip_block_zeroing *$' "$out/dm-table.txt" || stack=no
grep -q "^lab-thin: 0 $sectors thin [0-9]*:[0-9]* 0\$" "$out/dm-table.txt" || stack=no
grep -q "^lab-lin: 0 $sectors linear [0-9]*:[0-9]* 0\$" "$out/dm-table.txt" || stack=no
if [ -z "$(tab lab-lin 5)" ] || [ "$(tab lab-lin 5)" != "$(tab lab-pool 6)" ]; then stack=no; fi
echo "dm-table.txt: lab-pool (64 KiB blocks, skip_block_zeroing), lab-thin, lab-lin over the pool's data device: $stack"
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
_test_guest_files "$native" "$out" thin-bufio-lock
echo "left where the runs ran: $(env left_after)"
_test_mods_left
echo "registry lines here: $(wc -l <"$LAB_REGISTRY")"
[ ! -e "$LAB_STATE/kernel/guest/qemu.pid" ] && echo "no guest VM left"
