#!/usr/bin/env bash
# Guest VM path: the host kernel lacks device-mapper, dm-thin, null_blk and brd,
# so we boot Debian 12's stock kernel (which has them as modules) in qemu with a
# busybox initramfs, run a scenario script inside, and get results back over 9p.
#
#   guest.sh build               build (or reuse) kernel + initramfs
#   guest.sh run SCRIPT OUTDIR   boot, run SCRIPT (busybox sh) in the guest,
#                                results land in OUTDIR (plus guest.txt, console.log)
#   guest.sh vcpus [MEM [NEED]]  the vCPUs a guest of MEM MiB gets here (the host's cores, at
#                                most one a 64 MiB above 512 MiB and NEED; LAB_GUEST_VCPUS
#                                forces): what a scenario renders its guest's job counts for,
#                                and passes on as GUEST_VCPUS
#
# LAB_GUEST_MODE=host boots Debian's kernel as a user's host has it: no lab module loaded (only
# the 9p shares' drivers and configfs, as systemd has them at boot), kmod's modprobe with the
# kernel's module tree for the lab's drivers, no labmod; the lab tree is shared as /mnt/in/lab
# (kernel-scripts, examples, native-bridge/target/bridge.jar) and the runtime as
# /mnt/in/bridge/jre, so the host's scripts run there unchanged, on their native path.
#
# LAB_GUEST_KERNEL=lab boots the lab kernel instead (kernel/build.sh: Debian's linux-source
# with the fixes' switches, every driver built in; LAB_KERNEL_SOURCE picks 6.1 or 6.12), with the
# same initramfs: /init skips its insmods on it and labmod makes the built-in drivers' devices.
# LAB_GUEST_APPEND adds to the kernel command line (after the lab's own words, so it wins):
# brd.rd_size=KiB for the lab kernel's ram disks (default LAB_BRD_KB, 256 MiB).
#
# Everything comes from Debian packages (apt-get download + dpkg-deb -x); nothing
# is installed into the host system except qemu itself (by the operator).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
LAB_STATE=${LAB_STATE:-$REPO/.lab}
GUEST_DIR=$LAB_STATE/guest            # cache: packages, staging, kernel, initramfs
RUN_DIR=$LAB_STATE/kernel/guest       # runtime: qemu.pid
PID_FILE=$RUN_DIR/qemu.pid
RUN_TIMEOUT=${GUEST_TIMEOUT:-300}     # seconds, hard limit for one guest run (JVM start-up under TCG is slow)
WATCHDOG_LEAD=20                      # seconds before RUN_TIMEOUT that the guest dumps its tasks
PROBE_TIMEOUT=15                      # seconds to wait for the KVM probe marker
KVM_DEV=${LAB_KVM_DEV:-/dev/kvm}      # the node the probe looks for first (test 037 names a file:
                                      # qemu's own failure is then what it sees, on any host)
GUEST_MEM=${GUEST_MEM:-1536}          # MiB; brd + thin data live in guest RAM
MARKER=LAB-GUEST-UP

# A Debian host's own userland (GNU coreutils, grep, sed, mawk, findutils, diffutils, gzip, all
# Essential), for host mode: in /usr/lib/lab-host/bin, first in PATH there and not at all in the
# lab's own guest, whose scripts keep busybox's.
HOST_PKGS=(coreutils grep sed mawk findutils diffutils gzip)
HOST_BIN=/usr/lib/lab-host/bin
# Packages for the guest. The kernel package name is resolved from the
# linux-image-amd64 metapackage so the image tracks Debian's current ABI.
PKGS=(busybox-static bash-static dmsetup libdevmapper1.02.1 fio kmod linux-perf e2fsprogs libext2fs2
  mount util-linux fdisk "${HOST_PKGS[@]}")
# util-linux's tools a host has and busybox's do not do as the scripts use them (losetup --find
# --show --partscan, sfdisk, partx, flock), from the packages above; installed before busybox's
# links, which then leave them be
UTIL_BINS=(sbin/losetup sbin/blockdev sbin/sfdisk usr/bin/partx usr/bin/flock)
# Modules loaded by /init, dependencies resolved via modules.dep. crc32c_generic
# must precede libcrc32c/dm-persistent-data (a crypto soft dependency that
# modules.dep does not list); virtio_pci is not anybody's dependency either. ext4 (with jbd2,
# mbcache, crc16) for the filesystems a scenario makes with mkfs.ext4 (e2fsprogs' mke2fs).
BASE_MODS=(virtio_pci 9pnet_virtio 9p configfs crc32c_generic libcrc32c
  dm-mod dm-bufio dm-persistent-data dm-thin-pool zsmalloc bfq ext4)
# Modules that take parameters: shipped, but loaded by the scenario via
# `labmod NAME params...` (their dependencies are loaded by /init).
PARAM_MODS=(brd null_blk zram)
# The rest of what the lab's drivers may load on a user's host (LAB_GUEST_MODE=host: the lab loads
# them with modprobe): loop, the compressors zram takes, crc32c for dm-persistent-data.
HOST_MODS=(loop lz4 lz4hc zstd crc32c_generic)
# What a host has loaded before anything of the lab runs, in host mode: its root file system's
# drivers (here the 9p shares') and configfs (systemd loads and mounts it at boot).
HOST_BOOT_MODS=(virtio_pci 9pnet_virtio 9p configfs)

QEMU_PID=
ACCEL=
ACCEL_WHY=          # why not KVM (the probe's, or LAB_GUEST_ACCEL)
VCPUS=2             # qemu -smp (cmd_run: GUEST_VCPUS, else vcpus)
MODE_ARGS=          # lab.mode=host with LAB_GUEST_MODE=host
CPU_MODEL=          # qemu's -cpu, as guest.txt says it (cpu_args)
CPU_ARGS=()
KERNEL_IMAGE=       # the kernel qemu boots (resolve_kernel)
KERNEL_ARGS=        # the lab kernel's own command-line words
KERNEL_TAG=debian   # which: debian | lab-<build> (the KVM probe is cached per kernel)
TMP=
TMP_DIRS=()

die() { echo "guest.sh: $*" >&2; exit 1; }
log() { echo "guest.sh: $*" >&2; }

# The end of a console log on stderr, so a failure is readable where the log is not kept.
console_tail() {
  [[ -f $1 ]] || return 0
  echo "guest.sh: last lines of $1:" >&2
  tail -n "${2:-60}" "$1" | sed 's/^/  | /' >&2
}

cleanup() {
  local rc=$?
  kill_qemu
  local d
  for d in "${TMP_DIRS[@]}"; do rm -rf -- "$d"; done
  exit "$rc"
}

# Kill our qemu (only the pid we started) and forget it.
kill_qemu() {
  if [[ -n $QEMU_PID ]] && kill -0 "$QEMU_PID" 2>/dev/null; then
    kill "$QEMU_PID" 2>/dev/null || true
    sleep 0.5
    kill -9 "$QEMU_PID" 2>/dev/null || true
    wait "$QEMU_PID" 2>/dev/null || true
  fi
  forget_qemu
}

# Drop the pid file only if it is still ours: another run may have replaced it.
forget_qemu() {
  if [[ -n $QEMU_PID && -f $PID_FILE && $(cat "$PID_FILE" 2>/dev/null) == "$QEMU_PID" ]]; then
    rm -f "$PID_FILE"
  fi
  QEMU_PID=
}

# Sets TMP (not echoed: a $(...) subshell would lose the TMP_DIRS entry).
mktmp() {
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/lab-guest.XXXXXX")
  TMP_DIRS+=("$TMP")
}

# ---------------------------------------------------------------- build ----

kernel_pkg() {
  apt-cache depends linux-image-amd64 2>/dev/null |
    awk '/Depends: linux-image-[0-9]/ {print $2; exit}'
}

# Download the .debs into $GUEST_DIR/debs (apt-get download keeps old ones out
# of the way: we clear the dir so the stamp reflects exactly what we use).
download_pkgs() {
  local kpkg debs=$GUEST_DIR/debs
  kpkg=$(kernel_pkg)
  [[ -n $kpkg ]] || die "cannot resolve linux-image-amd64 (apt-get update?)"
  rm -rf "$debs"; mkdir -p "$debs"
  # _apt cannot write into root-owned dirs; download runs unsandboxed then. A candidate that
  # no index offers any more (an installed linux-perf newer than the lists apt has, on a
  # machine whose lists were never updated) fails the download: update the lists once, retry.
  if ! (cd "$debs" && apt-get download -q "$kpkg" "${PKGS[@]}" >/dev/null 2>&1); then
    log "apt-get download failed; apt-get update, then once more"
    apt-get update -qq >/dev/null 2>&1 || true
    kpkg=$(kernel_pkg)
    (cd "$debs" && apt-get download -q "$kpkg" "${PKGS[@]}" >/dev/null 2>&1) ||
      die "apt-get download failed for: $kpkg ${PKGS[*]} (even after apt-get update)"
  fi
}

# The scripts that shape the image (module list, /init): part of the cache key.
scripts_stamp() {
  echo "lab-guest-scripts $(cat "$HERE/guest.sh" "$HERE/init.sh" "$HERE/labmod.sh" | sha256sum | cut -c1-16)"
}

# One line per .deb: "Package Version", plus the scripts' hash — the cache key.
pkg_stamp() {
  local deb
  {
    for deb in "$1"/*.deb; do
      echo "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)"
    done
    scripts_stamp
  } | sort
}

# Candidate versions, without downloading, so a warm cache costs no network.
candidate_stamp() {
  local kpkg pol
  kpkg=$(kernel_pkg)
  # One apt-cache call: it costs about a second each.
  pol=$(apt-cache policy "$kpkg" "${PKGS[@]}") || return 1
  {
    awk '/^[^ ]/ {p = $1; sub(/:$/, "", p)} /Candidate:/ {print p, $2}' <<<"$pol"
    scripts_stamp
  } | sort
}

# apt_inputs: what apt's candidates (candidate_stamp) are made of, by name, size and mtime: the
# package lists, dpkg's status and apt's configuration; with the scripts' hash
apt_inputs() {
  {
    find /var/lib/apt/lists /etc/apt -maxdepth 2 -type f -printf '%p %s %T@\n' 2>/dev/null
    stat -c '%n %s %Y' /var/lib/dpkg/status 2>/dev/null
    scripts_stamp
  } | sort | sha256sum | cut -c1-16
}

# cache_fresh: the image matches apt's candidates and the scripts. A match is remembered
# ($GUEST_DIR/fresh: apt_inputs then) so that later runs with the same apt inputs skip apt-cache
# (about 2 s of every guest run here, a dozen of them in ./lab test).
cache_fresh() {
  [[ -f $GUEST_DIR/stamp && -f $GUEST_DIR/vmlinuz && -f $GUEST_DIR/initramfs.cpio ]] ||
    return 1
  local want inputs
  inputs=$(apt_inputs)
  [[ $(cat "$GUEST_DIR/fresh" 2>/dev/null) != "$inputs" ]] || return 0
  # no apt metadata: keep the cache if the scripts are unchanged
  want=$(candidate_stamp 2>/dev/null) || { grep -qxF "$(scripts_stamp)" "$GUEST_DIR/stamp"; return; }
  [[ $want == "$(cat "$GUEST_DIR/stamp")" ]] || return 1
  echo "$inputs" > "$GUEST_DIR/fresh"
}

# Copy a dynamically linked binary and the libraries ldd names (the staged
# ones first, via LD_LIBRARY_PATH, then the host's) into the initramfs root.
copy_with_libs() {
  local bin=$1 root=$2 stage=$3 dest=$4 lib target
  install -D -m 0755 "$bin" "$root/$dest"
  while read -r lib; do
    [[ -f $lib ]] || continue
    target=${lib#"$stage"}            # staged libs go to their in-package path
    mkdir -p "$root$(dirname "$target")"
    cp -L "$lib" "$root$target"
  done < <(LD_LIBRARY_PATH=$stage/lib/x86_64-linux-gnu:$stage/usr/lib/x86_64-linux-gnu \
             ldd "$bin" | awk '/=>/ {print $3} $1 ~ /^\// {print $1}')
  # The loader must be at its canonical path; ldd prints it by that path.
}

# Topological order of module names (deps first), from modules.dep.
mod_order() {
  local depfile=$1; shift
  local -A seen=()
  local out=()
  visit() {
    local name=$1 line dep
    [[ -n ${seen[$name]:-} ]] && return 0
    seen[$name]=1
    line=$(grep -E "/${name}\.ko(\.[a-z]+)?:" "$depfile" || true)
    [[ -n $line ]] || die "module $name not in modules.dep"
    for dep in ${line#*:}; do
      dep=${dep##*/}; dep=${dep%%.ko*}
      visit "$dep"
    done
    out+=("$name")
  }
  local m
  for m in "$@"; do visit "$m"; done
  printf '%s\n' "${out[@]}"
}

# Module file names use '-' or '_' inconsistently; find by either spelling.
find_mod() {
  local kdir=$1 name=$2 alt
  alt=$(tr '_-' '-_' <<<"$name")
  find "$kdir" \( -name "$name.ko*" -o -name "$alt.ko*" \) -print -quit
}

# The modules, in the kernel's own tree under /lib/modules/KVER (uncompressed) with depmod's files
# made for just these (kmod's modprobe reads them: host mode), each also as
# /lib/modules/lab/NAME.ko (a link) for /init's insmods and labmod; order: what /init loads in
# the lab's guest (BASE_MODS and their dependencies, not PARAM_MODS), order.host: in host mode.
stage_modules() {
  local stage=$1 root=$2 kver kdir m f rel tree
  local dst=$root/lib/modules/lab
  kver=$(ls "$stage/lib/modules")
  kdir=$stage/lib/modules/$kver
  tree=$root/lib/modules/$kver
  # depmod from the kmod package, on the unpacked tree only (-b).
  ln -sf kmod "$stage/bin/depmod"
  "$stage/bin/depmod" -b "$stage" "$kver"
  mkdir -p "$dst" "$tree"
  mod_order "$kdir/modules.dep" "${BASE_MODS[@]}" "${PARAM_MODS[@]}" "${HOST_MODS[@]}" > "$dst/order.all"
  while read -r m; do
    f=$(find_mod "$kdir" "$m"); [[ -n $f ]] || die "no file for module $m"
    rel=${f#"$kdir"/}
    rel=${rel%.ko*}.ko
    mkdir -p "$tree/$(dirname "$rel")"
    case $f in
      *.xz) xz -dc "$f" > "$tree/$rel" ;;
      *.zst) zstd -qdc "$f" > "$tree/$rel" ;;
      *) cp "$f" "$tree/$rel" ;;
    esac
    ln -s "../$kver/$rel" "$dst/$m.ko"
  done < "$dst/order.all"
  # Param-taking modules are left for the scenario (labmod).
  mod_order "$kdir/modules.dep" "${BASE_MODS[@]}" | grep -vxF -f <(printf '%s\n' "${PARAM_MODS[@]}") > "$dst/order"
  mod_order "$kdir/modules.dep" "${HOST_BOOT_MODS[@]}" > "$dst/order.host"
  cp "$kdir/modules.builtin" "$kdir/modules.builtin.modinfo" "$kdir/modules.order" "$tree/"
  "$stage/bin/depmod" -b "$root" "$kver"
  echo "$kver" > "$root/etc/lab-kver"
}

# stage_host_bins STAGE ROOT: the programs of HOST_PKGS into ROOT's HOST_BIN (awk as mawk, as
# Debian's alternatives make it), each with its libraries
stage_host_bins() {
  local stage=$1 root=$2 pkg deb f
  for pkg in "${HOST_PKGS[@]}"; do
    deb=$(ls "$GUEST_DIR/debs/${pkg}_"*.deb)
    while read -r f; do
      f=${f#.}
      [[ -f $stage$f && -x $stage$f && ! -L $stage$f ]] || continue
      case $f in */bin/* | */sbin/*) ;; *) continue ;; esac
      copy_with_libs "$stage$f" "$root" "$stage" "$HOST_BIN/${f##*/}"
    done < <(dpkg-deb -c "$deb" | awk '{ print $6 }')
  done
  ln -sf mawk "$root$HOST_BIN/awk"
}

build_initramfs() {
  local stage=$1 root=$2
  mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,mnt/in,mnt/out,lib64}
  install -m 0755 "$stage/bin/busybox" "$root/bin/busybox"
  ln -s busybox "$root/bin/sh"          # /init's interpreter; the rest at boot
  # bash for the host's kernel-scripts (common/rc.sh), shared as /mnt/in/ks by `run`
  install -m 0755 "$stage/bin/bash-static" "$root/bin/bash"
  copy_with_libs "$stage/sbin/dmsetup" "$root" "$stage" /sbin/dmsetup
  # kmod as a host has it: modprobe at /sbin/modprobe, where the kernel's request_module calls it
  local b
  copy_with_libs "$stage/bin/kmod" "$root" "$stage" /bin/kmod
  for b in modprobe rmmod insmod lsmod modinfo depmod; do ln -s ../bin/kmod "$root/sbin/$b"; done
  for b in "${UTIL_BINS[@]}"; do copy_with_libs "$stage/$b" "$root" "$stage" "/bin/${b##*/}"; done
  stage_host_bins "$stage" "$root"
  copy_with_libs "$stage/usr/bin/fio" "$root" "$stage" /bin/fio
  # perf stat around every guest workload (software events under TCG); the libraries come
  # from the host, which has linux-perf installed (./lab kernel installs it).
  copy_with_libs "$stage/usr/bin/perf" "$root" "$stage" /bin/perf
  # mkfs.ext4 (busybox's mke2fs makes ext2 only), with Debian's mke2fs.conf
  copy_with_libs "$stage/sbin/mke2fs" "$root" "$stage" /sbin/mkfs.ext4
  install -D -m 0644 "$stage/etc/mke2fs.conf" "$root/etc/mke2fs.conf"
  stage_modules "$stage" "$root"
  install -m 0755 "$HERE/init.sh" "$root/init"
  install -m 0755 "$HERE/labmod.sh" "$root/bin/labmod"
  # The staged busybox writes the archive: the host need not have cpio.
  # Uncompressed: gunzip under TCG costs more (~3 s a boot) than it saves.
  (cd "$root" && find . | "$stage/bin/busybox" cpio -o -H newc 2>/dev/null) \
    > "$GUEST_DIR/initramfs.cpio.new"
  mv "$GUEST_DIR/initramfs.cpio.new" "$GUEST_DIR/initramfs.cpio"
}

cmd_build() {
  mkdir -p "$GUEST_DIR"
  # One builder at a time: concurrent runs share the cache and staging dirs.
  exec 9>"$GUEST_DIR/.lock"
  flock 9
  if cache_fresh; then log "cache fresh: $GUEST_DIR"; exec 9>&-; return 0; fi
  log "building guest in $GUEST_DIR"
  rm -f "$GUEST_DIR/fresh"
  download_pkgs
  local stage=$GUEST_DIR/stage root=$GUEST_DIR/root deb
  rm -rf "$stage" "$root"; mkdir -p "$stage" "$root"
  for deb in "$GUEST_DIR"/debs/*.deb; do dpkg-deb -x "$deb" "$stage"; done
  cp "$stage"/boot/vmlinuz-* "$GUEST_DIR/vmlinuz"
  build_initramfs "$stage" "$root"
  pkg_stamp "$GUEST_DIR/debs" > "$GUEST_DIR/stamp"
  rm -f "$GUEST_DIR/kvm-probe"            # new kernel: probe again
  rm -rf "$stage" "$root"                 # the debs and the images are the cache
  rm -f "$GUEST_DIR/initramfs.gz"         # left by older versions of this script
  log "built: $(tr '\n' ';' < "$GUEST_DIR/stamp")"
  exec 9>&-
}

# ------------------------------------------------------------------ run ----

# resolve_kernel: KERNEL_IMAGE, KERNEL_ARGS and KERNEL_TAG for LAB_GUEST_KERNEL (debian, the
# default, or lab or lab-notrace: built now if it is not cached; its progress on stderr).
resolve_kernel() {
  case ${LAB_GUEST_KERNEL:-debian} in
    debian) KERNEL_IMAGE=$GUEST_DIR/vmlinuz KERNEL_ARGS='' KERNEL_TAG=debian ;;
    lab | lab-notrace)
      # lab-notrace: the lab kernel without its tracing block (kernel/build.sh, LAB_KERNEL_VARIANT)
      KERNEL_IMAGE=$(LAB_KERNEL_VARIANT=$([ "$LAB_GUEST_KERNEL" = lab ] || echo notrace) \
        bash "$REPO/kernel-scripts/kernel/build.sh" build --source "${LAB_KERNEL_SOURCE:-6.1}") ||
        die "the lab kernel did not build (see above)"
      # Built in: no module to load with parameters, so they go on the command line. zram and
      # null_blk start with no device (as the scenarios load them); brd with none, its disks
      # made on demand at LAB_BRD_KB each (labmod brd). refscale (kernel/config) would run its
      # rcu test at every boot and then power the guest off (measured: down 12 s after boot):
      # scale_type=none makes its initcall refuse (it prints the types it knows), shutdown=0 keeps
      # the power on; kernel/refscale.sh names a type after these, in LAB_GUEST_APPEND.
      KERNEL_ARGS="lab.kernel=lab zram.num_devices=0 null_blk.nr_devices=0 brd.rd_nr=0 brd.rd_size=${LAB_BRD_KB:-262144} refscale.scale_type=none refscale.shutdown=0"
      KERNEL_TAG=$(basename "$(dirname "$KERNEL_IMAGE")")
      ;;
    *) die "LAB_GUEST_KERNEL must be debian, lab or lab-notrace, not '${LAB_GUEST_KERNEL}'" ;;
  esac
}

# cpu_args ACCEL: the CPU model: under KVM the host's own (-cpu host: AVX, crc32c, the PMU, for
# the JVM and the kernel alike), unless this host is itself a guest ("hypervisor" among its CPU
# flags: -cpu host aborted on MSR 0x10a under nested KVM), then qemu's default qemu64, as under
# TCG. Sets CPU_ARGS and CPU_MODEL (what guest.txt and the scenarios' env.txt say).
cpu_args() {
  CPU_ARGS=()
  CPU_MODEL="qemu64 (qemu's default)"
  if [[ $1 == kvm ]]; then
    if grep -qw hypervisor /proc/cpuinfo; then
      CPU_MODEL="qemu64 (qemu's default: this host is itself a guest, where -cpu host fails)"
    else
      CPU_ARGS=(-cpu host)
      CPU_MODEL="host (-cpu host)"
    fi
  fi
}

# vcpus [MEM [NEED]]: the guest's vCPUs: LAB_GUEST_VCPUS where set, else the host's cores, at most
# one a 64 MiB of MEM (default GUEST_MEM) above 512 MiB and at most NEED (0: no limit); at least 1
vcpus() {
  local mem=${1:-$GUEST_MEM} need=${2:-0} n
  if [[ -n ${LAB_GUEST_VCPUS:-} ]]; then
    [[ $LAB_GUEST_VCPUS =~ ^[1-9][0-9]*$ ]] || die "LAB_GUEST_VCPUS must be a count, not '$LAB_GUEST_VCPUS'"
    echo "$LAB_GUEST_VCPUS"
    return
  fi
  [[ $mem =~ ^[0-9]+$ && $need =~ ^[0-9]+$ ]] || die "usage: guest.sh vcpus [MEM_MIB [NEED]]"
  n=$(nproc)
  if ((mem > 512 && (mem - 512) / 64 < n)); then n=$(((mem - 512) / 64)); fi
  if ((need > 0 && need < n)); then n=$need; fi
  ((n >= 1)) || n=1
  echo "$n"
}

# Start qemu in the background; serial console goes to $4, qemu's own messages to $4.qemu.
# Args: accel indir outdir console extra-cmdline
start_qemu() {
  local accel=$1 indir=$2 outdir=$3 console=$4 extra=$5 acc
  case $accel in
    kvm) acc=(-accel kvm) ;;
    *) acc=(-accel "tcg,thread=multi") ;;
  esac
  cpu_args "$accel"
  mkdir -p "$RUN_DIR"
  # maxcpus=1: /init patches kernel text (modules, perf's keys) before it onlines the other
  # vCPUs, which multi-threaded TCG needs (init.sh, hold_perf_keys).
  qemu-system-x86_64 "${acc[@]}" "${CPU_ARGS[@]}" -smp "$VCPUS" -m "$GUEST_MEM" \
    -kernel "$KERNEL_IMAGE" -initrd "$GUEST_DIR/initramfs.cpio" \
    -append "console=ttyS0 panic=-1 quiet loglevel=4 maxcpus=1 lab.accel=$accel $MODE_ARGS $KERNEL_ARGS $extra ${LAB_GUEST_APPEND:-}" \
    -display none -monitor none -serial "file:$console" -no-reboot \
    -nic none \
    -virtfs "local,path=$indir,mount_tag=in,security_model=none,readonly=on" \
    -virtfs "local,path=$outdir,mount_tag=out,security_model=none" \
    </dev/null >"$console.qemu" 2>&1 &
  QEMU_PID=$!
  echo "$QEMU_PID" > "$PID_FILE"
}

# qemu_said FILE: qemu's own messages (FILE: its stdout and stderr) on stderr, where it said any
qemu_said() {
  [[ -s $1 ]] || return 0
  echo "guest.sh: qemu said ($1):" >&2
  tail -n 20 "$1" | sed 's/^/  | /' >&2
}

# Wait for qemu to exit, at most $1 seconds; 0 if it exited, 1 on timeout.
wait_qemu() {
  local deadline=$((SECONDS + $1))
  while kill -0 "$QEMU_PID" 2>/dev/null; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
  wait "$QEMU_PID" 2>/dev/null || true
  forget_qemu
}

# wait_up CONSOLE: wait at most PROBE_TIMEOUT seconds for LAB-GUEST-UP on CONSOLE: 0 once it is
# there, 1 if qemu exited or the time ran out first (qemu is left as it is)
wait_up() {
  local deadline=$((SECONDS + PROBE_TIMEOUT))
  while ((SECONDS < deadline)) && kill -0 "$QEMU_PID" 2>/dev/null; do
    if grep -q "$MARKER" "$1" 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  grep -q "$MARKER" "$1" 2>/dev/null
}

# probe_cache: the KVM probe's cache file, one per kernel: "kvm", or "tcg BOOT_ID WHY": a failed
# probe holds only for the host boot it was made in, so a transient failure costs one boot's
# runs, not every later one, and every run it decides says so
probe_cache() {
  if [[ $KERNEL_TAG == debian ]]; then echo "$GUEST_DIR/kvm-probe"; else echo "$GUEST_DIR/kvm-probe.$KERNEL_TAG"; fi
}

# probe_kvm [AGAIN]: set ACCEL (kvm or tcg) and ACCEL_WHY (why not kvm). From the cache (above)
# unless AGAIN; else boot once under KVM, which works if LAB-GUEST-UP shows within PROBE_TIMEOUT.
# Run in this shell, not $(...), so the EXIT trap covers its qemu.
probe_kvm() {
  local cache boot line why=''
  cache=$(probe_cache)
  boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
  if [[ -z ${1:-} && -f $cache ]]; then
    line=$(head -n 1 "$cache")
    if [[ $line == kvm ]]; then ACCEL=kvm ACCEL_WHY=''; return 0; fi
    if [[ $line == "tcg $boot "* ]]; then
      ACCEL=tcg ACCEL_WHY=${line#"tcg $boot "}
      log "TCG: KVM failed its probe in this host boot: $ACCEL_WHY (cached in $cache; delete it to probe again)"
      return 0
    fi
  fi
  if [[ ! -e $KVM_DEV ]]; then
    why="this host has no $KVM_DEV"
  elif [[ ! -w $KVM_DEV ]]; then
    why="$KVM_DEV is not writable here"
  else
    local tmp console=$GUEST_DIR/kvm-probe.log
    mktmp; tmp=$TMP; mkdir -p "$tmp/in" "$tmp/out"
    rm -f "$console"
    start_qemu kvm "$tmp/in" "$tmp/out" "$console" lab.probe=1
    if wait_up "$console"; then
      :
    elif kill -0 "$QEMU_PID" 2>/dev/null; then
      why="a guest under KVM did not come up within ${PROBE_TIMEOUT}s ($console)"
    else
      why="qemu -accel kvm exited: $(grep -v '^$' "$console.qemu" 2>/dev/null | tail -n 1)"
    fi
    kill_qemu
  fi
  if [[ -z $why ]]; then
    ACCEL=kvm ACCEL_WHY=''
    echo kvm > "$cache"
  else
    ACCEL=tcg ACCEL_WHY=$why
    echo "tcg $boot $why" > "$cache"
    log "KVM cannot run here: $why; TCG (emulation) instead"
  fi
  log "kvm probe: $ACCEL (cached in $cache)"
}

# The bridge for the guest: a jlink'd runtime (cached, keyed by the JDK's release file), the
# bridge's own jar (bridge.jar run ...), liburing from the host's liburing2 package and the
# libraries the runtime needs, put in the read-only share as /mnt/in/bridge. Needs LAB_JDK
# (exported by ./lab) and a built native-bridge/target/bridge.jar; without them the guest runs
# fio only, and says so.
stage_bridge() {
  local in=$1 jdk=${LAB_JDK:-} jar=$REPO/native-bridge/target/bridge.jar jre=$GUEST_DIR/jre lib
  if [[ -z $jdk || ! -x $jdk/bin/jlink || ! -f $jar || ! -e /usr/lib/x86_64-linux-gnu/liburing.so.2 ]]; then
    log "no bridge in the guest (needs LAB_JDK, $jar and liburing2)"
    return 0
  fi
  if [[ ! -x $jre/bin/java || "$(cat "$jre.stamp" 2>/dev/null)" != "$(cat "$jdk/release")" ]]; then
    rm -rf "$jre"
    "$jdk/bin/jlink" --add-modules java.base,java.management,java.sql,jdk.unsupported \
      --strip-debug --no-man-pages --no-header-files --compress=zip-6 --output "$jre" >/dev/null
    cat "$jdk/release" > "$jre.stamp"
  fi
  mkdir -p "$in/bridge/lib"
  cp -a "$jre" "$in/bridge/jre"
  cp "$jar" "$in/bridge/bridge.jar"
  # the JVM model's JMH benchmarks, where built: kernel/refscale.sh's JVM boot runs its Primitives
  if [[ -f $REPO/jvm-engine/target/benchmarks.jar ]]; then cp "$REPO/jvm-engine/target/benchmarks.jar" "$in/bridge/"; fi
  cp -L /usr/lib/x86_64-linux-gnu/liburing.so.2 "$in/bridge/lib/"
  while read -r lib; do
    [[ -f $lib ]] && cp -Ln "$lib" "$in/bridge/lib/"
  done < <(ldd "$jre/bin/java" "$jre"/lib/*.so "$jre/lib/server/libjvm.so" 2>/dev/null |
             awk '/=> \// {print $3}' | sort -u)
}

cmd_run() {
  [[ $# -eq 2 ]] || die "usage: guest.sh run SCRIPT OUTDIR"
  local script=$1 outdir=$2 accel tmp t0 rc
  [[ -f $script ]] || die "no such script: $script"
  command -v qemu-system-x86_64 >/dev/null ||
    die "qemu-system-x86_64 missing (apt-get install --no-install-recommends qemu-system-x86)"
  cmd_build
  resolve_kernel
  mkdir -p "$outdir"; outdir=$(cd "$outdir" && pwd)
  # qemu's -virtfs option syntax splits on commas.
  [[ $outdir != *,* ]] || die "OUTDIR must not contain a comma: $outdir"
  rm -f "$outdir/exit-status" "$outdir/guest.txt"
  case ${LAB_GUEST_MODE:-lab} in
    lab) MODE_ARGS='' ;;
    host)
      [[ $KERNEL_TAG == debian ]] || die "LAB_GUEST_MODE=host boots Debian's kernel (its drivers are modules); the lab kernel has them built in"
      MODE_ARGS=lab.mode=host
      ;;
    *) die "LAB_GUEST_MODE must be lab or host, not '${LAB_GUEST_MODE}'" ;;
  esac
  VCPUS=${GUEST_VCPUS:-$(vcpus)}
  [[ $VCPUS =~ ^[1-9][0-9]*$ ]] || die "GUEST_VCPUS must be a count, not '$VCPUS'"
  case ${LAB_GUEST_ACCEL:-} in
    kvm | tcg) ACCEL=$LAB_GUEST_ACCEL ACCEL_WHY="LAB_GUEST_ACCEL=$LAB_GUEST_ACCEL" ;;
    '') probe_kvm ;;
    *) die "LAB_GUEST_ACCEL must be kvm or tcg" ;;
  esac
  accel=$ACCEL
  mktmp; tmp=$TMP; mkdir -p "$tmp/in"
  cp "$script" "$tmp/in/script.sh"
  # the lab's tree as a host has it, /mnt/in/lab: kernel-scripts (also as /mnt/in/ks, where the
  # guest halves of the scenarios find their libraries), examples/ (the job files) and, where
  # built, native-bridge/target/bridge.jar, so a guest script can run the host's scripts and
  # tests unchanged (under bash)
  mkdir -p "$tmp/in/lab"
  cp -r "$REPO/kernel-scripts" "$REPO/examples" "$tmp/in/lab/"
  ln -s lab/kernel-scripts "$tmp/in/ks"
  stage_bridge "$tmp/in"
  if [[ -f $tmp/in/bridge/bridge.jar ]]; then
    mkdir -p "$tmp/in/lab/native-bridge/target"
    ln -s ../../../bridge/bridge.jar "$tmp/in/lab/native-bridge/target/bridge.jar"
  fi
  t0=$SECONDS
  boot_guest "$accel" "$tmp/in" "$outdir"
  if [[ $accel == kvm ]] && ! wait_up "$outdir/console.log"; then
    # a cached "kvm" that no longer holds (a module unloaded, /dev/kvm taken by another
    # hypervisor): qemu's own words, a new probe, and TCG where that fails, said
    if kill -0 "$QEMU_PID" 2>/dev/null; then
      log "KVM: the guest did not come up within ${PROBE_TIMEOUT}s"
    else
      log "KVM: qemu exited before the guest came up"
    fi
    kill_qemu
    qemu_said "$outdir/console.log.qemu"
    [[ -z ${LAB_GUEST_ACCEL:-} ]] || die "LAB_GUEST_ACCEL=kvm, and KVM failed (above)"
    log "probing KVM again"
    probe_kvm again
    [[ $ACCEL == tcg ]] || die "KVM passed its probe again but this run failed under it (see $outdir/console.log)"
    accel=tcg
    log "falling back to TCG (emulation): $ACCEL_WHY"
    rm -f "$outdir/console.log" "$outdir/console.log.qemu"
    boot_guest "$accel" "$tmp/in" "$outdir"
  fi
  if ! wait_qemu $((RUN_TIMEOUT - (SECONDS - t0))); then
    kill_qemu
    console_tail "$outdir/console.log"
    die "guest timed out after ${RUN_TIMEOUT}s (see $outdir/console.log)"
  fi
  log "guest done in $((SECONDS - t0))s"
  # The guest knows its kernel; the host adds which packages built it, and how qemu ran it.
  if [[ -f $outdir/guest.txt ]]; then
    {
      echo "vcpus: $VCPUS"
      echo "qemu_cpu: $CPU_MODEL"
      if [[ $accel == tcg ]]; then echo "tcg_why: ${ACCEL_WHY:-unknown}"; fi
      echo "host_cores: $(nproc)"
      echo "host_wall_s: $((SECONDS - t0))"
      if [[ $KERNEL_TAG == debian ]]; then
        sed 's/^/package: /' "$GUEST_DIR/stamp"
      else
        echo "lab_kernel: $KERNEL_TAG"
        sed 's/^/lab_kernel_stamp: /' "$(dirname "$KERNEL_IMAGE")/stamp"
        grep -v '^linux-image' "$GUEST_DIR/stamp" | sed 's/^/package: /'
      fi
    } >> "$outdir/guest.txt"
  fi
  [[ -f $outdir/exit-status ]] ||
    { console_tail "$outdir/console.log"; qemu_said "$outdir/console.log.qemu"; die "guest wrote no exit-status (see $outdir/console.log)"; }
  rc=$(cat "$outdir/exit-status")
  [[ $rc == 0 ]] || console_tail "$outdir/console.log"
  [[ $rc == 0 ]] || die "guest script failed with status $rc (see $outdir/console.log)"
}

# boot_guest ACCEL INDIR OUTDIR: start qemu for a run (its console OUTDIR/console.log)
boot_guest() {
  log "booting $KERNEL_TAG ($1, $VCPUS vCPUs${MODE_ARGS:+, host mode}), script $(basename "$script") -> $3"
  # The guest's watchdog dumps its tasks WATCHDOG_LEAD seconds before the host gives up.
  start_qemu "$1" "$2" "$3" "$3/console.log" \
    "lab.watchdog=$((RUN_TIMEOUT > 2 * WATCHDOG_LEAD ? RUN_TIMEOUT - WATCHDOG_LEAD : RUN_TIMEOUT / 2))"
}

main() {
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  case ${1:-} in
    build) cmd_build ;;
    run) shift; cmd_run "$@" ;;
    vcpus) shift; vcpus "$@" ;;
    *) die "usage: guest.sh build | run SCRIPT OUTDIR | vcpus [MEM [NEED]]" ;;
  esac
}

main "$@"
