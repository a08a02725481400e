#!/bin/sh
# shellcheck shell=sh
# Smoke scenario for the guest VM (runs INSIDE the guest under busybox sh, via
# kernel-scripts/guest/guest.sh run). Builds brd, a dm-linear stack 5 deep,
# a thin pool + thin volume, null_blk and zram; runs a short fio 4k randread
# (psync) on each; writes fio JSON and dmsetup status/table to $OUT; then
# removes everything top-down. No udev here: dm devices are stacked by
# major:minor and DM_DISABLE_UDEV=1 (set by /init) makes dmsetup create nodes.
set -eu

OUT=${OUT:-/mnt/out}
RUNTIME=${RUNTIME:-2}          # seconds per fio run
SPAN=64M                      # region fio touches on every device: same for all
RD_KB=262144                  # brd size per device, KiB (256 MiB)
DEPTH=5                       # dm-linear stack depth

log() { echo "smoke: [$(cut -d" " -f1 /proc/uptime)s] $*"; }  # guest uptime: how long each step took

# "major:minor" of a dm device by name.
dm_devt() { dmsetup info -c --noheadings -o major,minor --separator : "$1"; }

# "major:minor" of a plain block device node.
blk_devt() { cat "/sys/class/block/${1#/dev/}/dev"; }

sectors() { blockdev --getsz "$1"; }

# perf stat -x, around each fio run where the guest has perf (software events: TCG exposes no
# hardware counters); the CSV is perf-NAME.csv beside fio-NAME.json.
# The events /init's key holder holds (init.sh exports them; guest/README.md says why).
PERF_EVENTS=$LAB_PERF_EVENTS

run_fio() {  # name device
  log "fio $1 on $2"
  if command -v perf >/dev/null 2>&1; then
    set -- "$1" "$2" perf stat -x, -o "$OUT/perf-$1.csv" -e "$PERF_EVENTS" --
  fi
  name=$1 dev=$2
  shift 2
  "$@" fio --name="$name" --filename="$dev" --rw=randread --bs=4k --ioengine=psync \
    --direct=1 --numjobs=2 --group_reporting --time_based --runtime="$RUNTIME" \
    --size="$SPAN" --eta=never --output-format=json --output="$OUT/fio-$name.json"
}

# The lab's bridge on the same device and region, where guest.sh shared it (/mnt/in/bridge):
# io_uring at iodepth 8, under perf stat like fio; JSON as bridge-NAME.json. Only on the dm
# devices the host lacks: under TCG the JVM's start-up dominates a run (guest/README.md has the
# measurement). C1 only, for the same reason: C2 compiles are slow under emulation.
BRIDGE=/mnt/in/bridge
run_bridge() {  # name device
  [ -x "$BRIDGE/jre/bin/java" ] || return 0
  log "bridge $1 on $2"
  printf '[%s]\nrw=randread\nbs=4k\ndirect=1\nioengine=io_uring\niodepth=8\nsize=%s\nruntime=%s\ntime_based=1\n' \
    "$1" "$SPAN" "$RUNTIME" > "/tmp/bridge-$1.fio"
  LD_LIBRARY_PATH=$BRIDGE/lib perf stat -x, -o "$OUT/perf-bridge-$1.csv" -e "$PERF_EVENTS" -- \
    "$BRIDGE/jre/bin/java" --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 \
    -jar "$BRIDGE/bridge.jar" run "/tmp/bridge-$1.fio" --filename "$2" --output "$OUT/bridge-$1.json"
}

cleanup() {
  set +e
  # Top-down: thin volume, pool, linear stack from the top, then the drivers.
  dmsetup remove lab-thin 2>/dev/null
  dmsetup remove lab-pool 2>/dev/null
  i=$DEPTH
  while [ "$i" -ge 1 ]; do dmsetup remove "lab-lin$i" 2>/dev/null; i=$((i - 1)); done
  [ -e /sys/block/zram0 ] && echo 1 > /sys/block/zram0/reset
  for m in zram null_blk brd; do rmmod "$m" 2>/dev/null; done
  log "left: $(dmsetup ls 2>&1 | tr '\n' ' ')"
}
trap cleanup EXIT

setup_brd() {
  # ram0: linear stack + plain brd; ram1: thin metadata; ram2: thin data.
  labmod brd rd_nr=3 rd_size="$RD_KB" max_part=0
}

setup_linear() {
  below=$(blk_devt /dev/ram0)
  size=$(sectors /dev/ram0)
  i=1
  while [ "$i" -le "$DEPTH" ]; do
    dmsetup create "lab-lin$i" -u "LAB-lin$i" --table "0 $size linear $below 0"
    below=$(dm_devt "lab-lin$i")
    i=$((i + 1))
  done
  dmsetup mknodes
}

setup_thin() {
  meta=$(blk_devt /dev/ram1)
  data=$(blk_devt /dev/ram2)
  size=$(sectors /dev/ram2)
  # A fresh metadata device must start zeroed (brd pages start as zeros, but
  # say so explicitly in case the device was used before).
  dd if=/dev/zero of=/dev/ram1 bs=4096 count=1 2>/dev/null
  # 64 KiB blocks (128 sectors), low water mark 0, no zeroing of new blocks.
  dmsetup create lab-pool -u LAB-pool \
    --table "0 $size thin-pool $meta $data 128 0 1 skip_block_zeroing"
  dmsetup message lab-pool 0 "create_thin 0"
  dmsetup create lab-thin -u LAB-thin --table "0 $size thin $(dm_devt lab-pool) 0"
  dmsetup mknodes
  # Provision the span first, so reads go through mapped blocks (the btree
  # lookup path) rather than returning zeros for unprovisioned ones.
  fio --name=prefill --filename=/dev/mapper/lab-thin --rw=write --bs=1M \
    --ioengine=psync --direct=1 --size="$SPAN" --eta=never --output=/dev/null
}

setup_null_blk() {
  # Module parameters, not configfs: one device, 1 GiB, blk-mq, 4 KiB blocks.
  labmod null_blk nr_devices=1 gb=1 bs=4096 queue_mode=2
}

setup_zram() {
  labmod zram num_devices=1
  echo 256M > /sys/block/zram0/disksize
}

main() {
  log "kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) cpus"
  setup_brd
  setup_linear
  setup_thin
  setup_null_blk
  setup_zram
  dmsetup status > "$OUT/dmsetup-status.txt"
  dmsetup table > "$OUT/dmsetup-table.txt"
  dmsetup ls --tree > "$OUT/dmsetup-tree.txt" 2>&1 || true
  run_fio brd /dev/ram0
  run_fio dm-linear1 /dev/mapper/lab-lin1
  run_fio dm-linear5 "/dev/mapper/lab-lin$DEPTH"
  run_bridge dm-linear5 "/dev/mapper/lab-lin$DEPTH"
  run_fio thin /dev/mapper/lab-thin
  run_bridge thin /dev/mapper/lab-thin
  run_fio null_blk /dev/nullb0
  run_fio zram /dev/zram0
  # Pool status after I/O shows the provisioned blocks.
  dmsetup status lab-pool > "$OUT/dmsetup-pool-after.txt"
  log "done"
}

main "$@"
