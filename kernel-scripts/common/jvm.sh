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
