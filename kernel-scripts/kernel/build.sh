#!/usr/bin/env bash
# kernel/build.sh: the lab kernel. Debian's linux-source-V with each fix's "before" restored
# behind a runtime switch (patches/V/*.patch, one a fix), every driver the scenarios use built
# in (config: applied over `make tinyconfig`), cached by a hash of the source package's version,
# the config, the patches and the recipe (stamp).
#
#   build.sh build [--source V]   build, or reuse the cached build; prints the bzImage's path
#   build.sh path  [--source V]   the cached bzImage's path if it is up to date, else exit 1
#   build.sh warm  [--source V]   exit 0 when a build would be incremental (the work tree kept)
#   build.sh cache                the cache's folder
#   build.sh key   [--source V]   the cache key a build would have now (lab-V-KEY)
#   build.sh check [--source V]   every patch applies cleanly to the pinned source, each alone
#                                 exactly and all in order, in a scratch copy of the files the
#                                 patches touch; nothing built
#   build.sh switches [--source V]
#                                 one line a switch, from the patches' Lab-* headers
#   build.sh build --for FIX...   build (or reuse) each source the fixes' switches live in
#   build.sh fix-source FIX       the first source whose patches give FIX a switch (exit 1: none)
#
# V: 6.1 (default) or 6.12. LAB_KERNEL_VARIANT=notrace builds V without the config's tracing
# block (the lines between "# >>> tracing" and "# <<< tracing", FTRACE=n in their place): the lab
# kernel as it was before its contention events, for the events' cost when off (kernel/overhead.sh);
# its own work tree, image and cache key (lab-V-notrace-KEY). The source comes from
# /usr/src/linux-source-V.tar.xz (the Debian package linux-source-V, installed here when root and
# missing). Cache: outside the clone (below),
# bzImage, config, System.map, stamp per hash; build-V.log of the last build; src-V, the work
# tree kept for incremental builds. Exit: 0 ok, 1 the build failed (its log kept, its path said),
# 2 bad input.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
LAB_STATE=${LAB_STATE:-$REPO/.lab}
# The cache is the machine's, not the clone's, so that every clone here (a CI run's fresh one
# among them) finds what an earlier one built, and a changed patch or config rebuilds only what it
# touches in the kept work tree: LAB_KERNEL_CACHE, else /var/cache/lab/lab-kernel as root, else
# ${XDG_CACHE_HOME:-~/.cache}/lab/lab-kernel. Each image is keyed by what decides its bytes
# (stamp), so clones at different commits share it; one build at a time (.lock).
if [ -n "${LAB_KERNEL_CACHE:-}" ]; then
	CACHE=$LAB_KERNEL_CACHE
elif [ "$(id -u)" -eq 0 ]; then
	CACHE=/var/cache/lab/lab-kernel
else
	CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/lab/lab-kernel
fi
SOURCES=(6.1 6.12)
SOURCES_BAR="6.1|6.12"
USR_SRC=${LAB_KERNEL_USR_SRC:-/usr/src} # where linux-source-V puts its tarball (tests point it elsewhere)

die() { echo "lab-kernel build: $1" >&2; exit "${2:-1}"; }
log() { echo "lab-kernel build: $*" >&2; }

# parse_source ARGS: sets SRC (the version asked for) or refuses with exit 2.
parse_source() {
	SRC=6.1
	while [ $# -gt 0 ]; do
		case $1 in
		--source)
			[ $# -ge 2 ] || die "--source needs a version: one of ${SOURCES[*]}" 2
			SRC=$2
			shift 2
			;;
		--source=*) SRC=${1#--source=}; shift ;;
		*) die "unknown argument '$1' (usage: build.sh build|path|check|switches [--source $SOURCES_BAR])" 2 ;;
		esac
	done
	[[ " ${SOURCES[*]} " == *" $SRC "* ]] || die "--source '$SRC' is not one the lab builds: one of ${SOURCES[*]}" 2
	PKG=linux-source-$SRC
	case ${LAB_KERNEL_VARIANT:-} in
	'') TAG=$SRC ;;
	notrace) TAG=$SRC-notrace ;;
	*) die "LAB_KERNEL_VARIANT must be notrace or empty, not '$LAB_KERNEL_VARIANT'" 2 ;;
	esac
	TARBALL=$USR_SRC/$PKG.tar.xz
	PATCHES=$HERE/patches/$SRC
}

# need_tarball: the source package's tarball, installed as root when missing.
need_tarball() {
	[ -f "$TARBALL" ] && return 0
	if [ "$(id -u)" -eq 0 ] && [ "$USR_SRC" = /usr/src ] && [ -z "${LAB_KERNEL_NO_INSTALL:-}" ]; then
		log "installing $PKG (the kernel's source, from Debian)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$PKG" >&2 ||
			die "could not install $PKG (apt-get install $PKG failed); nothing built"
		[ -f "$TARBALL" ] || die "$PKG installed but $TARBALL is missing; nothing built"
		return 0
	fi
	die "$TARBALL is missing: install the Debian package $PKG (apt-get install $PKG); nothing built"
}

# The installed source package's version ("-" when dpkg does not know it: a tarball put by hand).
source_version() {
	dpkg-query -W -f '${Version}' "$PKG" 2>/dev/null || echo -
}

patch_files() {
	[ -d "$PATCHES" ] || return 0
	find "$PATCHES" -maxdepth 1 -name '*.patch' | sort
}

# The cache key: what decides the bzImage's bytes: the source, the config, the patches and the
# recipe, the functions that apply, configure and make (their text as bash prints it, comments
# left out): an edit elsewhere in this script (a message, the progress) keeps every image.
stamp() {
	{
		echo "source $PKG $(source_version)"
		echo "config $(config_lines | sha256sum | cut -c1-16)"
		echo "recipe $(declare -f apply_all config_tree make_bzimage | sha256sum | cut -c1-16)"
		local p
		while read -r p; do
			[ -n "$p" ] && echo "patch $(basename "$p") $(sha256sum <"$p" | cut -c1-16)"
		done < <(patch_files)
	}
}

key() { stamp | sha256sum | cut -c1-12; }

cached_dir() { echo "$CACHE/lab-$TAG-$(key)"; }

# config_lines: the config this build applies: kernel/config, less its tracing block for notrace
config_lines() {
	if [ "$TAG" = "$SRC" ]; then
		cat "$HERE/config"
	else
		sed '/^# >>> tracing/,/^# <<< tracing/d' "$HERE/config"
		echo "FTRACE=n"
	fi
}

# adopt_clone_cache: a clone's own cache, where it was before (.lab/lab-kernel), moved to the
# machine's when that has none yet, so that no build is lost to the move
adopt_clone_cache() {
	local old=$LAB_STATE/lab-kernel
	[ -d "$old" ] && [ ! -L "$old" ] && [ ! -e "$CACHE" ] || return 0
	mkdir -p "$(dirname "$CACHE")"
	mv "$old" "$CACHE"
	log "moved this clone's cache ($old) to the machine's: $CACHE"
}

# warm: the work tree of this source is kept, with the same source package and last built with
# the same config: a build of any patches is then an incremental one (make rebuilds what they
# touch), not a whole one. A changed config (the tracing block: every file's headers) is whole.
cmd_warm() {
	local applied=$CACHE/src-$TAG/.lab-applied
	[ -f "$TARBALL" ] && [ -f "$applied/source" ] && [ "$(cat "$applied/source")" = "$PKG $(source_version)" ] &&
		[ -f "$applied/config" ] && [ "$(cat "$applied/config")" = "$(config_lines | sha256sum | cut -c1-16)" ]
}

cmd_path() {
	local d
	[ -f "$TARBALL" ] || return 1
	d=$(cached_dir)
	[ -f "$d/bzImage" ] && [ -f "$d/stamp" ] || return 1
	echo "$d/bzImage"
}

# switches: one line a patch that has a switch, from its header, as words KEY=VALUE: fix,
# switch (MOD/PARAM under /sys/module), values (comma-separated, the default first), before,
# after, count (MOD/PARAM, or - when the switch takes none), ops (MOD/PARAM), k (Lab-Ops-Per-IO),
# and lock (Lab-Lock: the switched lock's type as perf lock names it, then its callers as perf lock
# contention names them, comma-separated) where the switch is a lock.
cmd_switches() {
	local p
	while read -r p; do
		[ -n "$p" ] || continue
		awk '
			/^(diff|---) / { exit }
			$1 == "Lab-Fix:" { fix = $2 }
			$1 == "Lab-Switch:" { sw = ($2 == "-") ? "" : $2 "/" $3 }
			$1 == "Lab-Values:" { v = $2; for (i = 3; i <= NF && $i !~ /^#/; i++) v = v "," $i }
			$1 == "Lab-Before:" { before = $2 }
			$1 == "Lab-After:" { after = $2 }
			$1 == "Lab-Count:" { count = ($2 == "-") ? "-" : $2 "/" $3 }
			$1 == "Lab-Ops:" { ops = $2 "/" $3 }
			$1 == "Lab-Ops-Per-IO:" { k = $2 }
			$1 == "Lab-Lock:" { lock = $2; for (i = 3; i <= NF && $i !~ /^#/; i++) lock = lock "," $i }
			END {
				if (fix != "" && sw != "")
					printf "fix=%s switch=%s values=%s before=%s after=%s count=%s ops=%s k=%s%s\n",
						fix, sw, v, before, after, count, ops, k, (lock == "" ? "" : " lock=" lock)
			}
		' "$p"
	done < <(patch_files)
}

# touched_files [PATCH...]: the files the patches touch (their "+++ b/PATH" lines), relative to the
# tree's top; default: this build's patches
touched_files() {
	local p
	if [ $# -eq 0 ]; then mapfile -t p < <(patch_files); set -- "${p[@]}"; fi
	for p in "$@"; do
		if [ -f "$p" ]; then sed -n 's#^+++ b/\([^[:space:]]*\).*#\1#p' "$p"; fi
	done | sort -u
}

# apply_all DIR: every patch, in name order, without fuzz (one that lands at an offset because an
# earlier one moved its lines, as the two dm.c patches do, is fine); the first that does not
# apply ends it with its name and patch's own words.
apply_all() {
	local dir=$1 p out
	while read -r p; do
		[ -n "$p" ] || continue
		if ! out=$(cd "$dir" && patch -p1 -F0 --no-backup-if-mismatch <"$p" 2>&1); then
			echo "lab-kernel build: $(basename "$p") does not apply to $PKG $(source_version):" >&2
			printf '%s\n' "$out" | sed 's/^/  /' >&2
			return 1
		fi
	done < <(patch_files)
}

# exact_alone DIR: each patch alone, on the pristine files in DIR, lands exactly (no offset, no
# fuzz): a dry run each
exact_alone() {
	local dir=$1 p out bad=0
	while read -r p; do
		[ -n "$p" ] || continue
		out=$(cd "$dir" && patch -p1 -F0 --dry-run <"$p" 2>&1) || { bad=1; echo "lab-kernel build: $(basename "$p") does not apply alone:" >&2; }
		if grep -qi 'offset\|fuzz\|failed' <<<"$out"; then
			bad=1
			echo "lab-kernel build: $(basename "$p") alone lands inexactly:" >&2
		fi
		[ "$bad" = 0 ] || { printf '%s\n' "$out" | sed 's/^/  /' >&2; return 1; }
	done < <(patch_files)
}

# check: the touched files only, out of the tarball, in a scratch dir; then the patches applied
# for real there, one after another (a dry run of the second would not see the first's hunks).
cmd_check() {
	local tmp files n
	need_tarball
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-kcheck.XXXXXX")
	# shellcheck disable=SC2064 # the path is fixed now
	trap "rm -rf '$tmp'" EXIT
	mapfile -t files < <(touched_files)
	n=$(patch_files | grep -c . || true)
	if [ "$n" -eq 0 ]; then
		echo "no patches for $PKG"
		return 0
	fi
	tar -xJf "$TARBALL" -C "$tmp" "${files[@]/#/$PKG/}" ||
		die "$TARBALL lacks a file the patches touch: ${files[*]}"
	exact_alone "$tmp/$PKG" || exit 1
	apply_all "$tmp/$PKG" >/dev/null || exit 1
	echo "ok: $n patches apply cleanly to $PKG $(source_version), each alone exactly, all in order (${#files[@]} files)"
}

# config_tree DIR: tinyconfig, the lab's options over it, olddefconfig; then every option the
# lab asked for must have held (Kconfig drops one whose dependencies are missing, silently).
config_tree() {
	local dir=$1 name val line got bad=()
	make -C "$dir" -s tinyconfig >/dev/null
	while IFS= read -r line; do
		line=${line%%#*}
		line=${line//[[:space:]]/}
		[ -n "$line" ] || continue
		name=${line%%=*} val=${line#*=}
		case $val in
		y) "$dir/scripts/config" --file "$dir/.config" --enable "$name" ;;
		n) "$dir/scripts/config" --file "$dir/.config" --disable "$name" ;;
		*) "$dir/scripts/config" --file "$dir/.config" --set-val "$name" "$val" ;;
		esac
	done < <(config_lines)
	make -C "$dir" -s olddefconfig >/dev/null
	while IFS= read -r line; do
		line=${line%%#*}
		line=${line//[[:space:]]/}
		[ -n "$line" ] || continue
		name=${line%%=*} val=${line#*=}
		got=$(sed -n "s/^CONFIG_$name=\\(.*\\)/\\1/p" "$dir/.config")
		if [ "$val" = n ]; then
			[ -z "$got" ] || bad+=("$name=$got (asked n)")
		elif [ "$got" != "$val" ]; then
			bad+=("$name=${got:-unset} (asked $val)")
		fi
	done < <(config_lines)
	[ ${#bad[@]} -eq 0 ] || die "options that did not hold after olddefconfig: ${bad[*]}"
}

# applied_sums DIR: "SHA  NAME" of the patches a work tree has applied, in name order
applied_sums() {
	find "$1" -maxdepth 1 -name '*.patch' | sort | xargs -r sha256sum | sed 's#  .*/#  #'
}

# prepare_tree: the work tree src-V with exactly this build's patches applied. A tree whose
# applied patches can be taken back (patch -R) is kept, so make rebuilds only what changed;
# otherwise a fresh extract.
prepare_tree() {
	local tree=$CACHE/src-$TAG applied p
	applied=$tree/.lab-applied
	TREE=$tree
	# the same patches applied already: nothing to take back (make then rebuilds nothing)
	if [ -f "$applied/source" ] && [ "$(cat "$applied/source")" = "$PKG $(source_version)" ] &&
		[ "$(applied_sums "$applied")" = "$(patch_files | xargs -r sha256sum | sed 's#  .*/#  #')" ]; then
		return 0
	fi
	local keep=$CACHE/keep.$$ f
	if [ -d "$tree" ] && [ -f "$applied/source" ] && [ "$(cat "$applied/source")" = "$PKG $(source_version)" ]; then
		# the files the old and new patches touch, as they are now (mtimes too): one whose content
		# comes out the same gets its old mtime back, so make rebuilds only what changed
		rm -rf "$keep"
		mkdir -p "$keep"
		{ touched_files; touched_files "$applied"/*.patch; } | sort -u | while read -r f; do
			[ -f "$tree/$f" ] && mkdir -p "$keep/$(dirname "$f")" && cp -p "$tree/$f" "$keep/$f"
		done
		for p in $(find "$applied" -maxdepth 1 -name '*.patch' | sort -r); do
			if ! (cd "$tree" && patch -R -p1 -F0 -s --no-backup-if-mismatch <"$p" >/dev/null 2>&1); then
				log "cannot take back $(basename "$p") from the work tree: extracting afresh"
				rm -rf "$tree"
				break
			fi
			rm -f "$p"
		done
	else
		rm -rf "$tree"
	fi
	if [ ! -d "$tree" ]; then
		log "extracting $TARBALL"
		mkdir -p "$CACHE/extract.$$"
		tar -xJf "$TARBALL" -C "$CACHE/extract.$$"
		mv "$CACHE/extract.$$/$PKG" "$tree"
		rmdir "$CACHE/extract.$$"
		mkdir -p "$applied"
		echo "$PKG $(source_version)" >"$applied/source"
	fi
	apply_all "$tree" >/dev/null || die "patches do not apply; nothing built (see above)"
	while read -r p; do
		[ -n "$p" ] && cp "$p" "$applied/"
	done < <(patch_files)
	if [ -d "$keep" ]; then
		(cd "$keep" && find . -type f) | while read -r f; do
			if cmp -s "$keep/$f" "$tree/$f"; then touch -r "$keep/$f" "$tree/$f"; fi
		done
		rm -rf "$keep"
	fi
}

# expected_files: how many files a whole build of SRC compiles: the last whole build's count, kept
# in the cache, else what this configuration compiled when it was measured (build-V.log of a fresh
# cache, 2026-12-02: 6.1 1297, 6.12 1375); 0 when unknown.
expected_files() {
	if [ -s "$CACHE/files-$SRC" ]; then
		cat "$CACHE/files-$SRC"
		return
	fi
	case $SRC in
	6.1) echo 1297 ;;
	6.12) echo 1375 ;;
	*) echo 0 ;;
	esac
}

# make_bzimage: make's part of the recipe (in the key)
make_bzimage() {
	make -C "$TREE" -j"$(nproc)" bzImage
}

# make_image LOG: the bzImage, progress every 20 s: files compiled of the expected whole, and the
# time left at the rate so far; a whole build's count is kept for the next estimate.
make_image() {
	local logf=$1 pid t0=$SECONDS n total
	total=$(expected_files)
	make_bzimage >"$logf" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 2
		if (((SECONDS - t0) % 20 < 2)); then
			n=$(grep -c '^ *CC ' "$logf" || true)
			if [ "$total" -gt 0 ] && [ "$n" -gt 0 ] && [ "$n" -lt "$total" ]; then
				log "building: $n of about $total files compiled ($((100 * n / total))%), $((SECONDS - t0)) s, about $(((SECONDS - t0) * (total - n) / n)) s left"
			else
				log "building: $n files compiled, $((SECONDS - t0)) s"
			fi
		fi
	done
	wait "$pid" || return
	n=$(grep -c '^ *CC ' "$logf" || true)
	if [ "$n" -ge $((total / 2)) ]; then echo "$n" >"$CACHE/files-$SRC"; fi
}

cmd_build() {
	local d logf t0=$SECONDS
	need_tarball
	d=$(cached_dir)
	if [ -f "$d/bzImage" ] && [ -f "$d/stamp" ]; then
		log "cached: $d"
		echo "$d/bzImage"
		return 0
	fi
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.lock"
	flock 9
	if [ -f "$d/bzImage" ] && [ -f "$d/stamp" ]; then echo "$d/bzImage"; return 0; fi
	logf=$CACHE/build-$TAG.log
	: >"$logf"
	log "building the lab kernel from $PKG $(source_version), $(patch_files | grep -c . || true) patches (log: $logf)"
	prepare_tree
	config_tree "$TREE" >>"$logf" 2>&1 || die "configuring failed; see $logf"
	if ! make_image "$logf"; then
		tail -n 25 "$logf" | sed 's/^/  | /' >&2
		die "make bzImage failed after $((SECONDS - t0)) s; the log is kept: $logf"
	fi
	config_lines | sha256sum | cut -c1-16 >"$TREE/.lab-applied/config"
	rm -rf "$d.new"
	mkdir -p "$d.new"
	cp "$TREE/arch/x86/boot/bzImage" "$TREE/.config" "$TREE/System.map" "$d.new/"
	mv "$d.new/.config" "$d.new/config"
	{
		stamp
		echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - t0)) s on $(nproc) cpus"
		echo "release $(make -C "$TREE" -s kernelrelease 2>/dev/null)"
		echo "compiler $(gcc --version | head -n 1)"
	} >"$d.new/stamp"
	rm -rf "$d"
	mv "$d.new" "$d"
	ln -sfn "$(basename "$d")" "$CACHE/lab-$TAG"
	log "built in $((SECONDS - t0)) s: $d/bzImage"
	echo "$d/bzImage"
}

# fix_source FIX: the first of SOURCES whose patches give FIX a switch, or nothing
fix_source() {
	local v
	for v in "${SOURCES[@]}"; do
		parse_source --source "$v"
		if grep -q "^fix=$1 " <<<"$(cmd_switches)"; then
			echo "$v"
			return 0
		fi
	done
}

# build_for FIX...: cmd_build for each source the fixes' switches need, once each (a fix with no
# switch needs none)
build_for() {
	local f v srcs=()
	for f in "$@"; do
		v=$(fix_source "$f")
		[ -n "$v" ] && [[ " ${srcs[*]} " != *" $v "* ]] && srcs+=("$v")
	done
	for v in "${srcs[@]}"; do
		parse_source --source "$v"
		cmd_build
	done
}

main() {
	local cmd=${1:-} v
	[ $# -gt 0 ] && shift
	case $cmd in
	build)
		adopt_clone_cache
		if [ "${1:-}" = --for ]; then
			shift
			build_for "$@"
		else
			parse_source "$@"
			cmd_build
		fi
		;;
	fix-source)
		[ $# -eq 1 ] || die "usage: build.sh fix-source FIX" 2
		v=$(fix_source "$1")
		[ -n "$v" ] || exit 1
		echo "$v"
		;;
	path) parse_source "$@"; adopt_clone_cache; cmd_path ;;
	warm) parse_source "$@"; adopt_clone_cache; cmd_warm ;;
	cache) echo "$CACHE" ;;
	key) parse_source "$@"; key ;;
	check) parse_source "$@"; cmd_check ;;
	switches)
		if [ "${1:-}" = --all ]; then
			for v in "${SOURCES[@]}"; do parse_source --source "$v"; cmd_switches; done
		else
			parse_source "$@"
			cmd_switches
		fi
		;;
	*) die "usage: build.sh build|path|warm|check|switches [--source $SOURCES_BAR | --all] | build --for FIX... | fix-source FIX | cache | key [--source $SOURCES_BAR]" 2 ;;
	esac
}

main "$@"
