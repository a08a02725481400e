# shellcheck shell=bash
# scenarios/part-acct/lib.sh: the runs of the part-acct scenario, shared by the host (run.sh)
# and the guest VM (guest.sh, which finds kernel-scripts as /mnt/in/ks). Source it after
# common/rc.sh. It changes nothing by itself.
#
# The caller sets:
#   PA_OUT      output folder
#   PA_RUNTIME  seconds per run (or a fio time such as 500ms)
#   PA_ROUNDS   rounds
#   PA_DEPTH    io_uring iodepth of bridge-uring
#   PA_TARGETS  one "DEV TARGET DISK NODE" per target: DEV zram|loop|nullb, TARGET disk|part,
#               DISK the whole disk (whose queue/iostats is toggled), NODE what I/O goes to
#   PA_NUMJOBS  numjobs, ascending
#   PA_TOOLS    fio and/or bridge-uring (LAB_BRIDGE for the bridge, from _lab_jvm_init)
#   PA_FLAME    DEV-TARGET whose fio runs get kernel flamegraphs in round 1 at the highest
#               numjobs it runs (with LAB_FLAMEGRAPH=1), or empty
#   PA_SPAN     "OFFSET_MIB SIZE_MIB" of the disk targets; part targets read the whole
#               partition, which lies over the same sectors (so both read the same bytes)
#   PA_PART_MIB the partition's size in MiB
#   PA_JOBS_FROM (the guest only) where the host put the job files it rendered for it
#   PA_CELLS    the (dev, target, numjobs) cells to run, "DEV-TARGET-jN" words, jmax standing for
#               the highest of PA_NUMJOBS; empty or "all": every cell (a quick run's plan: run.sh)
# and appends to MADE (rc.sh) as usual.

# pa_wanted DEV TARGET N [NMAX]: true if the cell runs (PA_CELLS); NMAX is what jmax stands for
# (default the highest of PA_NUMJOBS)
pa_wanted() {
	local nmax=${4:-${PA_NUMJOBS[${#PA_NUMJOBS[@]} - 1]}} cells=" ${PA_CELLS:-all} "
	[ "$cells" = " all " ] && return 0
	[[ $cells == *" $1-$2-j$3 "* ]] && return 0
	[ "$3" = "$nmax" ] && [[ $cells == *" $1-$2-jmax "* ]]
}

# pa_nmax DEV TARGET: the highest numjobs DEV TARGET runs (nothing where it runs none)
pa_nmax() {
	local n m=
	for n in "${PA_NUMJOBS[@]}"; do
		if pa_wanted "$1" "$2" "$n"; then m=$n; fi
	done
	echo "$m"
}

# pa_runtime_opt: PA_RUNTIME as a job-file time (bare numbers are seconds)
pa_runtime_opt() {
	case $PA_RUNTIME in *[!0-9]*) echo "$PA_RUNTIME" ;; *) echo "${PA_RUNTIME}s" ;; esac
}

# pa_job NAME ENGINE N TARGET FILE: queue FILE (_job_queue; _job_flush writes it), the job file of
# one (dev, target, numjobs, engine): the fix's examples/part-acct.fio (4k randread, O_DIRECT,
# time based, group_reporting) with this scenario's choices: ENGINE at iodepth 1 (psync) or
# PA_DEPTH (io_uring), the span (OFFSET and SIZE of PA_SPAN on a disk, the whole partition on a
# part), PA_RUNTIME, N jobs, and the section named NAME (bridge.jar spec render: needs
# LAB_BRIDGE). The filename is given on the command line.
pa_job() {
	local name=$1 engine=$2 n=$3 target=$4 depth=1 off size
	[ "$engine" = io_uring ] && depth=$PA_DEPTH
	read -r off size <<<"$PA_SPAN"
	if [ "$target" = part ]; then off=0 size=$PA_PART_MIB; fi
	_job_queue "$5" part-acct.fio --set "ioengine=$engine" --set "iodepth=$depth" --set "offset=${off}M" \
		--set "size=${size}M" --set "runtime=$(pa_runtime_opt)" --set "numjobs=$n" --name "$name"
}

# pa_job_file BASE ENGINE N TARGET FILE: FILE (in PA_OUT), pa_job's job file for BASE (queued:
# pa_jobs flushes), or, with PA_JOBS_FROM set (the guest: it has no JVM to render with), copy the
# host's rendering of it from there.
pa_job_file() {
	local base=$1 engine=$2 n=$3 target=$4 file=$5
	if [ -z "${PA_JOBS_FROM:-}" ]; then
		pa_job "$base" "$engine" "$n" "$target" "$PA_OUT/$file"
	elif [ -f "$PA_JOBS_FROM/$file" ]; then
		cp "$PA_JOBS_FROM/$file" "$PA_OUT/$file"
	else
		_lab_msg "part-acct: no $file among the job files the host rendered ($PA_JOBS_FROM)"
		return 1
	fi
}

# pa_jobs: write job-<dev>-<target>-j<N>.fio (psync: fio) and, with the bridge among the tools,
# job-<dev>-<target>-j<N>.uring.fio (io_uring at PA_DEPTH: bridge-uring) into PA_OUT.
pa_jobs() {
	local t dev target disk node n base
	for t in "${PA_TARGETS[@]}"; do
		read -r dev target disk node <<<"$t"
		for n in "${PA_NUMJOBS[@]}"; do
			pa_wanted "$dev" "$target" "$n" || continue
			base=$dev-$target-j$n
			pa_job_file "$base" psync "$n" "$target" "job-$base.fio"
			if [[ " ${PA_TOOLS[*]} " == *" bridge-uring "* ]]; then
				pa_job_file "$base" io_uring "$n" "$target" "job-$base.uring.fio"
			fi
		done
	done
	: "$disk" "$node"
	_job_flush
}

# pa_iostats_own DISK: record DISK's queue/iostats in the registry (old value, restored by
# cleanup) and in MADE, so the way out of a run restores it before the device goes; the value
# it had is left in PA_IOSTATS_OLD. Not in $(...): MADE must grow in this shell.
pa_iostats_own() {
	local disk=${1#/dev/} path
	path=/sys/block/$disk/queue/iostats
	PA_IOSTATS_OLD=$(cat "$path")
	_sysfs_set "$disk" iostats "$PA_IOSTATS_OLD"
	MADE+=("sysfs $path")
}

# pa_run NAME TOOL NODE BASE: one run under perf stat (-r 1), /sys stat of NODE before and after
pa_run() {
	local name=$1 tool=$2 node=$3 base=$4
	case $tool in
	fio)
		_counted "$PA_OUT" "$name" "$node" 1 \
			fio --eta=never --output-format=json --output="$PA_OUT/$name.json" --filename="$node" "$PA_OUT/job-$base.fio"
		;;
	bridge-uring)
		_counted "$PA_OUT" "$name" "$node" 1 \
			"${LAB_BRIDGE[@]}" run "$PA_OUT/job-$base.uring.fio" --filename "$node" --output "$PA_OUT/$name.json"
		;;
	*) _lab_msg "part-acct: unknown tool $tool"; return 1 ;;
	esac
}

# pa_pair K DEV TARGET DISK NODE N TOOL FIRST FLAME: iostats FIRST then 1-FIRST, back to back
pa_pair() {
	local k=$1 dev=$2 target=$3 disk=$4 node=$5 n=$6 tool=$7 first=$8 flame=$9 v
	for v in "$first" $((1 - first)); do
		_sysfs_set "$disk" iostats "$v"
		_lab_msg "part-acct: round $k/$PA_ROUNDS: $dev $target ($node), $n job(s), $tool, iostats $v"
		pa_run "$dev-$target-iostats$v-j$n-r$k.$tool" "$tool" "$node" "$dev-$target-j$n"
		if [ "$flame" = 1 ] && [ "$tool" = fio ]; then
			_kernel_flamegraph "$PA_OUT" "$dev-$target-iostats$v-j$n.fio" \
				fio --eta=never --output-format=json --output="$FLAME_TMP/flame.json" --filename="$node" "$PA_OUT/job-$dev-$target-j$n.fio"
		fi
	done
}

# pa_rounds: PA_ROUNDS rounds; in each, for every target, numjobs (of PA_CELLS) and tool, one pair
# of runs (iostats 1 and 0 back to back). Which of the two goes first flips from one pair to the
# next and, for the same pair, from one round to the next: round 1 starts with iostats 1. The
# flamegraphs: PA_FLAME's at the highest numjobs it runs.
pa_rounds() {
	local k slot t dev target disk node n tool first flame nmax
	for ((k = 1; k <= PA_ROUNDS; k++)); do
		slot=0
		for t in "${PA_TARGETS[@]}"; do
			read -r dev target disk node <<<"$t"
			nmax=$(pa_nmax "$dev" "$target")
			for n in "${PA_NUMJOBS[@]}"; do
				pa_wanted "$dev" "$target" "$n" || continue
				for tool in "${PA_TOOLS[@]}"; do
					first=$(((slot + k) % 2))
					flame=0
					if [ "$k" = 1 ] && [ "$dev-$target" = "${PA_FLAME:-}" ] && [ "$n" = "$nmax" ]; then flame=1; fi
					pa_pair "$k" "$dev" "$target" "$disk" "$node" "$n" "$tool" "$first" "$flame"
					slot=$((slot + 1))
				done
			done
		done
	done
}

# pa_moved DEV-TARGET V: "M/T": of the T runs of DEV-TARGET with iostats V, the M whose /sys
# stat (read I/Os, its first field) moved between before and after.
pa_moved() {
	local b a m=0 t=0
	for b in "$PA_OUT/$1-iostats$2"-*.before.stat; do
		[ -e "$b" ] || continue
		a=${b%.before.stat}.after.stat
		t=$((t + 1))
		if [ "$(awk '{ print $1 }' "$a")" != "$(awk '{ print $1 }' "$b")" ]; then m=$((m + 1)); fi
	done
	echo "$m/$t"
}
