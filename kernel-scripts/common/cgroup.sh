# shellcheck shell=bash
# common/cgroup.sh: the lab's io cgroups (v1 blkio or v2 io) and their BFQ or iocost weights.
# Sourced by common/rc.sh; changes nothing by itself (it only finds the hierarchy: LAB_BLKIO,
# LAB_CG_VER).

# The cgroup hierarchy with the io controller: v1 blkio where it is mounted, else the v2
# root (LAB_CGROUP2) where its cgroup.controllers lists io. LAB_BLKIO forces a v1 path.
if [ -n "${LAB_BLKIO:-}" ]; then
	LAB_CG_VER=1
elif [ -d /sys/fs/cgroup/blkio ]; then
	LAB_BLKIO=/sys/fs/cgroup/blkio LAB_CG_VER=1
else
	LAB_BLKIO=${LAB_CGROUP2:-/sys/fs/cgroup} LAB_CG_VER=2
fi

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
