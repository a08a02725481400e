#!/usr/bin/env bash
# scripts/test.sh: every test of the lab, in one pipeline that `./lab test` and .ci/run both run:
# the unit tests (mvnw verify, which also builds every jar), the jcstress quick run, the
# kernel-scripts tests (real devices and the guest VM as root; each skips with its reason where a
# requirement is missing) and shellcheck over every script. Stops at the first failure.
# As root it installs the Debian packages the tests need (PKGS_TEST in scripts/lib.sh); otherwise
# it prints the apt-get line to run.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

JDK=$(find_jdk)
readonly JDK
export LAB_JDK=$JDK # kernel-scripts run native-bridge/target/bridge.jar on it; the guest jlinks from it
mkdir -p "$LAB_STATE"
need_packages "${PKGS_BUILD[@]}" "${PKGS_TEST[@]}"

echo "== unit tests (Maven Surefire) ==" >&2
mvnw verify
source_stamp >"$LAB_STATE/build.stamp"

echo "== jcstress, quick mode ==" >&2
"$LAB_ROOT/stress/run-quick.sh" "$JDK/bin/java" "$LAB_STATE/jcstress"

if [ -x "$LAB_ROOT/kernel-scripts/tests/run.sh" ]; then
	echo "== kernel-scripts tests ==" >&2
	"$LAB_ROOT/kernel-scripts/tests/run.sh"
fi

echo "== shellcheck ==" >&2
scripts=()
mapfile -t scripts < <(cd "$LAB_ROOT" && {
	echo lab
	echo .ci/run
	find scripts kernel-scripts stress native-bridge -name '*.sh' -not -path '*/target/*' 2>/dev/null
} | sort -u)
(cd "$LAB_ROOT" && shellcheck -x "${scripts[@]}")
echo "shellcheck: ${#scripts[@]} scripts clean" >&2
echo "lab test: unit tests, jcstress quick, kernel-scripts tests and shellcheck passed" >&2
