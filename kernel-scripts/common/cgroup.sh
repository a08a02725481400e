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

# _cgroup_subtree_enable CTRL...: v2 only: make the controllers CTRL available to children of
# the root (+CTRL in cgroup.subtree_control). What the lab adds is recorded, so cleanup takes it
# away again (-CTRL) only where the lab was the one that added it: one registry line for the
# root's subtree_control, its detail the controllers the lab added there (io, or "io memory").
_cgroup_subtree_enable() {
	local ctl=$LAB_BLKIO/cgroup.subtree_control c add=() had
	[ "$LAB_CG_VER" = 2 ] || return 0
	for c in "$@"; do
		grep -qw "$c" "$ctl" && continue
		grep -qw "$c" "$LAB_BLKIO/cgroup.controllers" || { _lab_msg "cgroup v2 at $LAB_BLKIO has no $c controller"; return 1; }
		add+=("$c")
	done
	[ ${#add[@]} -gt 0 ] || return 0
	if had=$(_reg_get subtree "$ctl"); then
		_reg_set subtree "$ctl" "$had ${add[*]}"
	else
		_reg_add subtree "$ctl" "${add[*]}"
	fi
	echo "${add[*]/#/+}" >"$ctl"
}

# _cgroup_io_enable: v2 only: the io controller for children of the root (_cgroup_subtree_enable io)
_cgroup_io_enable() { _cgroup_subtree_enable io; }

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

# _subtree_restore CTL: take away the controllers the lab enabled in CTL (v2 subtree_control).
_subtree_restore() {
	local ctl=$1 c off=()
	c=$(_reg_get subtree "$ctl") || return 0
	case $ctl in */cgroup.subtree_control) ;; *) _lab_refuse "$ctl: not a cgroup.subtree_control" ;; esac
	read -r -a off <<<"$c"
	if [ -e "$ctl" ]; then echo "${off[*]/#/-}" >"$ctl" 2>/dev/null || _lab_msg "could not take $c away from $ctl (still in use?)"; fi
	_reg_del subtree "$ctl"
}

# _cgroup_io_stat_file CGROUP: the file with CGROUP's bytes per device (v2 io.stat: "MAJ:MIN
# rbytes=N wbytes=N ..."; v1 blkio.bfq.io_service_bytes, the bytes BFQ served the cgroup on each
# device where it schedules, else blkio.throttle.io_service_bytes: "MAJ:MIN Write N"; 6.18 fills
# the latter only for a cgroup with throttle limits), or nothing when it has none
_cgroup_io_stat_file() {
	local f
	for f in io.stat blkio.bfq.io_service_bytes blkio.throttle.io_service_bytes; do
		if [ -r "$1/$f" ]; then echo "$1/$f"; return; fi
	done
}

# _cgroup_wbytes FILE DEVT: the bytes written to the device DEVT (MAJ:MIN) that FILE (a copy of a
# _cgroup_io_stat_file, either format) counts; 0 when it has no line for DEVT
_cgroup_wbytes() {
	awk -v d="$2" '$1 == d && $2 == "Write" { n = $3 }
		$1 == d { for (i = 2; i <= NF; i++) if ($i ~ /^wbytes=/) n = substr($i, 8) }
		END { printf "%.0f\n", n }' "$1"
}
