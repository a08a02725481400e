# shellcheck shell=bash
# common/rc.sh: shared helpers for kernel-scripts, blktests style.
#
# Source it; it defines no traps and changes no device by itself.
#
# Safety rule: every function that writes, resizes, resets or removes a device first
# calls _lab_require_owned, which refuses (message on stderr, exit 2, nothing touched)
# anything not recorded in the registry $LAB_STATE/kernel/registry.
#
# Registry: one line per object the lab made or changed, "kind<TAB>name<TAB>detail":
#   zram    zram3                                   -              (index hot-added by the lab)
#   loop    /dev/loop5                              <backing file under $LAB_STATE/kernel/loop>
#   nullb   nullb1                                  <configfs dir /sys/kernel/config/nullb/lab-*>
#   cgroup  /sys/fs/cgroup/blkio/lab-x              -              (v1; v2: /sys/fs/cgroup/lab-x)
#   subtree /sys/fs/cgroup/cgroup.subtree_control   io             (v2: +io enabled by the lab)
#   sysfs   /sys/block/loop5/queue/iostats          <old value>
#   sched   /sys/block/loop5/queue/scheduler        <old scheduler>
# Lines are appended in creation order; cleanup undoes them in reverse order.

LAB_ROOT=${LAB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
LAB_STATE=${LAB_STATE:-$LAB_ROOT/.lab}
LAB_KDIR=$LAB_STATE/kernel
LAB_REGISTRY=$LAB_KDIR/registry
LAB_NULLB=${LAB_NULLB:-/sys/kernel/config/nullb}
# The cgroup hierarchy with the io controller: v1 blkio where it is mounted, else the v2
# root (LAB_CGROUP2) where its cgroup.controllers lists io. LAB_BLKIO forces a v1 path.
if [ -n "${LAB_BLKIO:-}" ]; then
	LAB_CG_VER=1
elif [ -d /sys/fs/cgroup/blkio ]; then
	LAB_BLKIO=/sys/fs/cgroup/blkio LAB_CG_VER=1
else
	LAB_BLKIO=${LAB_CGROUP2:-/sys/fs/cgroup} LAB_CG_VER=2
fi
export LAB_ROOT LAB_STATE

# ---------------------------------------------------------------- messages, predicates

_lab_msg() { echo "lab-kernel: $*" >&2; }

# _lab_refuse MSG: the one way to say no. Exit 2, nothing touched.
_lab_refuse() {
	echo "lab-kernel: refused: $*" >&2
	exit 2
}

# _skip REASON: print the skip line and end the test with success.
_skip() {
	echo "SKIP: $*"
	exit 0
}

_have_root() { [ "$(id -u)" -eq 0 ] || _skip "needs root"; }

_have_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || _skip "command $c is not installed"
	done
}

# _driver_native NAME: true if the running kernel has driver NAME (built in or loadable).
_driver_native() {
	local name=$1 mod=${1//-/_} dev
	case $name in
	zram) dev=zram ;;
	loop) dev=loop ;;
	brd) dev=ramdisk ;;
	null_blk) dev=nullb ;;
	dm-mod | dm) dev=device-mapper; mod=dm_mod ;;
	*) dev=$name ;;
	esac
	[ -d "/sys/module/$mod" ] && return 0
	[ "$name" = zram ] && [ -d /sys/class/zram-control ] && return 0
	awk -v d="$dev" '$2 == d { f = 1 } END { exit !f }' /proc/devices && return 0
	if command -v modprobe >/dev/null 2>&1; then
		modprobe -n "$mod" >/dev/null 2>&1 && return 0
	fi
	return 1
}

_have_driver() {
	local d
	for d in "$@"; do
		_driver_native "$d" || _skip "driver $d is not in this kernel"
	done
}

# _have_cgroup_io: the io controller is usable (v1 blkio mounted, or v2 listing io).
_have_cgroup_io() {
	if [ "$LAB_CG_VER" = 1 ]; then
		[ -d "$LAB_BLKIO" ] || _skip "blkio cgroup v1 is not mounted at $LAB_BLKIO"
	else
		grep -qw io "$LAB_BLKIO/cgroup.controllers" 2>/dev/null ||
			_skip "neither blkio (v1) nor cgroup v2 with the io controller at $LAB_BLKIO"
	fi
}

# _have_guest: this test can boot the guest VM: root, qemu, and a built guest (or apt knows the
# kernel package to build one from).
_have_guest() {
	_have_root
	_have_cmd qemu-system-x86_64
	[ -f "$LAB_STATE/guest/initramfs.cpio" ] || apt-cache show linux-image-amd64 >/dev/null 2>&1 ||
		_skip "no built guest and linux-image-amd64 not known to apt (no Debian mirror?)"
}

# _guest_test_run SCRIPT OUT: boot the guest on SCRIPT, its results in OUT; if the run fails,
# print guest.sh's messages (a hung or failed guest's console tail among them) and fail the test.
_guest_test_run() {
	local log
	log=$(mktemp)
	if ! "$KS_DIR/guest/guest.sh" run "$1" "$2" >"$log" 2>&1; then
		cat "$log" >&2
		rm -f "$log"
		exit 1
	fi
	rm -f "$log"
}

# ---------------------------------------------------------------- registry

# _reg_lock: take the registry lock on fd 9. Where there is no flock (Debian's busybox-static,
# i.e. the guest, where one script runs at a time) the lock is skipped.
_reg_lock() {
	if command -v flock >/dev/null 2>&1; then flock 9; fi
}

_reg_init() {
	mkdir -p "$LAB_KDIR/loop"
	[ -e "$LAB_REGISTRY" ] || : >"$LAB_REGISTRY"
}

# _reg_add KIND NAME DETAIL
_reg_add() {
	_reg_init
	(
		_reg_lock
		printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$LAB_REGISTRY"
	) 9>"$LAB_REGISTRY.lock"
}

# _reg_del KIND NAME
_reg_del() {
	[ -e "$LAB_REGISTRY" ] || return 0
	(
		_reg_lock
		awk -F'\t' -v k="$1" -v n="$2" '!($1 == k && $2 == n)' "$LAB_REGISTRY" >"$LAB_REGISTRY.new"
		mv "$LAB_REGISTRY.new" "$LAB_REGISTRY"
	) 9>"$LAB_REGISTRY.lock"
}

# _reg_get KIND NAME: print DETAIL and succeed if the entry exists.
_reg_get() {
	[ -e "$LAB_REGISTRY" ] || return 1
	awk -F'\t' -v k="$1" -v n="$2" '$1 == k && $2 == n { print $3; f = 1; exit } END { exit !f }' "$LAB_REGISTRY"
}

# ---------------------------------------------------------------- ownership

# _dev_kind DEV: "KIND NAME" for a device path or name (zram zram3, loop /dev/loop5, dm NAME, other DEV).
_dev_kind() {
	local d=$1
	case $d in
	/dev/zram[0-9]* | zram[0-9]*) echo "zram ${d#/dev/}" ;;
	/dev/loop[0-9]* | loop[0-9]*) echo "loop /dev/${d#/dev/}" ;;
	/dev/nullb[0-9]* | nullb[0-9]* | /dev/labnb* | labnb*) echo "nullb ${d#/dev/}" ;;
	/dev/mapper/*) echo "dm ${d#/dev/mapper/}" ;;
	/dev/dm-[0-9]* | dm-[0-9]*)
		local n=${d#/dev/}
		if [ -r "/sys/block/$n/dm/name" ]; then echo "dm $(cat "/sys/block/$n/dm/name")"; else echo "dm $n"; fi
		;;
	dm:*) echo "dm ${d#dm:}" ;;
	*) echo "other $d" ;;
	esac
}

# _dev_mounted DEV: true if DEV (or one of its partitions) is mounted or used as swap.
_dev_mounted() {
	local base=${1#/dev/}
	awk -v b="/dev/$base" 'index($1, b) == 1 { f = 1 } END { exit !f }' /proc/mounts /proc/swaps
}

# _lab_require_owned DEV: return if the lab made DEV, else refuse (exit 2).
# dm names additionally need the lab's uuid prefix (LAB-) when the kernel shows one.
_lab_require_owned() {
	local dev=$1 kind name detail bf
	read -r kind name <<<"$(_dev_kind "$dev")"
	case $kind in
	zram)
		_reg_get zram "$name" >/dev/null || _lab_refuse "$dev: zram device not hot-added by the lab (not in $LAB_REGISTRY)"
		;;
	loop)
		detail=$(_reg_get loop "$name") || _lab_refuse "$dev: loop device not attached by the lab (not in $LAB_REGISTRY)"
		bf=$(cat "/sys/block/${name#/dev/}/loop/backing_file" 2>/dev/null || true)
		[ "$bf" = "$detail" ] || _lab_refuse "$dev: backing file '${bf:-none}' is not the lab's '$detail'"
		case $bf in "$LAB_KDIR"/loop/*) ;; *) _lab_refuse "$dev: backing file $bf is outside $LAB_KDIR/loop" ;; esac
		;;
	nullb)
		detail=$(_reg_get nullb "$name") || _lab_refuse "$dev: null_blk device not made by the lab (not in $LAB_REGISTRY)"
		case $detail in "$LAB_NULLB"/labnb*) ;; *) _lab_refuse "$dev: configfs dir $detail is not a lab one" ;; esac
		[ "$name" = "${detail##*/}" ] || [ "$(cat "$detail/index" 2>/dev/null)" = "${name#nullb}" ] ||
			_lab_refuse "$dev: $detail no longer backs $name"
		;;
	dm)
		_reg_get dm "$name" >/dev/null || _lab_refuse "$dev: dm device $name has no lab uuid and is not in $LAB_REGISTRY"
		;;
	*)
		_lab_refuse "$dev: not a device the lab makes (zram, loop, nullb, dm) and not in $LAB_REGISTRY"
		;;
	esac
	if _dev_mounted "$dev"; then _lab_refuse "$dev: mounted or in use as swap"; fi
	return 0
}

# ---------------------------------------------------------------- zram

# _zram_add SIZE [ALGO]: hot-add a zram device, print its name (zramN).
_zram_add() {
	local size=$1 algo=${2:-} idx
	[ -r /sys/class/zram-control/hot_add ] || { _lab_msg "no /sys/class/zram-control"; return 1; }
	idx=$(cat /sys/class/zram-control/hot_add)
	_reg_add zram "zram$idx" -
	if [ -n "$algo" ]; then echo "$algo" >"/sys/block/zram$idx/comp_algorithm"; fi
	echo "$size" >"/sys/block/zram$idx/disksize"
	echo "zram$idx"
}

# _zram_remove NAME: reset (retrying while busy) then hot_remove; drop the registry line.
_zram_remove() {
	local name=${1#/dev/} i
	_lab_require_owned "$name"
	if [ -d "/sys/block/$name" ]; then
		for i in $(seq 1 50); do
			if echo 1 2>/dev/null >"/sys/block/$name/reset"; then break; fi
			[ "$i" -eq 50 ] && { _lab_msg "$name: reset still busy after 10 s"; return 1; }
			sleep 0.2
		done
		for i in $(seq 1 50); do
			if echo "${name#zram}" 2>/dev/null >/sys/class/zram-control/hot_remove; then break; fi
			[ "$i" -eq 50 ] && { _lab_msg "$name: hot_remove still busy after 10 s"; return 1; }
			sleep 0.2
		done
	fi
	_reg_del zram "$name"
}

# _fill DEV PATTERN: write the whole device once with fio. PATTERN: random (incompressible),
# zero (every page zero: zram keeps it as a same-filled page), compressible50 (50% compressible
# with fio's default 512-byte chunks, the data a job file's buffer_compress_percentage=50 writes:
# the bridge takes no buffer_compress_chunk), or a compressible percentage N (4 KiB chunks).
_fill() {
	local dev=$1 pat=${2:-50} extra=()
	_lab_require_owned "$dev"
	case $pat in
	random) extra=(--refill_buffers) ;;
	zero) extra=(--zero_buffers --scramble_buffers=0) ;;
	compressible50) extra=(--refill_buffers --buffer_compress_percentage=50) ;;
	*[!0-9]*) _lab_msg "fill: bad pattern $pat"; return 1 ;;
	*) extra=(--refill_buffers "--buffer_compress_percentage=$pat" --buffer_compress_chunk=4k) ;;
	esac
	fio --name=lab-fill --filename="$dev" --rw=write --bs=1M --direct=1 --ioengine=psync \
		--size=100% "${extra[@]}" --output=/dev/null
}

# ---------------------------------------------------------------- loop

# _loop_add SIZE [partscan]: backing file under $LAB_KDIR/loop, attach, print /dev/loopN.
_loop_add() {
	local size=$1 scan=${2:-} file dev opts=()
	_reg_init
	file=$(mktemp "$LAB_KDIR/loop/lab-XXXXXX.img")
	truncate -s "$size" "$file"
	[ "$scan" = partscan ] && opts=(--partscan)
	dev=$(losetup --find --show "${opts[@]}" "$file") || { rm -f "$file"; return 1; }
	_reg_add loop "$dev" "$file"
	echo "$dev"
}

_loop_remove() {
	local dev=$1 file
	file=$(_reg_get loop "$dev") || _lab_refuse "$dev: loop device not attached by the lab (not in $LAB_REGISTRY)"
	if [ -e "/sys/block/${dev#/dev/}/loop/backing_file" ]; then
		_lab_require_owned "$dev"
		losetup -d "$dev" || { _lab_msg "$dev: losetup -d failed; registry line kept"; return 1; }
	fi
	case $file in "$LAB_KDIR"/loop/*) rm -f "$file" ;; esac
	_reg_del loop "$dev"
}

# ---------------------------------------------------------------- null_blk

# _nullb_add SIZE [mem]: a null_blk device through configfs (separate from the module's own
# nr_devices ones), blk-mq, 4k blocks; print its node. The configfs item is labnbXXXXXX; the
# kernel names the disk after the item (newer kernels) or nullb<index> (older ones).
# SIZE in MiB (suffix M or G accepted). With "mem" the device keeps what is written
# (memory_backed=1: a partition table survives; unwritten blocks still read as zeros and
# take no memory), else writes are dropped.
_nullb_add() {
	local size=$1 mem=${2:-} mb dir idx name
	[ -d "$LAB_NULLB" ] || { _lab_msg "no null_blk configfs at $LAB_NULLB (modprobe null_blk; mount configfs)"; return 1; }
	case $size in *G) mb=$((${size%G} * 1024)) ;; *M) mb=${size%M} ;; *) mb=$size ;; esac
	[[ $mb =~ ^[0-9]+$ ]] || { _lab_msg "nullb: bad size $size"; return 1; }
	_reg_init
	dir=$(mktemp -d -u "$LAB_NULLB/labnbXXXXXX")
	mkdir "$dir"
	_reg_add nullb "${dir##*/}" "$dir"
	echo "$mb" >"$dir/size"
	echo 4096 >"$dir/blocksize"
	echo 2 >"$dir/queue_mode"
	if [ "$mem" = mem ]; then echo 1 >"$dir/memory_backed"; fi
	echo 1 >"$dir/power"
	name=${dir##*/}
	if [ ! -e "/sys/block/$name" ]; then
		idx=$(cat "$dir/index")
		name=nullb$idx
		_reg_del nullb "${dir##*/}"
		_reg_add nullb "$name" "$dir"
	fi
	echo "/dev/$name"
}

_nullb_remove() {
	local name=${1#/dev/} dir
	dir=$(_reg_get nullb "$name") || _lab_refuse "$name: null_blk device not made by the lab (not in $LAB_REGISTRY)"
	if [ -d "$dir" ]; then
		_lab_require_owned "/dev/$name"
		# under `||` in cleanup set -e is off: fail explicitly, keeping the registry line
		{ echo 0 >"$dir/power" && rmdir "$dir"; } || { _lab_msg "$name: could not remove $dir"; return 1; }
	fi
	_reg_del nullb "$name"
}

# ---------------------------------------------------------------- partitions

# _mbr_image FILE SECTOR_SIZE START_MIB SIZE_MIB: write to FILE the 512-byte DOS partition table
# that sfdisk makes with one Linux partition (type 83) from START_MIB for SIZE_MIB, for a device
# whose logical blocks are SECTOR_SIZE bytes. An MBR names no sector size: the kernel counts a
# partition's start and length in the device's logical blocks, so they are given to sfdisk
# (which writes them as they are into a scratch image) in those units. Needs sfdisk (Debian:
# fdisk); the image can go where there is none (the guest VM) for _mbr_write.
_mbr_image() {
	local file=$1 ss=$2 start len img
	start=$(($3 * 1048576 / ss)) len=$(($4 * 1048576 / ss))
	img=$(mktemp "${TMPDIR:-/tmp}/lab-mbr.XXXXXX")
	truncate -s $(((start + len) * 512 + 1048576)) "$img"
	if ! printf 'label: dos\nlabel-id: 0x4c414221\nstart=%s, size=%s, type=83\n' "$start" "$len" |
		sfdisk -q "$img" >/dev/null; then
		rm -f "$img"
		return 1
	fi
	dd if="$img" of="$file" bs=512 count=1 2>/dev/null
	rm -f "$img"
}

# _part1_node DISK: print the node of DISK's partition 1 (/dev/loop5p1, /dev/labnbx1), or fail.
_part1_node() {
	local disk=${1#/dev/} p
	for p in "/sys/class/block/$disk/$disk"*; do
		if [ "$(cat "$p/partition" 2>/dev/null)" = 1 ]; then
			echo "/dev/${p##*/}"
			return 0
		fi
	done
	return 1
}

# _mbr_write DEV MBRFILE: write the partition table MBRFILE (from _mbr_image) to the first
# sector of the lab device DEV and make partition 1 appear; print "NODE HOW": its node and how
# it came, "kernel" (the kernel read the table: BLKRRPART) or "partx" (partx read it and told
# the kernel through BLKPG: for kernels built without partition table parsers, as the host's
# here). A loop device needs partscan (loop:SIZE:partscan); null_blk keeps the table only when
# memory backed (_nullb_add SIZE mem).
_mbr_write() {
	local dev=$1 mbr=$2 p i
	_lab_require_owned "$dev"
	dd if="$mbr" of="$dev" bs=512 count=1 conv=notrunc 2>/dev/null
	blockdev --flushbufs "$dev"
	blockdev --rereadpt "$dev" 2>/dev/null || true
	for i in $(seq 1 10); do
		if p=$(_part1_node "$dev") && [ -b "$p" ]; then echo "$p kernel"; return 0; fi
		sleep 0.1
	done
	if command -v partx >/dev/null 2>&1 && partx --add --nr 1 "$dev" 2>/dev/null; then
		for i in $(seq 1 25); do
			if p=$(_part1_node "$dev") && [ -b "$p" ]; then echo "$p partx"; return 0; fi
			sleep 0.2
		done
	fi
	_lab_msg "$dev: no partition 1 after writing the table (kernel: BLKRRPART; partx: $(command -v partx || echo none))"
	return 1
}

# _loop_orphans: lab backing files attached to a loop device but missing from the
# registry (the scenario died between losetup and the registry write).
_loop_orphans() {
	local f
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] || continue
		case $(cat "$f") in "$LAB_KDIR"/loop/*) f=${f#/sys/block/}; echo "/dev/${f%%/*}" ;; esac
	done
}

# ---------------------------------------------------------------- sysfs, scheduler, cgroups

# _sysfs_set DEV ATTR VALUE: write /sys/block/DEV/queue/ATTR on a lab device, recording the old value.
_sysfs_set() {
	local dev=${1#/dev/} attr=$2 val=$3 path old
	_lab_require_owned "/dev/$dev"
	path=/sys/block/$dev/queue/$attr
	if ! _reg_get sysfs "$path" >/dev/null; then
		old=$(cat "$path")
		_reg_add sysfs "$path" "$old"
	fi
	echo "$val" >"$path"
}

# _sched_set DEV SCHED: select an I/O scheduler on a lab device, recording the old one.
_sched_set() {
	local dev=${1#/dev/} sched=$2 path old
	_lab_require_owned "/dev/$dev"
	path=/sys/block/$dev/queue/scheduler
	if ! _reg_get sched "$path" >/dev/null; then
		old=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$path")
		_reg_add sched "$path" "${old:-none}"
	fi
	echo "$sched" >"$path"
}

# _restore KIND PATH: write back the recorded old value and drop the line.
_restore() {
	local kind=$1 path=$2 old
	old=$(_reg_get "$kind" "$path") || return 0
	case $path in
	/sys/block/*/queue/*) ;;
	*) _lab_refuse "$path: not a block queue attribute; registry line left alone" ;;
	esac
	if [ -e "$path" ]; then echo "$old" >"$path" || _lab_msg "could not restore $path to $old"; fi
	_reg_del "$kind" "$path"
}

# _cgroup_io_enable: v2 only: make the io controller available to children of the root
# (+io in cgroup.subtree_control), recorded so cleanup takes it away again (-io) only if
# the lab was the one that added it.
_cgroup_io_enable() {
	local ctl=$LAB_BLKIO/cgroup.subtree_control
	[ "$LAB_CG_VER" = 2 ] || return 0
	grep -qw io "$ctl" && return 0
	grep -qw io "$LAB_BLKIO/cgroup.controllers" || { _lab_msg "cgroup v2 at $LAB_BLKIO has no io controller"; return 1; }
	_reg_add subtree "$ctl" io
	echo +io >"$ctl"
}

# _cgroup_add NAME: make $LAB_BLKIO/lab-NAME (v1 blkio or v2 with +io), print its path.
_cgroup_add() {
	local path=$LAB_BLKIO/lab-$1
	_cgroup_io_enable
	mkdir "$path"
	_reg_add cgroup "$path" -
	echo "$path"
}

# _cgroup_weight_file CGROUP: the file that takes a proportional weight. BFQ's own
# (v1 blkio.bfq.weight, v2 io.bfq.weight) when BFQ is loaded; v2 io.weight (iocost) else.
_cgroup_weight_file() {
	local cg=$1
	if [ "$LAB_CG_VER" = 1 ]; then echo "$cg/blkio.bfq.weight"
	elif [ -e "$cg/io.bfq.weight" ]; then echo "$cg/io.bfq.weight"
	else echo "$cg/io.weight"
	fi
}

# _cgroup_set_weight CGROUP W: the default weight of a lab cgroup (1..1000; BFQ takes 1..1000,
# iocost 1..10000).
_cgroup_set_weight() {
	local cg=$1 w=$2 f
	_reg_get cgroup "$cg" >/dev/null || _lab_refuse "$cg: cgroup not made by the lab"
	if ! [[ $w =~ ^[0-9]+$ ]] || [ "$w" -lt 1 ] || [ "$w" -gt 1000 ]; then
		_lab_msg "weight must be 1..1000: $w"
		return 1
	fi
	f=$(_cgroup_weight_file "$cg")
	case $f in */io.weight) echo "default $w" >"$f" ;; *) echo "$w" >"$f" ;; esac
}

# _cgroup_weight CGROUP DEV W: select BFQ on the lab device DEV, then weight CGROUP.
_cgroup_weight() {
	_reg_get cgroup "$1" >/dev/null || _lab_refuse "$1: cgroup not made by the lab"
	_sched_set "$2" bfq
	_cgroup_set_weight "$1" "$3"
}

_cgroup_remove() {
	local path=$1 pid i
	_reg_get cgroup "$path" >/dev/null || _lab_refuse "$path: cgroup not made by the lab"
	case $path in "$LAB_BLKIO"/lab-*) ;; *) _lab_refuse "$path: not a lab-* cgroup under $LAB_BLKIO" ;; esac
	# Move every task to the root, then rmdir; retried, because a task forked meanwhile (or
	# one still exiting, under v2) keeps the cgroup busy for a moment. Callers run this
	# under `||`, where set -e is off: every failure returns explicitly.
	for i in $(seq 1 50); do
		[ -d "$path" ] || break
		while read -r pid; do
			echo "$pid" >"$LAB_BLKIO/cgroup.procs" 2>/dev/null || true
		done <"$path/cgroup.procs"
		rmdir "$path" 2>/dev/null && break
		[ "$i" -eq 50 ] && { _lab_msg "$path: still busy after 10 s"; return 1; }
		sleep 0.2
	done
	_reg_del cgroup "$path"
}

# _subtree_restore CTL: take away the controller the lab enabled in CTL (v2 subtree_control).
_subtree_restore() {
	local ctl=$1 c
	c=$(_reg_get subtree "$ctl") || return 0
	case $ctl in */cgroup.subtree_control) ;; *) _lab_refuse "$ctl: not a cgroup.subtree_control" ;; esac
	if [ -e "$ctl" ]; then echo "-$c" >"$ctl" 2>/dev/null || _lab_msg "could not take $c away from $ctl (still in use?)"; fi
	_reg_del subtree "$ctl"
}

# ---------------------------------------------------------------- cleanup

# _guest_stop: kill the guest VM if its pid file names a live qemu process.
_guest_stop() {
	local pidf=$LAB_KDIR/guest/qemu.pid pid i
	[ -e "$pidf" ] || return 0
	pid=$(cat "$pidf")
	if [ -n "$pid" ] && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == qemu* ]]; then
		kill "$pid" 2>/dev/null || true
		for i in $(seq 1 50); do
			[ -d "/proc/$pid" ] || break
			[ "$i" -eq 25 ] && kill -KILL "$pid" 2>/dev/null
			sleep 0.2
		done
	fi
	rm -f "$pidf"
}

# _partial_runs: run folders still named .partial (a run in progress, or one that died):
# RUN.partial from the scripts, .RUN.partial from the lab's Java commands.
# Status and cleanup name them; nothing here deletes results.
_partial_runs() {
	local d
	local r=${LAB_RESULTS:-$LAB_ROOT/results}
	for d in "$r"/*.partial "$r"/.*.partial; do
		if [ -d "$d" ]; then echo "$d"; fi
	done
}

# _remove_entry KIND NAME: undo one registry line.
_remove_entry() {
	case $1 in
	zram) _zram_remove "$2" ;;
	loop) _loop_remove "$2" ;;
	nullb) _nullb_remove "$2" ;;
	cgroup) _cgroup_remove "$2" ;;
	subtree) _subtree_restore "$2" ;;
	sysfs | sched) _restore "$1" "$2" ;;
	*) _lab_msg "unknown registry kind $1 ($2); dropping the line"; _reg_del "$1" "$2" ;;
	esac
}

# _cleanup_all: undo every registry line, newest first; idempotent. Returns 1 if any stays.
_cleanup_all() {
	local kind name detail rc=0 d
	_guest_stop
	_partial_runs | sed 's/^/lab-kernel: kept (a run in progress or one that died; results are never deleted): /' >&2
	for d in $(_loop_orphans); do
		_reg_get loop "$d" >/dev/null || _reg_add loop "$d" "$(cat "/sys/block/${d#/dev/}/loop/backing_file")"
	done
	[ -s "$LAB_REGISTRY" ] || return 0
	while IFS=$'\t' read -r kind name detail; do
		[ -n "$kind" ] || continue
		# each in a subshell: a refusal (exit 2) must not stop the rest
		(_remove_entry "$kind" "$name") || rc=1
	done < <(tac "$LAB_REGISTRY")
	: "$detail"
	if [ "$rc" -eq 0 ]; then rm -f "$LAB_KDIR"/loop/lab-*.img; fi
	return "$rc"
}

# ---------------------------------------------------------------- scenarios

# A scenario appends "kind name" to MADE for each object it makes; _scenario_traps installs
# the EXIT/INT/TERM traps that remove them newest first (and the scratch folder FLAME_TMP).
# _made_remove does the same on the way out of a good run and returns 1 if any stays.
MADE=()
FLAME_TMP=

_made_remove() {
	local i ok=0
	for ((i = ${#MADE[@]} - 1; i >= 0; i--)); do
		(_remove_entry "${MADE[i]%% *}" "${MADE[i]#* }") || ok=1
	done
	MADE=()
	return "$ok"
}

_scenario_teardown() {
	local rc=$?
	trap - EXIT INT TERM
	if [ -n "$FLAME_TMP" ]; then rm -rf "$FLAME_TMP"; fi
	_made_remove || rc=1
	exit "$rc"
}

_scenario_traps() {
	FLAME_TMP=$(mktemp -d)
	trap _scenario_teardown EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# ---------------------------------------------------------------- tests

# _test_begin: give this test its own LAB_STATE (so its cleanup never meets the lab's
# real registry) and undo everything in it on exit. A test may define _test_cleanup,
# run first by the trap.
_test_begin() {
	export LAB_BRIDGE_STATE=${LAB_BRIDGE_STATE:-$LAB_STATE}
	LAB_STATE=$(mktemp -d /tmp/lab-test.XXXXXX)
	LAB_KDIR=$LAB_STATE/kernel
	LAB_REGISTRY=$LAB_KDIR/registry
	export LAB_STATE
	_reg_init
	trap _test_end EXIT
}

_test_end() {
	local rc=$?
	trap - EXIT
	if declare -F _test_cleanup >/dev/null; then _test_cleanup || true; fi
	(_cleanup_all) || rc=1
	rm -rf "$LAB_STATE"
	exit "$rc"
}

# _expect_refusal WHAT CMD...: run CMD, print "WHAT: exit N" (2 is a refusal).
_expect_refusal() {
	local what=$1 rc=0
	shift
	"$@" >/dev/null 2>&1 || rc=$?
	echo "$what: exit $rc"
}

# ---------------------------------------------------------------- the lab's JVM

# _lab_jvm_init: set LAB_JVM to the command that runs the lab's command line straight on the
# JDK (no ./lab wrapper, whose package check and source hash perf stat would count), for
# "${LAB_JVM[@]}" bridge run ... under perf. Needs LAB_JDK (exported by ./lab) and a built
# app/target/lab.jar: without them it builds through ./lab first, and runs the bridge through
# ./lab itself when LAB_JDK is still unset. The bridge writes only to devices in this
# script's registry ($LAB_REGISTRY, passed as lab.registry), not the build state's.
# shellcheck disable=SC2034 # LAB_JVM is this function's output, used by the scenarios
_lab_jvm_init() {
	local jar=$LAB_ROOT/app/target/lab.jar state=${LAB_BRIDGE_STATE:-$LAB_STATE}
	# The bridge must exist before anything is timed. `./lab pair` (and any ./lab command) builds
	# first and exports LAB_JDK; run on its own, a scenario builds through the wrapper here, and
	# only then, so a run does not rebuild the tree for edits elsewhere in it (after changing the
	# bridge, run ./lab once yourself).
	if [ ! -f "$jar" ] || [ -z "${LAB_JDK:-}" ]; then
		LAB_STATE=$state "$LAB_ROOT/lab" bridge run --help >/dev/null
	fi
	if [ -n "${LAB_JDK:-}" ] && [ -x "$LAB_JDK/bin/java" ] && [ -f "$jar" ]; then
		LAB_JVM=("$LAB_JDK/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow
			-Dlab.root="$LAB_ROOT" -Dlab.state="$state" -Dlab.registry="$LAB_REGISTRY" -jar "$jar")
	else
		LAB_JVM=(env LAB_STATE="$state" LAB_REGISTRY="$LAB_REGISTRY" "$LAB_ROOT/lab")
	fi
}

# ---------------------------------------------------------------- counters

readonly LAB_HW_EVENTS=(cycles instructions cache-references cache-misses branches branch-misses)
readonly LAB_SW_EVENTS=(task-clock context-switches cpu-migrations page-faults)

# _perf_probe: print the comma-joined events this machine counts; cache in $LAB_KDIR.
# Missing ones go to $LAB_KDIR/perf-missing, one a line.
_perf_probe() {
	local cache=$LAB_KDIR/perf-events ev ok=() miss=() out
	_reg_init
	if [ -s "$cache" ]; then cat "$cache"; return; fi
	for ev in "${LAB_HW_EVENTS[@]}" "${LAB_SW_EVENTS[@]}"; do
		out=$(perf stat -x, -e "$ev" true 2>&1 >/dev/null || true)
		if grep -q -e '<not supported>' -e '<not counted>' -e 'event syntax error' -e 'not supported' <<<"$out" ||
			! grep -q ",$ev" <<<"$out"; then
			miss+=("$ev")
		else
			ok+=("$ev")
		fi
	done
	printf '%s\n' "${miss[@]}" >"$LAB_KDIR/perf-missing"
	(IFS=,; echo "${ok[*]}") | tee "$cache"
}

# _blk_snap DEV OUTPREFIX: copy DEV's stat (and zram mm_stat, io_stat) to OUTPREFIX.*. Through
# /sys/class/block, so DEV may be a partition (loop0p1: its own counters) as well as a disk.
_blk_snap() {
	local dev=${1#/dev/} pre=$2 f
	cat "/sys/class/block/$dev/stat" >"$pre.stat"
	for f in mm_stat io_stat; do
		if [ -r "/sys/class/block/$dev/$f" ]; then cat "/sys/class/block/$dev/$f" >"$pre.$f"; fi
	done
}

# _counted OUTDIR NAME DEV REPEATS CMD...: run CMD under perf stat (-r REPEATS unless
# REPEATS is "-"), with device stats before and after. Files in OUTDIR: NAME.perf.csv,
# NAME.before.stat, NAME.after.stat (+ .mm_stat, .io_stat for zram), perf-missing.txt.
_counted() {
	local out=$1 name=$2 dev=$3 reps=$4 events r=()
	shift 4
	events=$(_perf_probe)
	cp "$LAB_KDIR/perf-missing" "$out/perf-missing.txt"
	[ "$reps" != - ] && r=(-r "$reps")
	_blk_snap "$dev" "$out/$name.before"
	perf stat -x, -o "$out/$name.perf.csv" -e "$events" "${r[@]}" -- "$@"
	_blk_snap "$dev" "$out/$name.after"
}

# _stack_collapse: perf script (-F comm,tid,ip,sym,dso, callchains) on stdin to collapsed
# stacks on stdout, "comm;root;...;leaf COUNT", one line per distinct stack, sorted. Kernel
# frames get the suffix _[k] (flamegraph.pl's convention); offsets (+0x..) are dropped; an
# unresolved frame is named by its object, [unknown] if none.
_stack_collapse() {
	awk '
	function flush() { if (comm != "") { count[comm stack]++ } comm = ""; stack = "" }
	/^[^ \t]/ { flush(); comm = $0; sub(/[ \t]+-?[0-9]+[ \t]*$/, "", comm); gsub(/;/, ":", comm); next }
	/^[ \t]*$/ { flush(); next }
	{
		dso = $NF; sym = ""
		for (i = 2; i < NF; i++) sym = sym (i > 2 ? " " : "") $i
		sub(/\+0x[0-9a-f]+$/, "", sym)
		if (sym == "" || sym == "[unknown]") { sym = dso; sub(/^\(/, "", sym); sub(/\)$/, "", sym); n = split(sym, p, "/"); sym = (p[n] ~ /^\[/) ? p[n] : "[" p[n] "]" }
		if (dso == "([kernel.kallsyms])") sym = sym "_[k]"
		gsub(/;/, ":", sym)
		stack = ";" sym stack
	}
	END { flush(); for (s in count) print s, count[s] }' | LC_ALL=C sort
}

# _kernel_flamegraph OUT NAME CMD...: when LAB_FLAMEGRAPH=1, run CMD once more under
# `perf record -e cpu-clock -g -a` (system-wide: the kernel's work for the I/O happens in
# the submitting task, in io_uring workers and in interrupts) and write NAME.kernel.collapsed
# (gzipped) and, via `lab flamegraph`, NAME.kernel.svg. A separate run, so sampling never perturbs the
# perf stat counters. Where perf cannot record, NAME.kernel-flamegraph-missing.txt says why;
# it never fails the scenario.
_kernel_flamegraph() {
	local out=$1 name=$2 data err
	shift 2
	[ "${LAB_FLAMEGRAPH:-0}" = 1 ] || return 0
	data=$(mktemp "${TMPDIR:-/tmp}/lab-perf.XXXXXX")
	err=$out/$name.kernel-flamegraph-missing.txt
	if ! perf record -q -e cpu-clock -F 999 -g -a -o "$data" -- "$@" >/dev/null 2>"$err.log"; then
		{ echo "perf record -e cpu-clock -g -a failed here:"; cat "$err.log"; } >"$err"
		rm -f "$data" "$err.log"
		return 0
	fi
	rm -f "$err.log"
	perf script -i "$data" -F comm,tid,ip,sym,dso 2>/dev/null | _stack_collapse >"$out/$name.kernel.collapsed"
	rm -f "$data"
	if [ ! -s "$out/$name.kernel.collapsed" ]; then
		echo "perf record ran but perf script gave no call chains" >"$err"
		rm -f "$out/$name.kernel.collapsed"
		return 0
	fi
	"$LAB_ROOT/lab" flamegraph "$out/$name.kernel.collapsed" "$out/$name.kernel.svg" \
		--title "$name: perf record -e cpu-clock -g -a (kernel frames _[k])" 2>/dev/null ||
		echo "lab flamegraph could not render $name.kernel.collapsed" >"$err"
	gzip -n -f "$out/$name.kernel.collapsed" # raw stacks kept, small: results are committed
}
