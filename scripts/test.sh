#!/usr/bin/env bash
# scripts/test.sh [--lab-kernels]: every test of the lab, in one pipeline that `./lab test` and
# .ci/run both run: the unit tests (mvnw verify, which also builds every jar), the jcstress quick
# run, shellcheck over every script (beside those two, below) and the kernel-scripts tests (real
# devices and the guest VM as root; each skips with its reason where a requirement is missing).
# Stops at the first failure.
# As root it installs the Debian packages the tests need (PKGS_TEST in scripts/lib.sh); otherwise
# it prints the apt-get line to run.
#
# The lab kernels' tests (kernel-scripts 030, 031 and 042) boot the lab kernels (6.1 with four fixes'
# switches, 6.12 with thin-bufio-lock's). 030, every switch, runs when the kernels are in the cache
# (the machine's, outside the clone: kernel/build.sh; from `./lab kernel build`, `./lab pair` or
# an earlier run of any clone) or an incremental build would make them, and skips, saying so, when
# not: building both whole took 34 min of a 2-core VM, the rest 13 (README.md).
# --lab-kernels builds them (in the background, niced, beside the unit tests) and runs 030 and
# the longer 031 (smoke) and 042 (refscale) too.
#
# Two things need nothing the build makes and run beside the unit tests, niced, in the CPU that
# Maven's one test JVM leaves idle: shellcheck (49.5 s of one core here, 2026-12-07, beside a
# pair) and, as root with qemu, the guest VM's image (guest.sh build: 35 s, from the timestamps
# of a clone's first build in its .lab/guest here, 2026-12-07), which 016 otherwise built first.
# The verdict of shellcheck is awaited after jcstress, before the kernel-scripts tests; the image is
# not awaited (guest.sh takes its build lock, so the first test to boot the guest waits on it, or
# builds it itself where the prebuild failed). Each phase's seconds go to stderr after it.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

build_kernels=
for arg in "$@"; do
	case $arg in
	--lab-kernels) build_kernels=1 ;;
	-h | --help)
		echo "usage: ./lab test [--lab-kernels]: every test; --lab-kernels builds the lab kernels first (34 min of a 2-core VM, README.md) so that their tests run too"
		exit 0
		;;
	*)
		echo "lab test: unknown argument '$arg' (usage: ./lab test [--lab-kernels])" >&2
		exit 2
		;;
	esac
done
# kernel-scripts tests 030, 031 and 042: build a lab kernel that is not in the cache, and run 031 and 042
export LAB_TEST_LAB_KERNELS=$build_kernels

JDK=$(find_jdk)
readonly JDK
export LAB_JDK=$JDK # kernel-scripts run native-bridge/target/bridge.jar on it; the guest jlinks from it
mkdir -p "$LAB_STATE"
need_packages "${PKGS_BUILD[@]}" "${PKGS_TEST[@]}"

# the background jobs' process groups (setsid: each its own), ended if this script ends first
bg_groups=()
end_background() {
	local g
	for g in "${bg_groups[@]}"; do kill -- -"$g" 2>/dev/null || true; done
}
trap end_background EXIT

# With --lab-kernels, the lab kernels' builds take minutes of CPU: as root with qemu they start
# now, one after the other, niced, in their own process group beside the unit tests and the first
# kernel-scripts tests. Nothing waits for them here: a test that needs a kernel asks
# kernel/build.sh for it, which waits on the build's lock and then finds it in the cache (a failed
# build is the test's to report). Their log: $LAB_STATE/lab-kernel-prebuild.log.
if [ -n "$build_kernels" ] && [ "$(id -u)" -eq 0 ] && command -v qemu-system-x86_64 >/dev/null &&
	[ -f /usr/src/linux-source-6.1.tar.xz ]; then
	# shellcheck disable=SC2016 # expanded by the inner bash
	setsid nice -n 10 bash -c 'for v in 6.1 6.12; do
		[ ! -f "/usr/src/linux-source-$v.tar.xz" ] || bash "$1" build --source "$v" || echo "lab kernel $v: build failed"
	done' prebuild "$LAB_ROOT/kernel-scripts/kernel/build.sh" >"$LAB_STATE/lab-kernel-prebuild.log" 2>&1 &
	bg_groups+=("$!")
	echo "lab kernels: building in the background (log: $LAB_STATE/lab-kernel-prebuild.log)" >&2
fi

# The guest VM's image, as root with qemu (the tests that boot it need both), niced below the
# unit tests; its log: $LAB_STATE/guest-prebuild.log.
if [ -x "$LAB_ROOT/kernel-scripts/tests/run.sh" ] && [ "$(id -u)" -eq 0 ] && command -v qemu-system-x86_64 >/dev/null; then
	setsid nice -n 10 "$LAB_ROOT/kernel-scripts/guest/guest.sh" build >"$LAB_STATE/guest-prebuild.log" 2>&1 &
	bg_groups+=("$!")
	echo "guest VM image: building in the background (log: $LAB_STATE/guest-prebuild.log)" >&2
fi

# Every script through shellcheck, niced below everything else: its findings in
# $LAB_STATE/shellcheck.log, its verdict awaited before the kernel-scripts tests
scripts=()
mapfile -t scripts < <(cd "$LAB_ROOT" && {
	echo lab
	echo .ci/run
	find scripts kernel-scripts stress native-bridge -name '*.sh' -not -path '*/target/*' 2>/dev/null
} | sort -u)
(cd "$LAB_ROOT" && exec setsid nice -n 19 shellcheck -x "${scripts[@]}") >"$LAB_STATE/shellcheck.log" 2>&1 &
shellcheck_pid=$!
bg_groups+=("$shellcheck_pid")

# phase NAME: the next phase's header, after the seconds the one before took ('' ends the last)
phase_name='' phase_t0=$SECONDS
phase() {
	if [ -n "$phase_name" ]; then echo "$phase_name: $((SECONDS - phase_t0)) s" >&2; fi
	phase_name=$1 phase_t0=$SECONDS
	if [ -n "$1" ]; then echo "== $1 ==" >&2; fi
}

phase "unit tests (Maven Surefire)"
# two modules at once: after jobspec, native-bridge (whose tests wait on fio and devices most of
# their time) beside jvm-engine, stress and analysis; app after all. Measured here, warm and
# offline, 2026-12-07: verify 222 s one module at a time, 176 s two at once.
mvnw verify -T 2
source_stamp >"$LAB_STATE/build.stamp"

phase "jcstress, quick mode"
"$LAB_ROOT/stress/run-quick.sh" "$JDK/bin/java" "$LAB_STATE/jcstress"

phase "shellcheck (beside the unit tests and jcstress: the rest of it)"
rc=0
wait "$shellcheck_pid" || rc=$?
if [ "$rc" -ne 0 ]; then
	cat "$LAB_STATE/shellcheck.log"
	echo "shellcheck: exit $rc over ${#scripts[@]} scripts (above; also in $LAB_STATE/shellcheck.log)" >&2
	exit "$rc"
fi
echo "shellcheck: ${#scripts[@]} scripts clean" >&2

if [ -x "$LAB_ROOT/kernel-scripts/tests/run.sh" ]; then
	phase "kernel-scripts tests"
	"$LAB_ROOT/kernel-scripts/tests/run.sh"
fi
phase ''
echo "lab test: unit tests, jcstress quick, shellcheck and kernel-scripts tests passed" >&2
