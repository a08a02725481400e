# shellcheck shell=bash
# common/null_blk.sh: null_blk devices through configfs (items labnb*). Sourced by
# common/rc.sh; changes nothing by itself.

# _nullb_add SIZE [mem] [ATTR=VALUE...]: a null_blk device through configfs (separate from the
# module's own nr_devices ones), blk-mq, 4k blocks; print its node. The configfs item is
# labnbXXXXXX; the kernel names the disk after the item (newer kernels) or nullb<index> (older
# ones). SIZE in MiB (suffix M or G accepted). With "mem" the device keeps what is written
# (memory_backed=1: a partition table survives; unwritten blocks still read as zeros and take no
# memory), else writes are dropped ("" for neither). Each ATTR=VALUE after that is written to the
# item's configfs attribute ATTR before the device is powered on (mbps=N: a bandwidth limit in
# MiB/s; discard=1 with mem: discards free the memory; max_sectors=N ...); an unknown ATTR fails.
_nullb_add() {
	local size=$1 mem=${2:-} mb dir idx name a
	shift $(($# < 2 ? $# : 2))
	for a in "$@"; do
		[[ $a =~ ^[a-z_]+=[0-9]+$ ]] || { _lab_msg "nullb: bad attribute $a (ATTR=NUMBER)"; return 1; }
	done
	_nullb_ready || return 1
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
	for a in "$@"; do
		if [ ! -e "$dir/${a%%=*}" ] || ! echo "${a#*=}" >"$dir/${a%%=*}"; then
			_lab_msg "nullb: could not set ${a%%=*} to ${a#*=} (this null_blk has no such attribute, or refused the value)"
			rmdir "$dir" && _reg_del nullb "${dir##*/}"
			return 1
		fi
	done
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

# _nullb_ready: null_blk in the kernel (loaded with nr_devices=0, no device of its own, where it
# is a module nothing has loaded: common/module.sh) and its configfs dir there. configfs is mounted
# at /sys/kernel/config by the lab where nothing has mounted it (systemd does at boot on Debian
# and Ubuntu), recorded as "configfs /sys/kernel/config -" and unmounted again by cleanup.
_nullb_ready() {
	local cfg=${LAB_NULLB%/*}
	_mod_need null_blk nr_devices=0 || return 1
	[ -d "$LAB_NULLB" ] && return 0
	if [ "$cfg" = /sys/kernel/config ] && [ -d "$cfg" ] && ! _fs_mounted "$cfg"; then
		_reg_add configfs "$cfg" -
		if ! mount -t configfs configfs "$cfg"; then
			_reg_del configfs "$cfg"
			_lab_msg "could not mount configfs at $cfg"
			return 1
		fi
		_lab_msg "mounted configfs at $cfg (the lab unmounts it again)"
	fi
	[ -d "$LAB_NULLB" ] || { _lab_msg "no null_blk configfs at $LAB_NULLB (null_blk without configfs support?)"; return 1; }
}

# _configfs_umount DIR: unmount the configfs the lab mounted at DIR (/sys/kernel/config); drop its
# line. One still in use (an item someone made since) stays mounted: the line stays, status 1.
_configfs_umount() {
	local dir=$1
	_reg_get configfs "$dir" >/dev/null || _lab_refuse "$dir: configfs not mounted by the lab (not in $LAB_REGISTRY)"
	[ "$dir" = /sys/kernel/config ] || _lab_refuse "$dir: not /sys/kernel/config"
	if _fs_mounted "$dir" && ! umount "$dir"; then
		_lab_msg "$dir: configfs still in use; left mounted"
		return 1
	fi
	_reg_del configfs "$dir"
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
