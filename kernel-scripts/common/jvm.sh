# shellcheck shell=bash
# common/jvm.sh: the lab's bridge on its own, native-bridge/target/bridge.jar, run straight on the
# JDK: no ./lab launcher (whose package check and source hash perf stat would count) and no
# build. Sourced by common/rc.sh; changes nothing by itself.

LAB_BRIDGE_JAR=$LAB_ROOT/native-bridge/target/bridge.jar

# _lab_bridge_why_not: print why the bridge cannot run here (nothing when it can): it needs
# LAB_JDK (./lab exports it) and a built bridge.jar.
_lab_bridge_why_not() {
	if [ -z "${LAB_JDK:-}" ] || [ ! -x "${LAB_JDK:-}/bin/java" ]; then
		echo "LAB_JDK must name a JDK 25 or newer (./lab exports it; e.g. LAB_JDK=/usr/lib/jvm/temurin-25-jdk-amd64)"
	elif [ ! -f "$LAB_BRIDGE_JAR" ]; then
		echo "no ${LAB_BRIDGE_JAR#"$LAB_ROOT"/}: build it with ./lab (any command) or ./mvnw package -DskipTests"
	fi
}

# _lab_jvm_init: set LAB_BRIDGE to the command that runs the bridge, for
# "${LAB_BRIDGE[@]}" run JOB --filename DEV ... (under perf stat) and
# "${LAB_BRIDGE[@]}" spec render EXAMPLE ... (_job_render). The bridge writes only to devices in
# this script's registry ($LAB_REGISTRY, passed as lab.registry), not the build state's. Without
# LAB_JDK or the jar it fails (status 1) saying what to do; it never builds, so a run does not
# rebuild the tree for edits elsewhere in it (after changing the bridge, run ./lab once).
# shellcheck disable=SC2034 # LAB_BRIDGE is this function's output, used by the scenarios and tests
_lab_jvm_init() {
	local why
	why=$(_lab_bridge_why_not)
	if [ -n "$why" ]; then
		_lab_msg "the bridge cannot run: $why"
		return 1
	fi
	LAB_BRIDGE=("$LAB_JDK/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow
		-Dlab.registry="$LAB_REGISTRY" -jar "$LAB_BRIDGE_JAR")
}

# _job_render EXAMPLE [--set KEY=VALUE | --unset KEY | --name SECTION]...: print the job file
# derived from examples/EXAMPLE with the scenario's overrides (bridge.jar spec render: a --set key
# replaces or joins [global] and leaves every section, --unset drops a key, --name renames the one
# job section; comments dropped). Needs _lab_jvm_init first. The filename is always given to the
# runner on the command line, never here.
_job_render() {
	local example=$1
	shift
	"${LAB_BRIDGE[@]}" spec render "$LAB_ROOT/examples/$example" "$@"
}

# _job_queue FILE EXAMPLE [ARG]...: FILE is to be _job_render EXAMPLE ARG...'s job file, written by
# the next _job_flush, which renders every file queued in one JVM (spec render --batch): a JVM
# start takes about 4 s under the guest's TCG (test 034), and a scenario renders a file per cell.
# Not in $(...): the queue must grow in this shell.
_job_queue() {
	local file=$1 example=$2
	shift 2
	[ -n "${_JOB_LIST:-}" ] || _JOB_LIST=$(mktemp "${TMPDIR:-/tmp}/lab-jobs.XXXXXX")
	{
		printf '%s\t%s' "$file" "$LAB_ROOT/examples/$example"
		[ $# -eq 0 ] || printf '\t%s' "$@"
		printf '\n'
	} >>"$_JOB_LIST"
}

# _job_flush: write every file _job_queue queued; fails, writing none of them, when one does not
# render (the bridge says which line and why)
_job_flush() {
	[ -n "${_JOB_LIST:-}" ] || return 0
	local list=$_JOB_LIST rc=0
	_JOB_LIST=
	"${LAB_BRIDGE[@]}" spec render --batch "$list" || rc=$?
	rm -f "$list"
	return "$rc"
}

# _lab_guest_jvm_init OUT: in the guest (guest/guest.sh stages the jlink'd runtime and the
# benchmarks in /mnt/in/bridge), set JAVA to the runtime's java, bring loopback up (JMH's runner
# and a fork talk over a socket; the guest boots with lo down) and start OUT/jvm-guest.txt with
# the runtime and the CPUs online. Fails (status 1) saying so where nothing is staged.
_lab_guest_jvm_init() {
	local b=/mnt/in/bridge
	if [ ! -x "$b/jre/bin/java" ] || [ ! -r "$b/benchmarks.jar" ]; then
		_lab_msg "no runtime or benchmarks.jar staged in $b (guest.sh stage_bridge: needs LAB_JDK and jvm-engine/target/benchmarks.jar)"
		return 1
	fi
	if command -v ip >/dev/null; then ip link set lo up; else ifconfig lo 127.0.0.1 up; fi
	export LD_LIBRARY_PATH=$b/lib
	JAVA=$b/jre/bin/java
	# shellcheck disable=SC2034 # the callers' (jvm-primitives-guest.sh, jmh-guest.sh)
	LAB_BENCHMARKS_JAR=$b/benchmarks.jar
	{
		echo "java: $("$JAVA" -version 2>&1 | head -n 1)"
		echo "cpus_online: $(cat /sys/devices/system/cpu/online)"
		echo "nproc: $(nproc)"
	} >"$1/jvm-guest.txt"
}

# _lab_jvm_tries OUT NAME ARG...: one JVM, "$JAVA" with the lab's flags and ARG..., its output in
# OUT/NAME.log, its wall time a line "jvm_NAME_wall_s: S" of OUT/jvm-guest.txt; started on CPUs
# LAB_JVM_TASKSET alone (taskset -c) where that is set. A JVM that fails
# runs again, up to 3 times: measured, a SIGSEGV in C1 code at 2 threads in 1 JVM of 4
# (multi-threaded TCG and the JIT's cross-modified code). Each failure's hs_err header and the
# log's tail are kept in OUT/crashes/NAME-tryK.txt and counted ("jvm_crash: NAME try K" in
# jvm-guest.txt). After the third, the log's tail goes to stderr and it returns 1.
_lab_jvm_tries() {
	local out=$1 name=$2 try t0 pin=()
	shift 2
	[ -z "${LAB_JVM_TASKSET:-}" ] || pin=(taskset -c "$LAB_JVM_TASKSET")
	t0=$(cut -d' ' -f1 /proc/uptime)
	for try in 1 2 3; do
		if "${pin[@]}" "$JAVA" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -XX:-CreateCoredumpOnCrash \
			-XX:ErrorFile="$out/hs_err.log" "$@" >"$out/$name.log" 2>&1; then
			echo "jvm_${name}_wall_s: $(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }')" \
				>>"$out/jvm-guest.txt"
			return 0
		fi
		mkdir -p "$out/crashes"
		if [ -f "$out/hs_err.log" ]; then
			head -n 40 "$out/hs_err.log" >"$out/crashes/$name-try$try.txt"
			rm -f "$out/hs_err.log"
		fi
		tail -n 5 "$out/$name.log" >>"$out/crashes/$name-try$try.txt"
		echo "jvm_crash: $name try $try" >>"$out/jvm-guest.txt"
	done
	tail -n 20 "$out/$name.log" >&2
	return 1
}
