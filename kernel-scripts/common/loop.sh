# shellcheck shell=bash
# common/loop.sh: loop devices over backing files under $LAB_KDIR/loop (the tag that tells the
# lab's loops from anyone else's), and the orphans a killed run leaves. Sourced by common/rc.sh;
# changes nothing by itself.

# _loop_add SIZE [OPTION...]: a sparse backing file of SIZE under $LAB_KDIR/loop, attached; print
# /dev/loopN. OPTIONs: partscan (the kernel scans its partition table), dio (losetup
# --direct-io=on: the loop reads and writes its file with O_DIRECT where the file's filesystem
# takes it, else buffered as without; /sys/block/loopN/loop/dio says which), dir=DIR (the file in
# DIR, a folder under $LAB_KDIR/loop such as a tmpfs of _tmpfs_add's). An empty OPTION is ignored.
_loop_add() {
	local size=$1 o dir file dev opts=() dio=0
	shift
	_reg_init
	_mod_need loop || return 1
	dir=$LAB_KDIR/loop
	for o in "$@"; do
		case $o in
		'') ;;
		partscan) opts+=(--partscan) ;;
		dio) dio=1 ;;
		dir=*)
			dir=${o#dir=}
			case $dir in "$LAB_KDIR"/loop/*) ;; *) _lab_msg "loop: $dir is not under $LAB_KDIR/loop"; return 1 ;; esac
			;;
		*) _lab_msg "loop: unknown option $o"; return 1 ;;
		esac
	done
	file=$(_loop_file "$dir") || return 1
	truncate -s "$size" "$file"
	dev=$(losetup --find --show "${opts[@]}" "$file") || { rm -f "$file"; return 1; }
	_reg_add loop "$dev" "$file"
	# after attaching (LOOP_SET_DIRECT_IO): a file system without O_DIRECT (tmpfs before 6.6)
	# then leaves the loop buffered, where --direct-io=on at attach time fails the attach
	if [ "$dio" = 1 ]; then losetup --direct-io=on "$dev" 2>/dev/null || true; fi
	echo "$dev"
}

# _loop_file DIR: a new empty file of the lab's in DIR, lab-XXXXXXXX.img, made exclusively (set -C);
# its name on stdout. Not mktemp: busybox's (the guest's) takes no suffix after the Xs.
_loop_file() {
	local n f
	for ((n = 0; n < 100; n++)); do
		f=$1/lab-$(printf '%04x%04x' "$RANDOM" "$RANDOM").img
		if (set -C && : >"$f") 2>/dev/null; then
			echo "$f"
			return 0
		fi
	done
	_lab_msg "loop: could not make a file in $1"
	return 1
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
