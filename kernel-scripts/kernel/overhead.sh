#!/usr/bin/env bash
# kernel/overhead.sh [--quick]: Debian's kernel against the lab kernel with every switch at its
# default, and the lab kernel against itself built without its tracing block (lab-notrace:
# kernel/build.sh LAB_KERNEL_VARIANT=notrace; what its contention events cost when off), the same
# workload (kernel/overhead-guest.sh), into LAB_OUT (default: a new folder under results/,
# kernel-overhead-<time>). Per round one boot of each, the order reversed round by round, two
# repetitions a boot (their ratio: the within-boot A/A). LAB_OVERHEAD_KERNELS (default "debian lab
# lab-notrace") names the kernels. Full: 3 rounds of
# 3 s repetitions; --quick: 1 round of 1 s. Writes overhead.tsv (kernel/ab-rows.py) and
# overhead.txt (key: value).
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_lab_quick_opt "overhead [--quick]" "$@"
[ "$(id -u)" -eq 0 ] || { _lab_msg "overhead: needs root (qemu, the guest's devices)"; exit 1; }
if [ "$quick" = 1 ]; then rounds=1 runtime=1s; else rounds=3 runtime=3s; fi
rounds=${LAB_AB_ROUNDS:-$rounds} runtime=${LAB_AB_RUNTIME:-$runtime}
out=${LAB_OUT:-$LAB_ROOT/results/kernel-overhead-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/overhead"
mkdir -p "$out/overhead"
printf 'round\tslot\tkernel\trep\tprefix\n' >"$out/overhead/trials.tsv"
read -r -a kernels <<<"${LAB_OVERHEAD_KERNELS:-debian lab lab-notrace}"
for kern in "${kernels[@]}"; do
	[[ $kern =~ ^(debian|lab|lab-notrace)$ ]] || _lab_refuse "overhead: LAB_OVERHEAD_KERNELS: '$kern' is not debian, lab or lab-notrace"
done
t0=$SECONDS
for ((r = 1; r <= rounds; r++)); do
	order=()
	for kern in "${kernels[@]}"; do if ((r % 2)); then order+=("$kern"); else order=("$kern" "${order[@]}"); fi; done
	s=0
	for kern in "${order[@]}"; do
		s=$((s + 1))
		d=$out/overhead/r$r-$kern
		mkdir -p "$d"
		printf '%s\n' reps=2 "runtime=$runtime" >"$d/overhead.params"
		_lab_msg "overhead: round $r/$rounds, $kern's kernel"
		LAB_GUEST_KERNEL=$kern bash "$KS_DIR/guest/guest.sh" run "$KS_DIR/kernel/overhead-guest.sh" "$d"
		for k in 1 2; do printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$s" "$kern" "$k" "overhead/r$r-$kern/rep$k" >>"$out/overhead/trials.tsv"; done
	done
done
python3 "$KS_DIR/kernel/ab-rows.py" over "$out"
{
	echo "workload: fio psync randread 4k direct, one job per CPU, 256 MiB zram filled half-compressible, $runtime a repetition, 2 a boot"
	echo "env: $(sed -n 's/^env: //p' "$out/overhead/r1-lab/guest.txt")"
	echo "vcpus: $(sed -n 's/^vcpus: //p' "$out/overhead/r1-lab/guest.txt")"
	echo "qemu_cpu: $(sed -n 's/^qemu_cpu: //p' "$out/overhead/r1-lab/guest.txt")"
	echo "rounds: $rounds"
	echo "debian_kernel: $(sed -n 's/^kernel: //p' "$out/overhead/r1-debian/guest.txt")"
	echo "lab_kernel: $(sed -n 's/^kernel: //p' "$out/overhead/r1-lab/guest.txt") ($(sed -n 's/^lab_kernel: //p' "$out/overhead/r1-lab/guest.txt"))"
	if [ -f "$out/overhead/r1-lab-notrace/guest.txt" ]; then
		echo "notrace_kernel: $(sed -n 's/^kernel: //p' "$out/overhead/r1-lab-notrace/guest.txt") ($(sed -n 's/^lab_kernel: //p' "$out/overhead/r1-lab-notrace/guest.txt"): the lab kernel without its tracing block, kernel/config)"
	fi
	echo "cpus: $(sed -n 's/^cpus: //p' "$out/overhead/r1-lab/guest.txt")"
	echo "wall_s: $((SECONDS - t0))"
} >"$out/overhead.txt"
_lab_msg "overhead: done in $((SECONDS - t0)) s: $out/overhead.tsv"
