#!/usr/bin/env bash
# kernel/lab-ab.sh FIX [--quick]: FIX's switch A/B on the lab kernel, in the guest VM, into
# LAB_OUT (default: a new folder under results/, kernel-lab-FIX-<time>).
#
# Builds the lab kernel if it is not cached (kernel/build.sh; LAB_KERNEL_SOURCE, default the
# source whose patches give FIX its switch: build.sh fix-source),
# boots it (guest/guest.sh run, LAB_GUEST_KERNEL=lab) on kernel/ab-guest.sh with FIX's workload
# (scenarios/FIX/lab-ab.sh), then writes lab-ab.tsv, lab-iter.tsv (kernel/ab-rows.py) and
# lab-ab.txt (key: value: the switch, the workload, the kernel, where it ran). Full: counts
# 1 2 4 8 16 32 64 128 (N = 0 is the after itself), 3 boots of 3 rounds each (9 rounds; the boot
# is the unit of the estimate, and under three units there is no interval), 2 s a trial; --quick:
# counts 1 16, 1 boot of 3 rounds of 1 s (three rounds, the fewest that give an interval).
# LAB_AB_COUNTS, LAB_AB_ROUNDS (per boot), LAB_AB_BOOTS and LAB_AB_RUNTIME override. Each boot
# numbers its rounds on from the last (boot 2's are 5..8), so a round names one boot's trials.
# A fix whose switch is a lock (its patch's Lab-Lock header: build.sh switches' lock=) runs, per
# round, its before and after once more under `perf lock record` at the first and the last count
# (LAB_AB_TRACE_COUNTS overrides; LAB_AB_TRACE=none drops them): the kernel's own contention
# events, by caller (ab-guest.sh traced_trial; lab-lock.tsv and lock/, kernel/ab-rows.py). The
# timed trials stay untraced. A switch of shared atomics (a count, no lock: dm-css-ref, part-acct)
# runs its before and after once under perf c2c at the last count where the guest's PMU samples
# loads, else lab-ab.txt's c2c line says why (trace=c2c).
# Exit 2 for a fix with no switch.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"

fix=${1:-}
quick=0
[ $# -gt 0 ] && shift
for a in "$@"; do
	case $a in
	--quick) quick=1 ;;
	*) _lab_refuse "lab-ab: unknown option '$a' (usage: lab-ab FIX [--quick])" ;;
	esac
done
# the source the fix's switch lives in (kernel/patches/V/FIX.patch; thin-bufio-lock: 6.12)
src=${LAB_KERNEL_SOURCE:-$(bash "$KS_DIR/kernel/build.sh" fix-source "$fix" || echo 6.1)}
switches=$(bash "$KS_DIR/kernel/build.sh" switches --source "$src")
if [ -z "$fix" ] || [ ! -f "$KS_DIR/scenarios/$fix/lab-ab.sh" ] || ! grep -q "^fix=$fix " <<<"$switches"; then
	_lab_refuse "lab-ab: '${fix}' has no lab-kernel switch; fixes with one: $(bash "$KS_DIR/kernel/build.sh" switches --all | awk '{sub(/^fix=/, "", $1); print $1}' | sort -u | xargs)"
fi
# switch_word KEY: the value of KEY= on FIX's line of kernel/build.sh switches
switch_word() { grep "^fix=$fix " <<<"$switches" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
if [ "$quick" = 1 ]; then
	counts="1 16" rounds=3 boots=1 runtime=1s
else
	counts="1 2 4 8 16 32 64 128" rounds=3 boots=3 runtime=2s
fi
counts=${LAB_AB_COUNTS:-$counts} rounds=${LAB_AB_ROUNDS:-$rounds} boots=${LAB_AB_BOOTS:-$boots} runtime=${LAB_AB_RUNTIME:-$runtime}
for v in rounds boots; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || _lab_refuse "lab-ab: LAB_AB_${v^^} must be a count >= 1, not '${!v}'"
done
[ "$(id -u)" -eq 0 ] || { _lab_msg "lab-ab: needs root (qemu, the guest's devices)"; exit 1; }
command -v qemu-system-x86_64 >/dev/null || { _lab_msg "lab-ab: qemu-system-x86_64 missing"; exit 1; }
# a switch without a count (dm-blkcg-clone: the association kept or lost) runs at N=1 only
if [ "$(switch_word count)" = - ]; then counts=1; fi
trace=none
if [ -n "$(switch_word lock)" ]; then trace=lock; elif [ "$(switch_word count)" != - ]; then trace=c2c; fi
trace=${LAB_AB_TRACE:-$trace}
[[ $trace =~ ^(lock|c2c|none)$ ]] || _lab_refuse "lab-ab: LAB_AB_TRACE must be lock, c2c or none, not '$trace'"
read -r -a cs <<<"$counts"
trace_counts=${LAB_AB_TRACE_COUNTS:-$(printf '%s\n' "${cs[0]}" "${cs[${#cs[@]} - 1]}" | uniq | xargs)}

out=${LAB_OUT:-$LAB_ROOT/results/kernel-lab-$fix-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/ab" "$out/lock" "$out/c2c" "$out/lab-lock.tsv" "$out"/guest-b*.txt "$out"/console-b*.log
# a fix whose guest needs what only the host can make (job files rendered by the bridge's JVM)
# makes it here
# shellcheck source=/dev/null
. "$KS_DIR/scenarios/$fix/lab-ab.sh"
if declare -F ab_host_prepare >/dev/null; then ab_host_prepare "$out" "$quick"; fi
_lab_msg "lab-ab: $fix, counts $counts, $boots boot(s) of $rounds rounds of $runtime (lab kernel $src) -> $out"
t0=$SECONDS
for ((b = 1; b <= boots; b++)); do
	# the guest reads its boot and where its rounds start from here
	printf '%s\n' "fix=$fix" "counts=$counts" "rounds=$rounds" "runtime=$runtime" "source=$src" "quick=$quick" \
		"boot=$b" "round0=$(((b - 1) * rounds))" "trace=$trace" "trace_counts=$trace_counts" >"$out/lab-ab.params"
	_lab_msg "lab-ab: $fix, boot $b/$boots"
	LAB_GUEST_KERNEL=lab LAB_KERNEL_SOURCE=$src GUEST_TIMEOUT=${GUEST_TIMEOUT:-1500} bash "$KS_DIR/guest/guest.sh" run "$KS_DIR/kernel/ab-guest.sh" "$out"
	cp "$out/guest.txt" "$out/guest-b$b.txt"
	cp "$out/console.log" "$out/console-b$b.log"
done
python3 "$KS_DIR/kernel/ab-rows.py" ab "$out"
k=$(switch_word k)
{
	sed -n 's/^\(fix\|switch\|values\|before\|after\|default\|workload\|metric\|cpus\|traced\|c2c\): /&/p' "$out/ab/facts.txt"
	[ -z "$(switch_word lock)" ] || echo "lock: $(switch_word lock | tr , ' ')"
	echo "counts: $counts"
	echo "rounds: $((rounds * boots))"
	echo "boots: $boots"
	echo "rounds_per_boot: $rounds"
	echo "runtime: $runtime"
	# K per pass of the switch's sites, times the passes an I/O makes (dm-css-ref: a dm layer each)
	echo "ops_per_io: $((k * $(sed -n 's/^sites: //p' "$out/ab/facts.txt")))"
	sites_note=$(sed -n 's/^sites_note: //p' "$out/ab/facts.txt")
	echo "ops_note: the switch's own operations as its counter $(switch_word ops) counts them, $k per I/O per pass of its sites (kernel/patches/$src/$fix.patch says how), times $(sed -n 's/^sites: //p' "$out/ab/facts.txt") pass(es) an I/O here${sites_note:+ ($sites_note)}"
	echo "env: $(sed -n 's/^env: //p' "$out/guest.txt")"
	echo "vcpus: $(sed -n 's/^vcpus: //p' "$out/guest.txt")"
	echo "qemu_cpu: $(sed -n 's/^qemu_cpu: //p' "$out/guest.txt")"
	echo "kernel: $(sed -n 's/^kernel: //p' "$out/guest.txt")"
	echo "kernel_build: $(sed -n 's/^kernel_build: //p' "$out/guest.txt")"
	echo "source: $(sed -n 's/^lab_kernel_stamp: source //p' "$out/guest.txt")"
	echo "patches: $(sed -n 's/^lab_kernel: //p' "$out/guest.txt")"
	echo "wall_s: $((SECONDS - t0))"
} >"$out/lab-ab.txt"
_lab_msg "lab-ab: $fix done in $((SECONDS - t0)) s: $out/lab-ab.tsv"
