# shellcheck shell=bash
# common/brd.sh: ram disks (brd) that the lab loads itself. Sourced by common/rc.sh; changes
# nothing by itself.
#
# brd has no hot-add: its disks are made when the module loads, with the module's rd_nr and
# rd_size. So the lab uses brd only where it loads the module itself (neither loaded nor built
# in): then every ram disk is the lab's. One registry line a disk, "brd ramN SIZE_KIB", written
# before the module loads (a run killed in between leaves a line that cleanup drops, never a
# disk the registry does not know); the module goes with the last line.

# _brd_add N SIZE: load brd with N ram disks of SIZE MiB each (suffix M or G accepted; in the
# guest through its labmod, else modprobe); print their nodes on one line, space-separated.
# Refuses (exit 2) when brd is loaded already: those ram disks are not the lab's.
_brd_add() {
	local n=$1 size=$2 mb kib i rc=0 nodes
	case $size in *G) mb=$((${size%G} * 1024)) ;; *M) mb=${size%M} ;; *) mb=$size ;; esac
	[[ $mb =~ ^[1-9][0-9]*$ && $n =~ ^[1-9][0-9]*$ ]] || { _lab_msg "brd: bad count or size: $n x $size"; return 1; }
	# On the lab kernel brd is built in with no disk (guest.sh): every ram disk is made by labmod.
	[ -d /sys/module/brd ] && ! _lab_kernel && _lab_refuse "brd is loaded already (or built in): its ram disks are not the lab's"
	kib=$((mb * 1024))
	for ((i = 0; i < n; i++)); do _reg_add brd "ram$i" "$kib"; done
	if command -v labmod >/dev/null 2>&1; then
		labmod brd rd_nr="$n" rd_size="$kib" max_part=0 || rc=$?
	else
		modprobe brd rd_nr="$n" rd_size="$kib" max_part=0 || rc=$?
	fi
	if [ "$rc" -ne 0 ]; then
		for ((i = 0; i < n; i++)); do _reg_del brd "ram$i"; done
		_lab_msg "brd: could not load the module (rd_nr=$n rd_size=$kib)"
		return 1
	fi
	if ! _lab_kernel; then
		_lab_msg "loaded module brd (rd_nr=$n rd_size=$kib): the lab unloads it with its last ram disk"
		_mod_log "loaded brd: brd"
	fi
	nodes=()
	for ((i = 0; i < n; i++)); do nodes+=("/dev/ram$i"); done
	echo "${nodes[*]}"
}

# _lab_kernel: true in a guest booted on the lab kernel (built-in brd: its disks stay until
# poweroff, and are the lab's).
_lab_kernel() { grep -qw 'lab.kernel=lab' /proc/cmdline 2>/dev/null; }

# _brd_remove NAME: drop ramN's registry line; with the last one, unload brd (retried while
# something still holds a disk, up to 10 s; the line stays if it cannot go).
_brd_remove() {
	local name=${1#/dev/} i
	_reg_get brd "$name" >/dev/null || _lab_refuse "$name: ram disk not made by the lab (not in $LAB_REGISTRY)"
	if [ -e "/sys/block/$name" ]; then _lab_require_owned "/dev/$name"; fi
	if [ "$(awk -F'\t' '$1 == "brd"' "$LAB_REGISTRY" | wc -l)" -eq 1 ] && [ -d /sys/module/brd ] && ! _lab_kernel; then
		for i in $(seq 1 50); do
			rmmod brd 2>/dev/null && break
			[ "$i" -eq 50 ] && { _lab_msg "brd: still in use after 10 s"; return 1; }
			sleep 0.2
		done
		_mod_log "unloaded brd: brd"
	fi
	_reg_del brd "$name"
}
