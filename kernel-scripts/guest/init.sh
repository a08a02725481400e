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

arg() { tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p" | tail -n 1; }

while read -r m; do
  insmod "/lib/modules/lab/$m.ko" || echo "lab-init: insmod $m failed"
done < /lib/modules/lab/order
mount -t configfs configfs /sys/kernel/config

echo "LAB-GUEST-UP $(uname -r)"
if [ "$(arg lab.probe)" = 1 ]; then poweroff -f; fi

mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 in /mnt/in
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /mnt/out
{
  echo "env: $(arg lab.accel)"
  echo "kernel: $(uname -r)"
  echo "kernel_build: $(uname -v)"
  echo "cpus: $(grep -c ^processor /proc/cpuinfo)"
  echo "mem_kb: $(sed -n 's/^MemTotal: *\([0-9]*\).*/\1/p' /proc/meminfo)"
} > /mnt/out/guest.txt

# No udev: dmsetup must create its own nodes and not wait for cookies.
export DM_DISABLE_UDEV=1 OUT=/mnt/out PATH=/bin:/sbin:/usr/bin:/usr/sbin
cd /mnt/out || poweroff -f
start=$(cut -d' ' -f1 /proc/uptime)
sh /mnt/in/script.sh
rc=$?
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
