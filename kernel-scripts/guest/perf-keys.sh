#!/bin/sh
# shellcheck shell=sh
# Runs INSIDE the guest (guest.sh run): FLIPS short perf stats, each of which would switch the
# scheduler's perf static keys on and off, while a byte-at-a-time pipe keeps both vCPUs in
# __schedule. Under multi-threaded TCG that patching hangs the guest unless /init's per-task
# perf stat holds the keys on (init.sh, hold_perf_keys). Writes $OUT/perf-keys.txt.
set -eu
OUT=${OUT:-/mnt/out}
FLIPS=${FLIPS:-150}

# /init's holder: a perf stat whose workload is `sleep 2147483647`.
holder=no
for d in /proc/[0-9]*; do
  case $(tr '\0' ' ' < "$d/cmdline" 2>/dev/null) in
    "perf stat "*" -- sleep 2147483647 ") holder=yes ;;
  esac
done

(cd / && dd if=/dev/zero bs=1 count=2000000000 2>/dev/null | dd bs=1 of=/dev/null 2>/dev/null) &
load=$!
cs0=$(sed -n 's/^ctxt //p' /proc/stat)
t0=$(cut -d' ' -f1 /proc/uptime)
i=0
while [ "$i" -lt "$FLIPS" ]; do
  perf stat -e "$LAB_PERF_EVENTS" -o /dev/null -- true
  sleep 0.1
  i=$((i + 1))
  [ $((i % 50)) -ne 0 ] || echo "perf-keys: $i flips at $(cut -d' ' -f1 /proc/uptime) s"
done
cs1=$(sed -n 's/^ctxt //p' /proc/stat)
t1=$(cut -d' ' -f1 /proc/uptime)
kill "$load" 2>/dev/null || true
{
  echo "holder: $holder"
  echo "cpus_online: $(cat /sys/devices/system/cpu/online)"
  echo "flips: $i"
  echo "context_switches: $((cs1 - cs0))"
  echo "seconds: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
} > "$OUT/perf-keys.txt"
