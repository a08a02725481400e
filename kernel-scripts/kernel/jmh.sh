#!/usr/bin/env bash
# kernel/jmh.sh [--kernel debian|lab] [--source 6.1|6.12]: the JVM model's JMH runs in the guest,
# on the vCPUs the lab kernel's A/B runs on (guest/guest.sh vcpus, TCG where KVM fails), so that
# the model pays the guest's price of each operation as the kernel there does. Each
# LAB_OUT/runs-*.txt (lab.engine.bench.JmhBatch's file: a JMH run a line, "NAME ARG...") runs in
# one JVM of its own, in file-name order, in one boot (kernel/jmh-guest.sh, the JVMs retried as
# common/jvm.sh's _lab_jvm_tries says); each run's JSON lands as LAB_OUT/NAME.json. The app's
# AmplifiedModel writes the files (a round a file) and reads the JSON; where it writes
# LAB_OUT/contention-runs.txt (the same file's format), one JVM more runs it after them
# (lab.engine.bench.ContentionMain: the model's contention counts, NAME.json a line).
#
# --kernel lab (default): the lab kernel of --source (default 6.1), booted with every vCPU online
# (it patches no text at run time: kernel/config); --kernel debian: Debian's guest kernel, the
# other vCPUs onlined by /init after its text is patched. The JVMs are user space; the kernel
# is named in LAB_OUT/guest.txt. Needs root, qemu, LAB_JDK (the runtime guest.sh jlinks) and
# jvm-engine/target/benchmarks.jar; no runs file, or a word it does not know, is refused (exit
# 2), nothing booted. GUEST_TIMEOUT: default 900 s a runs file.
#
# Leaves in LAB_OUT: NAME.json per run, jvm-runs-*.log per JVM, jvm-guest.txt (the runtime, the
# CPUs online, each JVM's wall time and crashes), crashes/, guest.txt and console.log (guest.sh).
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
usage="jmh-guest [--kernel debian|lab] [--source 6.1|6.12]"
kernel=lab source=6.1
while [ $# -gt 0 ]; do
	case $1 in
	--kernel)
		[ $# -ge 2 ] || _lab_refuse "jmh-guest: --kernel needs debian or lab (usage: $usage)"
		case $2 in debian | lab) kernel=$2 ;; *) _lab_refuse "jmh-guest: --kernel '$2' is not debian or lab" ;; esac
		shift 2
		;;
	--source)
		[ $# -ge 2 ] || _lab_refuse "jmh-guest: --source needs 6.1 or 6.12 (usage: $usage)"
		case $2 in 6.1 | 6.12) source=$2 ;; *) _lab_refuse "jmh-guest: --source '$2' is not 6.1 or 6.12" ;; esac
		shift 2
		;;
	*) _lab_refuse "jmh-guest: unknown option '$1' (usage: $usage)" ;;
	esac
done
[ -d "${LAB_OUT:-}" ] || _lab_refuse "jmh-guest: LAB_OUT must name a folder holding the runs files (runs-*.txt)"
out=$(cd "$LAB_OUT" && pwd)
shopt -s nullglob
files=("$out"/runs-*.txt)
shopt -u nullglob
[ ${#files[@]} -gt 0 ] || _lab_refuse "jmh-guest: no runs-*.txt in $out (lab.engine.bench.JmhBatch's files: a JMH run a line)"
[ -f "$LAB_ROOT/jvm-engine/target/benchmarks.jar" ] || { _lab_msg "jmh-guest: no jvm-engine/target/benchmarks.jar (./lab build)"; exit 1; }
if [ -z "${LAB_JDK:-}" ] || [ ! -x "$LAB_JDK/bin/jlink" ]; then
	_lab_msg "jmh-guest: LAB_JDK must name a JDK with jlink (the guest's runtime is jlinked from it)"
	exit 1
fi
[ "$(id -u)" -eq 0 ] || { _lab_msg "jmh-guest: needs root (qemu)"; exit 1; }
command -v qemu-system-x86_64 >/dev/null || { _lab_msg "jmh-guest: qemu-system-x86_64 missing"; exit 1; }
rm -f "$out"/*.json "$out"/jvm-runs-*.log "$out"/jvm-contention.log "$out/jvm-guest.txt"
rm -rf "$out/crashes"
vcpus=$(bash "$KS_DIR/guest/guest.sh" vcpus)
append=${LAB_GUEST_APPEND:-}
env=()
if [ "$kernel" = lab ]; then
	# the lab kernel's build is done before the boot's clock starts (guest.sh builds it if it must)
	bash "$KS_DIR/kernel/build.sh" build --source "$source" >/dev/null
	env=(LAB_GUEST_KERNEL=lab LAB_KERNEL_SOURCE="$source")
	append="$append maxcpus=$vcpus"
fi
what=$kernel; [ "$kernel" = debian ] || what="lab $source"
_lab_msg "jmh-guest: ${#files[@]} JVM(s) on the $what kernel, $vcpus vCPU(s) -> $out"
t0=$SECONDS
env "${env[@]}" GUEST_VCPUS="$vcpus" LAB_GUEST_APPEND="$append" GUEST_TIMEOUT="${GUEST_TIMEOUT:-$((900 * ${#files[@]}))}" \
	bash "$KS_DIR/guest/guest.sh" run "$KS_DIR/kernel/jmh-guest.sh" "$out"
_lab_msg "jmh-guest: done in $((SECONDS - t0)) s$(grep -c '^jvm_crash' "$out/jvm-guest.txt" | awk '$1 > 0 { print ", " $1 " JVM crash(es) retried" }')"
