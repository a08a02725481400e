# shellcheck shell=bash
# common/module.sh: kernel modules the lab loads itself, and unloads again. Sourced by
# common/rc.sh; changes nothing by itself.
#
# On a stock Debian or Ubuntu kernel the drivers the lab uses are modules that nothing has loaded
# yet (zram, null_blk, brd, loop, dm-mod, dm-thin-pool: CONFIG_*=m). A device helper calls
# _mod_need before it makes its first device: a module built in or loaded already is used as it
# is (never reloaded, never unloaded by the lab); one that is loadable and not loaded is loaded
# with the parameters the lab wants (zram and null_blk with no device of their own: the lab
# hot-adds its own), and everything that came in with it (its dependencies, soft dependencies,
# what the kernel asked modprobe for on the way: /proc/modules before and after) is recorded as
# one registry line
#   module  NAME  MOD,MOD,...      (the modules that were not loaded before, newest first)
# written before modprobe runs (detail: NAME alone), so a run killed in between leaves a line that
# cleanup acts on, never a module the registry does not know. Cleanup (and a scenario's own
# teardown, _mod_scenario_remove) unloads them newest first, each only while nothing uses it
# (refcnt 0, no holders); a module something else has come to use since stays loaded, and
# cleanup says so.
#
# LAB_MODULE_LOG, where set, names a file that gets a line for every module the lab loads
# ("loaded NAME: MOD,...") and unloads ("unloaded NAME: MOD,...", "left loaded NAME: ..."): test
# 034 reads it to say which modules each run loaded and unloaded (brd.sh writes brd's).
#
# LAB_PROC_MODULES, LAB_SYS_MODULE, LAB_SYS_CLASS, LAB_PROC_DEVICES, LAB_PROC_FILESYSTEMS and
# LAB_PROC_CRYPTO are read instead of the kernel's files (/proc/modules, /sys/module, ...) when set:
# test 035 runs these functions over a fake tree, a stub modprobe and a stub rmmod.

LAB_PROC_MODULES=${LAB_PROC_MODULES:-/proc/modules}
LAB_SYS_MODULE=${LAB_SYS_MODULE:-/sys/module}
LAB_SYS_CLASS=${LAB_SYS_CLASS:-/sys/class}
LAB_PROC_DEVICES=${LAB_PROC_DEVICES:-/proc/devices}
LAB_PROC_FILESYSTEMS=${LAB_PROC_FILESYSTEMS:-/proc/filesystems}
LAB_PROC_CRYPTO=${LAB_PROC_CRYPTO:-/proc/crypto}
LAB_MODULE_TRIES=${LAB_MODULE_TRIES:-50} # rmmod tries, 0.2 s apart, before a busy module is left loaded

# _mod_name NAME: the kernel's name of module NAME (dashes as underscores: dm-mod -> dm_mod)
_mod_name() { echo "${1//-/_}"; }

# _mod_loaded NAME: true if module NAME is loaded (a line of /proc/modules); read in bash, no
# process: the lab asks it over a hundred times a scenario
_mod_loaded() {
	local want=${1//-/_} n _
	[ -r "$LAB_PROC_MODULES" ] || return 1
	while read -r n _; do
		if [ "$n" = "$want" ]; then return 0; fi
	done <"$LAB_PROC_MODULES"
	return 1
}

# _mod_builtin NAME: true if NAME is built into the running kernel: listed in its modules.builtin,
# a /sys/module dir that no loaded module owns (a built-in one with parameters), or, for the
# lab's drivers, what the driver makes at boot (zram's control class, a major in /proc/devices,
# configfs in /proc/filesystems, a crypto algorithm in /proc/crypto for crypto-NAME)
_mod_builtin() {
	local m=${1//-/_} k d kver # _mod_name's, in this shell: under TCG (test 034) every process costs
	_mod_loaded "$m" && return 1
	[ -d "$LAB_SYS_MODULE/$m" ] && [ ! -e "$LAB_SYS_MODULE/$m/initstate" ] && return 0
	case $m in
	zram) [ -d "$LAB_SYS_CLASS/zram-control" ] && return 0 ;;
	loop | brd | null_blk | dm_mod)
		k=${m/brd/ramdisk}
		k=${k/null_blk/nullb}
		k=${k/dm_mod/device-mapper}
		while read -r _ d; do [ "$d" != "$k" ] || return 0; done 2>/dev/null <"$LAB_PROC_DEVICES"
		;;
	configfs) grep -qw configfs "$LAB_PROC_FILESYSTEMS" 2>/dev/null && return 0 ;;
	crypto_*) awk -v a="${1#crypto-}" '$1 == "name" && $3 == a { f = 1 } END { exit !f }' "$LAB_PROC_CRYPTO" 2>/dev/null && return 0 ;;
	esac
	read -r kver </proc/sys/kernel/osrelease # uname -r, without two processes
	[ -r "/lib/modules/$kver/modules.builtin" ] &&
		awk -v m="$m" '{ n = $0; sub(/.*\//, "", n); sub(/\.ko$/, "", n); gsub(/-/, "_", n) } n == m { f = 1 } END { exit !f }' \
			"/lib/modules/$kver/modules.builtin"
}

# _mod_state NAME: builtin, loaded, loadable (modprobe finds it) or absent
_mod_state() {
	if _mod_builtin "$1"; then
		echo builtin
	elif _mod_loaded "$1"; then
		echo loaded
	elif command -v modprobe >/dev/null 2>&1 && modprobe -n "$1" >/dev/null 2>&1; then
		echo loadable
	else
		echo absent
	fi
}

# _mod_list: the loaded modules' names, newest first (/proc/modules' order)
_mod_list() { if [ -r "$LAB_PROC_MODULES" ]; then awk '{ print $1 }' "$LAB_PROC_MODULES"; fi; }

# _mod_need NAME [PARAM=VALUE...]: make sure module NAME is in the kernel: built in or loaded
# already, nothing done; loadable, loaded now with the PARAMs and recorded (above). Returns 1,
# saying why, when this kernel has no such module or modprobe fails. NAME may also be a module
# alias modprobe resolves (crypto-lz4).
_mod_need() {
	local name=$1 state before new
	shift
	state=$(_mod_state "$name")
	case $state in
	builtin | loaded) return 0 ;;
	absent)
		_lab_msg "module $name: not in this kernel, built in or loadable$(command -v modprobe >/dev/null 2>&1 || echo ' (and no modprobe here: kmod)')"
		return 1
		;;
	esac
	before=$(_mod_list)
	# an alias that resolves to a built-in module (crypto-lzo) loads nothing: no line then
	_reg_add module "$name" "$(_mod_name "$name")"
	if ! modprobe "$name" "$@"; then
		_mod_record "$name" "$before" >/dev/null
		_lab_msg "module $name: modprobe $name${*:+ $*} failed"
		return 1
	fi
	new=$(_mod_record "$name" "$before")
	_lab_msg "loaded module $name${*:+ ($*)}${new:+: $new} (the lab unloads it again)"
	_mod_log "loaded $name: ${new:-nothing new}"
}

# _mod_log LINE: LINE into LAB_MODULE_LOG, where set
_mod_log() {
	if [ -n "${LAB_MODULE_LOG:-}" ]; then echo "$*" >>"$LAB_MODULE_LOG"; fi
}

# _mod_record NAME BEFORE: set NAME's registry line to the modules loaded now that BEFORE (a
# _mod_list) did not list, newest first; drop the line when there are none; print them
_mod_record() {
	local new
	new=$(_mod_list | awk 'NR == FNR { had[$1] = 1; next } !($1 in had)' <(printf '%s\n' "$2") - | paste -sd, -)
	if [ -n "$new" ]; then _reg_set module "$1" "$new"; else _reg_del module "$1"; fi
	echo "$new"
}

# _mod_remove NAME: unload the modules of NAME's registry line, newest first, each still loaded
# and unused (retried while busy, up to 10 s: a device just removed may still hold it); one in
# use stays loaded, said on stderr. Drops the line.
_mod_remove() {
	local name=$1 mods m i kept=() gone=()
	mods=$(_reg_get module "$name") || _lab_refuse "module $name: not loaded by the lab (not in $LAB_REGISTRY)"
	for m in ${mods//,/ }; do
		_mod_loaded "$m" || continue
		for i in $(seq 1 "$LAB_MODULE_TRIES"); do
			if rmmod "$m" 2>/dev/null; then
				gone+=("$m")
				break
			fi
			if [ "$i" -eq "$LAB_MODULE_TRIES" ]; then
				kept+=("$m (refcnt $(cat "$LAB_SYS_MODULE/$m/refcnt" 2>/dev/null || echo ?)$(_mod_holders "$m"))")
				break
			fi
			sleep 0.2
		done
	done
	if [ ${#kept[@]} -gt 0 ]; then
		_lab_msg "module $name: left loaded, in use by something else since the lab loaded it: ${kept[*]}"
		_mod_log "left loaded $name: ${kept[*]}"
	fi
	_mod_log "unloaded $name: $(_mod_join "${gone[@]}")"
	_reg_del module "$name"
}

# _mod_holders M: ", held by A B" for the modules that use M (its holders/), or nothing
_mod_holders() {
	local h hs=()
	for h in "$LAB_SYS_MODULE/$1/holders"/*; do
		if [ -e "$h" ]; then hs+=("${h##*/}"); fi
	done
	if [ ${#hs[@]} -gt 0 ]; then echo ", held by ${hs[*]}"; fi
}

# _mod_lines: the registry's lines of what the lab loads or mounts for its drivers (module, and
# configfs: null_blk.sh), "KIND<TAB>NAME<TAB>DETAIL", oldest first
_mod_lines() {
	[ -e "$LAB_REGISTRY" ] || return 0
	awk -F'\t' '$1 == "module" || $1 == "configfs"' "$LAB_REGISTRY"
}

# _mod_scenario_mark: remember the module and configfs lines there are now (_scenario_traps calls
# it), so that _mod_scenario_remove undoes what this scenario loaded or mounted and nothing it
# found there
MOD_MARK='' MOD_MARKED=0
_mod_scenario_mark() {
	MOD_MARK=$(_mod_lines | cut -f1,2)
	MOD_MARKED=1
}

# _mod_scenario_remove: undo the module and configfs lines since the mark (unload, unmount),
# newest first, after the scenario's devices are gone (_made_remove); 1 if a line stays. Nothing
# without a mark. The modules it unloaded (or meant to) join MOD_UNDONE, for _mod_facts.
MOD_UNDONE=()
_mod_scenario_remove() {
	local kind name mods rc=0 list=()
	[ "$MOD_MARKED" = 1 ] || return 0
	while IFS=$'\t' read -r kind name mods; do
		[ -n "$kind" ] || continue
		if grep -qxF "$kind"$'\t'"$name" <<<"$MOD_MARK"; then continue; fi
		if [ "$kind" = module ]; then
			read -r -a list <<<"${mods//,/ }"
			MOD_UNDONE+=("${list[@]}")
		fi
		(_remove_entry "$kind" "$name") || rc=1
	done < <(_mod_lines | tac)
	return "$rc"
}

# _mod_facts: a scenario's "modules:" fact, after its teardown: the modules the lab loaded for it
# and whether each is unloaded again, e.g. "loaded by the lab, unloaded after: zram, zsmalloc",
# "... ; left loaded (in use): dm_mod", or "none loaded by the lab (built in, or loaded already)"
_mod_facts() {
	local m gone=() left=() out
	for m in "${MOD_UNDONE[@]}"; do
		if _mod_loaded "$m"; then left+=("$m"); else gone+=("$m"); fi
	done
	if [ ${#MOD_UNDONE[@]} -eq 0 ]; then
		echo "none loaded by the lab (built in, or loaded already)"
		return
	fi
	out="loaded by the lab, unloaded after: $(_mod_join "${gone[@]}")"
	if [ ${#left[@]} -gt 0 ]; then out+="; left loaded (in use): $(_mod_join "${left[@]}")"; fi
	echo "$out"
}

# _mod_join WORD...: the WORDs joined with ", ", or "none"
_mod_join() {
	local out w
	if [ $# -eq 0 ]; then echo none; return; fi
	out=$1
	shift
	for w in "$@"; do out+=", $w"; done
	echo "$out"
}

# _mod_loaded_by_lab: the modules the registry's module lines name (newest first, comma-joined),
# or "none": for a scenario's facts, before its teardown
_mod_loaded_by_lab() {
	local all
	all=$(_mod_lines | awk -F'\t' '$1 == "module" { print $3 }' | tac | paste -sd, -)
	echo "${all:-none}"
}
