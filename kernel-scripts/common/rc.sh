# shellcheck shell=bash
# common/rc.sh: shared helpers for kernel-scripts, blktests style.
#
# Source it; it defines no traps and changes no device by itself. It holds messages,
# predicates, the registry, ownership, cleanup and the scenario and test helpers, and sources
# the rest of common/, one file per device or concern: zram.sh, loop.sh, null_blk.sh,
# partition.sh, sysfs.sh, cgroup.sh, fs.sh (filesystems, mounts, dirty limits), fio.sh (_fill),
# perf.sh (counters, kernel flamegraphs), jvm.sh (the bridge jar), brd.sh and dm.sh (ram disks,
# dm-linear), guest-scenario.sh (the scaffolding of the scenarios with a guest half), so that
# `. common/rc.sh` gives a script everything.
#
# Safety rule: every function that writes, resizes, resets or removes a device first
# calls _lab_require_owned, which refuses (message on stderr, exit 2, nothing touched)
# anything not recorded in the registry $LAB_STATE/kernel/registry.
#
# Registry: one line per object the lab made or changed, "kind<TAB>name<TAB>detail":
#   zram    zram3                                   -              (index hot-added by the lab)
#   loop    /dev/loop5                              <backing file under $LAB_STATE/kernel/loop>
#   nullb   nullb1                                  <configfs dir /sys/kernel/config/nullb/lab-*>
#   cgroup  /sys/fs/cgroup/blkio/lab-x              -              (v1; v2: /sys/fs/cgroup/lab-x)
#   subtree /sys/fs/cgroup/cgroup.subtree_control   io             (v2: +io enabled by the lab;
#                                                                   "io memory": both)
#   sysfs   /sys/block/loop5/queue/iostats          <old value>
#   sched   /sys/block/loop5/queue/scheduler        <old scheduler>
#   brd     ram0                                    <rd_size KiB>  (brd loaded by the lab)
#   dm      lab-lin1                                LAB-lin1       (its uuid)
#   module  dm-thin-pool                            dm_thin_pool,dm_persistent_data,...
#                                                                  (loaded by the lab with what came
#                                                                   with it, newest first; module.sh)
#   configfs /sys/kernel/config                     -              (mounted by the lab; null_blk.sh)
#   mount   $LAB_KDIR/mnt/lab-XXXXXX                <the device>   (a lab device mounted; fs.sh)
#   mount   $LAB_KDIR/loop/lab-tmpfs-XXXXXX         tmpfs          (a tmpfs for loop files; fs.sh)
#   dirty   /proc/sys/vm/dirty_bytes                ratio=20       (or bytes=N: what to write back;
#                                                                   dirty_background_bytes too)
# Lines are appended in creation order; cleanup undoes them in reverse order.

LAB_ROOT=${LAB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
LAB_STATE=${LAB_STATE:-$LAB_ROOT/.lab}
LAB_KDIR=$LAB_STATE/kernel
LAB_REGISTRY=$LAB_KDIR/registry
LAB_NULLB=${LAB_NULLB:-/sys/kernel/config/nullb}
export LAB_ROOT LAB_STATE

# ---------------------------------------------------------------- messages, predicates

_lab_msg() { echo "lab-kernel: $*" >&2; }

# _lab_refuse MSG: the one way to say no. Exit 2, nothing touched.
_lab_refuse() {
	echo "lab-kernel: refused: $*" >&2
	exit 2
}

# _lab_quick_opt USAGE ARG...: sets quick=1 for --quick, 0 without; any other ARG is refused
# (exit 2) with USAGE ("refscale [--quick]"), its first word naming the command.
# shellcheck disable=SC2034 # quick is the caller's
_lab_quick_opt() {
	local usage=$1 a
	shift
	quick=0
	for a in "$@"; do
		case $a in
		--quick) quick=1 ;;
		*) _lab_refuse "${usage%% *}: unknown option '$a' (usage: $usage)" ;;
		esac
	done
}

# _skip REASON: print the skip line and end the test with success.
_skip() {
	echo "SKIP: $*"
	exit 0
}

_have_root() { [ "$(id -u)" -eq 0 ] || _skip "needs root"; }

_have_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || _skip "command $c is not installed"
	done
}

# _driver_native NAME: true if the running kernel has driver NAME: built in, loaded, or a module
# modprobe can load (the device helpers load it on first use: common/module.sh). NAME: zram, loop,
# brd, null_blk, dm-mod (or dm), dm-thin-pool, or any module name.
_driver_native() {
	local m=$1
	[ "$m" = dm ] && m=dm-mod
	[ "$(_mod_state "$m")" != absent ]
}

_have_driver() {
	local d
	for d in "$@"; do
		_driver_native "$d" || _skip "driver $d is not in this kernel"
	done
}

# _have_cgroup_io: the io controller is usable (v1 blkio mounted, or v2 listing io).
_have_cgroup_io() {
	if [ "$LAB_CG_VER" = 1 ]; then
		[ -d "$LAB_BLKIO" ] || _skip "blkio cgroup v1 is not mounted at $LAB_BLKIO"
	else
		grep -qw io "$LAB_BLKIO/cgroup.controllers" 2>/dev/null ||
			_skip "neither blkio (v1) nor cgroup v2 with the io controller at $LAB_BLKIO"
	fi
}

# _have_bridge: the bridge can run here (LAB_JDK and native-bridge/target/bridge.jar; common/jvm.sh).
_have_bridge() {
	local why
	why=$(_lab_bridge_why_not)
	[ -z "$why" ] || _skip "$why"
}

# _have_guest: this test can boot the guest VM: root, qemu, and a built guest (or apt knows the
# kernel package to build one from).
_have_guest() {
	_have_root
	_have_cmd qemu-system-x86_64
	[ -f "$LAB_STATE/guest/initramfs.cpio" ] || apt-cache show linux-image-amd64 >/dev/null 2>&1 ||
		_skip "no built guest and linux-image-amd64 not known to apt (no Debian mirror?)"
}

# _have_lab_kernel V: the V lab kernel is in the machine's cache (kernel/build.sh path), or its
# build would be incremental (build.sh warm: an earlier build's work tree is kept, so a changed
# patch or config rebuilds what it touches), or this run may build it whole (LAB_TEST_LAB_KERNELS=1:
# `./lab test --lab-kernels`); else skip, saying how to get it: a whole build does not fit.
_have_lab_kernel() {
	[ -f "/usr/src/linux-source-$1.tar.xz" ] || _skip "linux-source-$1 is not installed"
	[ -n "${LAB_TEST_LAB_KERNELS:-}" ] && return 0
	bash "$KS_DIR/kernel/build.sh" path --source "$1" >/dev/null 2>&1 && return 0
	bash "$KS_DIR/kernel/build.sh" warm --source "$1" >/dev/null 2>&1 ||
		_skip "the $1 lab kernel is not built; ./lab test --lab-kernels or ./lab kernel build --source $1 builds it, in 11-23 min of 2 cores here"
}

# _guest_test_run SCRIPT OUT: boot the guest on SCRIPT, its results in OUT; if the run fails,
# print guest.sh's messages (a hung or failed guest's console tail among them) and fail the test.
_guest_test_run() {
	local log
	log=$(mktemp)
	if ! "$KS_DIR/guest/guest.sh" run "$1" "$2" >"$log" 2>&1; then
		cat "$log" >&2
		rm -f "$log"
		exit 1
	fi
	rm -f "$log"
}

# ---------------------------------------------------------------- registry

# _reg_lock: take the registry lock on fd 9. Where there is no flock (Debian's busybox-static,
# i.e. the guest, where one script runs at a time) the lock is skipped.
_reg_lock() {
	if command -v flock >/dev/null 2>&1; then flock 9; fi
}

_reg_init() {
	mkdir -p "$LAB_KDIR/loop"
	[ -e "$LAB_REGISTRY" ] || : >"$LAB_REGISTRY"
}

# _reg_add KIND NAME DETAIL
_reg_add() {
	_reg_init
	(
		_reg_lock
		printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$LAB_REGISTRY"
	) 9>"$LAB_REGISTRY.lock"
}

# _reg_del KIND NAME
_reg_del() {
	[ -e "$LAB_REGISTRY" ] || return 0
	(
		_reg_lock
		awk -F'\t' -v k="$1" -v n="$2" '!($1 == k && $2 == n)' "$LAB_REGISTRY" >"$LAB_REGISTRY.new"
		mv "$LAB_REGISTRY.new" "$LAB_REGISTRY"
	) 9>"$LAB_REGISTRY.lock"
}

# _reg_set KIND NAME DETAIL: the entry's DETAIL replaced, where the line stands (cleanup's order
# is the lines' order).
_reg_set() {
	(
		_reg_lock
		awk -F'\t' -v k="$1" -v n="$2" -v d="$3" 'BEGIN { OFS = "\t" } $1 == k && $2 == n { $3 = d } { print }' \
			"$LAB_REGISTRY" >"$LAB_REGISTRY.new"
		mv "$LAB_REGISTRY.new" "$LAB_REGISTRY"
	) 9>"$LAB_REGISTRY.lock"
}

# _reg_get KIND NAME: print DETAIL and succeed if the entry exists.
_reg_get() {
	[ -e "$LAB_REGISTRY" ] || return 1
	awk -F'\t' -v k="$1" -v n="$2" '$1 == k && $2 == n { print $3; f = 1; exit } END { exit !f }' "$LAB_REGISTRY"
}

# ---------------------------------------------------------------- ownership

# _dev_kind DEV: "KIND NAME" for a device path or name (zram zram3, loop /dev/loop5, brd ram0,
# dm NAME, other DEV).
_dev_kind() {
	local d=$1
	case $d in
	/dev/zram[0-9]* | zram[0-9]*) echo "zram ${d#/dev/}" ;;
	/dev/loop[0-9]* | loop[0-9]*) echo "loop /dev/${d#/dev/}" ;;
	/dev/nullb[0-9]* | nullb[0-9]* | /dev/labnb* | labnb*) echo "nullb ${d#/dev/}" ;;
	/dev/ram[0-9]* | ram[0-9]*) echo "brd ${d#/dev/}" ;;
	/dev/mapper/*) echo "dm ${d#/dev/mapper/}" ;;
	/dev/dm-[0-9]* | dm-[0-9]*)
		local n=${d#/dev/}
		if [ -r "/sys/block/$n/dm/name" ]; then echo "dm $(cat "/sys/block/$n/dm/name")"; else echo "dm $n"; fi
		;;
	dm:*) echo "dm ${d#dm:}" ;;
	*) echo "other $d" ;;
	esac
}

# _dev_kname DEV: the kernel's name of block device DEV (zram3, loop1, dm-4, nullb0, sda1) for a
# name, a /dev node (/dev/mapper/NAME too: through its major:minor) or dm:NAME; fails when DEV is
# no block device here.
_dev_kname() {
	local d=${1#/dev/} t ma mi
	case $1 in dm:*) d=mapper/${1#dm:} ;; esac
	if [ "${d#*/}" = "$d" ] && [ -e "/sys/class/block/$d/dev" ]; then echo "$d"; return 0; fi
	[ -b "/dev/$d" ] || return 1
	read -r ma mi < <(stat -L -c '%t %T' "/dev/$d") || return 1
	t=$(readlink -f "/sys/dev/block/$((16#$ma)):$((16#$mi))") || return 1
	[ -e "$t/dev" ] || return 1
	basename "$t"
}

# _dev_numbers DEV: "MAJ:MIN" of DEV and of each of its own partitions, one a line (nothing when
# DEV is no block device here)
_dev_numbers() {
	local kn p
	kn=$(_dev_kname "$1") || return 0
	cat "/sys/class/block/$kn/dev"
	for p in "/sys/class/block/$kn"/*/partition; do
		if [ -e "$p" ]; then cat "${p%/partition}/dev"; fi
	done
}

# _dev_mounted DEV: true if DEV itself or one of its own partitions is mounted (a mountinfo line
# with its major:minor, or whose source node is it) or used as swap; exact: loop10 mounted is not
# loop1's business, nor loop1's partition loop1p1 anyone else's. A DEV that is no block device
# here is matched by its node's name alone.
_dev_mounted() {
	local nums src ma mi
	nums=$(_dev_numbers "$1")
	if [ -z "$nums" ]; then
		awk -v n="/dev/${1#/dev/}" '$1 == n { f = 1 } END { exit !f }' /proc/mounts /proc/swaps
		return
	fi
	awk -v nums="$nums" 'BEGIN { n = split(nums, a, "\n"); for (i = 1; i <= n; i++) want[a[i]] = 1 }
		want[$3] { f = 1 } END { exit !f }' /proc/self/mountinfo && return 0
	# a source node (btrfs and its kind show an anonymous 0:NN in mountinfo); a swap device
	while read -r src; do
		[ -b "$src" ] || continue
		read -r ma mi < <(stat -L -c '%t %T' "$src") || continue
		if grep -qxF "$((16#$ma)):$((16#$mi))" <<<"$nums"; then return 0; fi
	done < <(awk '$1 ~ /^\// { print $1 }' /proc/mounts; awk 'NR > 1 && $1 ~ /^\// { print $1 }' /proc/swaps)
	return 1
}

# _lab_require_owned DEV: return if the lab made DEV, else refuse (exit 2).
# dm names additionally need the lab's uuid prefix (LAB-) when the kernel shows one.
_lab_require_owned() {
	local dev=$1 kind name detail bf
	read -r kind name <<<"$(_dev_kind "$dev")"
	case $kind in
	zram)
		_reg_get zram "$name" >/dev/null || _lab_refuse "$dev: zram device not hot-added by the lab (not in $LAB_REGISTRY)"
		;;
	loop)
		detail=$(_reg_get loop "$name") || _lab_refuse "$dev: loop device not attached by the lab (not in $LAB_REGISTRY)"
		bf=$(cat "/sys/block/${name#/dev/}/loop/backing_file" 2>/dev/null || true)
		[ "$bf" = "$detail" ] || _lab_refuse "$dev: backing file '${bf:-none}' is not the lab's '$detail'"
		case $bf in "$LAB_KDIR"/loop/*) ;; *) _lab_refuse "$dev: backing file $bf is outside $LAB_KDIR/loop" ;; esac
		;;
	nullb)
		detail=$(_reg_get nullb "$name") || _lab_refuse "$dev: null_blk device not made by the lab (not in $LAB_REGISTRY)"
		case $detail in "$LAB_NULLB"/labnb*) ;; *) _lab_refuse "$dev: configfs dir $detail is not a lab one" ;; esac
		[ "$name" = "${detail##*/}" ] || [ "$(cat "$detail/index" 2>/dev/null)" = "${name#nullb}" ] ||
			_lab_refuse "$dev: $detail no longer backs $name"
		;;
	brd)
		_reg_get brd "$name" >/dev/null || _lab_refuse "$dev: ram disk not made by the lab (brd not loaded by it; not in $LAB_REGISTRY)"
		;;
	dm)
		_reg_get dm "$name" >/dev/null || _lab_refuse "$dev: dm device $name has no lab uuid and is not in $LAB_REGISTRY"
		if command -v dmsetup >/dev/null 2>&1 && detail=$(_dm info -c --noheadings -o uuid "$name" 2>/dev/null); then
			case $detail in LAB-* | "") ;; *) _lab_refuse "$dev: its dm uuid $detail is not a lab one (LAB-*)" ;; esac
		fi
		;;
	*)
		_lab_refuse "$dev: not a device the lab makes (zram, loop, nullb, brd, dm) and not in $LAB_REGISTRY"
		;;
	esac
	if _dev_mounted "$dev"; then _lab_refuse "$dev: mounted or in use as swap"; fi
	return 0
}

# ---------------------------------------------------------------- cleanup

# _guest_stop: kill the guest VM if its pid file names a live qemu process.
_guest_stop() {
	local pidf=$LAB_KDIR/guest/qemu.pid pid i
	[ -e "$pidf" ] || return 0
	pid=$(cat "$pidf")
	if [ -n "$pid" ] && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == qemu* ]]; then
		kill "$pid" 2>/dev/null || true
		for i in $(seq 1 50); do
			[ -d "/proc/$pid" ] || break
			[ "$i" -eq 25 ] && kill -KILL "$pid" 2>/dev/null
			sleep 0.2
		done
	fi
	rm -f "$pidf"
}

# _partial_runs: run folders still named .partial (a run in progress, or one that died):
# RUN.partial from the scripts, .RUN.partial from the lab's Java commands.
# Status and cleanup name them; nothing here deletes results.
_partial_runs() {
	local d
	local r=${LAB_RESULTS:-$LAB_ROOT/results}
	for d in "$r"/*.partial "$r"/.*.partial; do
		if [ -d "$d" ]; then echo "$d"; fi
	done
}

# _remove_entry KIND NAME: undo one registry line.
_remove_entry() {
	case $1 in
	zram) _zram_remove "$2" ;;
	loop) _loop_remove "$2" ;;
	nullb) _nullb_remove "$2" ;;
	dm) _dm_remove "$2" ;;
	brd) _brd_remove "$2" ;;
	module) _mod_remove "$2" ;;
	configfs) _configfs_umount "$2" ;;
	cgroup) _cgroup_remove "$2" ;;
	subtree) _subtree_restore "$2" ;;
	mount) _mount_remove "$2" ;;
	dirty) _dirty_restore "$2" ;;
	sysfs | sched) _restore "$1" "$2" ;;
	*) _lab_msg "unknown registry kind $1 ($2); dropping the line"; _reg_del "$1" "$2" ;;
	esac
}

# _cleanup_all: undo every registry line, newest first; idempotent. Returns 1 if any stays.
_cleanup_all() {
	local kind name detail rc=0 d
	_guest_stop
	_partial_runs | sed 's/^/lab-kernel: kept (a run in progress or one that died; results are never deleted): /' >&2
	for d in $(_loop_orphans); do
		_reg_get loop "$d" >/dev/null || _reg_add loop "$d" "$(cat "/sys/block/${d#/dev/}/loop/backing_file")"
	done
	[ -s "$LAB_REGISTRY" ] || return 0
	while IFS=$'\t' read -r kind name detail; do
		[ -n "$kind" ] || continue
		# each in a subshell: a refusal (exit 2) must not stop the rest
		(_remove_entry "$kind" "$name") || rc=1
	done < <(tac "$LAB_REGISTRY")
	: "$detail"
	if [ "$rc" -eq 0 ]; then rm -f "$LAB_KDIR"/loop/lab-*.img; fi
	return "$rc"
}

# ---------------------------------------------------------------- scenarios

# A scenario appends "kind name" to MADE for each object it makes; _scenario_traps installs
# the EXIT/INT/TERM traps that end its background jobs, then remove them newest first (and the
# scratch folder FLAME_TMP).
# _made_remove does the same on the way out of a good run and returns 1 if any stays.
MADE=()
FLAME_TMP=

_made_remove() {
	local i ok=0
	for ((i = ${#MADE[@]} - 1; i >= 0; i--)); do
		(_remove_entry "${MADE[i]%% *}" "${MADE[i]#* }") || ok=1
	done
	MADE=()
	_mod_scenario_remove || ok=1
	return "$ok"
}

# A scenario's processes carry its mark in their environment: LAB_SCENARIO, exported by
# _scenario_traps and inherited through perf, fio, the bridge and qemu (the way Jenkins'
# ProcessTreeKiller finds what a build left running). Once the script's own jobs have ended, a
# process that still carries the mark is a stray. fio makes one: it forks a process per job,
# which blocks SIGINT and SIGTERM until its parent lets it start; a Ctrl-C that ends the parent
# in that window leaves the job waiting on a futex for ever, reparented to init (1 run in 8 of
# test 033 beside two busy loops on 2 cores, 2026-12-07; 0 in 8 unloaded).
# _scenario_strays: SIGKILL each stray (the only signal it takes, and nothing is left to read
# what it would write) and say which.
_scenario_strays() {
	local f p cmd
	[ -n "${LAB_SCENARIO:-}" ] || return 0
	for f in $(grep -lzxF "LAB_SCENARIO=$LAB_SCENARIO" /proc/[0-9]*/environ 2>/dev/null || true); do
		p=${f#/proc/}
		p=${p%/environ}
		# this shell's environ is the one it was started with, without the mark; the grep above
		# has the mark and has ended: what is still there is what the run left
		if [ "$p" = "$$" ] || [ ! -e "/proc/$p" ]; then continue; fi
		cmd=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null || true)
		kill -KILL "$p" 2>/dev/null || continue
		_lab_msg "killed a process the run left behind: $p ${cmd% }"
	done
}

_scenario_teardown() {
	local rc=$? pids
	# a second Ctrl-C (or a SIGTERM) while tearing down is ignored: the teardown finishes
	trap - EXIT
	trap '' INT TERM
	# a workload stopped by a signal ends the script through set -e, and bash does not run its
	# own INT trap when the workload handled the SIGINT itself (perf stat exits 128, fio 130):
	# a status of 128 or more from a workload is an interrupted run all the same
	if [ "$rc" -ge 128 ] && [ "$rc" -lt 160 ]; then
		_scenario_mark "$( ((rc > 128)) && kill -l $((rc - 128)) || echo INT)"
	fi
	# a workload still running in the background (a run cut short) ends before its devices go
	pids=$(jobs -p)
	if [ -n "$pids" ]; then
		# shellcheck disable=SC2086 # one pid a word
		kill $pids 2>/dev/null || true
		# shellcheck disable=SC2086
		wait $pids 2>/dev/null || true
	fi
	_scenario_strays
	if [ -n "$FLAME_TMP" ]; then rm -rf "$FLAME_TMP"; fi
	_made_remove || rc=1
	exit "$rc"
}

# _scenario_interrupted SIGNAL CODE: a scenario stopped by SIGINT or SIGTERM says so in its run
# folder (OUT, which stays unrenamed: RUN.partial) and exits CODE (130, 143); the EXIT trap then
# ends its workloads and removes what it made.
_scenario_interrupted() {
	trap '' INT TERM
	_scenario_mark "$1"
	exit "$2"
}

# _scenario_mark SIGNAL: write OUT/INTERRUPTED (once) and say so
_scenario_mark() {
	[ -z "${SCENARIO_MARKED:-}" ] || return 0
	SCENARIO_MARKED=1
	if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then
		echo "interrupted by SIG$1 at $(date -u +%Y-%m-%dT%H:%M:%SZ): the run did not finish; the devices it made were removed" >"$OUT/INTERRUPTED"
	fi
	_lab_msg "interrupted by SIG$1: stopping the run and removing what it made"
}

_scenario_traps() {
	LAB_SCENARIO=$$.$(date +%s%N)
	export LAB_SCENARIO
	_mod_scenario_mark
	FLAME_TMP=$(mktemp -d)
	trap _scenario_teardown EXIT
	trap '_scenario_interrupted INT 130' INT
	trap '_scenario_interrupted TERM 143' TERM
}

# A part of a scenario that fails (a guest half that wrote no exit status, exited non-zero or timed
# out) does not take the other parts' results with it: the scenario goes on, publishes its folder,
# and _part_failed records the failure there, one line "PART: WHY" in OUT/FAILED; the scenario's
# last word (_scenario_done) is then a failure, exit 1. A part skipped for a stated reason (no
# guest VM here, LAB_NO_GUEST=1, not needed) is no failure.
PARTS_FAILED=0

# _part_failed PART WHY: record PART's failure in OUT/FAILED and say so
_part_failed() {
	PARTS_FAILED=$((PARTS_FAILED + 1))
	if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then echo "$1: $2" >>"$OUT/FAILED"; fi
	_lab_msg "part failed: $1: $2"
}

# _scenario_done WHO DIR: a scenario's last word: "done, results in DIR", or, where a part failed
# (_part_failed), that DIR/FAILED says which and why, and exit 1
_scenario_done() {
	if [ "$PARTS_FAILED" -gt 0 ]; then
		_lab_msg "$1: $PARTS_FAILED part(s) failed ($2/FAILED says which and why); the other parts' results are in $2"
		exit 1
	fi
	_lab_msg "$1: done, results in $2"
}

# _left_say ITEM...: a scenario's left_after: the ITEMs (what of its own objects is still there)
# comma-joined, or "nothing"
_left_say() {
	if [ $# -eq 0 ]; then echo nothing; else (IFS=,; echo "$*") | sed 's/,/, /g'; fi
}

# ---------------------------------------------------------------- tests

# _test_begin: give this test its own LAB_STATE (so its cleanup never meets the lab's
# real registry) and undo everything in it on exit. A test may define _test_cleanup,
# run first by the trap.
_test_begin() {
	LAB_STATE=$(mktemp -d /tmp/lab-test.XXXXXX)
	LAB_KDIR=$LAB_STATE/kernel
	LAB_REGISTRY=$LAB_KDIR/registry
	export LAB_STATE
	_reg_init
	trap _test_end EXIT
}

# _test_begin_guest: _test_begin, the test's own state sharing the lab's guest image cache
# (LAB_STATE/guest), so the tests that boot the guest build it at most once
_test_begin_guest() {
	local real_state=$LAB_STATE
	_test_begin
	mkdir -p "$real_state/guest"
	ln -s "$real_state/guest" "$LAB_STATE/guest"
}

_test_end() {
	local rc=$?
	trap - EXIT
	if declare -F _test_cleanup >/dev/null; then _test_cleanup || true; fi
	(_cleanup_all) || rc=1
	rm -rf "$LAB_STATE"
	exit "$rc"
}

# _test_guest_files NATIVE OUT SCENARIO: the line saying whether OUT/guest has the guest's
# console.log, guest.txt, guest-run.log and SCENARIO-guest.txt (its facts), where the runs ran in
# the guest (NATIVE 0; natively there is nothing to have)
_test_guest_files() {
	local f ok=yes
	if [ "$1" = 0 ]; then
		for f in console.log guest.txt guest-run.log "$3-guest.txt"; do [ -f "$2/guest/$f" ] || ok=no; done
	fi
	echo "guest/ has its console, guest.txt, log and facts where the guest ran: $ok"
}

# _test_native DRIVER...: 1 if a scenario needing DRIVERs (brd, dm-mod, ...) runs natively here
# (_dm_native_why: each in this kernel, brd not loaded, dmsetup there), else 0 (the guest VM);
# LAB_TEST_NATIVE=1 (test 034, inside the guest playing a user's host) makes it 1 whatever this
# kernel has, so a run that went elsewhere fails its test
_test_native() {
	if [ "${LAB_TEST_NATIVE:-0}" = 1 ] || [ -z "$(_dm_native_why "$@")" ]; then echo 1; else echo 0; fi
}

# _test_mods_begin: note the modules loaded now; _test_mods_left: the line saying which modules
# loaded since are still loaded ("none": the lab unloaded what it loaded)
TEST_MODS=
_test_mods_begin() { TEST_MODS=$(_mod_list | sort); }
_test_mods_left() {
	local left
	left=$(comm -13 <(printf '%s\n' "$TEST_MODS") <(_mod_list | sort) | paste -sd' ' -)
	echo "modules loaded since the test began and left loaded: ${left:-none}"
}

# _root_source: what / is mounted from, the last mount over it (/proc/mounts: the guest's busybox
# has no findmnt), a btrfs subvolume's "[/@]" suffix stripped
_root_source() {
	local src
	src=$(awk '$2 == "/" { s = $1 } END { print s }' /proc/mounts)
	echo "${src%%\[*}"
}

# _root_disk: the whole disk under / (/dev/NAME), through a partition, LVM or any dm stack: lsblk's
# inverse tree from /'s device down to its first "disk" (else its bottom: a loop); nothing when /
# is not on a block device (the guest's, whose / is in memory)
_root_disk() {
	local src
	src=$(_root_source)
	[ -b "$src" ] || return 0
	if ! command -v lsblk >/dev/null; then
		echo "$src"
		return 0
	fi
	lsblk -nsro NAME,TYPE "$src" 2>/dev/null |
		awk '$2 == "disk" { print "/dev/" $1; found = 1; exit } { last = $1 } END { if (!found && last != "") print "/dev/" last }'
}

# _expect_refusal WHAT CMD...: run CMD and print "WHAT: exit N", with why when it failed: ", refused"
# for the lab's refusal (a "lab-kernel: refused:" line, _lab_refuse), else its first line on
# stderr ($LAB_STATE written so, for a golden output). Exit 2 alone is no proof: it is also lab-kernel.sh's bad input and bash's misuse.
# With REFUSAL_WHY=1 a refusal prints its reason too (", refused: WHY"), for a test in which which
# check refused is the point: one device of several foreign, say.
_expect_refusal() {
	local what=$1 rc=0 err
	shift
	err=$("$@" 2>&1 >/dev/null) || rc=$?
	if [ "$rc" = 0 ]; then
		echo "$what: exit 0"
	elif grep -q '^lab-kernel: refused: ' <<<"$err"; then
		if [ "${REFUSAL_WHY:-0}" = 1 ]; then
			err=$(sed -n 's/^lab-kernel: refused: //p' <<<"$err" | head -n 1)
			if [ -n "${LAB_STATE:-}" ]; then err=${err//"$LAB_STATE"/\$LAB_STATE}; fi
			echo "$what: exit $rc, refused: $err"
		else
			echo "$what: exit $rc, refused"
		fi
	else
		err=$(head -n 1 <<<"$err")
		if [ -n "${LAB_STATE:-}" ]; then err=${err//"$LAB_STATE"/\$LAB_STATE}; fi
		echo "$what: exit $rc: $err"
	fi
}

# ---------------------------------------------------------------- the rest of common/

# One file per device or concern (blktests' common/); each only defines.
LAB_COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/module.sh
. "$LAB_COMMON/module.sh"
# shellcheck source=SCRIPTDIR/zram.sh
. "$LAB_COMMON/zram.sh"
# shellcheck source=SCRIPTDIR/loop.sh
. "$LAB_COMMON/loop.sh"
# shellcheck source=SCRIPTDIR/null_blk.sh
. "$LAB_COMMON/null_blk.sh"
# shellcheck source=SCRIPTDIR/partition.sh
. "$LAB_COMMON/partition.sh"
# shellcheck source=SCRIPTDIR/sysfs.sh
. "$LAB_COMMON/sysfs.sh"
# shellcheck source=SCRIPTDIR/cgroup.sh
. "$LAB_COMMON/cgroup.sh"
# shellcheck source=SCRIPTDIR/fs.sh
. "$LAB_COMMON/fs.sh"
# shellcheck source=SCRIPTDIR/fleet.sh
. "$LAB_COMMON/fleet.sh"
# shellcheck source=SCRIPTDIR/fio.sh
. "$LAB_COMMON/fio.sh"
# shellcheck source=SCRIPTDIR/perf.sh
. "$LAB_COMMON/perf.sh"
# shellcheck source=SCRIPTDIR/jvm.sh
. "$LAB_COMMON/jvm.sh"
# shellcheck source=SCRIPTDIR/brd.sh
. "$LAB_COMMON/brd.sh"
# shellcheck source=SCRIPTDIR/dm.sh
. "$LAB_COMMON/dm.sh"
# shellcheck source=SCRIPTDIR/guest-scenario.sh
. "$LAB_COMMON/guest-scenario.sh"
