#!/bin/sh
# shellcheck shell=sh
# /init of the lab guest (busybox, no udev): mount the basics, load the modules
# in the order the host computed from modules.dep, mount the 9p shares, run
# /mnt/in/script.sh with OUT=/mnt/out, record its status, power off.
/bin/busybox mkdir -p /proc /sys /dev /usr/bin /usr/sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm /tmp
ln -s /proc/self/fd /dev/fd   # bash's process substitution; no udev to make it
mount -t tmpfs tmpfs /tmp

# arg NAME: the value of NAME=... on the kernel command line (the last one), read in the shell:
# under TCG every process /init forks costs (a pipeline of three a call before)
read -r cmdline < /proc/cmdline
arg() {
  v=
  set -f
  for w in $cmdline; do
    case $w in "$1"=*) v=${w#"$1"=} ;; esac
  done
  set +f
  echo "$v"
}

# The lab kernel (lab.kernel=lab) has every driver built in and no modules to load. In host mode
# (lab.mode=host: the guest plays a user's host, guest.sh) only what a host has loaded at boot:
# the 9p shares' drivers and configfs, mounted as systemd mounts it; the lab's scripts load the
# rest themselves with kmod's modprobe, and labmod, which a host does not have, goes.
# A host's own userland (GNU coreutils, grep, sed, mawk, ...: guest.sh, HOST_PKGS) comes first in
# its PATH; the lab's guest keeps busybox's.
order=/lib/modules/lab/order
host_path=
if [ "$(arg lab.mode)" = host ]; then
  order=/lib/modules/lab/order.host
  host_path=/usr/lib/lab-host/bin:
  rm -f /bin/labmod
  # cgroup v2 where systemd mounts it on Debian and Ubuntu (the io controller not yet delegated)
  mount -t cgroup2 cgroup2 /sys/fs/cgroup
fi
if [ "$(arg lab.kernel)" != lab ]; then
  while read -r m; do
    insmod "/lib/modules/lab/$m.ko" || echo "lab-init: insmod $m failed"
  done < "$order"
fi
mount -t configfs configfs /sys/kernel/config
# tracefs where the kernel has event tracing (the lab kernel: its lock:contention_* events, which
# perf lock opens by their tracefs ids); Debian's kernel has it too, and mounting patches nothing
[ -d /sys/kernel/tracing ] && mount -t tracefs tracefs /sys/kernel/tracing

# qemu's multi-threaded TCG (7.2 here) can go on running its old translation of kernel text that
# the other vCPU has just re-patched: text_poke_bp writes int3, then the new bytes, then drops
# the int3, and a vCPU still running the old block traps on an int3 that memory no longer
# holds; kprobes backs it up to re-run the instruction, and it traps again, with interrupts off,
# for ever (both vCPUs seen looping in __schedule's static-branch nop and asm_exc_int3). Every
# perf stat flips the scheduler's static keys (perf_sched_events, perf_swevent_enabled[]) on
# and off, so one per-task perf stat with the lab's events holds them on for the whole run:
# the script's own perf stats then only move the keys' counts and never patch text.
# Starting the holder patches the keys once more, so it runs while only the boot vCPU is up
# (guest.sh boots with maxcpus=1), and so does every module load of /init; the other vCPUs come
# online after, with nothing left to patch. Measured: 200 perf stats under a context-switch
# load hung 3 guests of 3 without the holder (after 20 to 140) and none of 4 with it; a holder
# started with both vCPUs up hung once in about 30 boots. guest/README.md has the procedure.
# The events the holder holds; exported to the script, whose perf stats count the same ones.
LAB_PERF_EVENTS=task-clock,context-switches,cpu-migrations,page-faults
hold_perf_keys() {
  command -v perf >/dev/null 2>&1 || return 0
  (cd / && exec perf stat -e "$LAB_PERF_EVENTS" -o /dev/null -- sleep 2147483647) &
  hold_pid=$!
  # perf stat opens its counters before it lets the workload exec: once sleep runs, they hold.
  n=0
  until holder_counting; do
    [ "$n" -lt 100 ] || { echo "lab-init: perf key holder did not start"; return 0; }
    sleep 0.1; n=$((n + 1))
  done
}
# perf's child has become sleep. Read in the shell, no process a /proc entry: with a cat for each
# of the boot's ~80 tasks a pass took about a second under TCG, and it runs until perf is up.
holder_counting() {
  for d in /proc/[0-9]*; do
    c=
    read -r c 2>/dev/null < "$d/comm" || continue
    [ "$c" = sleep ] || continue
    ppid=
    read -r _ _ _ ppid _ 2>/dev/null < "$d/stat" || continue
    [ "$ppid" = "$hold_pid" ] && return 0
  done
  return 1
}
hold_perf_keys
# Now the other vCPUs (qemu -smp N, booted with maxcpus=1).
for c in /sys/devices/system/cpu/cpu[0-9]*/online; do
  [ "$(cat "$c")" = 1 ] || echo 1 > "$c" || echo "lab-init: could not online ${c%/online}"
done

echo "LAB-GUEST-UP $(uname -r)"
if [ "$(arg lab.probe)" = 1 ]; then poweroff -f; fi

mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 in /mnt/in
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /mnt/out
{
  echo "env: $(arg lab.accel)"
  echo "kernel: $(uname -r)"
  echo "kernel_build: $(uname -v)"
  echo "kernel_kind: $(arg lab.kernel | sed 's/^$/debian/')"
  echo "cpus: $(grep -c ^processor /proc/cpuinfo)"
  echo "cpu_model: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
  echo "mode: $(arg lab.mode | sed 's/^$/lab/')"
  echo "mem_kb: $(sed -n 's/^MemTotal: *\([0-9]*\).*/\1/p' /proc/meminfo)"
} > /mnt/out/guest.txt

# No udev: dmsetup must create its own nodes and not wait for cookies.
export DM_DISABLE_UDEV=1 OUT=/mnt/out PATH=${host_path}/bin:/sbin:/usr/bin:/usr/sbin LAB_PERF_EVENTS
cd /mnt/out || poweroff -f

# If the script outlives lab.watchdog seconds, say on the console what every task is doing
# (state, wait channel, kernel stack) and what the kernel shows as blocked (sysrq w), before
# the host's own timeout kills qemu: a hung guest then leaves its evidence in console.log.
watchdog() {
  sleep "$1"
  echo "LAB-GUEST-WATCHDOG: script still running after $1 s; tasks:"
  for d in /proc/[0-9]*; do
    s=$(sed -n 's/^State:[[:space:]]*//p' "$d/status" 2>/dev/null) || continue
    c=$(tr '\0' ' ' < "$d/cmdline" 2>/dev/null)
    # every user task, and kernel threads only when running or in uninterruptible sleep
    case $s in R* | D*) ;; *) [ -n "$c" ] || continue ;; esac
    echo "task ${d#/proc/} [$s] wchan=$(cat "$d/wchan" 2>/dev/null): ${c:-[kernel]}"
    sed 's/^/    /' "$d/stack" 2>/dev/null
  done
  echo w > /proc/sysrq-trigger
  echo "LAB-GUEST-WATCHDOG: end"
}
wd=$(arg lab.watchdog)
# (from /, so its orphaned sleep does not keep /mnt/out busy at umount)
if [ -n "$wd" ]; then (cd / && watchdog "$wd") & wd_pid=$!; fi

start=$(cut -d' ' -f1 /proc/uptime)
sh /mnt/in/script.sh
rc=$?
[ -z "${wd_pid:-}" ] || kill "$wd_pid" 2>/dev/null
# The key holder stays: ending it would flip the keys off, the patching it is there to avoid
# (a smoke run hung here once when /init killed it); poweroff -f ends it with the guest.
{
  echo "script_rc: $rc"
  echo "boot_s: $start"
  echo "end_s: $(cut -d' ' -f1 /proc/uptime)"
} >> /mnt/out/guest.txt
echo "$rc" > /mnt/out/exit-status
cd /
sync
umount /mnt/out /mnt/in
echo "LAB-GUEST-DONE rc=$rc"
poweroff -f
