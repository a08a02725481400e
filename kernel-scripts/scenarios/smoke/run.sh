#!/usr/bin/env bash
# smoke: the kernel side end to end, natively.
#
# Makes a zram device (filled 50% compressible) and a loop device (256 MiB file),
# runs a 4k randread through the lab's bridge and through fio on each under perf stat,
# writes raw files into results/<run-id>/raw/ (built as <run-id>.partial, renamed at
# the end), and tears everything down. The device-mapper part, brd, dm-linear 5 deep over
# it, a thin pool and volume, and null_blk, runs natively where this kernel has brd, dm-mod,
# dm-thin-pool and null_blk (built in, or modules the lab loads and unloads again) and brd is
# not loaded: fio on each, the bridge on the dm-linear top and the thin volume. Elsewhere it
# runs in the guest VM (kernel-scripts/guest/guest.sh, scenarios/smoke/guest.sh inside), or the
# run folder says why it did not. A guest part that fails (no exit status, a non-zero one, a
# timeout) leaves the others' results: the folder is published all the same, its FAILED says
# which part failed and why, and the scenario exits 1.
#
# Environment: LAB_QUICK=1 (2 s runs, 128 MiB zram and loop; else 10 s, 1 GiB and 256 MiB), LAB_RUNTIME (seconds, or a fio time such as
# 500ms), LAB_RESULTS (default <repo>/results), LAB_FLAMEGRAPH=1 (one more run of each under
# perf record: raw/<dev>.<tool>.kernel.svg), LAB_NO_GUEST=1 (skip the guest part), LAB_REPEATS
# (perf stat -r, default 1), LAB_JDK (the bridge runs as native-bridge/target/bridge.jar on it:
# common/jvm.sh).
set -euo pipefail

KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../../common/rc.sh
. "$KS_DIR/common/rc.sh"

QUICK=${LAB_QUICK:-0}
RESULTS=${LAB_RESULTS:-$LAB_ROOT/results}
REPEATS=${LAB_REPEATS:-1}
if [ "$QUICK" = 1 ]; then RUNTIME=2; ZRAM_SIZE=128M; LOOP_SIZE=128M; else RUNTIME=10; ZRAM_SIZE=1G; LOOP_SIZE=256M; fi
RUNTIME=${LAB_RUNTIME:-$RUNTIME}
_scenario_runtime smoke "$RUNTIME" 1 # sets RUNTIME_S
if [[ $RUNTIME != *ms ]]; then RUNTIME=${RUNTIME}s; fi
DM_SPAN=64M  # the region fio reads on every device of the device-mapper part (the guest's too)
RD_SIZE=256M # each ram disk: ram0 under the dm-linear stack, ram1 and ram2 the thin pool's metadata and data
DEPTH=5      # dm-linear stack depth
RUN_ID=kernel-smoke-$(date -u +%Y%m%dT%H%M%SZ)
OUT=$RESULTS/$RUN_ID.partial
RAW=$OUT/raw
_scenario_traps

_driver_native zram || { _lab_msg "smoke: zram is not in this kernel"; exit 1; }
_driver_native loop || { _lab_msg "smoke: loop is not in this kernel"; exit 1; }
_lab_jvm_init
mkdir -p "$RAW"

# job_file SIZE NUMJOBS: the job: 4k randread over SIZE, psync, direct, NUMJOBS jobs; the runner
# supplies the filename
job_file() {
	cat <<EOF
; smoke: 4k randread for ${RUNTIME}, psync, O_DIRECT, $2 job(s)
[global]
rw=randread
bs=4k
direct=1
ioengine=psync
size=$1
runtime=${RUNTIME}
time_based
ramp_time=0
group_reporting

[smoke-randread]
numjobs=$2
EOF
}
job_file "$LOOP_SIZE" 1 >"$RAW/job.fio"

zram=$(_zram_add "$ZRAM_SIZE" lz4)
MADE+=("zram $zram")
loop=$(_loop_add "$LOOP_SIZE")
MADE+=("loop $loop")
_fill "/dev/$zram" 50
_fill "$loop" 50

# run_pair NAME DEV [JOB [fio]]: the bridge (unless "fio": fio alone), then fio, each under perf
# stat, on DEV with JOB (default job.fio)
run_pair() {
	local name=$1 dev=$2 job=${3:-$RAW/job.fio} only=${4:-}
	if [ "$only" != fio ]; then
		_counted "$RAW" "$name.bridge" "$dev" "$REPEATS" \
			"${LAB_BRIDGE[@]}" run "$job" --filename "$dev" --output "$RAW/$name.bridge.json"
	fi
	_counted "$RAW" "$name.fio" "$dev" "$REPEATS" \
		fio --output-format=json --output="$RAW/$name.fio.json" --filename="$dev" "$job"
	# LAB_FLAMEGRAPH=1 (run --flamegraph): one more run of each under perf record
	if [ "$only" != fio ]; then
		_kernel_flamegraph "$RAW" "$name.bridge" \
			"${LAB_BRIDGE[@]}" run "$job" --filename "$dev" --output "$FLAME_TMP/$name.bridge.json"
	fi
	_kernel_flamegraph "$RAW" "$name.fio" \
		fio --output-format=json --output="$FLAME_TMP/$name.fio.json" --filename="$dev" "$job"
}

run_pair zram "/dev/$zram"
run_pair loop "$loop"

# ---------------------------------------------------------------- device-mapper, natively

# run_dm_native: brd (3 ram disks), dm-linear lab-lin1..lab-lin5 over ram0, the thin pool lab-pool
# (metadata ram1, data ram2, 64 KiB blocks) and its volume lab-thin (DM_SPAN written first, so
# reads walk mapped blocks), a null_blk; fio (2 jobs over DM_SPAN) on brd, lab-lin1, lab-lin5,
# lab-thin and null_blk, the bridge on lab-lin5 and lab-thin; dmsetup's table and status into raw/
run_dm_native() {
	local rams below k nb size
	job_file "$DM_SPAN" 2 >"$RAW/job-dm.fio"
	rams=$(_brd_add 3 "$RD_SIZE")
	for k in $rams; do MADE+=("brd ${k#/dev/}"); done
	below=/dev/ram0
	for ((k = 1; k <= DEPTH; k++)); do
		below=$(_dm_linear_add "lab-lin$k" "$below")
		MADE+=("dm lab-lin$k")
	done
	_dm_thin_pool_add lab-pool /dev/ram1 /dev/ram2 128 0 skip_block_zeroing >/dev/null
	MADE+=("dm lab-pool")
	size=$(blockdev --getsz /dev/ram2)
	_dm_thin_add lab-thin lab-pool 0 "$size" >/dev/null
	MADE+=("dm lab-thin")
	_lab_require_owned /dev/mapper/lab-thin
	fio --name=lab-prefill --filename=/dev/mapper/lab-thin --rw=write --bs=1M --ioengine=psync --direct=1 \
		--size="$DM_SPAN" --output=/dev/null
	nb=$(_nullb_add 1024)
	MADE+=("nullb ${nb#/dev/}")
	_dm table >"$RAW/dm-table.txt"
	_dm status >"$RAW/dm-status.txt"
	run_pair brd /dev/ram0 "$RAW/job-dm.fio" fio
	run_pair dm-linear1 /dev/mapper/lab-lin1 "$RAW/job-dm.fio" fio
	run_pair dm-linear5 "/dev/mapper/lab-lin$DEPTH" "$RAW/job-dm.fio"
	run_pair thin /dev/mapper/lab-thin "$RAW/job-dm.fio"
	run_pair null_blk "$nb" "$RAW/job-dm.fio" fio
	_dm status lab-pool >"$RAW/dm-pool-after.txt"
	NATIVE_DEVICES=", \"brd\": \"/dev/ram0\", \"dm-linear1\": \"/dev/mapper/lab-lin1\", \"dm-linear5\": \"/dev/mapper/lab-lin$DEPTH\", \"thin\": \"/dev/mapper/lab-thin\", \"null_blk\": \"$nb\""
}

NATIVE_DEVICES=''
dm_env=''
nwhy=$(_dm_native_why brd dm-mod dm-thin-pool null_blk)
if [ -z "$nwhy" ]; then
	run_dm_native
	guest_status="not needed: this kernel has brd, dm-mod, dm-thin-pool and null_blk (the device-mapper part ran natively: raw/brd.*, dm-linear1.*, dm-linear5.*, thin.*, null_blk.*)"
	dm_env=native
fi

# guest part: where the device-mapper part cannot run natively
if [ -n "$dm_env" ]; then
	:
elif [ "${LAB_NO_GUEST:-0}" = 1 ]; then
	guest_status="skipped: natively $nwhy, and LAB_NO_GUEST=1"
elif [ -x "$KS_DIR/guest/guest.sh" ] && [ -f "$KS_DIR/scenarios/smoke/guest.sh" ]; then
	gout=$(mktemp -d)
	grc=0
	"$KS_DIR/guest/guest.sh" run "$KS_DIR/scenarios/smoke/guest.sh" "$gout" 2>&1 | sed "s#$LAB_ROOT/##g" >"$RAW/guest-run.log" || grc=$?
	if [ -n "$(ls -A "$gout")" ]; then
		mkdir -p "$RAW/guest"
		cp -r "$gout"/. "$RAW/guest/"
	fi
	if [ "$grc" -eq 0 ]; then
		guest_status="ran in the guest VM (natively $nwhy): raw/guest/"
		dm_env=guest
	else
		# the zram and loop results stand; the run is published, and fails (exit 1) at its end
		gwhy=$(_guest_failure_why "$RAW/guest-run.log" "$grc" "$gout" raw/guest)
		guest_status="failed: $gwhy (raw/guest-run.log has guest.sh's messages, raw/guest/ the guest's output, if any)"
		_part_failed "guest (dm-linear-x5-over-brd, thin)" "$gwhy"
	fi
	rm -rf "$gout"
else
	guest_status="skipped: natively $nwhy, and there is no kernel-scripts/guest/guest.sh"
fi
printf 'dm-linear-x5-over-brd\t%s\nthin\t%s\n' "$guest_status" "$guest_status" >"$RAW/guest-parts.tsv"

# what the lab loaded for this run is unloaded again by the teardown (_made_remove), before the
# manifest says so
_made_remove || { _lab_msg "smoke: teardown incomplete; run lab-kernel.sh cleanup"; exit 1; }

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
  "runtime_s": $RUNTIME_S,
  "devices": {"zram": "/dev/$zram", "loop": "$loop"$NATIVE_DEVICES},
  "environment": {"zram": "native", "loop": "native"$([ -n "$dm_env" ] && echo ", \"dm-linear-x5-over-brd\": \"$dm_env\", \"thin\": \"$dm_env\"")},
  "guest_parts": {"dm-linear-x5-over-brd": "$guest_status", "thin": "$guest_status"},
  "modules": "$(_mod_facts)"
}
EOF

mv "$OUT" "$RESULTS/$RUN_ID"
echo "$RESULTS/$RUN_ID"
_scenario_done smoke "$RESULTS/$RUN_ID"
