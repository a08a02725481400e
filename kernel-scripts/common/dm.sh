# shellcheck shell=bash
# common/dm.sh: device-mapper devices the lab makes (dm-linear, thin pools and thin volumes), by
# name. Sourced by common/rc.sh; changes nothing by itself.
#
# A lab dm device is named lab-* with the uuid LAB-* and has the registry line "dm NAME UUID",
# written before dmsetup creates it (a run killed in between leaves a line that cleanup drops,
# never a device the registry does not know). dmsetup runs with DM_DISABLE_UDEV=1: it makes its
# /dev/mapper nodes itself and waits for no udev cookie (the guest has no udev); devices stack
# by major:minor. A thin pool and its thin volumes are dm devices like the others (registry kind
# dm): removed newest first, so a thin volume goes before its pool.

# _dm ARGS...: dmsetup without udev. libdevmapper loads dm-mod itself (modprobe) when the kernel
# has it as a module nothing has loaded: a query then (a scenario's check of what is left, after
# the lab unloaded dm-mod) would load it again, for good. So while dm-mod is out, ls answers "No
# devices found" and info, table and status fail (no such device) without dmsetup. (With
# /sys/module/dm_mod there, dm-mod is in the kernel, loaded or built in: dmsetup at once, no
# _mod_state: a scenario queries dm dozens of times, and under TCG each _mod_state costs 0.4 s.)
_dm() {
	case $1 in
	ls | info | table | status)
		if [ ! -d "$LAB_SYS_MODULE/dm_mod" ] && [ "$(_mod_state dm-mod)" = loadable ]; then
			if [ "$1" = ls ]; then echo "No devices found"; return 0; fi
			return 1
		fi
		;;
	esac
	DM_DISABLE_UDEV=1 dmsetup "$@"
}

# _dm_devt NODE: "major:minor" of a block node: a /dev/mapper one through dmsetup, else sysfs.
_dm_devt() {
	case $1 in
	/dev/mapper/*) _dm info -c --noheadings -o major,minor --separator : "${1#/dev/mapper/}" | tr -d ' ' ;;
	*) cat "/sys/class/block/${1#/dev/}/dev" ;;
	esac
}

# _dm_kname NAME: the kernel's name of dm device NAME (dm-N), whose /sys/class/block has its stat.
_dm_kname() {
	local devt
	devt=$(_dm_devt "/dev/mapper/$1") || return 1
	basename "$(readlink -f "/sys/dev/block/$devt")"
}

# _dm_name_check NAME: return if NAME may become a lab dm device (lab-*, not in use); else fail
# (a bad name) or refuse (exit 2: a device of that name exists; with dm-mod not loaded, none can).
_dm_name_check() {
	case $1 in lab-*) ;; *) _lab_msg "dm: the lab's names start with lab-: $1"; return 1 ;; esac
	if _dm info "$1" >/dev/null 2>&1; then _lab_refuse "dm: $1 exists already (lab-kernel.sh cleanup removes the lab's)"; fi
}

# _dm_create NAME TABLE WHAT: dm-mod loaded where it is a module nothing has loaded (after every
# check of the callers: a refusal touches nothing; common/module.sh), the registry line
# "dm NAME LAB-..." first, then dmsetup create (the line dropped again if that fails), then its
# node; print /dev/mapper/NAME.
_dm_create() {
	local name=$1 table=$2 what=$3 uuid=LAB-${1#lab-}
	_mod_need dm-mod || return 1
	_reg_add dm "$name" "$uuid"
	if ! _dm create "$name" -u "$uuid" --table "$table"; then
		_reg_del dm "$name"
		_lab_msg "dm: could not create $name ($what: $table)"
		return 1
	fi
	_dm mknodes "$name"
	echo "/dev/mapper/$name"
}

# _dm_linear_add NAME BELOW [SECTORS]: a dm-linear device NAME (lab-*, uuid LAB-*) mapping the
# block node BELOW from sector 0, all of it or its first SECTORS; print its node
# /dev/mapper/NAME. Refuses (exit 2) a name in use.
_dm_linear_add() {
	local name=$1 below=$2 devt sectors
	_dm_name_check "$name" || return 1
	devt=$(_dm_devt "$below")
	sectors=${3:-$(blockdev --getsz "$below")}
	[[ $sectors =~ ^[1-9][0-9]*$ ]] || { _lab_msg "dm: bad length for $name: $sectors sectors"; return 1; }
	_dm_create "$name" "0 $sectors linear $devt 0" "dm-linear over $below"
}

# _dm_thin_pool_add NAME META DATA BLOCK_SECTORS LOW_WATER [FEATURE...]: a thin pool NAME (lab-*,
# uuid LAB-*) with metadata on the block node META and data on DATA (all of it), data blocks of
# BLOCK_SECTORS sectors, the low water mark LOW_WATER (data blocks) and the FEATUREs
# (skip_block_zeroing, ...); print /dev/mapper/NAME. META must be the lab's (it is written: its
# first 4 KiB zeroed, so the pool formats fresh metadata); so must DATA. Refuses (exit 2) a name
# in use or a device the lab did not make.
_dm_thin_pool_add() {
	local name=$1 meta=$2 data=$3 bs=$4 low=$5 sectors
	shift 5
	_dm_name_check "$name" || return 1
	[[ $bs =~ ^[1-9][0-9]*$ && $low =~ ^[0-9]+$ ]] || { _lab_msg "dm: bad block size or low water mark for $name: $bs $low"; return 1; }
	_lab_require_owned "$meta"
	_lab_require_owned "$data"
	# the thin-pool target: the lab loads it where it is a module, rather than leave the kernel's
	# autoload (at dmsetup create) to keep it loaded after; dm-mod first, as _dm_create would, so
	# that each has its own registry line whichever device came first
	_mod_need dm-mod || return 1
	_mod_need dm-thin-pool || return 1
	dd if=/dev/zero of="$meta" bs=4096 count=1 conv=fsync 2>/dev/null || { _lab_msg "dm: could not zero $meta's superblock"; return 1; }
	sectors=$(blockdev --getsz "$data")
	_dm_create "$name" "0 $sectors thin-pool $(_dm_devt "$meta") $(_dm_devt "$data") $bs $low $# $*" "thin pool over $meta (metadata), $data (data)"
}

# _dm_thin_add NAME POOL ID SECTORS: thin volume ID of the lab's thin pool POOL (a name or its
# /dev/mapper node) made (create_thin ID), then mapped as the dm device NAME (lab-*, uuid LAB-*)
# of SECTORS sectors; print /dev/mapper/NAME. Unprovisioned until written. Refuses (exit 2) a name
# in use or a pool the lab did not make.
_dm_thin_add() {
	local name=$1 pool=${2#/dev/mapper/} id=$3 sectors=$4
	_dm_name_check "$name" || return 1
	[[ $id =~ ^[0-9]+$ && $sectors =~ ^[1-9][0-9]*$ ]] || { _lab_msg "dm: bad thin id or length for $name: $id $sectors"; return 1; }
	_lab_require_owned "/dev/mapper/$pool"
	_dm message "$pool" 0 "create_thin $id" || { _lab_msg "dm: $pool: create_thin $id failed"; return 1; }
	_dm_create "$name" "0 $sectors thin $(_dm_devt "/dev/mapper/$pool") $id" "thin volume $id of $pool"
}

# _dm_remove NAME: remove the lab dm device NAME (retried while busy, up to 10 s: an opener that
# just exited may still hold it); drop its registry line.
_dm_remove() {
	local name=${1#/dev/mapper/} i
	name=${name#dm:}
	_reg_get dm "$name" >/dev/null || _lab_refuse "$name: dm device not made by the lab (not in $LAB_REGISTRY)"
	if command -v dmsetup >/dev/null 2>&1 && _dm info "$name" >/dev/null 2>&1; then
		_lab_require_owned "/dev/mapper/$name"
		for i in $(seq 1 50); do
			_dm remove "$name" 2>/dev/null && break
			[ "$i" -eq 50 ] && { _lab_msg "$name: still busy after 10 s"; return 1; }
			sleep 0.2
		done
	fi
	_reg_del dm "$name"
}
