#!/usr/bin/env bash
# smoke: the kernel side end to end, natively.
#
# Makes a zram device (filled 50% compressible) and a loop device (256 MiB file),
# runs a 4k randread through the lab's bridge and through fio on each under perf stat,
# writes raw files into results/<run-id>/raw/ (built as <run-id>.partial, renamed at
# the end), and tears everything down. The dm-linear x5 over brd and thin parts need
# the guest VM; they run there when kernel-scripts/guest/guest.sh and
# scenarios/smoke/guest.sh exist, else the run folder says why they were skipped.
#
# Environment: LAB_QUICK=1 (2 s runs, 256 MiB zram), LAB_RESULTS (default <repo>/results),
# LAB_FLAMEGRAPH=1 (one more run of each under perf record: raw/<dev>.<tool>.kernel.svg),
# LAB_NO_GUEST=1 (skip the guest part), LAB_REPEATS (perf stat -r, default 1), LAB_JDK (the
# bridge runs as native-bridge/target/bridge.jar on it: common/jvm.sh).
set -euo pipefail

KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../../common/rc.sh
. "$KS_DIR/common/rc.sh"

QUICK=${LAB_QUICK:-0}
RESULTS=${LAB_RESULTS:-$LAB_ROOT/results}
REPEATS=${LAB_REPEATS:-1}
if [ "$QUICK" = 1 ]; then RUNTIME=2; ZRAM_SIZE=256M; else RUNTIME=10; ZRAM_SIZE=1G; fi
LOOP_SIZE=256M
RUN_ID=kernel-smoke-$(date -u +%Y%m%dT%H%M%SZ)
OUT=$RESULTS/$RUN_ID.partial
RAW=$OUT/raw
_scenario_traps

_driver_native zram || { _lab_msg "smoke: zram is not in this kernel"; exit 1; }
_driver_native loop || { _lab_msg "smoke: loop is not in this kernel"; exit 1; }
_lab_jvm_init
mkdir -p "$RAW"

# the job: 4k randread, psync, direct, one job; the runner supplies the filename
cat >"$RAW/job.fio" <<EOF
; smoke: 4k randread for ${RUNTIME}s, psync, O_DIRECT, one job
[global]
rw=randread
bs=4k
direct=1
ioengine=psync
size=$LOOP_SIZE
runtime=${RUNTIME}s
time_based
ramp_time=0

[smoke-randread]
numjobs=1
EOF

zram=$(_zram_add "$ZRAM_SIZE" lz4)
MADE+=("zram $zram")
loop=$(_loop_add "$LOOP_SIZE")
MADE+=("loop $loop")
_fill "/dev/$zram" 50
_fill "$loop" 50

# run_pair NAME DEV: the bridge, then fio, each under perf stat
run_pair() {
	local name=$1 dev=$2
	_counted "$RAW" "$name.bridge" "$dev" "$REPEATS" \
		"${LAB_BRIDGE[@]}" run "$RAW/job.fio" --filename "$dev" --output "$RAW/$name.bridge.json"
	_counted "$RAW" "$name.fio" "$dev" "$REPEATS" \
		fio --output-format=json --output="$RAW/$name.fio.json" --filename="$dev" "$RAW/job.fio"
	# LAB_FLAMEGRAPH=1 (run --flamegraph): one more run of each under perf record
	_kernel_flamegraph "$RAW" "$name.bridge" \
		"${LAB_BRIDGE[@]}" run "$RAW/job.fio" --filename "$dev" --output "$FLAME_TMP/$name.bridge.json"
	_kernel_flamegraph "$RAW" "$name.fio" \
		fio --output-format=json --output="$FLAME_TMP/$name.fio.json" --filename="$dev" "$RAW/job.fio"
}

run_pair zram "/dev/$zram"
run_pair loop "$loop"

# guest part
guest_status="skipped: the host lacks device-mapper, brd and dm-thin, and the guest path is not available yet"
guest_env=''
if [ "${LAB_NO_GUEST:-0}" = 1 ]; then
	guest_status="skipped: LAB_NO_GUEST=1"
elif [ -x "$KS_DIR/guest/guest.sh" ] && [ -f "$KS_DIR/scenarios/smoke/guest.sh" ]; then
	gout=$(mktemp -d)
	grc=0
	"$KS_DIR/guest/guest.sh" run "$KS_DIR/scenarios/smoke/guest.sh" "$gout" 2>&1 | sed "s#$LAB_ROOT/##g" >"$RAW/guest-run.log" || grc=$?
	if [ -n "$(ls -A "$gout")" ]; then
		mkdir -p "$RAW/guest"
		cp -r "$gout"/. "$RAW/guest/"
	fi
	if [ "$grc" -eq 0 ]; then
		guest_status="ran in the guest VM: raw/guest/"
		guest_env=guest
	else
		guest_status="failed: guest.sh run exited $grc (see raw/guest-run.log; its output, if any, in raw/guest/)"
	fi
	rm -rf "$gout"
elif [ -x "$KS_DIR/guest/guest.sh" ]; then
	guest_status="skipped: the host lacks device-mapper; guest.sh exists but scenarios/smoke/guest.sh does not yet"
fi
printf 'dm-linear-x5-over-brd\t%s\nthin\t%s\n' "$guest_status" "$guest_status" >"$RAW/guest-parts.tsv"

cat >"$OUT/manifest.json" <<EOF
{
  "run_id": "$RUN_ID",
  "scenario": "smoke",
  "quick": $([ "$QUICK" = 1 ] && echo true || echo false),
  "host": "$(hostname)",
  "kernel": "$(uname -r)",
  "cpus": $(nproc),
  "perf_events": "$(_perf_probe)",
  "perf_repeats": $REPEATS,
  "kernel_flamegraphs": $([ "${LAB_FLAMEGRAPH:-0}" = 1 ] && echo true || echo false),
  "devices": {"zram": "/dev/$zram", "loop": "$loop"},
  "environment": {"zram": "native", "loop": "native"$([ -n "$guest_env" ] && echo ", \"dm-linear-x5-over-brd\": \"$guest_env\", \"thin\": \"$guest_env\"")},
  "guest_parts": {"dm-linear-x5-over-brd": "$guest_status", "thin": "$guest_status"}
}
EOF

_made_remove || { _lab_msg "smoke: teardown incomplete; run lab-kernel.sh cleanup"; exit 1; }
mv "$OUT" "$RESULTS/$RUN_ID"
echo "$RESULTS/$RUN_ID"
