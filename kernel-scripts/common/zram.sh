# shellcheck shell=bash
# common/zram.sh: zram devices the lab hot-adds (/sys/class/zram-control) and removes.
# Sourced by common/rc.sh; changes nothing by itself.

# _zram_add SIZE [ALGO]: hot-add a zram device, print its name (zramN). zram is loaded first where
# it is a module nothing has loaded (num_devices=0: no device of its own; common/module.sh), and
# ALGO's crypto module where that is one. A refused algorithm or size returns 1 with the device
# left in the registry, for the caller's rollback to remove.
_zram_add() {
	local size=$1 algo=${2:-} idx
	_mod_need zram num_devices=0 || return 1
	[ -r /sys/class/zram-control/hot_add ] || { _lab_msg "no /sys/class/zram-control"; return 1; }
	# the kernel would load ALGO's module itself (crypto-ALGO) when the algorithm is named, and
	# nobody would unload it: the lab loads it, and says so, where it is a module
	if [ -n "$algo" ] && [ "$(_mod_state "crypto-$algo")" = loadable ]; then _mod_need "crypto-$algo" || return 1; fi
	idx=$(cat /sys/class/zram-control/hot_add)
	_reg_add zram "zram$idx" -
	if [ -n "$algo" ] && ! echo "$algo" 2>/dev/null >"/sys/block/zram$idx/comp_algorithm"; then
		_lab_msg "zram: this kernel has no compression algorithm '$algo' (it has: $(tr -d '[]' <"/sys/block/zram$idx/comp_algorithm" | xargs))"
		return 1
	fi
	if ! echo "$size" 2>/dev/null >"/sys/block/zram$idx/disksize"; then
		_lab_msg "zram: the kernel refused disksize $size"
		return 1
	fi
	echo "zram$idx"
}

# _zram_remove NAME: reset (retrying while busy) then hot_remove; drop the registry line.
_zram_remove() {
	local name=${1#/dev/} i
	_lab_require_owned "$name"
	if [ -d "/sys/block/$name" ]; then
		for i in $(seq 1 50); do
			if echo 1 2>/dev/null >"/sys/block/$name/reset"; then break; fi
			[ "$i" -eq 50 ] && { _lab_msg "$name: reset still busy after 10 s"; return 1; }
			sleep 0.2
		done
		for i in $(seq 1 50); do
			if echo "${name#zram}" 2>/dev/null >/sys/class/zram-control/hot_remove; then break; fi
			[ "$i" -eq 50 ] && { _lab_msg "$name: hot_remove still busy after 10 s"; return 1; }
			sleep 0.2
		done
	fi
	_reg_del zram "$name"
}
