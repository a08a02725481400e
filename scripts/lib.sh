# shellcheck shell=bash disable=SC2034 # the lists and flags are read by ./lab and scripts/test.sh
# scripts/lib.sh: what ./lab and scripts/test.sh share: the JDK finder, the Debian packages each
# command needs (installed as root, else named), and the build. Source it; it sets LAB_ROOT
# (the repository) and LAB_STATE (default <repo>/.lab) and exports both.

LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LAB_STATE=${LAB_STATE:-$LAB_ROOT/.lab}
export LAB_ROOT LAB_STATE # kernel-scripts keep their registry under LAB_STATE
readonly LAB_JVM_FLAGS=(--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow)
# What the build makes: the command line, the bridge on its own (what kernel-scripts run), the
# JMH benchmarks and the jcstress tests.
readonly LAB_JAR=$LAB_ROOT/app/target/lab.jar
readonly BRIDGE_JAR=$LAB_ROOT/native-bridge/target/bridge.jar
readonly BENCH_JAR=$LAB_ROOT/jvm-engine/target/benchmarks.jar
readonly STRESS_JAR=$LAB_ROOT/stress/target/jcstress.jar
readonly LAB_JARS=("$LAB_JAR" "$BRIDGE_JAR" "$BENCH_JAR" "$STRESS_JAR")
# What the build reads, as globs under LAB_ROOT: source_stamp hashes it; ./lab fleet packs the
# jars with the sources only when git says these are HEAD's (both passed on as -Dlab.* by ./lab).
readonly BUILD_INPUTS=(pom.xml .mvn '*/pom.xml' '*/src')

# Debian packages, by the command that needs them. Later issues add theirs here.
readonly PKGS_BUILD=(curl unzip)   # the Maven Wrapper's first download
readonly PKGS_BRIDGE=(liburing2 fio time) # the bridge's io_uring; fio and time for bridge-vs-fio
# ./lab kernel: perf stat around runs, partition tables, and the guest VM (qemu, python3 for checks)
# and the lab kernel's source and build tools (kernel-scripts/kernel/build.sh)
readonly PKGS_LAB_KERNEL=(linux-source-6.1 linux-source-6.12 gcc make flex bison bc libelf-dev xz-utils patch)
readonly PKGS_KERNEL=(linux-perf fdisk qemu-system-x86 python3 "${PKGS_BRIDGE[@]}" "${PKGS_LAB_KERNEL[@]}")
# ./lab fleet: Ansible drives the hosts (fleet/*.yml)
readonly PKGS_FLEET=(ansible-core)
# ./lab test: the linter for every script, what the bridge and kernel-scripts tests use, the
# file systems the bridge's refusal tests mount on a lab loop (021-023), and the fleet test's
# Ansible and loopback sshd (045)
readonly PKGS_TEST=(shellcheck e2fsprogs btrfs-progs openssh-server "${PKGS_FLEET[@]}" "${PKGS_KERNEL[@]}")

die() { echo "lab: $*" >&2; exit 1; }

# java_major DIR: the feature version of the JDK in DIR, or nothing.
java_major() {
	local dir=$1 v
	[ -x "$dir/bin/java" ] && [ -x "$dir/bin/javac" ] || return 0
	if [ -r "$dir/release" ]; then
		v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$dir/release")
	else
		v=$("$dir/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')
	fi
	echo "${v:-}"
}

# find_jdk: JAVA_HOME first, then the newest JDK >= 25 under /usr/lib/jvm.
find_jdk() {
	local dir v best="" best_v=0
	if [ -n "${JAVA_HOME:-}" ]; then
		v=$(java_major "$JAVA_HOME")
		if [ -n "$v" ] && [ "$v" -ge 25 ]; then
			echo "$JAVA_HOME"
			return
		fi
		echo "lab: JAVA_HOME=$JAVA_HOME is not a JDK >= 25; looking under /usr/lib/jvm" >&2
	fi
	for dir in /usr/lib/jvm/*; do
		[ -L "$dir" ] && continue
		v=$(java_major "$dir")
		if [ -n "$v" ] && [ "$v" -ge 25 ] && [ "$v" -gt "$best_v" ]; then
			best=$dir
			best_v=$v
		fi
	done
	[ -n "$best" ] || die "no JDK 25 or newer found (JAVA_HOME unset or older; none under /usr/lib/jvm).
  Install one, e.g. Eclipse Temurin 25 (Debian package temurin-25-jdk from the Adoptium apt
  repository) or openjdk-25-jdk where your release has it, then rerun, or set JAVA_HOME."
	echo "$best"
}

# need_packages PKG...: install what is missing (root), or print the line to run.
# One dpkg-query for them all (it costs about 60 ms a call, and ./lab kernel, pair and demo name 17:
# 1.2 s of every such ./lab as root, 032's rows among them, against 0.07 s).
need_packages() {
	local missing=() p name status
	local -A ok=()
	while read -r name status; do
		case $status in *'ok installed') ok[$name]=1 ;; esac
	done < <(dpkg-query -W -f='${Package} ${Status}\n' "$@" 2>/dev/null || true)
	for p in "$@"; do
		[ -n "${ok[$p]:-}" ] || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if ! command -v apt-get >/dev/null; then
		die "missing packages: ${missing[*]} (this is not a Debian system: install their equivalents)"
	fi
	if [ "$(id -u)" -ne 0 ]; then
		die "missing Debian packages; run as root:
  apt-get install -y --no-install-recommends ${missing[*]}"
	fi
	echo "lab: installing ${missing[*]}" >&2
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# source_stamp: a hash of everything the build reads.
source_stamp() {
	# shellcheck disable=SC2068 # the globs, expanded in LAB_ROOT
	(cd "$LAB_ROOT" && find ${BUILD_INPUTS[@]} -type f -print0 2>/dev/null |
		sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}

# mvnw ARGS...: the Maven Wrapper on the JDK in $JDK.
mvnw() {
	JAVA_HOME=$JDK MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" \
		"$LAB_ROOT/mvnw" -f "$LAB_ROOT/pom.xml" -B "$@"
}

# build: package the jars when sources changed since the last good build.
build() {
	local stamp
	stamp=$(source_stamp)
	local jar built=1
	for jar in "${LAB_JARS[@]}"; do [ -f "$jar" ] || built=; done
	if [ -n "$built" ] && [ "$(cat "$LAB_STATE/build.stamp" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	need_packages "${PKGS_BUILD[@]}"
	mkdir -p "$LAB_STATE"
	echo "lab: building (log: $LAB_STATE/build.log)" >&2
	if ! mvnw -q package -DskipTests >"$LAB_STATE/build.log" 2>&1; then
		tail -n 40 "$LAB_STATE/build.log" >&2
		die "build failed; full log in $LAB_STATE/build.log"
	fi
	echo "$stamp" >"$LAB_STATE/build.stamp"
}
