# shellcheck shell=bash
# common/fs.sh: filesystems on lab devices and their mounts, the tmpfs a lab loop device may keep
# its backing file in, and the page cache's dirty limits (vm.dirty_bytes,
# vm.dirty_background_bytes) lowered for a run. Sourced by common/rc.sh; changes nothing by itself.
#
# Registry lines (cleanup undoes them newest first, like the rest):
#   mount  $LAB_KDIR/mnt/lab-XXXXXX    the device mounted there   (_mount_add)
#   mount  $LAB_KDIR/loop/lab-tmpfs-XXXXXX  tmpfs                 (_tmpfs_add)
#   dirty  /proc/sys/vm/dirty_bytes    what to write back: ratio=N (dirty_ratio was in force) or
#                                      bytes=N; dirty_background_bytes likewise
# A mount line is written before the mount (a run killed in between leaves a line that cleanup
# drops with the empty folder); every mount point is a folder the lab made under $LAB_KDIR.

# _fs_mounted DIR: true if something is mounted on DIR
_fs_mounted() {
	awk -v d="$1" '$2 == d { f = 1 } END { exit !f }' /proc/mounts
}

# _mkfs_ext4 DEV: make an ext4 filesystem on the lab device DEV (refused, exit 2, unless the lab
# owns DEV and nothing mounts it): inode tables and journal written now, not by ext4lazyinit in the
# background later, and no discard of the device first.
_mkfs_ext4() {
	_lab_require_owned "$1"
	mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$1"
}

# _mount_add DEV FSTYPE [OPTIONS]: mount the lab device DEV (refused, exit 2, unless the lab owns
# it and nothing mounts it) on a new folder $LAB_KDIR/mnt/lab-XXXXXX; print that folder.
_mount_add() {
	local dev=$1 type=$2 opts=${3:-defaults} dir
	_lab_require_owned "$dev"
	mkdir -p "$LAB_KDIR/mnt"
	dir=$(mktemp -d "$LAB_KDIR/mnt/lab-XXXXXX")
	_reg_add mount "$dir" "$dev"
	if ! mount -t "$type" -o "$opts" "$dev" "$dir"; then
		rmdir "$dir"
		_reg_del mount "$dir"
		_lab_msg "could not mount $dev ($type, $opts)"
		return 1
	fi
	echo "$dir"
}

# _tmpfs_add SIZE: a tmpfs of SIZE (tmpfs's size=, e.g. 1100m) on a new folder
# $LAB_KDIR/loop/lab-tmpfs-XXXXXX, where _loop_add's dir= may put a backing file (it lies under
# $LAB_KDIR/loop, the lab's tag for its loops' files); print that folder. Its memory is given back
# when cleanup unmounts it.
_tmpfs_add() {
	local dir
	_reg_init
	dir=$(mktemp -d "$LAB_KDIR/loop/lab-tmpfs-XXXXXX")
	_reg_add mount "$dir" tmpfs
	if ! mount -t tmpfs -o "size=$1,mode=0700" lab-tmpfs "$dir"; then
		rmdir "$dir"
		_reg_del mount "$dir"
		_lab_msg "could not mount a tmpfs of $1"
		return 1
	fi
	echo "$dir"
}

# _mount_remove DIR: unmount the lab's mount DIR (retried while busy, up to 10 s: a writer that
# just exited may still hold it), remove the folder, drop its registry line. Refuses (exit 2) a
# DIR the registry does not know or outside $LAB_KDIR.
_mount_remove() {
	local dir=$1 i
	_reg_get mount "$dir" >/dev/null || _lab_refuse "$dir: not a mount the lab made (not in $LAB_REGISTRY)"
	case $dir in "$LAB_KDIR"/mnt/lab-* | "$LAB_KDIR"/loop/lab-tmpfs-*) ;; *) _lab_refuse "$dir: not a lab mount point under $LAB_KDIR" ;; esac
	for i in $(seq 1 50); do
		_fs_mounted "$dir" || break
		umount "$dir" 2>/dev/null && break
		[ "$i" -eq 50 ] && { _lab_msg "$dir: still busy after 10 s"; return 1; }
		sleep 0.2
	done
	if [ -d "$dir" ]; then rmdir "$dir" || { _lab_msg "$dir: could not remove the folder"; return 1; }; fi
	_reg_del mount "$dir"
}

# _dirty_set KIND BYTES: lower the page cache's dirty limit KIND (dirty: vm.dirty_bytes, the limit
# where writers are made to wait for writeback; background: vm.dirty_background_bytes, where
# writeback starts) to BYTES, recording how to put back what was in force: the kernel keeps either
# the ratio or the bytes of each (writing one zeroes the other), so the line says ratio=N or
# bytes=N, and cleanup writes that file back. The first setting of a run is the one recorded.
_dirty_set() {
	local kind=$1 bytes=$2 path old
	case $kind in dirty | background) ;; *) _lab_msg "dirty: dirty or background, not $kind"; return 1 ;; esac
	[[ $bytes =~ ^[1-9][0-9]*$ ]] || { _lab_msg "dirty: bad byte count $bytes"; return 1; }
	path=/proc/sys/vm/dirty_bytes
	if [ "$kind" = background ]; then path=/proc/sys/vm/dirty_background_bytes; fi
	if ! _reg_get dirty "$path" >/dev/null; then
		old=$(cat "$path")
		if [ "$old" = 0 ]; then old=ratio=$(cat "${path%_bytes}_ratio"); else old=bytes=$old; fi
		_reg_add dirty "$path" "$old"
	fi
	echo "$bytes" >"$path"
}

# _dirty_restore PATH: write back what _dirty_set recorded for PATH; drop the line
_dirty_restore() {
	local path=$1 old
	old=$(_reg_get dirty "$path") || return 0
	case $path in /proc/sys/vm/dirty_bytes | /proc/sys/vm/dirty_background_bytes) ;; *) _lab_refuse "$path: not a dirty limit" ;; esac
	case $old in
	ratio=[0-9]*) echo "${old#ratio=}" >"${path%_bytes}_ratio" || { _lab_msg "could not restore ${path%_bytes}_ratio to ${old#ratio=}"; return 1; } ;;
	bytes=[0-9]*) echo "${old#bytes=}" >"$path" || { _lab_msg "could not restore $path to ${old#bytes=}"; return 1; } ;;
	*) _lab_msg "dirty: unknown old value $old for $path; dropping the line" ;;
	esac
	_reg_del dirty "$path"
}

# _dirty_now: the dirty limits in force, one line: "dirty_bytes=N dirty_ratio=N
# dirty_background_bytes=N dirty_background_ratio=N"
_dirty_now() {
	local f out=()
	for f in dirty_bytes dirty_ratio dirty_background_bytes dirty_background_ratio; do out+=("$f=$(cat "/proc/sys/vm/$f")"); done
	echo "${out[*]}"
}
