#!/bin/sh
# shellcheck shell=sh
# Runs INSIDE the guest (guest.sh run): the host's test 009 (cgroup weight with BFQ) against
# cgroup v2, which the host (v1 blkio) cannot offer. Mounts cgroup2, loads null_blk with no
# devices of its own (the test makes one through configfs), runs 009 under bash with
# LAB_TEST_DEV=nullb:64M, and records whether the io controller the lab enabled in the
# root's subtree_control was taken away again. Files in $OUT: 009.out, 009.err, v2.txt.
set -eu
OUT=${OUT:-/mnt/out}
mount -t cgroup2 cgroup2 /sys/fs/cgroup
labmod null_blk nr_devices=0
{
  echo "controllers: $(cat /sys/fs/cgroup/cgroup.controllers)"
  echo "subtree before: $(cat /sys/fs/cgroup/cgroup.subtree_control)"
} > "$OUT/v2.txt"
rc=0
LAB_TEST_DEV=nullb:64M bash /mnt/in/ks/tests/009-cgroup-bfq-weight.sh > "$OUT/009.out" 2> "$OUT/009.err" || rc=$?
{
  echo "009 exit: $rc"
  echo "subtree after: $(cat /sys/fs/cgroup/cgroup.subtree_control)"
  echo "lab cgroups left: $(find /sys/fs/cgroup -maxdepth 1 -name 'lab-*' | wc -l)"
  echo "nullb left: $(find /sys/kernel/config/nullb -mindepth 1 -maxdepth 1 -type d | wc -l)"
} >> "$OUT/v2.txt"
