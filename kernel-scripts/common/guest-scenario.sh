# shellcheck shell=bash
# common/guest-scenario.sh: the scaffolding of the scenarios with a half in the guest VM
# (part-acct, dm-css-ref, thin-bufio-lock, dm-blkcg-clone): checking LAB_RUNTIME and LAB_ROUNDS,
# the traps that stop a guest running in the background before the lab's objects go, why the
# runs cannot run natively (device-mapper) or in the guest, booting the guest on a scenario's
# guest.sh, taking its files, env.txt's lines about where the runs ran, and (inside the guest)
# reading the parameters the host wrote. Sourced by common/rc.sh; changes nothing by itself.

# The guest runs in the background (so a signal reaches the scenario's shell at once): its pid
# while it runs, for the trap.
GUEST_PID=

# _scenario_runtime WHO RUNTIME ROUNDS: exit 1 (saying so, as WHO) unless RUNTIME is seconds or
# a fio time Nms and ROUNDS a count; set RUNTIME_S (the runtime in seconds, exact: for env.txt)
# and RUNTIME_CEIL_S (rounded up: for the guest's time limit).
# shellcheck disable=SC2034 # RUNTIME_S and RUNTIME_CEIL_S are the caller's
_scenario_runtime() {
	local who=$1 runtime=$2 rounds=$3
	[[ $runtime =~ ^[1-9][0-9]*(ms)?$ ]] || { _lab_msg "$who: LAB_RUNTIME must be seconds or Nms: $runtime"; exit 1; }
	[[ $rounds =~ ^[1-9][0-9]*$ ]] || { _lab_msg "$who: LAB_ROUNDS must be a count: $rounds"; exit 1; }
	if [[ $runtime == *ms ]]; then
		RUNTIME_S=$(awk -v m="${runtime%ms}" 'BEGIN { print m / 1000 }')
		RUNTIME_CEIL_S=$(((${runtime%ms} + 999) / 1000))
	else
		RUNTIME_S=$runtime RUNTIME_CEIL_S=$runtime
	fi
}

# _guest_scenario_teardown: the EXIT trap of a scenario with a guest half: stop the guest if it
# runs (guest.sh kills its qemu on TERM), then _scenario_teardown, with the scenario's status.
_guest_scenario_teardown() {
	local rc=$?
	set +e # the status handed on below must not end this trap
	if [ -n "$GUEST_PID" ]; then kill "$GUEST_PID" 2>/dev/null || true; wait "$GUEST_PID" 2>/dev/null || true; fi
	(exit "$rc")
	_scenario_teardown
}

# _guest_scenario_traps: _scenario_traps, with _guest_scenario_teardown on EXIT; a FAILED an
# earlier run left in the same OUT is dropped (the file speaks of this run: _part_failed)
_guest_scenario_traps() {
	_scenario_traps
	trap _guest_scenario_teardown EXIT
	rm -f "$OUT/FAILED"
}

# _dm_native_why DRIVER...: why the runs cannot run on this kernel (nothing when they can): a
# DRIVER it lacks, brd loaded already (when brd is among them: its ram disks are not the lab's),
# no dmsetup.
_dm_native_why() {
	local d
	for d in "$@"; do
		_driver_native "$d" || { echo "this kernel has no $d"; return; }
	done
	if [[ " $* " == *" brd "* ]] && [ -d /sys/module/brd ]; then echo "brd is loaded already (its ram disks are not the lab's)"; return; fi
	command -v dmsetup >/dev/null 2>&1 || echo "dmsetup is not installed"
}

# _guest_why: why the guest VM cannot run here (nothing when it can): no qemu, no guest.sh, or
# neither a built guest image nor the kernel package to build one from.
_guest_why() {
	if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
		echo "qemu-system-x86_64 is not installed (apt-get install --no-install-recommends qemu-system-x86)"
	elif [ ! -x "${LAB_COMMON%/*}/guest/guest.sh" ]; then
		echo "kernel-scripts/guest/guest.sh is missing"
	elif [ ! -f "$LAB_STATE/guest/initramfs.cpio" ] && ! apt-cache show linux-image-amd64 >/dev/null 2>&1; then
		echo "no built guest image and linux-image-amd64 is not known to apt (no Debian mirror?)"
	fi
}

# _guest_scenario_none WHO NATIVE_WHY GUEST_WHY OUT: neither natively nor in the guest: say so,
# write OUT/env.txt (environment: none, and both reasons) and exit 1.
_guest_scenario_none() {
	_lab_msg "$1: cannot run: natively $2; no guest VM: $3"
	{
		echo "environment: none"
		echo "guest: skipped: $3"
		echo "native: $2"
	} >"$4/env.txt"
	exit 1
}

# _guest_scenario_probe WHO OUT ROUNDS RUNTIME: the emulation probe's host half
# (common/perf.sh: ROUNDS runs of RUNTIME, a fio time, into OUT) where this host has zram, its
# zram removed again; EMULATION_PROBE says what ran, or why nothing did.
_guest_scenario_probe() {
	if _driver_native zram; then
		# the same zram job here and in the guest: the emulation's slow-down, for the calibration
		_emulation_probe "$2" host "$3" "$4" "$1"
		_made_remove || { _lab_msg "$1: could not remove the probe's zram"; exit 1; }
		EMULATION_PROBE="zram 4k randread, 1 job, fio psync, on the host and in the guest (tcg-zram-host/guest-rK.fio)"
	else
		EMULATION_PROBE="none: this host has no zram to measure the emulation's slow-down with"
	fi
}

# _guest_failure_why LOG RC FROM TO: why a guest run failed, for OUT/FAILED and env.txt: guest.sh's
# status RC and its last word in LOG ("guest wrote no exit-status", "guest timed out after 300s",
# "guest script failed with status 1", ...), the folder FROM in it written TO (the run folder's
# name for where its files went); no double quote, backslash or tab (it goes into JSON and TSV)
_guest_failure_why() {
	local rc=$2 from to=$4 last
	from=$(cd "$3" 2>/dev/null && pwd) || from=$3
	last=$(sed -n 's/^guest\.sh: //p' "$1" 2>/dev/null | tail -n 1 | tr -d '\042\134' | tr '\t' ' ')
	last=${last//"$from"/$to}
	echo "guest.sh run exited $rc${last:+: $last}"
}

# _guest_scenario_run SCENARIO GOUT TIMEOUT [MEM]: boot the guest VM on scenarios/SCENARIO/guest.sh
# with GOUT as its output share (guest.sh's messages in GOUT/guest-run.log), in the background
# (GUEST_PID while it runs), at most TIMEOUT seconds, with MEM MiB unless GUEST_MEM says otherwise
# (guest.sh's default without MEM). Sets GUEST_RC (guest.sh's status) and, when that is not 0,
# GUEST_FAILURE to why (_guest_failure_why; GOUT written guest/, as it lies in OUT) and
# GUEST_STATUS to the failure env.txt reports.
# shellcheck disable=SC2034 # GUEST_STATUS and GUEST_FAILURE are the caller's
_guest_scenario_run() {
	local sc=$1 gout=$2 tmo=$3 mem=${4:-} ks=${LAB_COMMON%/*} vars=()
	GUEST_RC=0
	mkdir -p "$gout"
	vars=("GUEST_TIMEOUT=$tmo")
	if [ -n "$mem" ]; then vars+=("GUEST_MEM=${GUEST_MEM:-$mem}"); fi
	if [ -n "$GUEST_VCPUS" ]; then vars+=("GUEST_VCPUS=$GUEST_VCPUS"); fi
	env "${vars[@]}" "$ks/guest/guest.sh" run "$ks/scenarios/$sc/guest.sh" "$gout" >"$gout/guest-run.log" 2>&1 &
	GUEST_PID=$!
	wait "$GUEST_PID" || GUEST_RC=$?
	GUEST_PID=
	GUEST_FAILURE=
	if [ "$GUEST_RC" -ne 0 ]; then
		GUEST_FAILURE=$(_guest_failure_why "$gout/guest-run.log" "$GUEST_RC" "$gout" guest)
		GUEST_STATUS="failed: $GUEST_FAILURE (guest/guest-run.log has guest.sh's messages)"
	fi
}

# _guest_scenario_ran WHO GOUT FACTS_FILE ENV_WRITE: after _guest_scenario_run and _guest_collect,
# for a scenario all of whose runs ran in the guest: a guest that failed is recorded
# (_part_failed: the part "guest (every run)"), env.txt written (the scenario's function
# ENV_WRITE, called with "guest") and the scenario ends (exit 1), what the guest finished kept;
# else GUEST_STATUS says the runs ran there and FACTS_FILE gets the guest's facts
# (GOUT/WHO-guest.txt, its key: value lines for env.txt).
# shellcheck disable=SC2034 # GUEST_STATUS is the caller's
_guest_scenario_ran() {
	if [ "$GUEST_RC" -ne 0 ]; then
		_part_failed "guest (every run)" "$GUEST_FAILURE"
		"$4" guest
		_scenario_done "$1" "$OUT"
	fi
	GUEST_STATUS="ran: every run in the guest VM (guest/ has its console and log)"
	cp "$2/$1-guest.txt" "$3"
}

# _guest_collect GOUT OUT PATTERN...: move the guest's results (the files in GOUT matching a
# PATTERN, a glob) into OUT, and drop the job files the host put in GOUT/jobs for it; its
# console, logs and facts stay in GOUT.
_guest_collect() {
	local gout=$1 out=$2 p f
	shift 2
	for p in "$@"; do
		# shellcheck disable=SC2086 # the pattern is a glob
		for f in "$gout"/$p; do
			if [ -e "$f" ]; then mv "$f" "$out/"; fi
		done
	done
	rm -rf "$gout/jobs"
}

# _guest_environment WHERE GOUT: env.txt's environment line: native, or the guest VM with its
# accelerator (GOUT/guest.txt)
_guest_environment() {
	if [ "$1" = native ]; then
		echo "environment: native"
	else
		echo "environment: $(_guest_vm "$2")"
	fi
}

# _guest_vm GOUT: the guest VM as env.txt names it, from GOUT/guest.txt: its accelerator, qemu's
# vCPUs and CPU model, the kernel; "emulation speed" only under TCG
_guest_vm() {
	local accel
	accel=$(sed -n 's/^env: //p' "$1/guest.txt" 2>/dev/null)
	echo "guest VM, ${accel:-unknown}, $(_guest_qemu "$1") ($(_guest_kernel_kind "$1")$(_guest_speed_note "$accel"))"
}

# _guest_qemu GOUT: "qemu -smp N, cpu MODEL" as GOUT/guest.txt says (vcpus, qemu_cpu; older runs:
# cpus, qemu64)
_guest_qemu() {
	local v c
	v=$(sed -n 's/^vcpus: //p' "$1/guest.txt" 2>/dev/null)
	[ -n "$v" ] || v=$(sed -n 's/^cpus: //p' "$1/guest.txt" 2>/dev/null)
	c=$(sed -n 's/^qemu_cpu: //p' "$1/guest.txt" 2>/dev/null)
	c=${c%% (*}
	echo "qemu -smp ${v:-2}, cpu ${c:-qemu64}"
}

# _guest_kernel_kind GOUT: whose kernel the guest ran: "Debian's kernel" or "the lab kernel"
_guest_kernel_kind() {
	if grep -qx 'kernel_kind: lab' "$1/guest.txt" 2>/dev/null; then echo "the lab kernel"; else echo "Debian's kernel"; fi
}

# _guest_speed_note ACCEL: what the accelerator means for the figures, after a "; "
_guest_speed_note() {
	case $1 in
	tcg) echo "; absolute figures are emulation speed: use ratios within the run" ;;
	kvm) echo "; under KVM: virtualised, not emulated" ;;
	esac
}

# _guest_vcpus MEM: set GUEST_VCPUS, the vCPUs the guest VM gets with MEM MiB (GUEST_MEM wins;
# guest.sh vcpus: the host's cores, at most one a 64 MiB above 512 MiB; LAB_GUEST_VCPUS forces):
# _guest_scenario_run boots with them, and a scenario renders its guest's job counts for them
# (_guest_numjobs)
GUEST_VCPUS=
_guest_vcpus() {
	GUEST_VCPUS=$("${LAB_COMMON%/*}/guest/guest.sh" vcpus "${GUEST_MEM:-$1}")
}

# _guest_numjobs: the job counts a guest half runs: 1 and the guest's vCPUs (GUEST_VCPUS)
_guest_numjobs() {
	if [ "${GUEST_VCPUS:-1}" -gt 1 ]; then echo "1 $GUEST_VCPUS"; else echo 1; fi
}

# _guest_env_head WHERE GOUT FACTS_FILE: env.txt's first lines: environment (_guest_environment),
# and kernel and cores from FACTS_FILE (the facts of where the runs ran)
_guest_env_head() {
	_guest_environment "$1" "$2"
	grep -E '^(kernel|cores): ' "$3" 2>/dev/null || true
}

# _guest_env_tail WHERE STATUS: env.txt's last lines: guest (STATUS: what came of the guest) and,
# where the runs ran in the guest, host_kernel and emulation_probe (EMULATION_PROBE)
_guest_env_tail() {
	echo "guest: $2"
	if [ "$1" = guest ]; then
		echo "host_kernel: $(uname -r)"
		echo "emulation_probe: ${EMULATION_PROBE:-none}"
	fi
}

# _guest_params_write GOUT NAME KEY=VALUE...: GOUT/NAME.params, one KEY=VALUE a line, the
# parameters guest.sh reads (_guest_params), and GOUT/jobs for the job files the host renders for
# the guest (it has no JVM to render them with)
_guest_params_write() {
	local gout=$1 name=$2
	shift 2
	mkdir -p "$gout/jobs"
	printf '%s\n' "$@" >"$gout/$name.params"
}

# _guest_params FILE KEY...: (inside the guest) read FILE's key=value lines, written by the
# scenario's run.sh, into the associative array P; exit 1 if a KEY is missing. The messages name
# the scenario by FILE (NAME.params: NAME-guest).
_guest_params() {
	local file=$1 k v who
	shift
	who=${file##*/}
	who=${who%.params}-guest
	declare -gA P=()
	while IFS='=' read -r k v; do
		[ -n "$k" ] && P[$k]=$v
	done <"$file"
	for k in "$@"; do
		[ -n "${P[$k]:-}" ] || { _lab_msg "$who: $k missing from ${file##*/}"; exit 1; }
	done
}

# _guest_cgroup2_traps: (inside the guest) _scenario_traps, with an EXIT trap that removes the
# lab's objects (newest first), then unmounts the cgroup2 _guest_cgroup2_mount mounted
GUEST_CG_MOUNTED=0
_guest_cgroup2_teardown() {
	local rc=$?
	set +e
	_made_remove || rc=1
	if [ "$GUEST_CG_MOUNTED" = 1 ]; then umount "$LAB_BLKIO" || rc=1; fi
	(exit "$rc")
	_scenario_teardown
}
_guest_cgroup2_traps() {
	_scenario_traps
	trap _guest_cgroup2_teardown EXIT
}

# _guest_cgroup2_mount: (inside the guest) cgroup2 at LAB_BLKIO (/sys/fs/cgroup: rc.sh found no v1
# blkio there) unless something is mounted there already
_guest_cgroup2_mount() {
	[ -e "$LAB_BLKIO/cgroup.controllers" ] && return 0
	mount -t cgroup2 cgroup2 "$LAB_BLKIO"
	GUEST_CG_MOUNTED=1
}
