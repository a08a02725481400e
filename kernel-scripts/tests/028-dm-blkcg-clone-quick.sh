#!/usr/bin/env bash
# 028: the dm-blkcg-clone scenario (quick: 1 s runs after a 500 ms ramp, one round, weights
# 1000:500 and 500:500; the loop stack natively where this kernel has BFQ, linear and thin
# natively where it also has dm-mod and dm-thin-pool, each else in the guest VM) writes every file
# of its LAB_OUT contract:
# runs.tsv with its header and one row per (env, stack, path, weights), every writer's fio JSON
# without error, with non-zero write bandwidth and its own section (c1501 in a, c1500 in b), the
# bottom device's stat and the cgroups' io stat before and after each measurement, and the
# row's a_wbytes, b_wbytes and dev_wbytes as those files say. The writes reached the bottom
# device charged to a and b (the association survived the stack) for every direct measurement,
# and for buffered ones as the cgroup version predicts (v2: cgroup writeback; v1: none, the
# flusher writes in the root cgroup). The stacks are what env.txt says (dm-table.txt), env.txt has
# its keys, and nothing of the lab is left afterwards, here (registry, mounts, cgroups, the dirty
# limits as before) or where the runs ran (left_after). First, needing no device, the filesystem
# helpers refuse what the lab did not make. The checks read the files alone, in bash; the golden
# output says what they found (not the ratios: one quick round is noise). Skips without root,
# fio, mkfs.ext4, the bridge (it renders the job files), or both BFQ, dm-mod and dm-thin-pool
# here and a guest VM.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_cmd fio mkfs.ext4 fstrim losetup
_have_driver loop
_have_cgroup_io
_have_bridge
# nloop: the loop stack runs here (BFQ); native: linear and thin too (dm-mod, dm-thin-pool)
nloop=1 native=1
if [ -n "$(_sched_native_why bfq)" ]; then nloop=0; fi
if [ "$nloop" = 0 ] || [ -n "$(_dm_native_why dm-mod dm-thin-pool)" ]; then
	native=0
	_have_guest
fi
_test_begin_guest
out=$LAB_STATE/out
dirty_before=$(_dirty_now)

# ---------------------------------------------------------------- refusals, no device needed

# labfn CMD...: run CMD with the lab's functions (rc.sh) in a fresh bash, this test's LAB_STATE
labfn() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	bash -c '. "$1"; shift; "$@"' _ "$KS_DIR/common/rc.sh" "$@"
}
_expect_refusal "mkfs.ext4 on a device the lab did not make" labfn _mkfs_ext4 /dev/ram7
_expect_refusal "mount of a device the lab did not make" labfn _mount_add /dev/loop7 ext4
_expect_refusal "unmount of a mount the lab did not make" labfn _mount_remove /mnt
_expect_refusal "a loop file outside the lab's folder" labfn _loop_add 1M dir=/tmp
echo "registry lines after the refusals: $(wc -l <"$LAB_REGISTRY")"

LAB_OUT=$out LAB_RUNTIME=1 LAB_RAMP=500ms LAB_ROUNDS=1 "$LK" run dm-blkcg-clone --quick 2>"$LAB_STATE/dm-blkcg-clone.err" ||
	{ tail -n 20 "$LAB_STATE/dm-blkcg-clone.err" >&2; tail -n 30 "$out/guest/console.log" >&2 2>/dev/null; exit 1; }

# ---------------------------------------------------------------- the checks, on the files alone

# env KEY: the value of KEY in env.txt ("KEY: value" lines), or nothing
env() { sed -n "s/^$1: //p" "$out/env.txt"; }
# side KEY SIDE: SIDE's part of a value that reads "native: ... | guest: ..."
side() { env "$1" | tr '|' '\n' | sed -n "s/^ *$2: //p" | sed 's/ *$//'; }
# fio_write FILE: "ERROR JOBNAME WRITE_BW" of the first job in fio's JSON (one key a line)
fio_write() {
	awk '/^ *"jobname" *:/ && n == "" { v = $0; sub(/^[^:]*: *"/, "", v); sub(/",?$/, "", v); n = v }
		/^ *"error" *:/ && e == "" { v = $0; sub(/^[^:]*: */, "", v); sub(/,$/, "", v); e = v }
		/^ *"read" *: *\{/ { s = "r" } /^ *"write" *: *\{/ { s = "w" }
		/^ *"bw" *:/ && s == "w" { v = $0; sub(/^[^:]*: */, "", v); sub(/,$/, "", v); print e, n, v; exit }' "$1"
}
positive() { awk -v i="${1:-0}" 'BEGIN { exit !(i > 0) }'; }
yes() { if "$@"; then echo yes; else echo no; fi; }
# wbytes FILE DEVT: the bytes written to DEVT in a copy of a cgroup's io stat (v2 or v1)
wbytes() {
	awk -v d="$2" '$1 == d && $2 == "Write" { n = $3 } $1 == d { for (i = 2; i <= NF; i++) if ($i ~ /^wbytes=/) n = substr($i, 8) }
		END { printf "%.0f\n", n }' "$1"
}

keys=(environment kernel host_kernel cores cgroup cgroup_stat cgroup_writeback weight_file scheduler bottom devices
	filesystem dirty_bytes trim rounds runtime_s ramp_s weights paths stacks workload order runs left_after guest
	native_why guest_why)
for k in "${keys[@]}"; do
	grep -q "^$k: " "$out/env.txt" || echo "env.txt lacks $k"
done
echo "env.txt: rounds: $(env rounds), runtime_s: $(env runtime_s), ramp_s: $(env ramp_s), weights: $(env weights | cut -d' ' -f1-2), paths: $(env paths | cut -d' ' -f1-2)"
gkernel=$(sed -n 's/^kernel: //p' "$out/guest/guest.txt" 2>/dev/null)
if [ "$native" = 1 ]; then
	envs=("native loop" "native linear" "native thin")
	where=$(yes grep -q '^native (loop linear thin)$' <<<"$(env environment)")
	kernel=$(yes [ "$(env kernel)" = "native: $(uname -r)" ])
	st_want="native: loop linear thin"
elif [ "$nloop" = 1 ]; then
	envs=("native loop" "guest linear" "guest thin")
	where=$(yes grep -q '^native (loop); guest VM, .* (linear thin)$' <<<"$(env environment)")
	kernel=$(yes [ "$(env kernel)" = "native: $(uname -r) | guest: $gkernel" ])
	st_want="native: loop | guest: linear thin"
else
	envs=("guest loop" "guest linear" "guest thin")
	where=$(yes grep -q '^guest VM, .* (loop linear thin)$' <<<"$(env environment)")
	kernel=$(yes [ "$(env kernel)" = "guest: $gkernel" ])
	st_want="guest: loop linear thin"
fi
echo "environment says where each stack ran: $where"
echo "kernel is the one each side ran on: $kernel"
echo "stacks: each natively where this kernel can run it, the rest in the guest VM: $(yes [ "$(env stacks)" = "$st_want" ])"

# runs.tsv: the header, then one row per (env, stack, path, weights), in round 1
header=$(printf 'env\tstack\tpath\tweight_a\tweight_b\tround\ta_json\tb_json\ta_wbytes\tb_wbytes\tdev_wbytes\tseconds')
echo "runs.tsv header as the contract says: $(yes [ "$(head -n 1 "$out/runs.tsv")" = "$header" ])"
want=() got=()
for es in "${envs[@]}"; do
	for p in direct buffered; do
		for w in 1000:500 500:500; do want+=("${es% *} ${es#* } $p ${w%:*} ${w#*:} 1"); done
	done
done
mapfile -t got < <(tail -n +2 "$out/runs.tsv" | cut -f1-6 | tr '\t' ' ' | sort)
echo "rows: $((${#got[@]})), one per (env, stack, path, weights): $(yes [ "$(printf '%s\n' "${want[@]}" | sort)" = "$(printf '%s\n' "${got[@]}")" ])"

missing=() bad=() wrong=() dev_bad=() seconds_bad=() direct_ok=0 direct_n=0 buf_ok=0 buf_n=0
while IFS=$'\t' read -r e st p wa wb k aj bj aw bw dw sec; do
	base=$st-$p-w$wa-$wb-r$k
	[ "$aj" = "$base.a.fio.json" ] && [ "$bj" = "$base.b.fio.json" ] || bad+=("$base: json names $aj $bj")
	for f in "$aj" "$bj" "$base.before.stat" "$base.after.stat"; do [ -f "$out/$f" ] || missing+=("$f"); done
	for c in a b; do
		for ba in before after; do [ -f "$out/$base.$ba.$c.cgstat" ] || missing+=("$base.$ba.$c.cgstat"); done
	done
	for c in a b; do
		f=$out/$base.$c.fio.json
		[ -f "$f" ] || continue
		read -r err job wbw <<<"$(fio_write "$f")"
		sec_want=c1501
		if [ "$c" = b ]; then sec_want=c1500; fi
		if [ "${err:-x}" != 0 ] || ! positive "$wbw" || [ "$job" != "$sec_want" ]; then
			bad+=("$base.$c: error ${err:-none}, job ${job:-none}, write bw ${wbw:-none}")
		fi
	done
	# the row's bytes as the stat files say
	b7=$(awk '{ print $7 }' "$out/$base.before.stat" 2>/dev/null || echo 0)
	a7=$(awk '{ print $7 }' "$out/$base.after.stat" 2>/dev/null || echo 0)
	if [ "$dw" != $(((a7 - b7) * 512)) ] || ! positive "$dw"; then dev_bad+=("$base: $dw"); fi
	# the bottom device's MAJ:MIN, as env.txt's devices names it ("STACK: bottom NAME MAJ:MIN (...")
	devt=$(side devices "$e" | tr ';' '\n' | sed -n "s/^ *$st: bottom [^ ]* \([0-9]*:[0-9]*\) .*/\1/p")
	[ -n "$devt" ] || bad+=("$base: env.txt's devices names no bottom device for $e $st")
	for c in a b; do
		v=$(( $(wbytes "$out/$base.after.$c.cgstat" "$devt") - $(wbytes "$out/$base.before.$c.cgstat" "$devt") ))
		if [ "$c" = a ] && [ "$aw" != "$v" ]; then wrong+=("$base.a: $aw, the files $v"); fi
		if [ "$c" = b ] && [ "$bw" != "$v" ]; then wrong+=("$base.b: $bw, the files $v"); fi
	done
	if ! awk -v s="$sec" 'BEGIN { exit !(s >= 1.5) }'; then seconds_bad+=("$base: $sec"); fi
	# charged to a and b: their bytes at least 80% of what the bottom device wrote
	charged=$(awk -v a="$aw" -v b="$bw" -v d="$dw" 'BEGIN { print (d > 0 && a + b >= 0.8 * d) ? 1 : 0 }')
	if [ "$p" = direct ]; then
		direct_n=$((direct_n + 1))
		direct_ok=$((direct_ok + charged))
	else
		buf_n=$((buf_n + 1))
		# v2 writes back in the writer's cgroup; v1 in the root's (at most 20% charged to a and b)
		if side cgroup "$e" | grep -q '^v2 '; then
			buf_ok=$((buf_ok + charged))
		elif awk -v a="$aw" -v b="$bw" -v d="$dw" 'BEGIN { exit !(a + b <= 0.2 * d) }'; then
			buf_ok=$((buf_ok + 1))
		fi
	fi
done < <(tail -n +2 "$out/runs.tsv")
echo "missing files: ${missing[*]:-none}"
echo "writers with an error, zero write bandwidth or the wrong section: ${bad[*]:-none}"
echo "rows whose a_wbytes, b_wbytes differ from the cgstat files: ${wrong[*]:-none}"
echo "rows whose dev_wbytes is not positive or differs from the stat files: ${dev_bad[*]:-none}"
echo "rows shorter than the ramp and the runtime: ${seconds_bad[*]:-none}"
echo "direct rows whose writes the bottom device charged to a and b: $direct_ok/$direct_n"
echo "buffered rows charged as the cgroup version predicts (v2: to a and b; v1: to the root): $buf_ok/$buf_n"
cgw=yes
for s in native guest; do
	v=$(side cgroup "$s")
	[ -n "$v" ] || continue
	case $v in
	v1\ *) side cgroup_writeback "$s" | grep -q '^none: ' || cgw=no ;;
	v2\ *) side cgroup_writeback "$s" | grep -q '^yes: ' || cgw=no ;;
	*) cgw=no ;;
	esac
done
echo "cgroup_writeback says what the cgroup version gives: $cgw"

# the job files: the example's writes, direct=1 and direct=0, the runtime and ramp asked for
jobs=yes
for p in direct buffered; do
	f=$out/job-$p.fio
	d=1
	if [ "$p" = buffered ]; then d=0; fi
	for l in rw=write bs=1m ioengine=psync "direct=$d" size=384m time_based=1 runtime=1s ramp_time=500ms '[c1501]' '[c1500]'; do
		grep -qxF "$l" "$f" 2>/dev/null || jobs=no
	done
done
echo "job-direct.fio, job-buffered.fio: the example with direct 1 and 0, 1 s after 500 ms: $jobs"
# the stacks: lab-bcg-lin over a whole bottom device, the pool (64 KiB blocks, low water 0,
# skip_block_zeroing) and its thin volume 0 as large as the pool
stack=yes
grep -q '^lab-bcg-lin: 0 2097152 linear [0-9]*:[0-9]* 0$' "$out/dm-table.txt" || stack=no
grep -q '^lab-bcg-pool: 0 2097152 thin-pool [0-9]*:[0-9]* [0-9]*:[0-9]* 128 0 1 skip_block_zeroing *$' "$out/dm-table.txt" || stack=no
grep -q '^lab-bcg-thin: 0 2097152 thin [0-9]*:[0-9]* 0$' "$out/dm-table.txt" || stack=no
echo "dm-table.txt: lab-bcg-lin, lab-bcg-pool (64 KiB blocks, skip_block_zeroing), lab-bcg-thin, 1 GiB each: $stack"
echo "bfq on every bottom device: $(yes [ "$(env devices | grep -o 'bfq (was' | wc -l)" = 3 ])"
trim_ok() { ! env trim | grep -q 'no: '; }
echo "trim on thin before every measurement: $(yes trim_ok)"
_test_guest_files "$native" "$out" dm-blkcg-clone
env left_after | sed 's/^/left_after: /' >&2
left_nothing() { ! env left_after | tr '|' '\n' | sed 's/^ *[a-z]*: //; s/ *$//' | grep -qvx nothing; }
echo "left where the runs ran, on every side: nothing: $(yes left_nothing)"
echo "registry lines here: $(wc -l <"$LAB_REGISTRY")"
echo "mounts of the lab's here: $(awk -v k="$LAB_STATE/" 'index($2, k) == 1' /proc/mounts | wc -l)"
cgroups_gone() { [ ! -d "$LAB_BLKIO/lab-bcg-a" ] && [ ! -d "$LAB_BLKIO/lab-bcg-b" ]; } # in $(yes A && B), B would not reach the answer
echo "cgroups a and b gone: $(yes cgroups_gone)"
echo "dirty limits as before: $(yes [ "$(_dirty_now)" = "$dirty_before" ])"
[ ! -e "$LAB_STATE/kernel/guest/qemu.pid" ] && echo "no guest VM left"
