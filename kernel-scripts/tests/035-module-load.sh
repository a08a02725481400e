#!/usr/bin/env bash
# 035: the lab loads a driver that is a module nothing has loaded (common/module.sh), with the
# lab's parameters, records in the registry everything that came in with it, and unloads exactly
# that again, newest first; a module built in or loaded already is used as it is and never
# unloaded; one that something else came to use since stays loaded, said; a scenario unloads what
# it loaded and nothing it found (the mark). Over a fake /proc/modules, /sys/module, /proc/devices
# and the like, with a stub modprobe and rmmod first in PATH: the logic alone, in a second. The
# real path, Debian's kernel with its modules, is test 034's (in the guest VM).
set -euo pipefail
fake=$(mktemp -d /tmp/lab-modules.XXXXXX)
mkdir -p "$fake/bin" "$fake/sys/module" "$fake/class"
export LAB_PROC_MODULES=$fake/modules LAB_SYS_MODULE=$fake/sys/module LAB_SYS_CLASS=$fake/class \
	LAB_PROC_DEVICES=$fake/devices LAB_PROC_FILESYSTEMS=$fake/filesystems LAB_PROC_CRYPTO=$fake/crypto \
	LAB_MODULE_TRIES=2 FAKE=$fake PATH=$fake/bin:$PATH
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_test_cleanup() { rm -rf "$fake"; }
_test_begin

# the kernel's modules this fake knows, "NAME DEPENDENCY...": modprobe loads the dependencies first
cat >"$fake/known" <<'EOF'
zram zsmalloc
zsmalloc
null_blk configfs
configfs
loop
dm_mod
dm_thin_pool dm_persistent_data dm_bio_prison dm_mod
dm_persistent_data dm_bufio libcrc32c
dm_bufio dm_mod
dm_bio_prison
libcrc32c
broken
EOF
echo "loop 40960 0 - Live 0x0" >"$fake/modules" # loaded already, by someone else
mkdir -p "$fake/sys/module/brd/parameters"      # built in: parameters, no initstate
: >"$fake/devices" && : >"$fake/filesystems" && : >"$fake/crypto"
cat >"$fake/bin/modprobe" <<'EOF'
#!/usr/bin/env bash
# stub: modprobe -n NAME (0 if known), modprobe NAME [PARAM...] (loads its dependencies, then it)
set -euo pipefail
if [ "$1" = -n ]; then awk -v m="${2//-/_}" '$1 == m { f = 1 } END { exit !f }' "$FAKE/known"; exit; fi
echo "modprobe $*" >>"$FAKE/calls"
name=${1//-/_}
[ "$name" != broken ] || exit 1
load() {
	local m=$1 d
	grep -q "^$m " "$FAKE/modules" 2>/dev/null && return 0
	for d in $(awk -v m="$m" '$1 == m { $1 = ""; print }' "$FAKE/known"); do load "$d"; done
	{ echo "$m 4096 0 - Live 0x0"; cat "$FAKE/modules"; } >"$FAKE/modules.new"
	mv "$FAKE/modules.new" "$FAKE/modules"
	mkdir -p "$FAKE/sys/module/$m" && echo live >"$FAKE/sys/module/$m/initstate"
}
load "$name"
EOF
cat >"$fake/bin/rmmod" <<'EOF'
#!/usr/bin/env bash
# stub: rmmod NAME, refused while $FAKE/sys/module/NAME/refcnt is above 0 or a loaded module
# depends on it
echo "rmmod $1" >>"$FAKE/calls"
if [ "$(cat "$FAKE/sys/module/$1/refcnt" 2>/dev/null || echo 0)" -gt 0 ]; then exit 1; fi
for m in $(awk '{ print $1 }' "$FAKE/modules"); do
	if awk -v m="$m" -v d="$1" '$1 == m { for (i = 2; i <= NF; i++) if ($i == d) f = 1 } END { exit !f }' "$FAKE/known"; then exit 1; fi
done
grep -v "^$1 " "$FAKE/modules" >"$FAKE/modules.new" || true
mv "$FAKE/modules.new" "$FAKE/modules"
rm -rf "${FAKE:?}/sys/module/$1"
EOF
chmod +x "$fake/bin/modprobe" "$fake/bin/rmmod"
calls() { if [ -s "$fake/calls" ]; then paste -sd';' "$fake/calls" | sed 's/;/; /g'; else echo none; fi; : >"$fake/calls"; }
loaded() { awk '{ print $1 }' "$fake/modules" | paste -sd' ' -; }
lines() { awk -F'\t' '$1 == "module" { print $2 " " $3 }' "$LAB_REGISTRY" | paste -sd';' - | sed 's/;/; /g'; }
: >"$fake/calls"

for m in zram null_blk dm-mod dm-thin-pool loop brd nosuch; do echo "state $m: $(_mod_state "$m")"; done
echo "driver_native nosuch: $(_driver_native nosuch && echo yes || echo no), zram: $(_driver_native zram && echo yes || echo no)"

_mod_need zram num_devices=0 2>/dev/null
echo "need zram: $(calls); registry: $(lines)"
_mod_need loop 2>/dev/null
_mod_need brd 2>/dev/null
echo "need loop (loaded) and brd (built in): $(calls)"
echo "need nosuch: $({ _mod_need nosuch 2>&1 || echo "status $?"; } | paste -sd' ' -)"
echo "need broken: $(_mod_need broken 2>&1 >/dev/null | tail -n 1); $(calls); registry: $(lines)"

_mod_need dm-mod 2>/dev/null
_mod_need dm-thin-pool 2>/dev/null
echo "need dm-mod, dm-thin-pool: $(calls); registry: $(lines)"
echo "loaded: $(loaded)"

# a scenario: what it loads goes with its teardown; what the registry had before stays
_mod_scenario_mark
_mod_need null_blk nr_devices=0 2>/dev/null
_mod_scenario_remove 2>/dev/null
echo "scenario's null_blk: $(calls); facts: $(_mod_facts); registry: $(lines)"

# something else came to use dm_bufio since: it stays, said; the rest goes, newest first
echo 1 >"$fake/sys/module/dm_bufio/refcnt"
echo "cleanup: $("$KS_DIR/lab-kernel.sh" cleanup 2>&1 | grep -o 'left loaded.*' | paste -sd';' - | sed 's/;/; /g')"
echo "cleanup's calls: $(calls)"
echo "loaded after: $(loaded); registry lines: $(wc -l <"$LAB_REGISTRY")"
