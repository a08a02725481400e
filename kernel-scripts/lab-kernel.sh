#!/usr/bin/env bash
# lab-kernel.sh: make, use and tear down real devices for the contention lab.
#
#   status                 registry contents; which drivers are native, which need the guest
#   up SPEC...             make devices: zram:SIZE[:ALGO] | loop:SIZE[:partscan] | nullb:SIZE
#                          | cgroup:NAME[:WEIGHT]
#                          or a file holding such words (one or more a line, # comments)
#   down [DEV...]          remove the named lab devices, or everything `up` made
#   run SCENARIO [--quick] [--flamegraph] [--kernel debian|lab]
#                          run kernel-scripts/scenarios/SCENARIO/run.sh; --flamegraph adds a
#                          perf record -e cpu-clock -g run per workload (./lab draws the SVGs);
#                          --kernel lab boots the lab kernel where the scenario uses the guest;
#                          SCENARIO: smoke zram-floor zram-init-lock part-acct dm-css-ref
#                          thin-bufio-lock dm-blkcg-clone
#   build [--source 6.1|6.12 | --for FIX...]
#                          build the lab kernel (kernel/build.sh): Debian's linux-source with
#                          the fixes' switches (kernel/patches/V/), cached outside the clone;
#                          --for: each source the fixes' switches live in
#   lab-ab FIX [--quick]   FIX's switch A/B on the lab kernel in the guest (kernel/lab-ab.sh),
#                          on the source its switch lives in (thin-bufio-lock: 6.12, else 6.1)
#   overhead [--quick]     Debian's kernel against the lab kernel, switches at their defaults,
#                          and the lab kernel against itself without its tracing block (the
#                          contention events' cost when off; LAB_OVERHEAD_KERNELS picks)
#   refscale [--quick]     the kernel's own ns per operation in the guest on the lab kernel:
#                          refscale (built in) for refcnt rwsem lock mutex srcu acqrel empty, at
#                          1 reader and one a vCPU, a boot each (kernel/refscale.sh; into LAB_OUT)
#   jmh-guest [--kernel debian|lab] [--source 6.1|6.12]
#                          the JVM model's JMH runs in the guest on the A/B's vCPUs: each
#                          LAB_OUT/runs-*.txt (a JMH run a line) in one JVM (kernel/jmh.sh)
#   cleanup                remove everything in the registry (and the guest VM); idempotent
#   check DEV              exit 0 if the lab owns DEV, else refuse with exit 2
#   fill DEV [PATTERN]     write DEV once with fio (random, zero, compressible50, or N: compressible %)
#   iostats DEV 0|1        set queue/iostats, old value recorded and restored by cleanup
#   sched DEV SCHED        select an I/O scheduler, old one recorded and restored by cleanup
#   weight CGROUP DEV W    select BFQ on DEV, then weight CGROUP: blkio.bfq.weight (v1),
#                          io.bfq.weight (v2), io.weight (v2 without BFQ)
#
# Every command that writes, resizes, resets or removes a device checks the registry
# first and refuses anything else with exit 2, touching nothing. A DEV is a block device's
# path (/dev/loop1, /dev/mapper/NAME); a bare name (loop1) is refused the same way.
set -euo pipefail
shopt -s inherit_errexit # a failure inside $(...) fails the command that uses it

KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/common/rc.sh
. "$KS_DIR/common/rc.sh"

# header: the comment above, without its '# '.
header() { sed -n '2,/^set /s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

usage() {
	header
	exit "${1:-0}"
}

# cmd_usage CMD: CMD's lines of the header (its own line and the deeper ones that continue it);
# nothing for a word that is not a command.
cmd_usage() {
	header | awk -v cmd="$1" '/^  [^ ]/ { on = ($1 == cmd) } /^($|[^ ])/ { on = 0 } on'
}

# asks_help ARG...: true if any ARG is -h or --help.
asks_help() {
	local a
	for a in "$@"; do
		case $a in -h | --help) return 0 ;; esac
	done
	return 1
}

# help_and_exit CMD ARG...: CMD ... --help (or -h, anywhere after CMD) prints CMD's usage and
# exits 0 before anything is checked or done; otherwise returns.
help_and_exit() {
	local text
	asks_help "${@:2}" || return 0
	text=$(cmd_usage "$1")
	[ -n "$text" ] || return 0
	echo "usage: ./lab kernel (or kernel-scripts/lab-kernel.sh):"
	echo "$text"
	exit 0
}

need_root() { [ "$(id -u)" -eq 0 ] || { _lab_msg "needs root"; exit 1; }; }

cmd_status() {
	local d
	echo "registry: $LAB_REGISTRY"
	if [ -s "$LAB_REGISTRY" ]; then sed 's/^/  /' "$LAB_REGISTRY"; else echo "  (empty)"; fi
	echo "drivers:"
	for d in zram loop brd null_blk dm-mod dm-thin-pool; do
		case $(_mod_state "$d") in
		builtin) echo "  $d native (built in)" ;;
		loaded) echo "  $d native (module, loaded$(_reg_get module "$d" >/dev/null && echo ' by the lab'))" ;;
		loadable) echo "  $d native (module, not loaded: the lab loads it when it makes a device, and unloads it after)" ;;
		*) echo "  $d guest (not in this kernel)" ;;
		esac
	done
	if [ -x "$KS_DIR/guest/guest.sh" ]; then echo "guest: available"; else echo "guest: not available yet"; fi
	echo "cgroup: v$LAB_CG_VER at $LAB_BLKIO"
	_partial_runs | sed 's/^/unfinished run folder (in progress, or a run that died): /'
}

# bad_input MSG: one line naming the argument and what is allowed; exit 2, nothing made.
bad_input() {
	echo "lab-kernel: $* (see ./lab kernel --help)" >&2
	exit 2
}

# size_ok SIZE: a positive byte count that zram's disksize (memparse), truncate and null_blk read
# alike: digits, then an optional K, M, G or T.
size_ok() { [[ $1 =~ ^[1-9][0-9]*[KkMmGgTt]?$ ]]; }

# check_word WORD: refuse a WORD that up_word could not make, before anything is made.
check_word() {
	local w=$1 kind a b extra
	IFS=: read -r kind a b extra <<<"$w"
	case $kind in
	zram | loop | nullb)
		size_ok "$a" || bad_input "up $w: $kind needs a size, a positive number with an optional K, M, G or T suffix (e.g. $kind:256M)"
		;;
	cgroup)
		[[ $a =~ ^[A-Za-z0-9_.-]+$ ]] || bad_input "up $w: cgroup needs a name of letters, digits, '_', '.' or '-' (e.g. cgroup:a:500)"
		;;
	*) bad_input "up $w: unknown device kind '$kind'; one of zram:SIZE[:ALGO], loop:SIZE[:partscan], nullb:SIZE, cgroup:NAME[:WEIGHT]" ;;
	esac
	[ -z "$extra" ] || bad_input "up $w: too many ':' fields"
	case $kind:$b in
	*:) ;;
	zram:*) [[ $b =~ ^[a-z0-9-]+$ ]] || bad_input "up $w: '$b' is not a compression algorithm's name (e.g. zram:256M:lz4)" ;;
	loop:partscan) ;;
	loop:*) bad_input "up $w: loop takes only the option partscan" ;;
	nullb:*) bad_input "up $w: nullb takes no option" ;;
	cgroup:*)
		if ! [[ $b =~ ^[0-9]+$ ]] || [ "$b" -lt 1 ] || [ "$b" -gt 1000 ]; then
			bad_input "up $w: the weight must be 1..1000"
		fi
		;;
	esac
}

# up_word WORD: make one checked device, print its name.
up_word() {
	local w=$1 kind a b path
	IFS=: read -r kind a b <<<"$w"
	case $kind in
	zram) _zram_add "$a" "$b" ;;
	loop) _loop_add "$a" "$b" ;;
	nullb) _nullb_add "$a" ;;
	cgroup)
		path=$(_cgroup_add "$a")
		if [ -n "$b" ]; then _cgroup_set_weight "$path" "$b"; fi
		echo "$path"
		;;
	esac
}

# up_rollback: on a failed up, remove what this command added to the registry, newest first
# (the registry lines that were not there before it began), then exit with its status.
UP_BEFORE=
up_rollback() {
	local rc=$? kind name detail removed=()
	trap - EXIT
	[ "$rc" -ne 0 ] || exit 0
	while IFS=$'\t' read -r kind name detail; do
		[ -n "$kind" ] || continue
		if ! grep -qxF "$kind"$'\t'"$name"$'\t'"$detail" <<<"$UP_BEFORE"; then
			(_remove_entry "$kind" "$name") && removed+=("$name")
		fi
	done < <(tac "$LAB_REGISTRY")
	_lab_msg "up failed; removed what it had made: ${removed[*]:-nothing}"
	exit "$rc"
}

# cmd_up SPEC...: check every word (of the arguments, and of the files among them) first, then
# make them in order; a failure removes what this command made before it.
cmd_up() {
	local s w words=()
	[ $# -gt 0 ] || bad_input "up needs one or more of zram:SIZE[:ALGO], loop:SIZE[:partscan], nullb:SIZE, cgroup:NAME[:WEIGHT], or a file of them"
	for s in "$@"; do
		if [ -f "$s" ]; then
			# shellcheck disable=SC2013 # words, not lines: several may share a line
			for w in $(sed 's/#.*//' "$s"); do words+=("$w"); done
		else
			words+=("$s")
		fi
	done
	[ ${#words[@]} -gt 0 ] || bad_input "up: the spec files name no device"
	for w in "${words[@]}"; do check_word "$w"; done
	need_root
	_reg_init
	UP_BEFORE=$(cat "$LAB_REGISTRY")
	trap up_rollback EXIT
	for w in "${words[@]}"; do up_word "$w"; done
	trap - EXIT
}

# dev_arg CMD DEV: DEV, as a command's argument, must be a block device's path (/dev/...): a bare
# name (loop1) would reach fio as a file name in the current folder, a dm:NAME is no device node.
# Anything else is refused, exit 2, one line; whether the lab made it is asked next
# (_lab_require_owned, in the command's own function).
dev_arg() {
	case $2 in
	/dev/*) [ -b "$2" ] || _lab_refuse "$1: $2 is not a block device" ;;
	*) _lab_refuse "$1: '$2' is not a block device path (/dev/...)" ;;
	esac
}

cmd_down() {
	local d kind name
	need_root
	if [ $# -eq 0 ]; then
		_cleanup_all
		return
	fi
	for d in "$@"; do
		case $d in
		"$LAB_BLKIO"/*) _cgroup_remove "$d" ;;
		*)
			dev_arg down "$d"
			read -r kind name <<<"$(_dev_kind "$d")"
			case $kind in
			zram) _zram_remove "$name" ;;
			loop) _lab_require_owned "$name"; _loop_remove "$name" ;;
			nullb) _nullb_remove "$name" ;;
			dm) _dm_remove "$name" ;;
			brd) _brd_remove "$name" ;;
			*) _lab_require_owned "$d" ;;
			esac
			;;
		esac
	done
}

cmd_run() {
	local sc=${1:-} quick=0 flame=${LAB_FLAMEGRAPH:-0} kern=${LAB_GUEST_KERNEL:-debian} a
	[ -n "$sc" ] || bad_input "run needs a scenario"
	shift
	while [ $# -gt 0 ]; do
		a=$1
		shift
		case $a in
		--quick) quick=1 ;;
		--flamegraph) flame=1 ;;
		--kernel=*) kern=${a#--kernel=} ;;
		--kernel) [ $# -gt 0 ] || bad_input "run: --kernel needs debian or lab"; kern=$1; shift ;;
		*) bad_input "run: unknown option '$a' (--quick, --flamegraph, --kernel debian|lab)" ;;
		esac
	done
	case $kern in
	debian | lab) export LAB_GUEST_KERNEL=$kern ;;
	*) bad_input "run: --kernel must be debian or lab, not '$kern'" ;;
	esac
	sc=${sc%/}
	sc=${sc%.sh}
	if [[ $sc == */* ]] || [ ! -f "$KS_DIR/scenarios/$sc/run.sh" ]; then
		bad_input "run: no scenario '$sc'; one of $(cd "$KS_DIR/scenarios" && printf '%s\n' */ | tr -d / | xargs)"
	fi
	need_root
	LAB_QUICK=$quick LAB_FLAMEGRAPH=$flame exec bash "$KS_DIR/scenarios/$sc/run.sh"
}

main() {
	local cmd=${1:-}
	[ $# -gt 0 ] && shift
	help_and_exit "$cmd" "$@"
	case $cmd in
	status) cmd_status ;;
	up) cmd_up "$@" ;;
	down) cmd_down "$@" ;;
	run) cmd_run "$@" ;;
	build) exec bash "$KS_DIR/kernel/build.sh" build "$@" ;;
	lab-ab) exec bash "$KS_DIR/kernel/lab-ab.sh" "$@" ;;
	overhead) exec bash "$KS_DIR/kernel/overhead.sh" "$@" ;;
	refscale) exec bash "$KS_DIR/kernel/refscale.sh" "$@" ;;
	jmh-guest) exec bash "$KS_DIR/kernel/jmh.sh" "$@" ;;
	cleanup) need_root; _cleanup_all ;;
	check) [ $# -eq 1 ] || bad_input "check needs one device"; dev_arg check "$1"; _lab_require_owned "$1"; echo "$1: owned by the lab" ;;
	fill) [ $# -ge 1 ] || bad_input "fill needs a device"; dev_arg fill "$1"; need_root; _fill "$1" "${2:-50}" ;;
	iostats)
		if [ $# -ne 2 ] || [[ $2 != [01] ]]; then bad_input "iostats needs a device and 0 or 1"; fi
		dev_arg iostats "$1"; need_root; _sysfs_set "$1" iostats "$2"
		;;
	sched) [ $# -eq 2 ] || bad_input "sched needs a device and a scheduler"; dev_arg sched "$1"; need_root; _sched_set "$1" "$2" ;;
	weight)
		[ $# -eq 3 ] || bad_input "weight needs a cgroup, a device and a weight"
		dev_arg weight "$2"
		need_root
		_cgroup_weight "$1" "$2" "$3"
		;;
	-h | --help | help) usage 0 ;;
	'') bad_input "needs a command: status, up, down, run, build, lab-ab, overhead, refscale, jmh-guest, cleanup, check, fill, iostats, sched, weight" ;;
	*) bad_input "unknown command '$cmd'" ;;
	esac
}

main "$@"
