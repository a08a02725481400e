#!/bin/sh
# shellcheck shell=sh
# switch-check.sh PATCHDIR: in the lab guest (busybox sh, run as root on the lab kernel), check
# every runtime switch that the patches in PATCHDIR declare in their Lab-* header lines:
#   - the Lab-Switch, Lab-Count and Lab-Ops files exist under /sys/module (their real paths
#     are printed), Lab-Ops is read-only, the switch reads back its default (the first of
#     Lab-Values) and rejects a bogus value, the count accepts 1..1024 only;
#   - the switch takes every one of Lab-Values and reads each back;
#   - with the count at N (4), a short fio on the fix's device moves Lab-Ops by 0 at the
#     default value and by at least Lab-Ops-Per-IO * N * I/Os at every other value (I/Os as
#     counted by the device's /sys/block/DEV/stat; "exact" when equal).
# A fix with "Lab-Switch: -" (a *.none file) is only listed, and so is a patch with no Lab-Fix
# that says "Lab-Measure:" (one that adds a measurement: refscale-mutex.patch, refscale-type-empty.patch). Every check
# prints one line, "ok ..." or "FAIL ..."; the exit status is 1 if any check failed. Every
# switch is left at its default and every count at 1.
# Devices (by Lab-Fix): zram-init-lock on a hot-added zram disk; dm-css-ref and
# dm-blkcg-clone on one dm-linear layer over /dev/ram0 (brd); part-acct on a null_blk disk
# (blk-mq, made through configfs); thin-bufio-lock on a thin volume of a pool over /dev/ram0 (data)
# and /dev/ram1 (metadata), written whole first. Environment: LAB_CHECK_IOS (default 1000),
# LAB_CHECK_COUNT (default 4).
set -u

dir=${1:?usage: switch-check.sh PATCHDIR}
ios=${LAB_CHECK_IOS:-1000}
count=${LAB_CHECK_COUNT:-4}
export DM_DISABLE_UDEV=1
fails=0

ok() { echo "ok $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# hdr FILE KEY: the value of the header line "KEY: value" (before the first diff line)
hdr() {
  awk -v k="$2:" '/^(diff|--- |\+\+\+ )/ { exit }
    $1 == k { $1 = ""; sub(/^[ \t]+/, ""); sub(/[ \t]+#.*$/, ""); print; exit }' "$1"
}

param() { echo "/sys/module/$1/parameters/$2"; }   # param MOD PARAM

# sysfs_set FILE VALUE: write, quietly; the status says whether the kernel took it
sysfs_set() { (echo "$2" > "$1") 2>/dev/null; }

# --- devices: set dev (the name under /sys/block) and node (the /dev path) ---
zram_dev=
dm_dev=
nb_dev=
thin_dev=
setup_zram() {
  if [ -z "$zram_dev" ]; then
    id=$(cat /sys/class/zram-control/hot_add) || return 1
    echo 256M > "/sys/block/zram$id/disksize" || return 1
    zram_dev=zram$id
  fi
  dev=$zram_dev node=/dev/$zram_dev
}
setup_dm() {
  if [ -z "$dm_dev" ]; then
    # the lab kernel boots brd with no disk: labmod makes ram0 (brd's probe, at the booted size)
    [ -b /dev/ram0 ] || labmod brd rd_nr=1 || return 1
    sz=$(cat /sys/block/ram0/size) || return 1
    dmsetup create lab_check --table "0 $sz linear /dev/ram0 0" || return 1
    minor=$(dmsetup info -c --noheadings -o minor lab_check) || return 1
    dm_dev=dm-$((minor))
  fi
  dev=$dm_dev node=/dev/mapper/lab_check
}
setup_thin() {
  if [ -z "$thin_dev" ]; then
    # a thin pool: data ram0, metadata ram1 (its first block zeroed: a fresh pool), 64 KiB blocks;
    # volume 0 over 64 MiB of it, written whole once so every block is provisioned and the
    # checked I/O only looks blocks up (each lookup walks the btree through dm-bufio)
    [ -b /dev/ram1 ] || labmod brd rd_nr=2 || return 1
    sz=$(cat /sys/block/ram0/size) || return 1
    dd if=/dev/zero of=/dev/ram1 bs=4096 count=1 2>/dev/null || return 1
    dmsetup create lab_check_pool --table "0 $sz thin-pool /dev/ram1 /dev/ram0 128 0 1 skip_block_zeroing" || return 1
    dmsetup message lab_check_pool 0 "create_thin 0" || return 1
    dmsetup create lab_check_thin --table "0 131072 thin /dev/mapper/lab_check_pool 0" || return 1
    thin_dev=dm-$(($(dmsetup info -c --noheadings -o minor lab_check_thin))) || return 1
    dd if=/dev/zero of=/dev/mapper/lab_check_thin bs=1M count=64 oflag=direct 2>/dev/null || return 1
  fi
  dev=$thin_dev node=/dev/mapper/lab_check_thin
}
setup_nullb() {
  if [ -z "$nb_dev" ]; then
    cfs=/sys/kernel/config
    [ -d "$cfs/nullb" ] || mount -t configfs none "$cfs" 2>/dev/null
    d=$cfs/nullb/labnb
    mkdir -p "$d" || return 1
    echo 1024 > "$d/size" && echo 4096 > "$d/blocksize" &&
      echo 2 > "$d/queue_mode" && echo 1 > "$d/power" || return 1
    nb_dev=labnb
  fi
  dev=$nb_dev node=/dev/$nb_dev
}
teardown() {
  if [ -n "$thin_dev" ]; then
    dmsetup remove lab_check_thin || echo "note: dmsetup remove lab_check_thin failed"
    dmsetup remove lab_check_pool || echo "note: dmsetup remove lab_check_pool failed"
  fi
  [ -z "$dm_dev" ] || dmsetup remove lab_check || echo "note: dmsetup remove failed"
  if [ -n "$nb_dev" ]; then
    echo 0 > /sys/kernel/config/nullb/labnb/power
    rmdir /sys/kernel/config/nullb/labnb
  fi
  if [ -n "$zram_dev" ]; then
    echo 1 > "/sys/block/$zram_dev/reset" || echo "note: zram reset failed"
    echo "${zram_dev#zram}" > /sys/class/zram-control/hot_remove || echo "note: hot_remove failed"
  fi
}

# dev_ios DEV: reads + writes completed, from /sys/block/DEV/stat
dev_ios() { awk '{ print $1 + $5 }' "/sys/block/$1/stat"; }

# run_io NODE RW: the short fio; sets nio to the I/Os the device counted
run_io() {
  before=$(dev_ios "$dev")
  size=$(($(cat "/sys/block/$dev/size") / 2048))
  [ "$size" -le 64 ] || size=64
  fio --name=lab-check --filename="$1" --rw="$2" --bs=4k --direct=1 --ioengine=psync \
    --number_ios="$ios" --size="${size}M" --output=/dev/null || return 1
  nio=$(($(dev_ios "$dev") - before))
}

check_patch() {
  f=$1
  fix=$(hdr "$f" Lab-Fix)
  sw=$(hdr "$f" Lab-Switch)
  if [ -z "$fix" ] && [ -n "$(hdr "$f" Lab-Measure)" ]; then
    ok "$(basename "$f" .patch): a measurement ($(hdr "$f" Lab-Measure)), no switch"
    return
  fi
  [ -n "$fix" ] || { fail "$f: no Lab-Fix line"; return; }
  if [ "$sw" = - ]; then ok "$fix: no switch (Lab-Switch: -), nothing to flip"; return; fi
  values=$(hdr "$f" Lab-Values)
  bef=$(hdr "$f" Lab-Before)
  aft=$(hdr "$f" Lab-After)
  cnt=$(hdr "$f" Lab-Count)
  opsp=$(hdr "$f" Lab-Ops)
  k=$(hdr "$f" Lab-Ops-Per-IO)
  # shellcheck disable=SC2086 # word splitting wanted: "MOD PARAM", "v1 v2 ..."
  { set -- $sw; swf=$(param "$1" "${2:-}"); set -- $opsp; opsf=$(param "$1" "${2:-}")
    set -- $values; dflt=${1:-}; }
  cntf=-
  # shellcheck disable=SC2086
  [ "$cnt" = - ] || { set -- $cnt; cntf=$(param "$1" "${2:-}"); }
  case " $values " in *" $bef "*) ;; *) fail "$fix: Lab-Before $bef not in Lab-Values";; esac
  case " $values " in *" $aft "*) ;; *) fail "$fix: Lab-After $aft not in Lab-Values";; esac
  case $k in '' | *[!0-9]*) fail "$fix: Lab-Ops-Per-IO '$k' is not a number"; return;; esac

  for p in "$swf" "$opsf" "$cntf"; do
    [ "$p" != - ] || continue
    if [ -f "$p" ]; then ok "$fix: $p ($(stat -c %a "$p"))"; else fail "$fix: no $p"; return; fi
  done
  v=$(cat "$swf")
  if [ "$v" = "$dflt" ]; then ok "$fix: switch reads default '$dflt'"
  else fail "$fix: switch reads '$v' at start, default is '$dflt'"; fi
  if sysfs_set "$swf" lab-bogus; then fail "$fix: switch took a bogus value"
  else ok "$fix: switch rejects a bogus value"; fi
  if sysfs_set "$opsf" 0; then fail "$fix: Lab-Ops $opsf is writable"
  else ok "$fix: Lab-Ops is read-only"; fi

  for v in $values; do
    if sysfs_set "$swf" "$v" && [ "$(cat "$swf")" = "$v" ]; then ok "$fix: switch $v reads back $v"
    else fail "$fix: switch $v reads back '$(cat "$swf")'"; fi
  done
  sysfs_set "$swf" "$dflt"

  n=1
  if [ "$cntf" != - ]; then
    for bad in 0 1025; do
      if sysfs_set "$cntf" "$bad"; then fail "$fix: count took $bad"; else ok "$fix: count rejects $bad"; fi
    done
    if sysfs_set "$cntf" "$count" && [ "$(cat "$cntf")" = "$count" ]; then
      ok "$fix: count $count reads back"; n=$count
    else fail "$fix: count $count reads back '$(cat "$cntf")'"; fi
  fi

  rw=randread
  case $fix in
    zram-init-lock) setup_zram ;;
    dm-css-ref) setup_dm ;;
    dm-blkcg-clone) setup_dm; rw=randwrite ;;
    part-acct) setup_nullb ;;
    thin-bufio-lock) setup_thin ;;
    *) false ;;
  esac || { fail "$fix: no device for this fix (setup failed or unknown fix)"; return; }

  for v in $values; do
    sysfs_set "$swf" "$v" || { fail "$fix: could not set $v"; continue; }
    o0=$(cat "$opsf")
    run_io "$node" "$rw" || { fail "$fix=$v: fio on $node failed"; continue; }
    d=$(($(cat "$opsf") - o0))
    if [ "$v" = "$dflt" ]; then
      if [ "$d" -eq 0 ]; then ok "$fix=$v: $nio I/Os on $dev, Lab-Ops +0 (default)"
      else fail "$fix=$v: $nio I/Os on $dev, Lab-Ops +$d, want 0 at the default"; fi
    else
      want=$((k * n * nio))
      if [ "$nio" -lt "$ios" ]; then fail "$fix=$v: only $nio I/Os counted on $dev"
      elif [ "$d" -eq "$want" ]; then ok "$fix=$v: $nio I/Os on $dev, Lab-Ops +$d = $k*$n*$nio exact"
      elif [ "$d" -gt "$want" ]; then ok "$fix=$v: $nio I/Os on $dev, Lab-Ops +$d >= $k*$n*$nio"
      else fail "$fix=$v: $nio I/Os on $dev, Lab-Ops +$d < $k*$n*$nio"; fi
    fi
  done
  sysfs_set "$swf" "$dflt"
  [ "$cntf" = - ] || sysfs_set "$cntf" 1
}

echo "lab parameters under /sys/module:"
for p in /sys/module/*/parameters/*lab*; do [ -e "$p" ] && echo "  $p"; done
found=0
for f in "$dir"/*.patch "$dir"/*.none; do
  [ -f "$f" ] || continue
  found=1
  check_patch "$f"
done
[ "$found" = 1 ] || fail "no *.patch or *.none in $dir"
teardown
if [ "$fails" -eq 0 ]; then echo "switch-check: all ok"; exit 0; fi
echo "switch-check: $fails FAIL"
exit 1
