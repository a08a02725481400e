# shellcheck shell=bash
# scenarios/dm-blkcg-clone/lib.sh: the devices and measurements of the dm-blkcg-clone scenario,
# shared by the host (run.sh: the loop stack where its kernel has BFQ, and linear and thin where it
# also has dm-mod and dm-thin-pool) and the guest VM (guest.sh: the rest, kernel-scripts found as
# /mnt/in/ks).
# Source it after common/rc.sh. It changes nothing by itself.
#
# The caller sets:
#   BC_OUT       output folder
#   BC_ENV       native | guest: where the runs run (runs.tsv's env)
#   BC_STACKS    the stacks to make and measure, in order: loop, linear, thin
#   BC_PATHS     the paths, in order: direct, buffered
#   BC_WEIGHTS   the weight pairs WA:WB (cgroup a, cgroup b), in order
#   BC_ROUNDS    rounds
#   BC_RUNTIME   each writer's runtime after the ramp: seconds, or a fio time such as 500ms
#   BC_RAMP      each writer's ramp (fio ramp_time, not in its figures), likewise
#   BC_DEV_MB    each bottom device's size in MiB: the filesystem's (linear, loop), the pool's
#                data (thin, whose volume is as large)
#   BC_FILE_MB   each writer's file, in MiB
#   BC_MBPS      (bottom devices made of null_blk) their bandwidth limit, MiB/s
#   BC_DIRTY     "BYTES BACKGROUND_BYTES": vm.dirty_bytes and vm.dirty_background_bytes for the run
#   BC_JOBS_FROM (the guest only) where the host put the job files it rendered for it
# and appends to MADE (rc.sh) as usual. Rows go to BC_OUT/runs.BC_ENV.tsv (runs.tsv's, without its
# header); bc_facts prints key: value lines about what was made, for env.txt.

declare -A BC_CG_NAME=([a]=bcg-a [b]=bcg-b)  # the cgroups a and b: $LAB_BLKIO/lab-bcg-a, lab-bcg-b
declare -A BC_SECTION=([a]=c1501 [b]=c1500) # the example's sections: the seed's containers (c1501 had weight 1000)
BC_BLOCK_SECTORS=128                        # the pool's data block: 64 KiB, LVM's default chunk for a thin pool
BC_META_MB=64                               # the pool's metadata device
BC_MAX_REQ_KB=128                           # null_blk's largest request (max_sectors): within the bandwidth budget of one 20 ms tick
BC_FACTS=()
BC_MADE=()  # what bc_setup made ("kind name", as MADE): what bc_left looks for afterwards
BC_TRIM=yes # fstrim worked on thin before every measurement (else it says why not)
declare -A BC_CG=() BC_BKNAME=() BC_BDEVT=() BC_TOP=() BC_MNT=() BC_HOW=()

# bc_time_opt T: a runtime as a job-file time (bare numbers are seconds)
bc_time_opt() {
	case $1 in *[!0-9]*) echo "$1" ;; *) echo "${1}s" ;; esac
}

# bc_job PATH: the job file of one path (direct or buffered) on stdout: the fix's
# examples/dm-blkcg-clone.fio (sequential 1 MiB psync writes, sections c1501 and c1500: one is run
# per writer with fio --section) with this scenario's choices: direct=1 or 0, each file BC_FILE_MB,
# time based for BC_RUNTIME after BC_RAMP (bridge.jar spec render: needs LAB_BRIDGE). The file
# name is given on the command line.
bc_job() {
	local direct=1
	if [ "$1" = buffered ]; then direct=0; fi
	_job_render dm-blkcg-clone.fio --set "direct=$direct" --set "size=${BC_FILE_MB}m" --set time_based=1 \
		--set "runtime=$(bc_time_opt "$BC_RUNTIME")" --set "ramp_time=$(bc_time_opt "$BC_RAMP")"
}

# bc_jobs: job-<PATH>.fio for every path into BC_OUT: bc_job's, or, with BC_JOBS_FROM set (the
# guest: no JVM to render with), the host's rendering copied from there
bc_jobs() {
	local p f
	for p in "${BC_PATHS[@]}"; do
		f=job-$p.fio
		if [ -z "${BC_JOBS_FROM:-}" ]; then
			bc_job "$p" >"$BC_OUT/$f"
		elif [ -f "$BC_JOBS_FROM/$f" ]; then
			cp "$BC_JOBS_FROM/$f" "$BC_OUT/$f"
		else
			_lab_msg "dm-blkcg-clone: no $f among the job files the host rendered ($BC_JOBS_FROM)"
			return 1
		fi
	done
}

# bc_cgroups: the cgroups a and b (lab-bcg-a, lab-bcg-b), v2 with io and memory in the root's
# subtree_control (both: cgroup writeback needs them; taken away again only if the lab put them
# there), v1 in the blkio hierarchy. BC_FACTS gets cgroup, cgroup_stat, cgroup_writeback.
bc_cgroups() {
	local ctl=$LAB_BLKIO/cgroup.subtree_control had=0 c how stat
	if [ "$LAB_CG_VER" = 2 ]; then
		if _reg_get subtree "$ctl" >/dev/null; then had=1; fi
		how=$(cat "$ctl")
		_cgroup_subtree_enable io memory
		if [ "$had" = 0 ] && _reg_get subtree "$ctl" >/dev/null; then MADE+=("subtree $ctl"); fi
	fi
	for c in a b; do
		BC_CG[$c]=$(_cgroup_add "${BC_CG_NAME[$c]}")
		MADE+=("cgroup ${BC_CG[$c]}")
	done
	stat=$(_cgroup_io_stat_file "${BC_CG[a]}")
	if [ "$LAB_CG_VER" = 2 ]; then
		BC_FACTS+=("cgroup: v2 at $LAB_BLKIO: a ${BC_CG[a]}, b ${BC_CG[b]}; the root's subtree_control had '${how}' before, io and memory after (what the lab added is taken away again)")
		BC_FACTS+=("cgroup_writeback: yes: cgroup v2 with io and memory on, ext4: buffered writes are written back in the writer's cgroup")
	else
		BC_FACTS+=("cgroup: v1 blkio at $LAB_BLKIO: a ${BC_CG[a]}, b ${BC_CG[b]}")
		BC_FACTS+=("cgroup_writeback: none: cgroup v1 has no cgroup writeback: buffered writes are written back by the flusher in the root cgroup, so the weights are not expected to hold for them")
	fi
	if [ -n "$stat" ]; then
		BC_FACTS+=("cgroup_stat: ${stat##*/} (a_wbytes, b_wbytes: its bytes written to the bottom device, after less before)")
	else
		BC_FACTS+=("cgroup_stat: none: the cgroups here have no io stat file, so a_wbytes and b_wbytes are -")
	fi
	BC_FACTS+=("weight_file: $(basename "$(_cgroup_weight_file "${BC_CG[a]}")")")
}

# bc_dirty: vm.dirty_bytes and dirty_background_bytes lowered for the run (BC_DIRTY), so that
# buffered writers are held to writeback within the ramp; what was in force is put back on the
# way out (registry: also by cleanup after a kill)
bc_dirty() {
	local before bytes bg
	read -r bytes bg <<<"$BC_DIRTY"
	before=$(_dirty_now)
	_dirty_set dirty "$bytes"
	MADE+=("dirty /proc/sys/vm/dirty_bytes")
	_dirty_set background "$bg"
	MADE+=("dirty /proc/sys/vm/dirty_background_bytes")
	BC_FACTS+=("dirty_bytes: $bytes (dirty_background_bytes $bg) for the run (before: $before; put back after)")
}

# bc_bottom_dev STACK [mbps]: a bottom device for STACK: natively, and for the loop stack
# wherever it runs, a loop device over a file in the run's tmpfs (BC_TMPFS), O_DIRECT where it takes it; for
# linear and thin in the guest a null_blk (blk-mq, memory backed: a filesystem must read back what
# it wrote), with mbps the bandwidth-limited one (BC_MBPS; requests at most BC_MAX_REQ_KB, and no
# discard: null_blk's limit lets a request through only when it fits the budget of one 20 ms
# tick, so a larger one, such as fstrim's discards, would wait for ever), without it the thin
# pool's metadata device (discard). BC_NEW gets the node; not in $(...): MADE must grow.
bc_bottom_dev() {
	local node
	if bc_on_loop "$1"; then
		node=$(_loop_add "${BC_DEV_MB}M" dio "dir=$BC_TMPFS")
		MADE+=("loop $node")
	else
		if [ "${2:-}" = mbps ]; then
			node=$(_nullb_add "${BC_DEV_MB}M" mem "mbps=$BC_MBPS" "max_sectors=$((BC_MAX_REQ_KB * 2))")
		else
			node=$(_nullb_add "${BC_META_MB}M" mem discard=1)
		fi
		MADE+=("nullb ${node#/dev/}")
	fi
	BC_NEW=$node
}

# bc_on_loop STACK: true where STACK's devices are loop devices in the tmpfs: natively, and the
# loop stack in the guest (the same reference as natively, where this kernel has no BFQ)
bc_on_loop() { [ "$BC_ENV" = native ] || [ "$1" = loop ]; }

# bc_describe NODE: what a bottom device is, for env.txt: its name, MAJ:MIN, (what it is)
bc_describe() {
	local k=${1#/dev/}
	if [ -d "/sys/block/$k/loop" ]; then
		echo "$k $(cat "/sys/block/$k/dev") (loop over a file in a tmpfs the lab mounted, ${BC_DEV_MB} MiB, dio $(cat "/sys/block/$k/loop/dio"), blk-mq)"
	else
		echo "$k $(cat "/sys/block/$k/dev") (null_blk, blk-mq, ${BC_DEV_MB} MiB, memory backed, mbps=$BC_MBPS, max request ${BC_MAX_REQ_KB} KiB, no discard)"
	fi
}

# bc_stack STACK: the bottom device of STACK with BFQ, the stack on it, ext4 on its top, mounted:
# loop: the filesystem on the loop device itself; linear: dm-linear lab-bcg-lin over all of the
# bottom device; thin: the thin pool lab-bcg-pool (data the bottom device, 64 KiB blocks,
# skip_block_zeroing; metadata a device of its own: a loop in the tmpfs natively, a memory-backed
# null_blk in the guest) and its thin volume 0 as lab-bcg-thin, as large as the pool.
bc_stack() {
	local st=$1 bottom meta pool k sched
	bc_bottom_dev "$st" mbps
	bottom=$BC_NEW
	k=${bottom#/dev/}
	sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$k/queue/scheduler")
	_sched_set "$bottom" bfq
	MADE+=("sched /sys/block/$k/queue/scheduler")
	BC_BKNAME[$st]=$k BC_BDEVT[$st]=$(cat "/sys/block/$k/dev")
	BC_HOW[$st]="bottom $(bc_describe "$bottom"), bfq (was $sched; low_latency $(cat "/sys/block/$k/queue/iosched/low_latency"), slice_idle $(cat "/sys/block/$k/queue/iosched/slice_idle") ms)"
	case $st in
	loop) BC_TOP[$st]=$bottom ;;
	linear)
		BC_TOP[$st]=$(_dm_linear_add lab-bcg-lin "$bottom")
		MADE+=("dm lab-bcg-lin")
		BC_HOW[$st]+="; lab-bcg-lin ($(_dm_kname lab-bcg-lin)): dm-linear over all of it"
		;;
	thin)
		bc_bottom_dev "$st"
		meta=$BC_NEW
		pool=$(_dm_thin_pool_add lab-bcg-pool "$meta" "$bottom" "$BC_BLOCK_SECTORS" 0 skip_block_zeroing)
		MADE+=("dm lab-bcg-pool")
		BC_TOP[$st]=$(_dm_thin_add lab-bcg-thin "$pool" 0 "$(blockdev --getsz "$bottom")")
		MADE+=("dm lab-bcg-thin")
		BC_HOW[$st]+="; lab-bcg-thin ($(_dm_kname lab-bcg-thin)): thin volume 0 of the pool lab-bcg-pool (data all of it, $((BC_BLOCK_SECTORS / 2)) KiB blocks, skip_block_zeroing; metadata ${meta#/dev/}, $(bc_meta_describe "$meta"))"
		;;
	*) _lab_msg "dm-blkcg-clone: unknown stack $st"; return 1 ;;
	esac
	_mkfs_ext4 "${BC_TOP[$st]}"
	BC_MNT[$st]=$(_mount_add "${BC_TOP[$st]}" ext4)
	MADE+=("mount ${BC_MNT[$st]}")
}

# bc_meta_describe NODE: the thin pool's metadata device, for env.txt
bc_meta_describe() {
	if [ "$BC_ENV" = native ]; then
		echo "loop over a file in the tmpfs, ${BC_DEV_MB} MiB"
	else
		echo "null_blk, memory backed, ${BC_META_MB} MiB, no bandwidth limit"
	fi
}

# bc_setup: the cgroups, the dirty limits, then every stack of BC_STACKS (first the tmpfs their
# loop devices keep their files in, where any has one); dm-table.txt where dm devices were made
bc_setup() {
	local st n=0 f=()
	bc_cgroups
	bc_dirty
	for st in "${BC_STACKS[@]}"; do
		bc_on_loop "$st" || continue
		n=$((n + 1))
		if [ "$st" = thin ]; then n=$((n + 1)); fi
	done
	if [ "$n" -gt 0 ]; then
		BC_TMPFS=$(_tmpfs_add "$((n * BC_DEV_MB + 16))m")
		MADE+=("mount $BC_TMPFS")
	fi
	for st in "${BC_STACKS[@]}"; do
		_lab_msg "dm-blkcg-clone: $BC_ENV: making the $st stack"
		bc_stack "$st"
		f+=("$st: ${BC_HOW[$st]}")
	done
	if [[ " ${BC_STACKS[*]} " == *" linear "* || " ${BC_STACKS[*]} " == *" thin "* ]]; then
		_dm table >"$BC_OUT/dm-table.txt"
	fi
	BC_MADE=("${MADE[@]}")
	BC_FACTS+=("devices: $(bc_join "${f[@]}")")
	BC_FACTS+=("filesystem: ext4 on each stack's top device (mkfs.ext4 -E nodiscard,lazy_itable_init=0,lazy_journal_init=0), mounted; each writer its own file of ${BC_FILE_MB} MiB (a.dat, b.dat), both removed and synced before every measurement, on thin the freed space trimmed too (fstrim: the pool unmaps the blocks, so it provisions every block the writers write anew)")
}

# bc_join ITEM...: the items joined by "; "
bc_join() {
	local out=$1 i
	shift
	for i in "$@"; do out+="; $i"; done
	echo "$out"
}

# bc_snap STACK PREFIX: the bottom device's /sys stat (PREFIX.stat) and the io stat files of a and
# b (PREFIX.a.cgstat, PREFIX.b.cgstat; none where the cgroup has no such file)
bc_snap() {
	local st=$1 pre=$2 c f
	cat "/sys/block/${BC_BKNAME[$st]}/stat" >"$pre.stat"
	for c in a b; do
		f=$(_cgroup_io_stat_file "${BC_CG[$c]}")
		if [ -n "$f" ]; then cat "$f" >"$pre.$c.cgstat"; fi
	done
}

# bc_cg_delta BASE C DEVT: the bytes written to DEVT charged to cgroup C between BASE.before and
# BASE.after (- where the cgroup has no io stat file)
bc_cg_delta() {
	local b=$1.before.$2.cgstat a=$1.after.$2.cgstat
	if [ ! -f "$b" ] || [ ! -f "$a" ]; then echo -; return; fi
	echo $(($(_cgroup_wbytes "$a" "$3") - $(_cgroup_wbytes "$b" "$3")))
}

# bc_clean STACK: the writers' files removed, synced; on thin the freed space trimmed, so the pool
# unmaps its blocks and provisions them anew (BC_TRIM says if that failed)
bc_clean() {
	local mnt=${BC_MNT[$1]} err
	rm -f "$mnt/a.dat" "$mnt/b.dat"
	sync
	if [ "$1" = thin ] && ! err=$(fstrim "$mnt" 2>&1); then BC_TRIM="no: fstrim $1: $err"; fi
}

# bc_writers STACK PATH BASE: the files gone, the bottom device's stat and a's and b's io stats
# (BASE.before.*), the two writers started together, each in its cgroup (a shell that moves itself
# there, then execs fio with its section of job-PATH.fio on its own file, its JSON BASE.C.fio.json),
# both waited for, sync, the stats again (BASE.after.*). Fails if a writer failed.
bc_writers() {
	local st=$1 path=$2 base=$3 c rc=0 pid
	local -A pids=()
	bc_clean "$st"
	bc_snap "$st" "$base.before"
	for c in a b; do
		# in its mount, so that fio's JSON names the file relative to it (no machine path in the results)
		# shellcheck disable=SC2016 # expanded by the wrapper shell
		sh -c 'echo $$ >"$1" && cd "$2" && shift 2 && exec "$@"' bcg-writer "${BC_CG[$c]}/cgroup.procs" "${BC_MNT[$st]}" \
			fio --eta=never --output-format=json --output="$base.$c.fio.json" --section="${BC_SECTION[$c]}" \
			--filename="$c.dat" "$BC_OUT/job-$path.fio" &
		pids[$c]=$!
	done
	for c in a b; do
		pid=${pids[$c]}
		wait "$pid" || { rc=$?; _lab_msg "dm-blkcg-clone: the writer in $c failed (fio exit $rc): ${base##*/}"; }
	done
	sync
	bc_snap "$st" "$base.after"
	[ "$rc" = 0 ]
}

# bc_measure STACK PATH WA WB K: one measurement: weights WA and WB on a and b, the two writers
# (bc_writers); the row appended to runs.BC_ENV.tsv. BASE is STACK-PATH-wWA-WB-rK.
bc_measure() {
	local st=$1 path=$2 wa=$3 wb=$4 k=$5 base t0 t1 rc=0
	base=$st-$path-w$wa-$wb-r$k
	_lab_msg "dm-blkcg-clone: $BC_ENV: round $k/$BC_ROUNDS: $st, $path, weights $wa:$wb"
	_cgroup_set_weight "${BC_CG[a]}" "$wa"
	_cgroup_set_weight "${BC_CG[b]}" "$wb"
	t0=$EPOCHREALTIME
	bc_writers "$st" "$path" "$BC_OUT/$base" || rc=1
	t1=$EPOCHREALTIME
	[ "$rc" = 0 ] || return 1
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$BC_ENV" "$st" "$path" "$wa" "$wb" "$k" \
		"$base.a.fio.json" "$base.b.fio.json" \
		"$(bc_cg_delta "$BC_OUT/$base" a "${BC_BDEVT[$st]}")" "$(bc_cg_delta "$BC_OUT/$base" b "${BC_BDEVT[$st]}")" \
		"$(bc_dev_wbytes "$BC_OUT/$base")" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" \
		>>"$BC_OUT/runs.$BC_ENV.tsv"
}

# bc_dev_wbytes BASE: the bytes the bottom device wrote between BASE.before.stat and
# BASE.after.stat (field 7, write sectors, times 512)
bc_dev_wbytes() {
	local b a
	b=$(awk '{ print $7 }' "$1.before.stat")
	a=$(awk '{ print $7 }' "$1.after.stat")
	echo $(((a - b) * 512))
}

# bc_rounds: BC_ROUNDS rounds; in each, every (weights, path, stack) once: the weight pairs in
# their order in odd rounds and reversed in even ones; for each pair the paths in their order
# (direct, then buffered); for each (pair, path) the stacks back to back, which goes first flipping
# from one (pair, path) to the next and, for the same one, from one round to the next.
bc_rounds() {
	local k i s w p st pairs=() stacks=()
	for ((k = 1; k <= BC_ROUNDS; k++)); do
		pairs=("${BC_WEIGHTS[@]}")
		if ((k % 2 == 0)); then
			pairs=()
			for ((i = ${#BC_WEIGHTS[@]} - 1; i >= 0; i--)); do pairs+=("${BC_WEIGHTS[i]}"); done
		fi
		s=0
		for w in "${pairs[@]}"; do
			for p in "${BC_PATHS[@]}"; do
				stacks=("${BC_STACKS[@]}")
				if (((s + k) % 2 == 0)); then
					stacks=()
					for ((i = ${#BC_STACKS[@]} - 1; i >= 0; i--)); do stacks+=("${BC_STACKS[i]}"); done
				fi
				for st in "${stacks[@]}"; do bc_measure "$st" "$p" "${w%%:*}" "${w##*:}" "$k"; done
				s=$((s + 1))
			done
		done
	done
}

# bc_facts: key: value lines about where and how the runs ran, on stdout (the guest's for the host
# to merge into env.txt): kernel, cores, the BC_FACTS, trim, left_after
bc_facts() {
	echo "kernel: $(uname -r)"
	echo "cores: $(nproc)"
	printf '%s\n' "${BC_FACTS[@]}"
	echo "trim: $BC_TRIM"
	echo "left_after: $(bc_left)"
	echo "modules: $(_mod_facts)"
}

# bc_left: what of the scenario's own objects is still there (after _made_remove), comma-joined,
# or "nothing": the registry lines of what bc_setup made (BC_MADE), lab-bcg-* dm devices, the
# cgroups, mounts under $LAB_KDIR
bc_left() {
	local left=() n=0 e c
	for e in "${BC_MADE[@]}"; do
		if _reg_get "${e%% *}" "${e#* }" >/dev/null; then n=$((n + 1)); fi
	done
	if [ "$n" -gt 0 ]; then left+=("$n registry lines"); fi
	if command -v dmsetup >/dev/null 2>&1; then
		n=$(_dm ls 2>/dev/null | awk '$1 ~ /^lab-bcg-/ { printf "%s%s", s, $1; s = " " }')
		if [ -n "$n" ]; then left+=("dm $n"); fi
	fi
	for c in a b; do
		if [ -d "$LAB_BLKIO/lab-${BC_CG_NAME[$c]}" ]; then left+=("cgroup $LAB_BLKIO/lab-${BC_CG_NAME[$c]}"); fi
	done
	n=$(awk -v k="$LAB_KDIR/" 'index($2, k) == 1 { printf "%s%s", s, $2; s = " " }' /proc/mounts)
	if [ -n "$n" ]; then left+=("mounts $n"); fi
	_left_say "${left[@]}"
}
