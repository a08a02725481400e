# shellcheck shell=bash
# common/dm.sh: device-mapper devices the lab makes (dm-linear), by name. Sourced by
# common/rc.sh; changes nothing by itself.
#
# A lab dm device is named lab-* with the uuid LAB-* and has the registry line "dm NAME UUID",
# written before dmsetup creates it (a run killed in between leaves a line that cleanup drops,
# never a device the registry does not know). dmsetup runs with DM_DISABLE_UDEV=1: it makes its
# /dev/mapper nodes itself and waits for no udev cookie (the guest has no udev); devices stack
# by major:minor.

# _dm ARGS...: dmsetup without udev
_dm() { DM_DISABLE_UDEV=1 dmsetup "$@"; }

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

# _dm_linear_add NAME BELOW: a dm-linear device NAME (lab-*, uuid LAB-*) mapping all of the block
# node BELOW from sector 0; print its node /dev/mapper/NAME. Refuses (exit 2) a name in use.
_dm_linear_add() {
	local name=$1 below=$2 uuid devt sectors
	case $name in lab-*) ;; *) _lab_msg "dm: the lab's names start with lab-: $name"; return 1 ;; esac
	uuid=LAB-${name#lab-}
	if _dm info "$name" >/dev/null 2>&1; then _lab_refuse "dm: $name exists already (lab-kernel.sh cleanup removes the lab's)"; fi
	devt=$(_dm_devt "$below")
	sectors=$(blockdev --getsz "$below")
	_reg_add dm "$name" "$uuid"
	if ! _dm create "$name" -u "$uuid" --table "0 $sectors linear $devt 0"; then
		_reg_del dm "$name"
		_lab_msg "dm: could not create $name over $below ($devt)"
		return 1
	fi
	_dm mknodes "$name"
	echo "/dev/mapper/$name"
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
