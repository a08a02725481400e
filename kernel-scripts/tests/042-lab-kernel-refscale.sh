#!/usr/bin/env bash
# 042: refscale in the guest on the 6.1 lab kernel (`lab-kernel.sh refscale --quick`, issue 34):
# refscale.tsv has its header and, for every type (refcnt rwsem lock mutex srcu acqrel empty), the quick runs at
# 1 reader and at one reader a vCPU, each with a positive ns_per_op; every boot had its vCPUs online
# and each reader bound to its own CPU (its Cpus_allowed_list, read in the guest), where it last
# ran; refscale.txt has its keys; nothing is left (no qemu, no guest scratch folder, no registry
# line). Skips without root, qemu or the source package, and unless this run was asked for the lab
# kernels' tests (`./lab test --lab-kernels`): it takes about 19 min under TCG. The JVM's side (kernel/
# jvm-primitives-guest.sh, then the host): every kind in the guest and on the host, a JMH file a
# round and thread count with its shared and private cells, and one of Primitives.baseline beside it.
# timeout: 1500
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_have_guest
_have_lab_kernel 6.1
# refscale's every type at two reader counts and the JVM's primitives, in the guest under TCG: 1132 s
# here (`kernel-scripts/tests/run.sh` of this test, 2026-12-05, beside two Maven builds), before the
# empty type's two boots and a baseline cell a kind, round and thread count were added (not measured
# since: 1500 s leaves room for them); past ./lab test's 20 min, so only when asked for
[ -n "${LAB_TEST_LAB_KERNELS:-}" ] || _skip "refscale in the guest takes about 19 min under TCG here; ./lab test --lab-kernels runs it"
_test_begin_guest
out=$LAB_STATE/out
# guest.sh's scratch folders (mktemp under TMPDIR) in a folder of this test's own, to find any left
scratch=$LAB_STATE/tmp
mkdir -p "$scratch"

TMPDIR=$scratch LAB_OUT=$out bash "$KS_DIR/lab-kernel.sh" refscale --quick 2>"$LAB_STATE/refscale.err" ||
	{ tail -n 30 "$LAB_STATE/refscale.err" >&2; exit 1; }

yes() { if "$@"; then echo yes; else echo no; fi; }
txt() { sed -n "s/^$1: //p" "$out/refscale.txt"; }
types=(refcnt rwsem lock mutex srcu acqrel empty)
vcpus=$(txt vcpus)
nruns=$(txt nruns)
readers=(1)
[ "${vcpus:-1}" -gt 1 ] && readers+=("$vcpus")

echo "refscale.tsv's header: $(head -n 1 "$out/refscale.tsv" | tr '\t' ' ')"
echo "quick: $(txt quick), runs a boot: $nruns, loops: $(txt loops)"
missing=() bad=()
for t in "${types[@]}"; do
	for n in "${readers[@]}"; do
		got=$(awk -F'\t' -v t="$t" -v n="$n" '$1 == t && $2 == n' "$out/refscale.tsv")
		[ "$(grep -c . <<<"$got")" = "$nruns" ] || missing+=("$t@$n")
		if awk -F'\t' '!($4 + 0 > 0) { bad = 1 } END { exit !bad }' <<<"$got"; then bad+=("$t@$n"); fi
	done
done
echo "every type at 1 reader and at every vCPU, $nruns runs each: ${missing[*]:-yes}"
echo "runs without a positive ns_per_op: ${bad[*]:-none}"
extra=$(awk -F'\t' -v r=" ${readers[*]} " 'NR > 1 && index(r, " " $2 " ") == 0' "$out/refscale.tsv" | wc -l)
echo "rows at other reader counts: $extra"
# boots.tsv: type readers boot_wall_s cpus_online readers_bound warnings
want_online=0
[ "${vcpus:-1}" -gt 1 ] && want_online=0-$((vcpus - 1))
echo "one boot a (type, readers): $(yes test "$(tail -n +2 "$out/refscale/boots.tsv" | wc -l)" = $((${#types[@]} * ${#readers[@]})))"
all_online() { awk -F'\t' -v w="$want_online" 'NR > 1 && $4 != w { b = 1 } END { exit b }' "$out/refscale/boots.tsv"; }
# reader i bound to CPU i alone, and last ran there: readers_last_cpu 0 at 1 reader, 0,1,... at N
all_bound() {
	awk -F'\t' 'NR > 1 { want = "0"; for (i = 1; i < $2; i++) want = want "," i; if ($5 != $2 || $6 != want) b = 1 }
		END { exit b }' "$out/refscale/boots.tsv"
}
echo "every boot had every vCPU online: $(yes all_online)"
echo "every reader bound to its own CPU and last ran there: $(yes all_bound)"
keys=()
for k in kernel accel vcpus qemu_cpu loops nruns holdoff_s measured pinning boot_wall_s; do
	[ -n "$(txt "$k")" ] || keys+=("$k")
done
echo "refscale.txt's keys missing: ${keys[*]:-none}"
echo "booted the lab kernel: $(yes grep -q '^kernel_kind: lab$' "$out/refscale/refcnt-r1/guest.txt")"
# the JVM's side: each type's kind (refscale.txt's jvm_kinds), in the guest and on the host, a JMH
# file per round and thread count (1 and every vCPU), each with a shared and a private cell
echo "jvm_kinds: $(txt jvm_kinds)"
echo "the JVM's side ran: $(yes grep -q '^jvm: JMH' "$out/refscale.txt")"
jvm_rounds=$(sed -n 's/^rounds=//p' "$out/jvm/jvm.params")
jmissing=() bmissing=()
for k in $(txt jvm_kinds | tr ' ' '\n' | sed 's/^[^=]*=//' | grep -v '^-$'); do
	for where in guest host; do
		for ((r = 1; r <= jvm_rounds; r++)); do
			for n in "${readers[@]}"; do
				f=$out/jvm/jvm-$where-$k-r$r-t$n.json
				[ "$(grep -c '"line" : "shared"\|"line" : "private"' "$f" 2>/dev/null)" = 2 ] || jmissing+=("$where/$k/r$r/t$n")
				f=$out/jvm/jvm-$where-$k-baseline-r$r-t$n.json
				[ "$(grep -c '"benchmark" : "lab.engine.bench.Primitives.baseline"' "$f" 2>/dev/null)" = 1 ] || bmissing+=("$where/$k/r$r/t$n")
			done
		done
	done
done
echo "a JMH file a kind, place, round and thread count, shared and private: ${jmissing[*]:-yes} ($jvm_rounds rounds)"
echo "and its baseline's beside it: ${bmissing[*]:-yes}"
qemu_left() { test -e "$LAB_STATE/kernel/guest/qemu.pid" || pgrep -f -- "$out/refscale/" >/dev/null; }
echo "qemu left: $(yes qemu_left)"
echo "guest scratch folders left: $(find "$scratch" -mindepth 1 -maxdepth 1 | wc -l)"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
