#!/bin/sh
# shellcheck shell=sh
# labmod NAME [param=value...]: insmod a module shipped in the lab initramfs.
# /init already loaded its dependencies (see /lib/modules/lab/order).
#
# On the lab kernel (lab.kernel=lab) zram, null_blk and brd are built in, booted with no device
# (guest.sh): labmod makes the devices the parameters ask for the way each driver allows at run
# time (zram: hot_add; null_blk: configfs; brd: a disk made on first open of its node, at the
# size booted with), and refuses, naming the boot parameter, what only boot can set.
m=$1
shift
die() { echo "labmod: $*" >&2; exit 1; }

# built in: no initstate (a loaded module's); zram on 6.12 has no /sys/module dir at all (its one
# parameter is not in sysfs), its control class says it is there
builtin() {
  [ ! -e "/sys/module/$1/initstate" ] || return 1
  [ -d "/sys/module/$1" ] || { [ "$1" = zram ] && [ -d /sys/class/zram-control ]; }
}

# param NAME PARAMS...: the value of NAME=... among PARAMS (empty when absent)
param() {
  n=$1; shift
  for kv in "$@"; do
    case $kv in "$n"=*) echo "${kv#*=}"; return ;; esac
  done
}

zram_builtin() {
  want=$(param num_devices "$@"); want=${want:-1}
  have=$(find /sys/block -maxdepth 1 -name "zram*" | wc -l)
  while [ "$have" -lt "$want" ]; do
    cat /sys/class/zram-control/hot_add >/dev/null || die "zram: hot_add failed"
    have=$((have + 1))
  done
}

# null_blk's module parameters as configfs attributes: gb -> size (MiB), bs -> blocksize.
nullb_builtin() {
  want=$(param nr_devices "$@"); want=${want:-1}
  cfg=/sys/kernel/config/nullb
  [ "$want" -eq 0 ] && return 0
  [ -d "$cfg" ] || die "null_blk: no configfs at $cfg"
  i=0
  while [ "$i" -lt "$want" ]; do
    d=$cfg/nullb$i # 6.1 names the disk after the item, older kernels nullb<index>: the same here
    mkdir "$d" || die "null_blk: mkdir $d failed"
    for kv in "$@"; do
      k=${kv%%=*} v=${kv#*=}
      case $k in
      nr_devices) continue ;;
      gb) k=size v=$((v * 1024)) ;;
      bs) k=blocksize ;;
      esac
      [ -e "$d/$k" ] || die "null_blk: parameter $k has no configfs attribute on the built-in driver"
      echo "$v" >"$d/$k" || die "null_blk: $k=$v refused"
    done
    echo 1 >"$d/power" || die "null_blk: power on failed"
    i=$((i + 1))
  done
}

brd_builtin() {
  nr=$(param rd_nr "$@"); size=$(param rd_size "$@"); part=$(param max_part "$@")
  have=$(cat /sys/module/brd/parameters/rd_size)
  [ -z "$size" ] || [ "$size" = "$have" ] ||
    die "brd is built in with rd_size=$have KiB: boot with brd.rd_size=$size (LAB_GUEST_APPEND)"
  # brd takes max_part 0 as 1 (one minor a disk, no partitions)
  [ "${part:-1}" != 0 ] || part=1
  [ -z "$part" ] || [ "$part" = "$(cat /sys/module/brd/parameters/max_part)" ] ||
    die "brd is built in with max_part=$(cat /sys/module/brd/parameters/max_part): boot with brd.max_part=$part"
  i=0
  while [ "$i" -lt "${nr:-1}" ]; do
    # brd_probe makes ramN when its dev_t is first opened
    [ -e "/dev/ram$i" ] || mknod "/dev/ram$i" b 1 "$i" || die "brd: mknod /dev/ram$i failed"
    dd if="/dev/ram$i" of=/dev/null bs=512 count=1 2>/dev/null || die "brd: /dev/ram$i did not appear"
    i=$((i + 1))
  done
}

if [ -f "/lib/modules/lab/$m.ko" ] && ! builtin "$m"; then
  exec insmod "/lib/modules/lab/$m.ko" "$@"
fi
builtin "$m" || die "no module $m in the initramfs and none built in"
case $m in
zram) zram_builtin "$@" ;;
null_blk) nullb_builtin "$@" ;;
brd) brd_builtin "$@" ;;
*) [ $# -eq 0 ] || die "$m is built in: its parameters ($*) can only be set at boot"
esac
