#!/usr/bin/env bash
# kernel/overhead-guest.sh: the overhead check's workload, INSIDE the guest (Debian's kernel or
# the lab kernel, started by kernel/overhead.sh): fio psync randread 4k, one job per CPU, on a
# 256 MiB zram filled half-compressible, REPS times under perf stat. Reads $OUT/overhead.params
# (reps, runtime); leaves rep<k>.json and rep<k>.perf.csv in $OUT.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail
OUT=${OUT:-/mnt/out}
KS=/mnt/in/ks
[ -r "$OUT/overhead.params" ] || { echo "overhead-guest: runs inside the lab guest VM (kernel/overhead.sh)" >&2; exit 1; }
export LAB_STATE=/tmp/lab-state
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS/common/rc.sh"
_guest_params "$OUT/overhead.params" reps runtime
MADE=()
_scenario_traps
labmod zram num_devices=0
z=$(_zram_add 256M)
MADE+=("zram $z")
_fill "/dev/$z" 50
# shellcheck disable=SC2154 # P is _guest_params' array
for ((k = 1; k <= P[reps]; k++)); do
	perf stat -x, -o "$OUT/rep$k.perf.csv" -e "$LAB_PERF_EVENTS" -- \
		fio --name=overhead --filename="/dev/$z" --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--numjobs="$(nproc)" --group_reporting --size=100% --time_based --runtime="${P[runtime]}" --eta=never \
		--output-format=json --output="$OUT/rep$k.json" >/dev/null
done
