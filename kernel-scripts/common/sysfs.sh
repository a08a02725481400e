# shellcheck shell=bash
# common/sysfs.sh: queue attributes and I/O schedulers of lab devices, each old value recorded
# in the registry and restored by cleanup. Sourced by common/rc.sh; changes nothing by itself.

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
