# shellcheck shell=bash
# scenarios/thin-bufio-lock/lib.sh: the devices and runs of the thin-bufio-lock scenario, shared
# by the host (run.sh, where its kernel has brd, dm-mod and dm-thin-pool) and the guest VM
# (guest.sh, which finds kernel-scripts as /mnt/in/ks). Source it after common/rc.sh. It changes
# nothing by itself.
#
# The caller sets:
#   TB_OUT       output folder
#   TB_RUNTIME   seconds per run (or a fio time such as 500ms)
#   TB_ROUNDS    rounds
#   TB_NUMJOBS   numjobs, ascending
#   TB_VOLUME_MB the thin volume's size in MiB, and the span every job covers (the whole volume)
#   TB_DATA_MB   the ram disks' size in MiB (brd has one rd_size for all its disks): the pool's
#                data device ram0 (the volume and headroom) and its metadata device ram1
#   TB_FLAME     1: one more run of thin at the highest numjobs under perf record (a kernel
#                flamegraph, common/perf.sh), else 0
#   TB_JOBS_FROM (the guest only) where the host put the job files it rendered for it
# and appends to MADE (rc.sh) as usual. tb_setup sets TB_NODE[DEV] and TB_KNAME[DEV] (DEV thin or
# linear: the node the I/O goes to, and its kernel name dm-N, whose /sys stat _counted copies)
# and TB_FACTS (key: value lines about what was made, for env.txt).

TB_DEVS=(thin linear)
TB_BLOCK_SECTORS=128 # the pool's data block: 64 KiB, LVM's default chunk for a thin pool
TB_LOW_WATER=0       # data blocks; nothing here extends the pool, so no low-water event
TB_FACTS=()
TB_FLAME_STATUS="off (LAB_FLAMEGRAPH=1 adds one run of thin at the highest numjobs under perf record)"
declare -A TB_NODE=() TB_KNAME=()

# tb_runtime_opt: TB_RUNTIME as a job-file time (bare numbers are seconds)
tb_runtime_opt() {
	case $TB_RUNTIME in *[!0-9]*) echo "$TB_RUNTIME" ;; *) echo "${TB_RUNTIME}s" ;; esac
}

# tb_job NAME N FILE: queue FILE (_job_queue; _job_flush writes it), the job file of one (device,
# numjobs): the fix's examples/thin-bufio-lock.fio (randrw, bs=4k, O_DIRECT, psync, time based,
# group_reporting) with this scenario's choices: psync at iodepth 1, the whole volume as the span
# (TB_VOLUME_MB), time based for TB_RUNTIME, N jobs, the section named NAME (bridge.jar spec
# render: needs LAB_BRIDGE). The filename is given on the command line.
tb_job() {
	_job_queue "$3" thin-bufio-lock.fio --set ioengine=psync --set iodepth=1 --set "size=${TB_VOLUME_MB}M" \
		--set "runtime=$(tb_runtime_opt)" --set time_based=1 --set "numjobs=$2" --name "$1"
}

# tb_job_file BASE N: job-BASE.fio into TB_OUT: tb_job's (queued: tb_jobs flushes), or, with
# TB_JOBS_FROM set (the guest: no JVM to render with), the host's rendering of it copied from there.
tb_job_file() {
	local base=$1 n=$2 file=job-$1.fio
	if [ -z "${TB_JOBS_FROM:-}" ]; then
		tb_job "$base" "$n" "$TB_OUT/$file"
	elif [ -f "$TB_JOBS_FROM/$file" ]; then
		cp "$TB_JOBS_FROM/$file" "$TB_OUT/$file"
	else
		_lab_msg "thin-bufio-lock: no $file among the job files the host rendered ($TB_JOBS_FROM)"
		return 1
	fi
}

# tb_jobs: job-<DEV>-j<N>.fio for both devices and every numjobs (the same file but its section
# name: thin and linear run the same job)
tb_jobs() {
	local dev n
	for dev in "${TB_DEVS[@]}"; do
		for n in "${TB_NUMJOBS[@]}"; do tb_job_file "$dev-j$n" "$n"; done
	done
	_job_flush
}

# tb_pool_status WHEN: "# WHEN" and `dmsetup status lab-pool`, appended to thin-status.txt
tb_pool_status() {
	{
		echo "# $1"
		_dm status lab-pool
	} >>"$TB_OUT/thin-status.txt"
}

# tb_setup: the ram disks (brd: ram0 the pool's data, ram1 its metadata, both TB_DATA_MB: brd
# allocates a page only at its first write, so ram1 costs only the metadata written), the thin
# pool lab-pool (64 KiB blocks, skip_block_zeroing), thin volume 0 as lab-thin (TB_VOLUME_MB),
# written once whole so that every block is provisioned before anything is timed (as in the
# seed), and lab-lin, dm-linear over the first TB_VOLUME_MB of ram0: the pool allocates data
# blocks lowest first, so those are the very brd pages the fill gave the thin volume. Not in
# $(...): MADE must grow in this shell.
tb_setup() {
	local rams r sectors=$((TB_VOLUME_MB * 2048)) node st meta data blocks
	rams=$(_brd_add 2 "${TB_DATA_MB}M")
	for r in $rams; do MADE+=("brd ${r#/dev/}"); done
	node=$(_dm_thin_pool_add lab-pool /dev/ram1 /dev/ram0 "$TB_BLOCK_SECTORS" "$TB_LOW_WATER" skip_block_zeroing)
	MADE+=("dm lab-pool")
	node=$(_dm_thin_add lab-thin "$node" 0 "$sectors")
	MADE+=("dm lab-thin")
	TB_NODE[thin]=$node TB_KNAME[thin]=$(_dm_kname lab-thin)
	_lab_msg "thin-bufio-lock: provisioning $node: writing it whole once (${TB_VOLUME_MB}M, 1M O_DIRECT writes)"
	_fill "$node" zero
	node=$(_dm_linear_add lab-lin /dev/ram0 "$sectors")
	MADE+=("dm lab-lin")
	TB_NODE[linear]=$node TB_KNAME[linear]=$(_dm_kname lab-lin)
	_dm table >"$TB_OUT/dm-table.txt"
	: >"$TB_OUT/thin-status.txt"
	tb_pool_status "after the fill, before the rounds"
	# 0 LEN thin-pool TRANS META_USED/META_TOTAL DATA_USED/DATA_TOTAL ...
	st=$(_dm status lab-pool)
	meta=$(awk '{ print $5 }' <<<"$st")
	data=$(awk '{ print $6 }' <<<"$st")
	blocks=$((TB_VOLUME_MB * 2048 / TB_BLOCK_SECTORS))
	TB_FACTS+=("devices: thin: lab-thin (${TB_KNAME[thin]}), thin volume 0 of the thin pool lab-pool, ${TB_VOLUME_MB} MiB ($blocks blocks of $((TB_BLOCK_SECTORS / 2)) KiB), written once whole; lab-pool: data ram0 (brd, ${TB_DATA_MB} MiB: the volume and $((TB_DATA_MB - TB_VOLUME_MB)) MiB of headroom), metadata ram1 (brd, all of its ${TB_DATA_MB} MiB: brd takes one rd_size for all its disks and allocates a page only when written), $TB_BLOCK_SECTORS-sector blocks, low water mark $TB_LOW_WATER, skip_block_zeroing; linear: lab-lin (${TB_KNAME[linear]}), dm-linear over the first ${TB_VOLUME_MB} MiB of ram0, the pool's data device (the brd pages the fill gave the thin volume: the pool allocates data blocks lowest first)")
	TB_FACTS+=("volume_mb: $TB_VOLUME_MB")
	TB_FACTS+=("data_block_kb: $((TB_BLOCK_SECTORS / 2))")
	if [ "${data%%/*}" = "$blocks" ]; then r="all provisioned"; else r="NOT all provisioned"; fi
	TB_FACTS+=("provisioned: $data data blocks used after the fill (the volume is $blocks blocks: $r); metadata $meta blocks of 4 KiB used (thin-status.txt)")
	TB_FACTS+=("dm_bufio: $(tb_bufio)")
}

# tb_bufio: which dm-bufio this kernel runs, from /proc/kallsyms (dm_bufio is loaded once the pool
# is up): before 6.4 one lock per bufio client (for dm-thin's metadata a mutex), taken for every
# btree node a lookup reads, the lock the seed's patches went after; 6.4 reworked dm-bufio
tb_bufio() {
	if awk '$3 == "__relink_lru" { f = 1 } END { exit !f }' /proc/kallsyms 2>/dev/null; then
		echo "before 6.4's rework (__relink_lru in /proc/kallsyms): one lock per bufio client, a mutex for dm-thin's metadata, taken for every btree node a lookup reads: the lock the seed measured before its patches"
	else
		echo "no __relink_lru in /proc/kallsyms: presumably 6.4's reworked dm-bufio (buffer trees under rw_semaphores)"
	fi
}

# tb_run NAME DEV N: one fio run of job-DEV-jN.fio on DEV (thin or linear) under perf stat (-r 1),
# DEV's /sys stat before and after (_counted): NAME.json, .perf.csv, .before.stat, .after.stat
tb_run() {
	local name=$1 dev=$2 n=$3
	_counted "$TB_OUT" "$name" "${TB_KNAME[$dev]}" 1 \
		fio --eta=never --output-format=json --output="$TB_OUT/$name.json" --filename="${TB_NODE[$dev]}" "$TB_OUT/job-$dev-j$n.fio"
}

# tb_warmup: one fio run like the rounds' on each device, numjobs 1, counted nowhere: the first
# runs after the setup are slower (under TCG, the I/O path's first translations), and would land
# on round 1's first pair.
tb_warmup() {
	local dev
	for dev in "${TB_DEVS[@]}"; do
		_lab_msg "thin-bufio-lock: warm-up: $dev, 1 job, not recorded"
		fio --eta=never --output=/dev/null --filename="${TB_NODE[$dev]}" "$TB_OUT/job-$dev-j1.fio"
	done
}

# tb_rounds: TB_ROUNDS rounds (after tb_warmup); in each, every (numjobs, device) once through fio:
# numjobs ascending in odd rounds and descending in even ones; for each numjobs thin and linear go
# back to back, which goes first flipping from one numjobs to the next and, for the same numjobs,
# from one round to the next (round 1 starts with thin at 1 job). Then, with TB_FLAME=1, the
# kernel flamegraph run.
tb_rounds() {
	local k i n idx devs=() dev
	tb_warmup
	for ((k = 1; k <= TB_ROUNDS; k++)); do
		for ((i = 0; i < ${#TB_NUMJOBS[@]}; i++)); do
			idx=$i
			if ((k % 2 == 0)); then idx=$((${#TB_NUMJOBS[@]} - 1 - i)); fi
			n=${TB_NUMJOBS[idx]}
			if (((idx + k) % 2)); then devs=(thin linear); else devs=(linear thin); fi
			for dev in "${devs[@]}"; do
				_lab_msg "thin-bufio-lock: round $k/$TB_ROUNDS: $dev (${TB_NODE[$dev]}), $n job(s), fio"
				tb_run "$dev-j$n-r$k.fio" "$dev" "$n"
			done
		done
	done
	tb_pool_status "after the rounds"
	tb_flame
}

# tb_flame: with TB_FLAME=1, one more run of thin at the highest numjobs under perf record
# (_kernel_flamegraph: thin-j<N>.fio.kernel.collapsed.gz, or .kernel-flamegraph-missing.txt with
# perf's message); TB_FLAME_STATUS says what came of it
tb_flame() {
	local n=${TB_NUMJOBS[${#TB_NUMJOBS[@]} - 1]} name
	[ "${TB_FLAME:-0}" = 1 ] || return 0
	name=thin-j$n.fio
	_lab_msg "thin-bufio-lock: kernel flamegraph: thin, $n job(s), under perf record"
	LAB_FLAMEGRAPH=1 _kernel_flamegraph "$TB_OUT" "$name" \
		fio --eta=never --output-format=json --output="$FLAME_TMP/flame.json" --filename="${TB_NODE[thin]}" "$TB_OUT/job-thin-j$n.fio"
	if [ -f "$TB_OUT/$name.kernel.collapsed.gz" ]; then
		TB_FLAME_STATUS="$name.kernel.collapsed.gz: thin, $n job(s), one more run under perf record -e cpu-clock -F 999 -g -a"
	else
		TB_FLAME_STATUS="failed: perf record could not record here ($name.kernel-flamegraph-missing.txt: $(head -n 3 "$TB_OUT/$name.kernel-flamegraph-missing.txt" 2>/dev/null | tr '\n' ' '))"
	fi
}

# tb_facts TOOLS: key: value lines about where and how the runs ran, on stdout (env.txt's, or the
# guest's for the host to put there): kernel, cores, numjobs, devices, volume_mb, data_block_kb,
# provisioned, dm_bufio, tools (TOOLS), flamegraph, left_after
tb_facts() {
	echo "kernel: $(uname -r)"
	echo "cores: $(nproc)"
	echo "numjobs: ${TB_NUMJOBS[*]}"
	printf '%s\n' "${TB_FACTS[@]}"
	echo "tools: $1"
	echo "flamegraph: $TB_FLAME_STATUS"
	echo "left_after: $(tb_left)"
	echo "modules: $(_mod_facts)"
}

# tb_left: what of the scenario's own objects is still there (after _made_remove), comma-joined,
# or "nothing": registry lines, lab-pool/lab-thin/lab-lin, brd
tb_left() {
	local left=() n
	n=$(awk -F'\t' '$1 == "brd" || ($1 == "dm" && ($2 == "lab-pool" || $2 == "lab-thin" || $2 == "lab-lin"))' \
		"$LAB_REGISTRY" 2>/dev/null | wc -l)
	if [ "$n" -gt 0 ]; then left+=("$n registry lines"); fi
	n=$(_dm ls 2>/dev/null | awk '$1 == "lab-pool" || $1 == "lab-thin" || $1 == "lab-lin" { printf "%s%s", s, $1; s = " " }')
	if [ -n "$n" ]; then left+=("dm $n"); fi
	if [ -d /sys/module/brd ]; then left+=("brd loaded"); fi
	_left_say "${left[@]}"
}
