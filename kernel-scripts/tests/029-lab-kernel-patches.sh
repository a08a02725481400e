#!/usr/bin/env bash
# 029: the lab kernel's patches apply cleanly to the pinned linux-sources, 6.1 and 6.12
# (kernel/build.sh check, fast: only the files they touch are extracted); every switch's fix has
# its lab-ab.sh workload and its source (build.sh fix-source); a bad --source and a missing source
# package are refused with a clear message, nothing built; the cache is the machine's, outside the
# clone, and a clone's own is moved there; the cache key follows the recipe, not the script's
# comments; the notrace variant (the tracing block left out) has a key of its own; a work tree
# built with another config is not warm; each lock switch names its lock and callers (Lab-Lock).
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
build=$KS_DIR/kernel/build.sh
for v in 6.1 6.12; do
	[ -f "/usr/src/linux-source-$v.tar.xz" ] || _skip "linux-source-$v is not installed (./lab test installs it as root)"
done
state=$(mktemp -d /tmp/lab-test.XXXXXX)
trap 'rm -rf "$state"' EXIT

for v in 6.1 6.12; do
	if out=$(LAB_STATE=$state LAB_KERNEL_CACHE=$state/cache bash "$build" check --source "$v" 2>&1); then
		echo "$v: patches apply cleanly: yes"
	else
		echo "$out" >&2
		echo "$v: patches apply cleanly: no"
	fi
done
switches=$(for v in 6.1 6.12; do bash "$build" switches --source "$v"; done)
fixes=$(awk '{ sub(/^fix=/, "", $1); print $1 }' <<<"$switches" | sort | paste -sd' ' -)
echo "switches: $fixes"
for f in $fixes; do echo "$f: its switch's source: $(bash "$build" fix-source "$f")"; done
echo "a fix with no switch has no source: $(bash "$build" fix-source smoke >/dev/null && echo no || echo yes)"
ok=yes
for f in $fixes; do [ -f "$KS_DIR/scenarios/$f/lab-ab.sh" ] || ok="no ($f)"; done
echo "every switch's fix has scenarios/FIX/lab-ab.sh: $ok"
# each switch's header is complete: before and after among its values, an ops counter, K
ok=yes
while read -r line; do
	for k in switch values before after count ops k; do [[ " $line" == *" $k="?* ]] || ok="no: $k in $line"; done
done <<<"$switches"
echo "every switch's header is complete: $ok"

rc=0
msg=$(LAB_STATE=$state LAB_KERNEL_CACHE=$state/cache bash "$build" build --source 5.10 2>&1) || rc=$?
echo "bad --source: exit $rc, names the versions: $(grep -q 'one of 6.1 6.12' <<<"$msg" && echo yes || echo no)"
rc=0
msg=$(LAB_STATE=$state LAB_KERNEL_CACHE=$state/cache LAB_KERNEL_USR_SRC=$state/none bash "$build" build --source 6.12 2>&1) || rc=$?
echo "missing source package: exit $rc, names it: $(grep -q 'install the Debian package linux-source-6.12' <<<"$msg" && echo yes || echo no)"
echo "nothing built: $([ -z "$(ls -A "$state")" ] && echo yes || echo no)"
# the cache is the machine's, outside the clone (a fresh clone finds an earlier build); a clone's
# own, where it was before (.lab/lab-kernel), is moved there and not lost
echo "the cache is outside the clone: $(case $(bash "$build" cache) in "$LAB_ROOT"/*) echo no ;; *) echo yes ;; esac)"
mkdir -p "$state/clone/lab-kernel/lab-6.1-000000000000"
echo old >"$state/clone/lab-kernel/lab-6.1-000000000000/bzImage"
LAB_STATE=$state/clone LAB_KERNEL_CACHE=$state/machine bash "$build" path --source 6.1 >/dev/null 2>&1 || true
echo "a clone's own cache is moved to the machine's: $([ -f "$state/machine/lab-6.1-000000000000/bzImage" ] && [ ! -e "$state/clone/lab-kernel" ] && echo yes || echo no)"
# the key: a comment added to the script keeps it; a changed recipe (configure) or config, not
cp -r "$KS_DIR/kernel" "$state/k"
k0=$(bash "$state/k/build.sh" key --source 6.1)
echo "# a comment" >>"$state/k/build.sh"
echo "a comment in build.sh keeps the key: $([ "$(bash "$state/k/build.sh" key --source 6.1)" = "$k0" ] && echo yes || echo no)"
sed -i 's/^config_tree() {$/&\n\ttrue/' "$state/k/build.sh"
echo "a changed recipe changes it: $([ "$(bash "$state/k/build.sh" key --source 6.1)" != "$k0" ] && echo yes || echo no)"
cp "$KS_DIR/kernel/build.sh" "$state/k/build.sh"
echo "LAB_TEST=y" >>"$state/k/config"
echo "a changed config changes it: $([ "$(bash "$state/k/build.sh" key --source 6.1)" != "$k0" ] && echo yes || echo no)"
# the notrace variant (kernel/overhead.sh's lab-notrace): its own key, the tracing block left out
cp "$KS_DIR/kernel/config" "$state/k/config"
kn=$(LAB_KERNEL_VARIANT=notrace bash "$state/k/build.sh" key --source 6.1)
echo "the notrace variant has a key of its own: $([ -n "$kn" ] && [ "$kn" != "$(bash "$state/k/build.sh" key --source 6.1)" ] && echo yes || echo no)"
sed -i '/^# >>> tracing/,/^# <<< tracing/{/^EVENT_TRACING=y$/d}' "$state/k/config"
echo "notrace leaves out the tracing block (an edit inside it keeps its key): $([ "$(LAB_KERNEL_VARIANT=notrace bash "$state/k/build.sh" key --source 6.1)" = "$kn" ] && echo yes || echo no)"
rc=0
LAB_KERNEL_VARIANT=bogus bash "$build" key --source 6.1 >/dev/null 2>&1 || rc=$?
echo "an unknown variant: exit $rc"
# a work tree last built with another config is not warm (a whole rebuild, which tests skip)
mkdir -p "$state/warm/src-6.1/.lab-applied"
dpkg-query -W -f 'linux-source-6.1 ${Version}' linux-source-6.1 >"$state/warm/src-6.1/.lab-applied/source" 2>/dev/null || echo "linux-source-6.1 -" >"$state/warm/src-6.1/.lab-applied/source"
sha256sum <"$KS_DIR/kernel/config" | cut -c1-16 >"$state/warm/src-6.1/.lab-applied/config"
echo "a tree built with this config is warm: $(LAB_KERNEL_CACHE=$state/warm bash "$build" warm --source 6.1 && echo yes || echo no)"
echo 0000000000000000 >"$state/warm/src-6.1/.lab-applied/config"
echo "a tree built with another config is not warm: $(LAB_KERNEL_CACHE=$state/warm bash "$build" warm --source 6.1 && echo no || echo yes)"
# a switch that is a lock names it, and the callers perf lock names, for the contention lineup
awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^lock=/) print "a lock switch: " substr($1, 5) ": " substr($i, 6) }' <<<"$switches" | sort
