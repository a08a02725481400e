# shellcheck shell=bash
# scenarios/dm-css-ref/lib.sh: the devices and runs of the dm-css-ref scenario, shared by the
# host (run.sh, where its kernel has brd and dm-mod) and the guest VM (guest.sh, which finds
# kernel-scripts as /mnt/in/ks). Source it after common/rc.sh. It changes nothing by itself.
#
# The caller sets:
#   DC_OUT       output folder
#   DC_RUNTIME   seconds per run (or a fio time such as 500ms)
#   DC_ROUNDS    rounds
#   DC_DEPTHS    dm-linear depths to run, ascending (0: the brd device itself; at most 5)
#   DC_NUMJOBS   numjobs, ascending
#   DC_SIZE_MB   the ram disk's size in MiB, and the span every job covers (the whole device)
#   DC_BRIDGE    the command that runs the bridge (LAB_BRIDGE, or the guest's), empty for none:
#                then fio only
#   DC_JOBS_FROM (the guest only) where the host put the job files it rendered for it
# and appends to MADE (rc.sh) as usual. dc_setup sets DC_NODE[D] (what depth D's I/O goes to),
# DC_KNAME[D] (its kernel name, whose /sys stat _counted copies), DC_CHILD (the child cgroup),
# DC_BRIDGE_NODE/DC_BRIDGE_KNAME (the bridge's depth-0 device) and DC_FACTS (key: value lines
# about what was made, for env.txt).

DC_MAX_DEPTH=5
DC_CGNAME=dmcss # the child cgroup: $LAB_BLKIO/lab-dmcss
DC_FACTS=()
DC_IO_ENABLED=0 # 1 when the lab put io into the root's subtree_control
declare -a DC_NODE=() DC_KNAME=()

# dc_runtime_opt: DC_RUNTIME as a job-file time (bare numbers are seconds)
dc_runtime_opt() {
	case $DC_RUNTIME in *[!0-9]*) echo "$DC_RUNTIME" ;; *) echo "${DC_RUNTIME}s" ;; esac
}

# dc_emulation_probe SIDE: the emulation probe (common/perf.sh, _emulation_probe) with this
# scenario's rounds and runtime: tcg-zram-SIDE-rK.fio.* (SIDE host or guest) into DC_OUT. The zram
# joins MADE (removed with the rest).
dc_emulation_probe() {
	_emulation_probe "$DC_OUT" "$1" "$DC_ROUNDS" "$(dc_runtime_opt)" dm-css-ref
}

# dc_job NAME N FILE: queue FILE (_job_queue; _job_flush writes it), the job file of one (depth,
# numjobs): the fix's examples/dm-css-ref.fio (randrw, bs=512, O_DIRECT, psync, group_reporting)
# with this scenario's choices: psync at iodepth 1, the whole device as the span (DC_SIZE_MB), time
# based for DC_RUNTIME, N jobs, the section named NAME (bridge.jar spec render: needs LAB_BRIDGE).
# The filename is given on the command line.
dc_job() {
	_job_queue "$3" dm-css-ref.fio --set ioengine=psync --set iodepth=1 --set "size=${DC_SIZE_MB}M" \
		--set "runtime=$(dc_runtime_opt)" --set time_based=1 --set "numjobs=$2" --name "$1"
}

# dc_job_file BASE N: job-BASE.fio into DC_OUT: dc_job's (queued: dc_jobs flushes), or, with
# DC_JOBS_FROM set (the guest: no JVM to render with), the host's rendering of it copied from there.
dc_job_file() {
	local base=$1 n=$2 file=job-$1.fio
	if [ -z "${DC_JOBS_FROM:-}" ]; then
		dc_job "$base" "$n" "$DC_OUT/$file"
	elif [ -f "$DC_JOBS_FROM/$file" ]; then
		cp "$DC_JOBS_FROM/$file" "$DC_OUT/$file"
	else
		_lab_msg "dm-css-ref: no $file among the job files the host rendered ($DC_JOBS_FROM)"
		return 1
	fi
}

# dc_jobs: job-d<D>-j<N>.fio for every depth and numjobs (fio and the bridge run the same file),
# rendered by one JVM
dc_jobs() {
	local d n
	for d in "${DC_DEPTHS[@]}"; do
		for n in "${DC_NUMJOBS[@]}"; do dc_job_file "d$d-j$n" "$n"; done
	done
	_job_flush
}

# dc_brd NR: NR ram disks of DC_SIZE_MB, each written once whole (so every page is allocated
# before anything is timed, as in the seed: brd allocates a page at its first write); ram0 is
# depth 0, ram1 (when NR is 2) the bridge's depth 0. Not in $(...): MADE must grow in this shell.
dc_brd() {
	local nr=$1 rams r
	rams=$(_brd_add "$nr" "${DC_SIZE_MB}M")
	for r in $rams; do MADE+=("brd ${r#/dev/}"); done
	for r in $rams; do
		_lab_msg "dm-css-ref: filling $r (${DC_SIZE_MB}M)"
		_fill "$r" zero
	done
	DC_NODE[0]=/dev/ram0 DC_KNAME[0]=ram0
	if [ "$nr" -ge 2 ]; then DC_BRIDGE_NODE=/dev/ram1 DC_BRIDGE_KNAME=ram1; fi
}

# dc_stack TOP: lab-lin1..lab-linTOP, lab-lin1 over ram0 and lab-lin(k) over lab-lin(k-1), each
# dm-linear over the whole device below.
dc_stack() {
	local top=$1 k node
	for ((k = 1; k <= top; k++)); do
		node=$(_dm_linear_add "lab-lin$k" "${DC_NODE[k - 1]}")
		MADE+=("dm lab-lin$k")
		DC_NODE[k]=$node
		DC_KNAME[k]=$(_dm_kname "lab-lin$k")
	done
	_dm table >"$DC_OUT/dm-table.txt"
}

# dc_cgroup: the child cgroup lab-dmcss with the io controller (v2: +io in the root's
# subtree_control, taken away again only if the lab put it there; v1: the blkio hierarchy).
# DC_CGROUP_HOW says how.
dc_cgroup() {
	local ctl=$LAB_BLKIO/cgroup.subtree_control had=0 how
	if [ "$LAB_CG_VER" = 2 ]; then
		if _reg_get subtree "$ctl" >/dev/null || grep -qw io "$ctl"; then had=1; fi
		_cgroup_io_enable
		if [ "$had" = 0 ]; then MADE+=("subtree $ctl") DC_IO_ENABLED=1; fi
	fi
	DC_CHILD=$(_cgroup_add "$DC_CGNAME")
	MADE+=("cgroup $DC_CHILD")
	if [ "$LAB_CG_VER" = 2 ]; then
		how="v2 $DC_CHILD, io "
		if [ "$had" = 1 ]; then how+="already in the root's subtree_control"; else how+="enabled in the root's subtree_control by the lab (taken away after)"; fi
	else
		how="v1 blkio $DC_CHILD"
	fi
	DC_CGROUP_HOW=$how
}

# dc_setup NR: the ram disk(s), the stack to the deepest depth run, the child cgroup
dc_setup() {
	local top=${DC_DEPTHS[${#DC_DEPTHS[@]} - 1]}
	dc_brd "$1"
	dc_stack "$top"
	dc_cgroup
	DC_FACTS+=("device: brd ram0 ${DC_SIZE_MB}M (filled once) under lab-lin1..lab-lin$top (dm-linear, each the whole device below)")
	DC_FACTS+=("cgroup: $DC_CGROUP_HOW")
}

# dc_cgsnap PREFIX: the child cgroup's I/O counters to PREFIX.cgstat (v2 io.stat; v1 the blkio
# hierarchy's serviced I/Os), whichever cgroup the run is in: the check that child runs ran there.
dc_cgsnap() {
	local f
	for f in io.stat blkio.throttle.io_serviced blkio.io_serviced; do
		if [ -r "$DC_CHILD/$f" ]; then cat "$DC_CHILD/$f" >"$1.cgstat"; return; fi
	done
	: >"$1.cgstat"
}

# dc_run NAME TOOL NODE KNAME CG BASE [ARG...]: one run under perf stat (-r 1), KNAME's /sys stat
# and the child cgroup's counters before and after. The command is started by a shell that first
# moves itself into cgroup CG (root or child), notes the cgroup it is in then (NAME.cgroup: its
# /proc/self/cgroup, which the command inherits), then execs it: same pid, so perf stat counts it
# whole, and the root arm pays the same wrapper as the child arm. ARGs go to the bridge.
dc_run() {
	local name=$1 tool=$2 node=$3 kname=$4 cg=$5 base=$6 procs cmd=()
	shift 6
	procs=$LAB_BLKIO/cgroup.procs
	if [ "$cg" = child ]; then procs=$DC_CHILD/cgroup.procs; fi
	case $tool in
	fio) cmd=(fio --eta=never --output-format=json --output="$DC_OUT/$name.json" --filename="$node" "$DC_OUT/job-$base.fio") ;;
	bridge) cmd=("${DC_BRIDGE[@]}" run "$DC_OUT/job-$base.fio" --filename "$node" --output "$DC_OUT/$name.json" "$@") ;;
	*) _lab_msg "dm-css-ref: unknown tool $tool"; return 1 ;;
	esac
	dc_cgsnap "$DC_OUT/$name.before"
	# shellcheck disable=SC2016 # expanded by the wrapper shell
	_counted "$DC_OUT" "$name" "$kname" 1 sh -c 'echo $$ >"$1" && cat /proc/self/cgroup >"$2" && shift 2 && exec "$@"' \
		dc-cgroup "$procs" "$DC_OUT/$name.cgroup" "${cmd[@]}"
	dc_cgsnap "$DC_OUT/$name.after"
}

# dc_bridge_run K D: the bridge at depth D (0 or DC_MAX_DEPTH), root cgroup, numjobs 1. At depth 0
# on ram1, a second ram disk like ram0: the bridge refuses a device that dm holds (ram0), and
# takes brd, a kind its registry rule does not know, only with --i-own-this-device.
dc_bridge_run() {
	local k=$1 d=$2
	_lab_msg "dm-css-ref: round $k/$DC_ROUNDS: depth $d, root, 1 job, bridge"
	if [ "$d" = 0 ]; then
		dc_run "d0-root-j1-r$k.bridge" bridge "$DC_BRIDGE_NODE" "$DC_BRIDGE_KNAME" root d0-j1 --i-own-this-device
	else
		dc_run "d$d-root-j1-r$k.bridge" bridge "${DC_NODE[d]}" "${DC_KNAME[d]}" root "d$d-j1"
	fi
}

# dc_bridge_wanted D: true if the bridge runs at depth D (0, with its ram disk, and the deepest)
dc_bridge_wanted() {
	[ ${#DC_BRIDGE[@]} -gt 0 ] || return 1
	case $1 in
	0) [ -n "${DC_BRIDGE_NODE:-}" ] ;;
	"$DC_MAX_DEPTH") return 0 ;;
	*) return 1 ;;
	esac
}

# dc_warmup: one fio run like the rounds' at the deepest depth, root cgroup, numjobs 1, counted
# nowhere: the first runs after the setup are slower (under TCG, the I/O path's first
# translations), and would land on depth 0 in round 1.
dc_warmup() {
	local top=${DC_DEPTHS[${#DC_DEPTHS[@]} - 1]}
	_lab_msg "dm-css-ref: warm-up: depth $top, not recorded"
	fio --eta=never --output=/dev/null --filename="${DC_NODE[top]}" "$DC_OUT/job-d$top-j1.fio"
}

# dc_rounds: DC_ROUNDS rounds (after dc_warmup); in each, every (depth, numjobs, cgroup) once through fio, and the
# bridge (root, numjobs 1) at depths 0 and 5. Depths go up in odd rounds and down in even ones;
# for each (depth, numjobs), root and child go back to back, and which goes first flips from one
# pair to the next and, for the same pair, from one round to the next (round 1 starts with root).
dc_rounds() {
	local k s d n cg depths=() cgs=() i
	dc_warmup
	for ((k = 1; k <= DC_ROUNDS; k++)); do
		depths=("${DC_DEPTHS[@]}")
		if ((k % 2 == 0)); then
			depths=()
			for ((i = ${#DC_DEPTHS[@]} - 1; i >= 0; i--)); do depths+=("${DC_DEPTHS[i]}"); done
		fi
		s=0
		for d in "${depths[@]}"; do
			for n in "${DC_NUMJOBS[@]}"; do
				if (((s + k) % 2)); then cgs=(root child); else cgs=(child root); fi
				for cg in "${cgs[@]}"; do
					_lab_msg "dm-css-ref: round $k/$DC_ROUNDS: depth $d (${DC_NODE[d]}), $cg, $n job(s), fio"
					dc_run "d$d-$cg-j$n-r$k.fio" fio "${DC_NODE[d]}" "${DC_KNAME[d]}" "$cg" "d$d-j$n"
				done
				s=$((s + 1))
			done
			if dc_bridge_wanted "$d"; then dc_bridge_run "$k" "$d"; fi
		done
	done
}

# dc_moved CG: "M/T": of the T runs in cgroup CG, the M during which the child cgroup's counters
# changed (every child run, no root run, when the cgroups were what they say)
dc_moved() {
	local b m=0 t=0
	for b in "$DC_OUT"/d*-"$1"-j*-r*.before.cgstat; do
		[ -e "$b" ] || continue
		t=$((t + 1))
		if ! cmp -s "$b" "${b%.before.cgstat}.after.cgstat"; then m=$((m + 1)); fi
	done
	echo "$m/$t"
}

# dc_in_child CG: "M/T": of the T runs in cgroup CG, the M whose task was in the child cgroup
# (NAME.cgroup: its /proc/self/cgroup names lab-dmcss)
dc_in_child() {
	local f m=0 t=0
	for f in "$DC_OUT"/d*-"$1"-j*-r*.cgroup; do
		[ -e "$f" ] || continue
		t=$((t + 1))
		if grep -q "/lab-$DC_CGNAME\$" "$f"; then m=$((m + 1)); fi
	done
	echo "$m/$t"
}

# dc_counters_why: why the child cgroup's counters stayed still in its own runs, where they did
# (nothing where they moved): on cgroup v1, blkio.throttle.* counts a cgroup's I/O only where it
# has a throttle limit on recent kernels (seen on 6.18), and the lab sets none (a limit would put
# the child arm alone through blk-throttle's per-bio work)
dc_counters_why() {
	local m=$1
	[ "${m%%/*}" = 0 ] && [ "${m#*/}" != 0 ] || return 0
	if [ "$LAB_CG_VER" = 1 ]; then
		echo "; on cgroup v1 this kernel's blkio.throttle counters stay empty for a cgroup without throttle limits, and the lab sets none: cgroup_tasks says where the runs ran"
	else
		echo "; they did not move: see cgroup_tasks"
	fi
}

# dc_facts TOOLS: key: value lines about where and how the runs ran, on stdout (env.txt's, or the
# guest's for the host to put there): kernel, cores, numjobs, device, cgroup, tools (TOOLS),
# cgroup_moved, cgroup_tasks
dc_facts() {
	echo "kernel: $(uname -r)"
	echo "cores: $(nproc)"
	echo "numjobs: ${DC_NUMJOBS[*]}"
	printf '%s\n' "${DC_FACTS[@]}"
	echo "tools: $1"
	echo "cgroup_moved: child $(dc_moved child), root $(dc_moved root) (runs during which the child cgroup's I/O counters changed: .before/.after.cgstat)$(dc_counters_why "$(dc_moved child)")"
	echo "cgroup_tasks: child $(dc_in_child child), root $(dc_in_child root) (runs whose task was in the child cgroup: .cgroup, its /proc/self/cgroup)"
	echo "left_after: $(dc_left)"
	echo "modules: $(_mod_facts)"
}

# dc_left: what of the scenario's own objects is still there (after _made_remove), comma-joined,
# or "nothing": registry lines, lab-lin* dm devices, brd, the child cgroup, io in subtree_control
dc_left() {
	local left=() n
	n=$(awk -F'\t' '$1 == "brd" || ($1 == "dm" && $2 ~ /^lab-lin/) || ($1 == "cgroup" && $2 ~ /\/lab-'"$DC_CGNAME"'$/)' \
		"$LAB_REGISTRY" 2>/dev/null | wc -l)
	if [ "$n" -gt 0 ]; then left+=("$n registry lines"); fi
	n=$(_dm ls 2>/dev/null | awk '$1 ~ /^lab-lin/ { printf "%s%s", s, $1; s = " " }')
	if [ -n "$n" ]; then left+=("dm $n"); fi
	if [ -d /sys/module/brd ]; then left+=("brd loaded"); fi
	if [ -d "$LAB_BLKIO/lab-$DC_CGNAME" ]; then left+=("cgroup $LAB_BLKIO/lab-$DC_CGNAME"); fi
	if [ "$DC_IO_ENABLED" = 1 ] && grep -qw io "$LAB_BLKIO/cgroup.subtree_control" 2>/dev/null; then
		left+=("io in $LAB_BLKIO/cgroup.subtree_control")
	fi
	_left_say "${left[@]}"
}
