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

# _sched_set DEV SCHED: select an I/O scheduler on a lab device, recording the old one. A
# scheduler the device does not list is a module not loaded yet (bfq on a stock Debian kernel):
# loaded first, by its alias SCHED-iosched, and recorded (common/module.sh), not left to the
# kernel's autoload, which nobody would unload.
_sched_set() {
	local dev=${1#/dev/} sched=$2 path old
	_lab_require_owned "/dev/$dev"
	path=/sys/block/$dev/queue/scheduler
	if [ "$sched" != none ] && ! grep -qw -- "$sched" "$path"; then
		_mod_need "$sched-iosched" || { _lab_msg "$dev: no I/O scheduler $sched in this kernel"; return 1; }
	fi
	if ! _reg_get sched "$path" >/dev/null; then
		old=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$path")
		_reg_add sched "$path" "${old:-none}"
	fi
	echo "$sched" >"$path"
}

# _sched_native_why SCHED: why this kernel cannot give a lab device the I/O scheduler SCHED
# (nothing when it can): listed by none of its block devices (every blk-mq device lists every
# scheduler registered) and no module to load (_sched_set loads it).
_sched_native_why() {
	local f
	for f in /sys/block/*/queue/scheduler; do
		if grep -qw -- "$1" "$f" 2>/dev/null; then return 0; fi
	done
	if [ "$(_mod_state "$1-iosched")" = loadable ]; then return 0; fi
	echo "this kernel has no $1 I/O scheduler (no block device lists it, and no module gives it)"
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
