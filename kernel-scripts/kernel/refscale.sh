#!/usr/bin/env bash
# kernel/refscale.sh [--quick]: the kernel's own per-operation figures in the guest on the lab
# kernel: refscale (kernel/rcu/refscale.c, built in: kernel/config) for the read sides that match
# the fixes' operations, at 1 reader and at one reader a vCPU, into LAB_OUT (default: a new folder
# under results/, kernel-refscale-<time>).
#
# Types (LAB_REFSCALE_TYPES overrides): refcnt (atomic_inc + atomic_dec of one shared counter:
# dm-css-ref's css get/put, part-acct's in-flight count), rwsem (down_read + up_read:
# zram-init-lock's init_lock read side, thin-bufio-lock's rwsem), lock (raw spin_lock + unlock
# of one shared lock), mutex (mutex_lock + unlock of one shared mutex: thin-bufio-lock's client
# mutex, dm_bufio_lock; the lab's own type, kernel/patches/6.1/refscale-mutex.patch), srcu
# (srcu_read_lock + unlock: zram-init-lock's fix), acqrel (load-acquire + store-release of a
# per-CPU word: the private floor), empty (the loop alone, which every other type's figure
# includes: a type less empty is its operation alone; the lab's own type,
# kernel/patches/6.1/refscale-type-empty.patch). One boot a (type, readers): refscale runs once, at boot, with
# its parameters on the kernel command line (LAB_GUEST_APPEND), holdoff seconds after its
# initcall, so that /init is idle in the script's wait when it measures; the script
# (kernel/refscale-guest.sh) waits for its table. Its readers bind themselves to CPU i
# (set_cpus_allowed_ptr at kthread start, before the holdoff), so the guest boots with every vCPU
# online (maxcpus=VCPUS, after guest.sh's maxcpus=1): with maxcpus=1 the binding of reader 1 fails
# (CPU 1 offline: -EINVAL; refscale's WARN_ON_ONCE prints nothing, CONFIG_BUG being off) and it
# floats (measured: its Cpus_allowed_list 0-1). The lab kernel patches no
# text at run time (JUMP_LABEL, ftrace, kprobes and modules off: kernel/config), which is what
# maxcpus=1 protects the Debian kernel from.
#
# Full: 30 runs a boot (refscale's default); --quick: 5; each of 100000 loops. Not refscale's
# 10000: measured here (refcnt, TCG, 2 vCPUs on 2 host cores), 2 readers of 10000 loops (about
# 0.2 ms each) timed 21.0 ns a loop, as 1 reader did: they hardly overlapped; of 100000, 70.6 ns
# (median of 10 runs), of 1000000, 56.9 ns, 1 reader 22.0 and 23.9 ns. LAB_REFSCALE_LOOPS,
# LAB_REFSCALE_NRUNS, LAB_REFSCALE_HOLDOFF override; LAB_REFSCALE_MAXCPUS=1 boots as guest.sh
# does for Debian's kernel, to see the failed binding (the run then fails at 2 readers, saying so).
#
# Then one more boot of the same kernel and vCPUs, the JVM's side of the same operations
# (kernel/jvm-primitives-guest.sh): JMH's Primitives.getPut of the kind that matches each type
# (JVM_KIND below: refcnt atomic-refcount, rwsem rwsem-read, lock and mutex mutex, srcu srcu, acqrel
# acqrel-slot; empty none: its twin is the harness alone, Primitives.baseline, which each kind's JVM
# runs after getPut at each thread count, into jvm/jvm-guest-KIND-baseline-rR-tT.json), on a shared
# line and a private one, at 1 thread and one a vCPU, 3 rounds (quick:
# 2), per round a JVM a kind (lab.engine.bench.PrimitivesByKind: 4 x 500 ms warm-up, 5 x 200 ms
# measured a cell: under TCG the JIT's compiles take seconds, and 2 x 200 ms left the first
# measured iterations 2-4x slow, measured), into jvm/jvm-guest-KIND-rR-tT.json; then the same natively on the host, on
# LAB_JDK, into jvm/jvm-host-KIND-rR-tT.json (the JVM's own figures beside the guest's). It needs
# jvm-engine/target/benchmarks.jar and LAB_JDK (the jlink'd runtime guest.sh stages); without
# them, or with LAB_REFSCALE_JVM=0, refscale.txt's jvm line says why it did not run.
#
# Writes refscale.tsv (type, readers, run, ns_per_op: refscale's per-run mean over the readers of
# one loop's time, a loop being one read-side acquire and release), refscale.txt (key: value),
# refscale/boots.tsv (per boot: wall time, CPUs online, readers bound to their own CPU, the CPU
# each ran on last) and each boot's files in refscale/TYPE-rN/ (console.log, dmesg.txt, guest.txt,
# refscale-guest.txt).
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_lab_quick_opt "refscale [--quick]" "$@"
read -r -a types <<<"${LAB_REFSCALE_TYPES:-refcnt rwsem lock mutex srcu acqrel empty}"
for t in "${types[@]}"; do
	case $t in
	rcu | srcu | rcu-tasks | rcu-trace | refcnt | rwlock | rwsem | lock | mutex | lock-irq | acqrel | clock | empty) ;;
	*) _lab_refuse "refscale: '$t' is not one of the lab kernel's refscale types (rcu srcu rcu-tasks rcu-trace refcnt rwlock rwsem lock mutex lock-irq acqrel clock empty)" ;;
	esac
done
[ "$(id -u)" -eq 0 ] || { _lab_msg "refscale: needs root (qemu)"; exit 1; }
command -v qemu-system-x86_64 >/dev/null || { _lab_msg "refscale: qemu-system-x86_64 missing"; exit 1; }
loops=100000 nruns=30
if [ "$quick" = 1 ]; then nruns=5; fi
loops=${LAB_REFSCALE_LOOPS:-$loops} nruns=${LAB_REFSCALE_NRUNS:-$nruns}
# the lab kernel reaches /init's script about 5 s after qemu starts under TCG, refscale's initcall
# about 1 s after: 8 s leaves the guest idle but for the script's 1 s polls when it measures
holdoff=${LAB_REFSCALE_HOLDOFF:-8}
vcpus=$(bash "$KS_DIR/guest/guest.sh" vcpus)
maxcpus=${LAB_REFSCALE_MAXCPUS:-$vcpus}
readers=(1)
[ "$vcpus" -gt 1 ] && readers+=("$vcpus")
# the JVM's kind for each refscale type: the same read-side pair, as Primitives prices it (empty has
# none: its twin, Primitives.baseline, runs in every kind's JVM). Checked against 6.1's code: acqrel
# and acqrel-slot, srcu and srcu (an index read, an own-slot increment and a full fence each side),
# refcnt and atomic-refcount (two locked RMWs on one word; the JVM's put also tests for zero) are the
# same operation; mutex and mutex the same in kind (CAS + CAS, spin on the owner, then sleep; the
# kernel's mutex_lock also calls __cond_resched, might_sleep under PREEMPT_VOLUNTARY). Not the same:
# lock (a raw queued spinlock: a cmpxchg and a plain store-release, waiters spin and never sleep)
# has no JVM spinlock, so mutex (CAS + CAS, parks) stands in; rwsem's down_read also loads and stores
# sem->owner (rwsem_set_reader_owned, the same line) and calls __cond_resched, where rwsem-read is
# the two locked xadds alone.
declare -A JVM_KIND=([refcnt]=atomic-refcount [rwsem]=rwsem-read [lock]=mutex [mutex]=mutex [srcu]=srcu [acqrel]=acqrel-slot)
jvm_rounds=3
jmh="4 500 5 200" # PrimitivesByKind's warm-ups, their ms, iterations, their ms
read -r jw jwms ji jims <<<"$jmh"
if [ "$quick" = 1 ]; then jvm_rounds=2; fi

out=${LAB_OUT:-$LAB_ROOT/results/kernel-refscale-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/refscale" "$out/refscale.tsv" "$out/refscale.txt" "$out/jvm"
mkdir -p "$out/refscale"
# a boot's time: the kernel's build is done before the first (guest.sh builds it if it must)
bash "$KS_DIR/kernel/build.sh" build --source 6.1 >/dev/null
_lab_msg "refscale: ${types[*]} at ${readers[*]} reader(s), $nruns runs of $loops loops a boot, holdoff $holdoff s -> $out"
printf 'type\treaders\tboot_wall_s\tcpus_online\treaders_bound\treaders_last_cpu\n' >"$out/refscale/boots.tsv"
printf 'type\treaders\trun\tns_per_op\n' >"$out/refscale.tsv.new"
t0=$SECONDS
for t in "${types[@]}"; do
	for n in "${readers[@]}"; do
		d=$out/refscale/$t-r$n
		mkdir -p "$d"
		# the script's deadline: the holdoff, then 1 s a run at the least, and a margin
		printf '%s\n' "type=$t" "readers=$n" "loops=$loops" "nruns=$nruns" "holdoff=$holdoff" \
			"deadline_s=$((holdoff + 60 + nruns * (1 + loops / 20000)))" >"$d/refscale.params"
		_lab_msg "refscale: $t at $n reader(s)"
		b0=$SECONDS
		LAB_GUEST_KERNEL=lab LAB_KERNEL_SOURCE=6.1 GUEST_VCPUS=$vcpus \
			LAB_GUEST_APPEND="${LAB_GUEST_APPEND:-} maxcpus=$maxcpus refscale.scale_type=$t refscale.nreaders=$n refscale.loops=$loops refscale.nruns=$nruns refscale.holdoff=$holdoff refscale.shutdown=0" \
			bash "$KS_DIR/guest/guest.sh" run "$KS_DIR/kernel/refscale-guest.sh" "$d"
		wall=$((SECONDS - b0))
		# the table: "RUN<tab>NS" after refscale's "Runs<tab>Time(ns)", time stamps dropped
		sed 's/^\[[^]]*\] *//' "$d/dmesg.txt" | awk -v t="$t" -v n="$n" -v want="$nruns" '
			index($0, t "-ref-scale: END OF TEST") == 1 { end = 1; next }
			end && /^Runs\tTime\(ns\)$/ { on = 1; next }
			on && /^[0-9]+\t[0-9]+\.[0-9]+$/ { printf "%s\t%s\t%s\t%s\n", t, n, $1, $2; k++ }
			END { if (k != want) { printf "refscale: %s at %s reader(s): %d rows, not %d\n", t, n, k, want > "/dev/stderr"; exit 1 } }' \
			>>"$out/refscale.tsv.new"
		# bound: readers (in the order they were made: pid) whose allowed CPUs are exactly their own
		# index, reader i on CPU i; last: the CPU each ran on last, comma-separated
		bound=$(awk '/^reader:/ { if ($5 == i) b++; i++ } END { print b + 0 }' "$d/refscale-guest.txt")
		last=$(awk '/^reader:/ { printf "%s%s", s, $7; s = "," }' "$d/refscale-guest.txt")
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$n" "$wall" "$(sed -n 's/^cpus_online_at_end: //p' "$d/refscale-guest.txt")" \
			"$bound" "${last:--}" >>"$out/refscale/boots.tsv"
		if [ "$bound" != "$n" ]; then
			_lab_msg "refscale: $t at $n reader(s): $bound reader(s) bound to their own CPU, not $n: the figure is not one reader a CPU ($d/refscale-guest.txt, dmesg.txt)"
			exit 1
		fi
		_lab_msg "refscale: $t at $n reader(s): boot $wall s, median $(awk -F'\t' -v t="$t" -v n="$n" '$1 == t && $2 == n { print $4 }' "$out/refscale.tsv.new" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }') ns"
	done
done
mv "$out/refscale.tsv.new" "$out/refscale.tsv"
# the JVM's side: one boot, every kind the types map to
kinds=()
# each kind once (lock and mutex both map to the JVM's mutex)
for t in "${types[@]}"; do
	k=${JVM_KIND[$t]:-}
	if [ -n "$k" ] && [[ " ${kinds[*]} " != *" $k "* ]]; then kinds+=("$k"); fi
done
jvm_why=
if [ "${LAB_REFSCALE_JVM:-1}" = 0 ]; then
	jvm_why="LAB_REFSCALE_JVM=0"
elif [ ! -f "$LAB_ROOT/jvm-engine/target/benchmarks.jar" ]; then
	jvm_why="no jvm-engine/target/benchmarks.jar (./lab build)"
elif [ -z "${LAB_JDK:-}" ] || [ ! -x "$LAB_JDK/bin/jlink" ]; then
	jvm_why="no LAB_JDK with jlink for the guest's runtime"
elif [ ${#kinds[@]} = 0 ]; then
	jvm_why="no type here has a JVM kind"
fi
if [ -z "$jvm_why" ]; then
	mkdir -p "$out/jvm"
	jvm_threads="${readers[*]}"
	printf '%s\n' "kinds=$(IFS=,; echo "${kinds[*]}")" "lines=shared,private" "threads=$jvm_threads" "rounds=$jvm_rounds" \
		"jmh=$jmh" >"$out/jvm/jvm.params"
	_lab_msg "refscale: the JVM's ${kinds[*]} in the guest, threads $jvm_threads, $jvm_rounds rounds"
	b0=$SECONDS
	LAB_GUEST_KERNEL=lab LAB_KERNEL_SOURCE=6.1 GUEST_VCPUS=$vcpus LAB_GUEST_APPEND="${LAB_GUEST_APPEND:-} maxcpus=$maxcpus" \
		GUEST_TIMEOUT=${GUEST_TIMEOUT:-1800} bash "$KS_DIR/guest/guest.sh" run "$KS_DIR/kernel/jvm-primitives-guest.sh" "$out/jvm"
	_lab_msg "refscale: the JVM's side in the guest in $((SECONDS - b0)) s; the same on the host"
	read -r -a jmh <<<"$(sed -n 's/^jmh=//p' "$out/jvm/jvm.params")"
	for ((r = 1; r <= jvm_rounds; r++)); do
		for k in "${kinds[@]}"; do
			"$LAB_JDK/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Xmx256m \
				-cp "$LAB_ROOT/jvm-engine/target/benchmarks.jar" lab.engine.bench.PrimitivesByKind "$k" "$(sed -n 's/^lines=//p' "$out/jvm/jvm.params")" \
				"${jvm_threads// /,}" "$out/jvm/jvm-host" "$r" "${jmh[@]}" >"$out/jvm/jvm-host-$k-r$r.log" 2>&1 ||
				{ tail -n 20 "$out/jvm/jvm-host-$k-r$r.log" >&2; exit 1; }
		done
	done
fi
first=$out/refscale/${types[0]}-r1
{
	echo "kernel: $(sed -n 's/^kernel: //p' "$first/guest.txt") ($(sed -n 's/^lab_kernel: //p' "$first/guest.txt"))"
	echo "kernel_build: $(sed -n 's/^kernel_build: //p' "$first/guest.txt")"
	echo "accel: $(sed -n 's/^env: //p' "$first/guest.txt")"
	echo "vcpus: $vcpus"
	echo "qemu_cpu: $(sed -n 's/^qemu_cpu: //p' "$first/guest.txt")"
	echo "host_cores: $(nproc)"
	echo "types: ${types[*]}"
	echo "readers: ${readers[*]}"
	echo "loops: $loops"
	echo "nruns: $nruns"
	echo "holdoff_s: $holdoff"
	echo "quick: $quick"
	echo "measured: refscale built into the lab kernel (CONFIG_RCU_REF_SCALE_TEST=y), one boot per (type, readers) with refscale.scale_type, nreaders, loops, nruns, holdoff and shutdown=0 on the kernel command line; each run times loops back-to-back read-side sections (acquire + release) per reader with interrupts off, all readers at once; ns_per_op is refscale's per-run figure: the readers' mean time per loop"
	echo "maxcpus: $maxcpus"
	echo "jvm_kinds: $(for t in "${types[@]}"; do printf '%s=%s ' "$t" "${JVM_KIND[$t]:--}"; done | sed 's/ $//')"
	if [ -n "$jvm_why" ]; then
		echo "jvm: not run: $jvm_why"
	else
		echo "jvm: JMH Primitives.getPut of each type's kind (jvm_kinds), lines shared and private, threads ${readers[*]}, $jvm_rounds rounds, a round a JVM a kind (lab.engine.bench.PrimitivesByKind: JMH in that JVM, forks 0; $jw x $jwms ms warm-up, $ji x $jims ms measured a cell), and after each thread count Primitives.baseline in the same JVM (the harness alone: jvm/jvm-guest-KIND-baseline-rR-tT.json), in one boot of the same kernel and vCPUs (jvm/jvm-guest-KIND-rR-tT.json, jvm/jvm-guest.txt), then the same on the host on $("$LAB_JDK/bin/java" -version 2>&1 | head -n 1) (jvm/jvm-host-KIND-rR-tT.json)"
	fi
	echo "pinning: the guest boots with maxcpus=$maxcpus (every vCPU online before refscale's initcall), so reader i binds itself to CPU i; refscale/boots.tsv's readers_bound counts the readers whose Cpus_allowed_list was their own CPU alone (read from /proc in the guest after the test; a run with fewer fails), readers_last_cpu the CPU each ran on last; refscale's own WARN_ONs print nothing (no CONFIG_BUG in the lab kernel)"
	echo "boot_wall_s: $(awk -F'\t' 'NR > 1 { s += $3; n++ } END { printf "%.1f mean of %d boots", s / n, n }' "$out/refscale/boots.tsv")"
	# the median run per (type, readers)
	awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $4 }' "$out/refscale.tsv" | sort -t$'\t' -k1,1 -k2,2n -k3,3g |
		awk -F'\t' '{ k = $1 "\t" $2; if (!(k in c)) o[++m] = k; v[k, ++c[k]] = $3 }
			END { for (i = 1; i <= m; i++) { split(o[i], p, "\t"); n = c[o[i]]
				printf "median_ns_per_op_%s_r%s: %s (%d runs, %s to %s)\n", p[1], p[2], v[o[i], int((n + 1) / 2)], n, v[o[i], 1], v[o[i], n] } }'
	echo "wall_s: $((SECONDS - t0))"
} >"$out/refscale.txt"
_lab_msg "refscale: done in $((SECONDS - t0)) s: $out/refscale.tsv"
