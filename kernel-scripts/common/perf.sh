# shellcheck shell=bash
# common/perf.sh: counters around a workload (perf stat, the device's /sys stats) and kernel
# flamegraphs (perf record, folded into collapsed stacks). Sourced by common/rc.sh; changes
# nothing by itself.

readonly LAB_HW_EVENTS=(cycles instructions cache-references cache-misses branches branch-misses)
readonly LAB_SW_EVENTS=(task-clock context-switches cpu-migrations page-faults)

# _perf_probe: print the comma-joined events this machine counts; cache in $LAB_KDIR.
# Missing ones go to $LAB_KDIR/perf-missing, one a line.
_perf_probe() {
	local cache=$LAB_KDIR/perf-events ev ok=() miss=() out
	_reg_init
	if [ -s "$cache" ]; then cat "$cache"; return; fi
	for ev in "${LAB_HW_EVENTS[@]}" "${LAB_SW_EVENTS[@]}"; do
		out=$(perf stat -x, -e "$ev" true 2>&1 >/dev/null || true)
		if grep -q -e '<not supported>' -e '<not counted>' -e 'event syntax error' -e 'not supported' <<<"$out" ||
			! grep -q ",$ev" <<<"$out"; then
			miss+=("$ev")
		else
			ok+=("$ev")
		fi
	done
	printf '%s\n' "${miss[@]}" >"$LAB_KDIR/perf-missing"
	(IFS=,; echo "${ok[*]}") | tee "$cache"
}

# _c2c_supported: 0 when perf c2c record can sample loads here (perf lists a load event as
# available: ldlat-loads on Intel and Power, mem-ldst on AMD, spe-load on Arm); otherwise 1 and one line saying why.
# Cheap: "perf c2c record -e list" lists the memory events and records nothing.
_c2c_supported() {
	local out
	if ! command -v perf >/dev/null; then
		echo "perf c2c: no perf on this machine: no HITM measured"
		return 1
	fi
	out=$(perf c2c record -e list 2>&1 </dev/null || true)
	if grep -Eq '^(ldlat-loads|mem-ldst|spe-load) *: available' <<<"$out"; then
		return 0
	fi
	echo "perf c2c: this machine's PMU samples no loads (no mem-loads event: ${out%%$'\n'*}): no HITM measured"
	return 1
}

# _blk_snap DEV OUTPREFIX: copy DEV's stat (and zram mm_stat, io_stat) to OUTPREFIX.*. Through
# /sys/class/block, so DEV may be a partition (loop0p1: its own counters) as well as a disk, and
# a /dev/mapper node (its dm-N's).
_blk_snap() {
	local dev=${1#/dev/} pre=$2 f
	if [ ! -e "/sys/class/block/$dev/stat" ]; then dev=$(_dev_kname "$1") || { _lab_msg "no block device $1"; return 1; }; fi
	cat "/sys/class/block/$dev/stat" >"$pre.stat"
	for f in mm_stat io_stat; do
		if [ -r "/sys/class/block/$dev/$f" ]; then cat "/sys/class/block/$dev/$f" >"$pre.$f"; fi
	done
}

# _counted OUTDIR NAME DEV REPEATS CMD...: run CMD under perf stat (-r REPEATS unless
# REPEATS is "-"), with device stats before and after. Files in OUTDIR: NAME.perf.csv,
# NAME.before.stat, NAME.after.stat (+ .mm_stat, .io_stat for zram), perf-missing.txt.
_counted() {
	local out=$1 name=$2 dev=$3 reps=$4 events r=()
	shift 4
	events=$(_perf_probe)
	cp "$LAB_KDIR/perf-missing" "$out/perf-missing.txt"
	[ "$reps" != - ] && r=(-r "$reps")
	_blk_snap "$dev" "$out/$name.before"
	perf stat -x, -o "$out/$name.perf.csv" -e "$events" "${r[@]}" -- "$@"
	_blk_snap "$dev" "$out/$name.after"
}

# _emulation_probe OUT SIDE ROUNDS RUNTIME WHO: how much slower a guest's kernel runs than the
# host's, measured, for the calibration of the model (analysis: DmKernel): ROUNDS runs of one fio
# job (psync 4k randread, 1 job, RUNTIME: a fio time, 3s or 500ms) on a 64 MiB zram the lab makes
# and fills half-compressible, under perf stat as OUT/tcg-zram-SIDE-rK.fio (SIDE host or guest):
# the same device and job on both sides of qemu. The zram joins MADE (removed with the rest);
# not in $(...). WHO names the scenario in the messages. In the guest, zram must be loaded first
# (labmod zram num_devices=0).
_emulation_probe() {
	local out=$1 side=$2 rounds=$3 runtime=$4 who=$5 z k name
	z=$(_zram_add 64M)
	MADE+=("zram $z")
	_fill "/dev/$z" 50
	for ((k = 1; k <= rounds; k++)); do
		name=tcg-zram-$side-r$k.fio
		_lab_msg "$who: emulation probe, $side, round $k/$rounds: zram 4k randread, 1 job"
		_counted "$out" "$name" "/dev/$z" 1 \
			fio --name="tcg-zram-$side" --filename="/dev/$z" --rw=randread --bs=4k --direct=1 --ioengine=psync \
			--time_based --runtime="$runtime" --size=100% --eta=never --output-format=json --output="$out/$name.json"
	done
}

# _stack_collapse: perf script (-F comm,tid,ip,sym,dso, callchains) on stdin to collapsed
# stacks on stdout, "comm;root;...;leaf COUNT", one line per distinct stack, sorted. Kernel
# frames get the suffix _[k] (flamegraph.pl's convention); offsets (+0x..) are dropped; an
# unresolved frame is named by its object, [unknown] if none.
_stack_collapse() {
	awk '
	function flush() { if (comm != "") { count[comm stack]++ } comm = ""; stack = "" }
	/^[^ \t]/ { flush(); comm = $0; sub(/[ \t]+-?[0-9]+[ \t]*$/, "", comm); gsub(/;/, ":", comm); next }
	/^[ \t]*$/ { flush(); next }
	{
		dso = $NF; sym = ""
		for (i = 2; i < NF; i++) sym = sym (i > 2 ? " " : "") $i
		sub(/\+0x[0-9a-f]+$/, "", sym)
		if (sym == "" || sym == "[unknown]") { sym = dso; sub(/^\(/, "", sym); sub(/\)$/, "", sym); n = split(sym, p, "/"); sym = (p[n] ~ /^\[/) ? p[n] : "[" p[n] "]" }
		if (dso == "([kernel.kallsyms])") sym = sym "_[k]"
		gsub(/;/, ":", sym)
		stack = ";" sym stack
	}
	END { flush(); for (s in count) print s, count[s] }' | LC_ALL=C sort
}

# _kernel_flamegraph OUT NAME CMD...: when LAB_FLAMEGRAPH=1, run CMD once more under
# `perf record -e cpu-clock -g -a` (system-wide: the kernel's work for the I/O happens in
# the submitting task, in io_uring workers and in interrupts) and write NAME.kernel.collapsed.gz.
# A separate run, so sampling never perturbs the perf stat counters. The SVG beside it,
# NAME.kernel.svg, is drawn by the lab's Java side once the scenario is done (./lab kernel run
# and ./lab pair: lab.cli.KernelFlamegraphs), never from here. Where perf cannot record,
# NAME.kernel-flamegraph-missing.txt says why; it never fails the scenario.
_kernel_flamegraph() {
	local out=$1 name=$2 data err
	shift 2
	[ "${LAB_FLAMEGRAPH:-0}" = 1 ] || return 0
	data=$(mktemp "${TMPDIR:-/tmp}/lab-perf.XXXXXX")
	err=$out/$name.kernel-flamegraph-missing.txt
	if ! perf record -q -e cpu-clock -F 999 -g -a -o "$data" -- "$@" >/dev/null 2>"$err.log"; then
		{ echo "perf record -e cpu-clock -g -a failed here:"; cat "$err.log"; } >"$err"
		rm -f "$data" "$err.log"
		return 0
	fi
	rm -f "$err.log"
	perf script -i "$data" -F comm,tid,ip,sym,dso 2>/dev/null | _stack_collapse >"$out/$name.kernel.collapsed"
	rm -f "$data"
	if [ ! -s "$out/$name.kernel.collapsed" ]; then
		echo "perf record ran but perf script gave no call chains" >"$err"
		rm -f "$out/$name.kernel.collapsed"
		return 0
	fi
	# raw stacks kept, small: results are committed. -n: no name or time in the header; the
	# guest's busybox gzip has no -n
	gzip -n -f "$out/$name.kernel.collapsed" 2>/dev/null || gzip -f "$out/$name.kernel.collapsed"
}
