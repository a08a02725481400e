#!/usr/bin/env bash
# dm-blkcg-clone: the kernel side of the fix "dm-blkcg-clone" (seed 003_e853cddf414699dc.txt: two
# containers on LVM-thin, blkio.weight 1000 vs 500, each `dd bs=1M count=3000` to a file; before
# the 2016 fix dm's clones lost the bio's blkcg association, so the io controller at the bottom
# device saw every clone in the root cgroup; with it, buffered writes got 31.8 vs 25.6 MB/s (about
# 1.9:1 in a longer run), direct ones 20.8 vs 20.0 MB/s: direct bios then carried no association,
# and thin submits provisioning writes from its worker thread).
#
# Today's kernel has every fix (since 5.0 every bio is associated with its blkcg when it is
# submitted, and a clone takes its source's association), so what is real here is the question:
# do BFQ's proportional weights survive dm stacking today, for direct and for buffered writes?
# Two cgroups a and b (lab-bcg-a, lab-bcg-b: the lab's, removed afterwards), BFQ on the BOTTOM
# device (blk-mq), the weights WA and WB set through the lab's cgroup helpers (v1
# blkio.bfq.weight, v2 io.bfq.weight), ext4 on the stack's top device, and per measurement two
# sequential writers started together, one in a and one in b, each on its own file.
#
# Stacks:
#   loop    ext4 on a loop device (dio) with BFQ: the reference that weights work here at all;
#           natively where this kernel has BFQ (bfq-iosched loaded, and unloaded after, where it
#           is a module), else in the guest VM, made the same way. Its file lies in a tmpfs the
#           lab mounts: this host's disk takes O_DIRECT writes at 3-4 GB/s (the hypervisor's
#           cache), so a loop over a file there would push some 40 GB through it per
#           measurement; in memory the same loop and BFQ path run without that (measured at
#           2-4 GB/s: BFQ idles for the writer in service while the other's request waits queued
#           in BFQ; 1000:500 direct gives 1.8-1.9:1). The loop reads and writes its file with
#           O_DIRECT where the tmpfs takes it (6.6 and later; devices says: dio 1), else buffered.
#   linear  ext4 on dm-linear lab-bcg-lin over all of the bottom device (depth 1);
#   thin    ext4 on thin volume 0 (lab-bcg-thin) of the pool lab-bcg-pool: data the bottom
#           device, 64 KiB blocks, skip_block_zeroing; metadata on a memory-backed device of its
#           own (a memory-backed null_blk in the guest). The files are removed and the free space
#           trimmed (fstrim: the pool unmaps the blocks) before every measurement, so thin
#           provisions every block it writes anew (the worker-thread path of the seed).
#   linear and thin run natively where this kernel has BFQ, dm-mod and dm-thin-pool (on loop
#   devices as above), else in the guest VM (Debian's kernel under qemu, guest/guest.sh run;
#   scenarios/dm-blkcg-clone/guest.sh inside), each stack on its own null_blk (blk-mq, memory
#   backed, bandwidth-limited to LAB_BCG_MBPS MiB/s, 128 KiB requests, no discard: null_blk lets
#   a request through only when it fits one 20 ms tick's budget), cgroup v2 with
#   io and memory in the root's subtree_control, so that buffered writes are written back in the
#   writer's cgroup (cgroup writeback). This host's cgroup v1 has no cgroup writeback: natively,
#   buffered writes are expected NOT to follow the weights (env.txt: cgroup_writeback).
#
# Workload: examples/dm-blkcg-clone.fio (rw=write, bs=1m, psync, iodepth 1; the sections c1501
# and c1500, the seed's containers, one per writer: fio --section, c1501 in a) rendered with
# direct=1 (path direct) or direct=0 (buffered), time based, ramp_time LAB_RAMP and runtime
# LAB_RUNTIME, each file 384 MiB on a 1 GiB filesystem; fio --output-format=json per writer. For
# the whole run vm.dirty_bytes is 32 MiB and vm.dirty_background_bytes 16 MiB (natively a host
# setting: what was in force is put back exactly, by the trap and, after a kill, by cleanup), so
# buffered writers are held to writeback within the ramp. A measurement: the weights set, the
# files removed, sync (fstrim on thin); the bottom device's /sys stat and a's and b's io stat;
# the writers; sync; the stats again.
#
# Rounds (LAB_ROUNDS, default 3, 1 quick): in each, every (weights, path, stack) once: the weight
# pairs in order in odd rounds and reversed in even ones, for each pair direct then buffered, and
# for each of those the stacks back to back, which first flipping from one to the next and from
# round to round. Weight pairs (WA:WB): 1000:500 and 500:500 (the A/A control), and 1000:100
# without LAB_QUICK=1.
#
# Writes into $LAB_OUT (required):
#   runs.tsv  a header line, then one row per measurement, tab-separated, the columns
#       env stack path weight_a weight_b round a_json b_json a_wbytes b_wbytes dev_wbytes seconds
#     env native|guest; stack loop|linear|thin; path direct|buffered; weight_a, weight_b the
#     weights of cgroups a and b; round from 1; a_json, b_json the fio JSON files (names relative
#     to LAB_OUT) of the writers in a and in b; a_wbytes, b_wbytes the bytes written to the bottom
#     device that it charged to a and to b over the measurement (deltas of the cgroups' io stat
#     for the bottom device's MAJ:MIN: v2 io.stat wbytes=, v1 blkio.bfq.io_service_bytes, else
#     blkio.throttle.io_service_bytes, Write; - where the cgroup has no such file); dev_wbytes
#     the bytes the bottom device wrote over it (its /sys/block/X/stat write sectors, field 7,
#     delta times 512); seconds the measurement's wall time (from starting the writers to the
#     end of the sync after them)
#   <stack>-<path>-w<WA>-<WB>-r<K>.a.fio.json, .b.fio.json  (fio's JSON of the writer in a, in b)
#   <stack>-<path>-w<WA>-<WB>-r<K>.before.stat, .after.stat  (the bottom device's /sys stat)
#   <stack>-<path>-w<WA>-<WB>-r<K>.before.a.cgstat, .after.a.cgstat, .before.b.cgstat,
#       .after.b.cgstat  (a's and b's io stat file as it was, when they have one)
#   job-direct.fio, job-buffered.fio  (the job files both writers ran: fio --section c1501 / c1500)
#   dm-table.txt  (dmsetup table of the linear and thin stacks, wherever they ran)
#   env.txt  key: value lines: environment, kernel, host_kernel, cores, cgroup, cgroup_stat,
#       cgroup_writeback, weight_file, scheduler, bottom, devices, filesystem, dirty_bytes, trim,
#       rounds, runtime_s, ramp_s, weights, paths, stacks, workload, order, runs, left_after,
#       guest, native_why, guest_why. A value that differs between where the runs ran reads
#       "native: ... | guest: ...".
#   guest/  (the guest's console.log, guest.txt, guest-run.log, dm-blkcg-clone-guest.txt)
# Exits 0 only if every measurement ran: a guest VM that fails (no exit status, a non-zero one, a
# timeout) leaves FAILED ("guest (STACKS): why") beside the rows it finished, and exit 1. A part
# that cannot run here (no guest VM possible) is left out, its rows absent, and env.txt says why
# (native_why, guest_why); where no stack can run at all (no BFQ here and no guest VM), env.txt
# says both reasons and the scenario exits 1.
# Environment: LAB_QUICK=1 (2 s runs after a 1 s ramp, 1 round, two weight pairs; else 8 s
# after 2 s, 3 rounds, three pairs), LAB_RUNTIME, LAB_RAMP (seconds, or a fio time such as
# 500ms), LAB_ROUNDS, LAB_BCG_MBPS (the guest's bottom devices' bandwidth, default 32),
# LAB_BCG_GUEST=0 (no guest part: linear and thin left out where they need it), LAB_JDK
# (common/jvm.sh: renders the job files), GUEST_MEM (the guest's MiB, default 3072: the bottom
# devices keep what is written in the guest's memory).
# LAB_FLAMEGRAPH is ignored here. On 2 cores with the guest under TCG: full 10 min 30 s (54
# measurements; the guest 437 s of it), quick 1 min 20 s (12; test 028, with 1 s runs after
# 500 ms, about 60 s).
set -euo pipefail

KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../../common/rc.sh
. "$KS_DIR/common/rc.sh"
# shellcheck source=SCRIPTDIR/lib.sh
. "$KS_DIR/scenarios/dm-blkcg-clone/lib.sh"

OUT=${LAB_OUT:?LAB_OUT must name the output folder}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) # absolute: each writer runs from its mount
QUICK=${LAB_QUICK:-0}
if [ "$QUICK" = 1 ]; then
	RUNTIME=2 RAMP=1 ROUNDS=1 WEIGHTS="1000:500 500:500"
else
	RUNTIME=8 RAMP=2 ROUNDS=3 WEIGHTS="1000:500 500:500 1000:100"
fi
RUNTIME=${LAB_RUNTIME:-$RUNTIME}
RAMP=${LAB_RAMP:-$RAMP}
ROUNDS=${LAB_ROUNDS:-$ROUNDS}
MBPS=${LAB_BCG_MBPS:-32}
_scenario_runtime dm-blkcg-clone "$RUNTIME" "$ROUNDS" # sets RUNTIME_S, RUNTIME_CEIL_S
[[ $RAMP =~ ^[1-9][0-9]*(ms)?$ ]] || { _lab_msg "dm-blkcg-clone: LAB_RAMP must be seconds or Nms: $RAMP"; exit 1; }
[[ $MBPS =~ ^[1-9][0-9]*$ ]] || { _lab_msg "dm-blkcg-clone: LAB_BCG_MBPS must be MiB/s: $MBPS"; exit 1; }
if [[ $RAMP == *ms ]]; then RAMP_S=$(awk -v m="${RAMP%ms}" 'BEGIN { print m / 1000 }'); else RAMP_S=$RAMP; fi
read -r -a WEIGHTS <<<"$WEIGHTS"
PATHS=(direct buffered)
DEV_MB=1024                         # each bottom device, and each stack's filesystem
FILE_MB=384                         # each writer's file
DIRTY="$((32 << 20)) $((16 << 20))" # vm.dirty_bytes, vm.dirty_background_bytes for the run

BC_OUT=$OUT BC_RUNTIME=$RUNTIME BC_RAMP=$RAMP BC_ROUNDS=$ROUNDS BC_DEV_MB=$DEV_MB BC_FILE_MB=$FILE_MB
BC_MBPS=$MBPS BC_DIRTY=$DIRTY
BC_WEIGHTS=("${WEIGHTS[@]}") BC_PATHS=("${PATHS[@]}")

# the guest (run_guest) runs in the background; on the way out it is stopped before anything of
# the lab here goes
_guest_scenario_traps

need_tools() {
	local c
	for c in fio mkfs.ext4 fstrim losetup blockdev; do
		command -v "$c" >/dev/null 2>&1 || { _lab_msg "dm-blkcg-clone: $c is not installed (./lab kernel installs fio; mkfs.ext4: e2fsprogs; fstrim, losetup: util-linux)"; exit 1; }
	done
}

# native_why: why no stack can run on this kernel (nothing when the loop stack can): no loop
# devices, no BFQ (the weights are BFQ's), no io controller
native_why() {
	local why
	_driver_native loop || { echo "this kernel has no loop devices"; return; }
	why=$(_sched_native_why bfq)
	if [ -n "$why" ]; then echo "$why (the weights are BFQ's)"; return; fi
	if [ "$LAB_CG_VER" = 1 ] && [ ! -d "$LAB_BLKIO" ]; then echo "no blkio cgroup v1 at $LAB_BLKIO"; return; fi
	if [ "$LAB_CG_VER" = 2 ] && ! grep -qw io "$LAB_BLKIO/cgroup.controllers" 2>/dev/null; then
		echo "neither blkio (v1) nor cgroup v2 with the io controller at $LAB_BLKIO"
	fi
}

# comma STACK...: the stacks as a list in words ("loop, linear, thin")
comma() {
	local IFS=, s
	s="$*"
	echo "${s//,/, }"
}

need_tools
_lab_jvm_init # renders the job files (spec render)
mkdir -p "$OUT"
rm -f "$OUT/runs.tsv" "$OUT/runs.native.tsv" "$OUT/runs.guest.tsv"

# each stack natively where this kernel can run it (loop: loop devices, BFQ and the io
# controller; linear and thin: also dm-mod and dm-thin-pool), else in the guest VM
nwhy=$(native_why)
dmwhy=$(_dm_native_why dm-mod dm-thin-pool)
if [ -n "$nwhy" ]; then
	NATIVE_STACKS=() GUEST_STACKS=(loop linear thin)
	NATIVE_WHY="loop, linear, thin: $nwhy"
elif [ -n "$dmwhy" ]; then
	NATIVE_STACKS=(loop) GUEST_STACKS=(linear thin)
	NATIVE_WHY="linear, thin: $dmwhy"
else
	NATIVE_STACKS=(loop linear thin) GUEST_STACKS=()
	NATIVE_WHY="none: every stack ran natively (this kernel has BFQ, dm-mod and dm-thin-pool)"
fi
GSTACKS=$(comma "${GUEST_STACKS[@]}")

# ---------------------------------------------------------------- native

# run_native: the native stacks' rounds, where there are any; writes NATIVE_FACTS
run_native() {
	[ "${#NATIVE_STACKS[@]}" -gt 0 ] || return 0
	BC_ENV=native BC_STACKS=("${NATIVE_STACKS[@]}")
	: >"$OUT/runs.native.tsv"
	bc_setup
	bc_rounds
	_made_remove || { _lab_msg "dm-blkcg-clone: could not remove everything it made"; exit 1; }
	bc_facts >"$NATIVE_FACTS"
}

# ---------------------------------------------------------------- the guest VM

GOUT=$OUT/guest

# run_guest: GUEST_STACKS in the guest VM (the host renders its job files: the same as the native
# ones); sets GUEST_STATUS, writes GUEST_FACTS. A guest that fails: FAILED says so (_part_failed),
# env.txt and runs.tsv say what ran, and the scenario exits 1.
run_guest() {
	local n tmo p mem=3072 st pats=()
	_guest_params_write "$GOUT" dm-blkcg-clone "runtime=$RUNTIME" "ramp=$RAMP" "rounds=$ROUNDS" "weights=${WEIGHTS[*]}" \
		"paths=${PATHS[*]}" "stacks=${GUEST_STACKS[*]}" "dev_mb=$DEV_MB" "file_mb=$FILE_MB" "mbps=$MBPS" "dirty=$DIRTY"
	for p in "${PATHS[@]}"; do cp "$OUT/job-$p.fio" "$GOUT/jobs/"; done
	for st in "${GUEST_STACKS[@]}"; do pats+=("$st-*"); done
	# the loop stack's tmpfs takes what its writers write, as their null_blks do
	if [ "${GUEST_STACKS[0]}" = loop ]; then mem=$((mem + DEV_MB)); fi
	n=$((ROUNDS * ${#WEIGHTS[@]} * ${#PATHS[@]} * ${#GUEST_STACKS[@]}))
	# a measurement is the ramp and the runtime, and about 10 s more under TCG (fio's start,
	# the sync, the trim); boot, modules and making the stacks about 90 s
	tmo=$((n * (RUNTIME_CEIL_S + ${RAMP_S%.*} + 12) + 240))
	_lab_msg "dm-blkcg-clone: guest VM ($GSTACKS, $n measurements), log in $GOUT/guest-run.log, at most ${tmo}s"
	_guest_scenario_run dm-blkcg-clone "$GOUT" "$tmo" "$mem"
	_guest_collect "$GOUT" "$OUT" "${pats[@]}" dm-table.txt runs.guest.tsv
	if [ "$GUEST_RC" -ne 0 ]; then
		# the native results stand; the run fails (exit 1) at its end
		_part_failed "guest ($GSTACKS)" "$GUEST_FAILURE"
		GUEST_WHY="$GSTACKS: the guest VM failed (exit $GUEST_RC; their rows are those it finished)"
		return 0
	fi
	GUEST_STATUS="ran: $GSTACKS in the guest VM (guest/ has its console and log)"
	cp "$GOUT/dm-blkcg-clone-guest.txt" "$GUEST_FACTS"
}

# ---------------------------------------------------------------- runs.tsv, env.txt

# fact KEY: KEY's value from where the runs ran: "native: V | guest: V" (the one there is alone
# when only one side has it, or both say the same)
fact() {
	local nv gv
	nv=$(sed -n "s/^$1: //p" "$NATIVE_FACTS" 2>/dev/null)
	gv=$(sed -n "s/^$1: //p" "$GUEST_FACTS" 2>/dev/null)
	if [ -n "$nv" ] && [ -n "$gv" ]; then
		echo "native: $nv | guest: $gv"
	elif [ -n "$nv" ]; then
		echo "native: $nv"
	elif [ -n "$gv" ]; then
		echo "guest: $gv"
	fi
}

# finish: runs.tsv (the header, then the native rows and the guest's) and env.txt
finish() {
	local env_line=() k gstacks=
	{
		printf 'env\tstack\tpath\tweight_a\tweight_b\tround\ta_json\tb_json\ta_wbytes\tb_wbytes\tdev_wbytes\tseconds\n'
		cat "$OUT/runs.native.tsv" "$OUT/runs.guest.tsv" 2>/dev/null || true
	} >"$OUT/runs.tsv"
	rm -f "$OUT/runs.native.tsv" "$OUT/runs.guest.tsv"
	if [ "${#NATIVE_STACKS[@]}" -gt 0 ]; then env_line+=("native (${NATIVE_STACKS[*]})"); fi
	if [ -s "$GUEST_FACTS" ]; then
		gstacks="${GUEST_STACKS[*]}"
		env_line+=("$(_guest_vm "$GOUT") ($gstacks)")
	fi
	if [ "${#env_line[@]}" = 0 ]; then env_line=(none); fi
	{
		echo "environment: $(bc_join "${env_line[@]}")"
		echo "kernel: $(fact kernel)"
		echo "host_kernel: $(uname -r)"
		for k in cores cgroup cgroup_stat cgroup_writeback weight_file; do echo "$k: $(fact "$k")"; done
		echo "scheduler: bfq on every bottom device, selected by the lab (the old one put back after), BFQ's own defaults otherwise (devices: each one's low_latency and slice_idle)"
		echo "bottom: $(bottom_line "$gstacks")"
		for k in devices filesystem dirty_bytes trim; do echo "$k: $(fact "$k")"; done
		echo "rounds: $ROUNDS"
		echo "runtime_s: $RUNTIME_S"
		echo "ramp_s: $RAMP_S"
		echo "weights: ${WEIGHTS[*]} (weight_a:weight_b; 500:500 the A/A control)"
		echo "paths: ${PATHS[*]} (fio direct=1, direct=0)"
		echo "stacks: $(stacks_line "$gstacks")"
		echo "workload: two writers started together, one in cgroup a and one in b, each fio rw=write bs=1m ioengine=psync iodepth=1 on its own file of ${FILE_MB} MiB (a.dat, b.dat), time based: ramp_time ${RAMP_S} s, runtime ${RUNTIME_S} s; job-<path>.fio, sections c1501 (a) and c1500 (b)"
		echo "order: per round every (weights, path, stack) once; weight pairs in order in odd rounds, reversed in even ones; direct then buffered; the stacks back to back, the first flipping from one (weights, path) to the next and round to round"
		echo "runs: $(($(wc -l <"$OUT/runs.tsv") - 1)) measurements"
		echo "left_after: $(fact left_after)"
		echo "modules: $(fact modules)"
		echo "guest: $GUEST_STATUS"
		echo "native_why: $NATIVE_WHY"
		echo "guest_why: $GUEST_WHY"
	} >"$OUT/env.txt"
}

# stacks_line GUEST_STACKS: env.txt's stacks: "native: S... | guest: S..." (a side without stacks left out)
stacks_line() {
	local s=
	if [ "${#NATIVE_STACKS[@]}" -gt 0 ]; then s="native: ${NATIVE_STACKS[*]}"; fi
	if [ -n "$1" ]; then s+="${s:+ | }guest: $1"; fi
	echo "$s"
}

# bottom_line GUEST_STACKS: env.txt's bottom: what each side's bottom devices are
bottom_line() {
	local s=() g=
	if [ "${#NATIVE_STACKS[@]}" -gt 0 ]; then
		s+=("native: loop devices over files in a tmpfs the lab mounted, direct I/O where the tmpfs takes it (devices: dio) (no bandwidth limit: memory speed; this host's disk would have taken 3-4 GB/s)")
	fi
	if [[ " $1 " == *" loop "* ]]; then g="loop: a loop device over a file in a tmpfs, direct I/O where the tmpfs takes it (devices: dio) (no bandwidth limit), as natively"; fi
	if [[ " $1 " == *" linear "* || " $1 " == *" thin "* ]]; then
		g+="${g:+; }linear, thin: null_blk devices (blk-mq, memory backed), bandwidth-limited to $MBPS MiB/s (mbps), requests at most 128 KiB"
	fi
	if [ -n "$g" ]; then s+=("guest: $g"); fi
	local IFS='|' j
	j="${s[*]}"
	echo "${j//|/ | }"
}

NATIVE_FACTS=$FLAME_TMP/native.facts GUEST_FACTS=$FLAME_TMP/guest.facts
GUEST_STATUS=
bc_jobs # job-<path>.fio, for every side
run_native
if [ "${#GUEST_STACKS[@]}" = 0 ]; then
	GUEST_WHY="not needed: every stack ran natively"
	GUEST_STATUS="skipped: $GUEST_WHY"
else
	gwhy=$(_guest_why)
	if [ "${LAB_BCG_GUEST:-1}" = 0 ]; then gwhy="LAB_BCG_GUEST=0"; fi
	if [ -n "$gwhy" ]; then
		if [ "${#NATIVE_STACKS[@]}" = 0 ]; then _guest_scenario_none dm-blkcg-clone "$nwhy" "$gwhy" "$OUT"; fi
		GUEST_WHY="$GSTACKS: $gwhy (their rows are absent)"
		GUEST_STATUS="skipped: $gwhy"
		_lab_msg "dm-blkcg-clone: no guest VM: $gwhy; $GSTACKS do not run"
	else
		GUEST_WHY="none: $GSTACKS ran in the guest VM"
		_lab_msg "dm-blkcg-clone: natively ${NATIVE_WHY#*: }: $GSTACKS go to the guest VM"
		run_guest
	fi
fi
finish
_scenario_done dm-blkcg-clone "$OUT"
