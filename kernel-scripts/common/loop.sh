# shellcheck shell=bash
# common/loop.sh: loop devices over backing files under $LAB_KDIR/loop (the tag that tells the
# lab's loops from anyone else's), and the orphans a killed run leaves. Sourced by common/rc.sh;
# changes nothing by itself.

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

# _loop_orphans: lab backing files attached to a loop device but missing from the
# registry (the scenario died between losetup and the registry write).
_loop_orphans() {
	local f
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] || continue
		case $(cat "$f") in "$LAB_KDIR"/loop/*) f=${f#/sys/block/}; echo "/dev/${f%%/*}" ;; esac
	done
}
