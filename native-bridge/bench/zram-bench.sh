#!/usr/bin/env bash
# zram-bench.sh: the zram device the bridge benchmarks make for themselves, sourced by them.
# (kernel-scripts will own device setup and its registry; until then each benchmark adds its
# own device through zram-control, never touches one it did not add, and removes it on exit.)
#
#   zram_add SIZE     hot-adds a device, sets disksize; sets $zram (index) and $dev
#   zram_fill FILE    fills $dev with half-compressible data (fio), JSON to FILE
#   zram_describe     device facts for a results folder, on stdout
#   zram_remove       resets (retrying while EBUSY) and hot-removes it; safe to call twice
#
# and the run folder every benchmark writes, complete or not at all:
#   run_start ROOT ID  refuses an existing results/ID; sets $work (results/.ID.partial) and
#                      $raw, and traps EXIT to remove the device and any unfinished $work
#   run_commit ROOT ID moves $work into place as results/ID

zram=""
dev=""

zram_add() {
	[ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null || true
	[ -e /sys/class/zram-control/hot_add ] || { echo "no zram-control (zram not available)" >&2; return 2; }
	zram=$(cat /sys/class/zram-control/hot_add) # reading hot_add makes the device
	dev=/dev/zram$zram
	echo "$1" >"/sys/block/zram$zram/disksize"
	for _ in $(seq 1 40); do [ -b "$dev" ] && return 0; sleep 0.05; done
	echo "$dev did not appear" >&2
	return 1
}

zram_fill() {
	fio --name=fill --filename="$dev" --rw=write --bs=1M --direct=1 --ioengine=psync \
		--buffer_compress_percentage=50 --refill_buffers --size="$(cat "/sys/block/zram$zram/disksize")" \
		--output-format=json --output="$1" >/dev/null
}

zram_describe() {
	echo "device: zram (hot-added by the benchmark), disksize $(cat "/sys/block/zram$zram/disksize")"
	echo "comp_algorithm: $(cat "/sys/block/zram$zram/comp_algorithm")"
	echo "mm_stat after fill: $(cat "/sys/block/zram$zram/mm_stat")"
	echo "fill: fio rw=write bs=1M direct=1 buffer_compress_percentage=50 refill_buffers"
	echo "fio: $(fio --version)"
	echo "kernel: $(uname -r)"
}

zram_remove() {
	[ -n "$zram" ] || return 0
	for _ in $(seq 1 40); do # reset is EBUSY while anything still holds the device open
		echo 1 >"/sys/block/zram$zram/reset" 2>/dev/null && break
		sleep 0.25
	done
	echo "$zram" >/sys/class/zram-control/hot_remove || echo "could not remove zram$zram" >&2
	zram=""
}

work=""
raw=""
run_done=0

run_start() {
	[ ! -d "$1/results/$2" ] || { echo "results/$2 exists; not overwriting it" >&2; exit 2; }
	work=$1/results/.$2.partial
	raw=$work/raw
	trap run_cleanup EXIT
	trap 'exit 130' INT TERM
	rm -rf "$work"
	mkdir -p "$raw/jobs"
}

run_cleanup() {
	zram_remove
	[ "$run_done" -eq 1 ] || [ -z "$work" ] || rm -rf "$work"
}

run_commit() {
	mv "$work" "$1/results/$2"
	run_done=1
}
