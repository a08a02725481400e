#!/usr/bin/env bash
# scenarios/dm-css-ref/guest.sh: the dm-css-ref scenario (run.sh) where the host kernel lacks brd
# or device-mapper. Runs INSIDE the guest VM (kernel-scripts/guest/guest.sh run), started by /init
# under busybox sh, and goes on under the guest's bash-static with the host's kernel-scripts (as
# /mnt/in/ks): the same registry, _counted, devices and rounds as on a host that has them
# (scenarios/dm-css-ref/lib.sh).
#
# Reads $OUT/dm-css-ref.params (written by run.sh: runtime, rounds, depths, size_mb, bridge) and
# $OUT/jobs/ (the job files the host rendered: the guest has no JVM). Mounts cgroup2 where it is
# not mounted (unmounted again on the way out), loads brd (ram0, and ram1 for the bridge's depth
# 0), stacks lab-lin1..lab-lin5 over ram0, makes the child cgroup, and runs the rounds: fio
# (psync) at every depth, root and child, numjobs 1 and the guest's cores; the bridge (the
# host's, shared as /mnt/in/bridge: C1 only, JVM start-up dominates under TCG) at depths 0 and 5
# when asked and shared. Writes into $OUT the host's names, perf-missing.txt, dm-table.txt and
# dm-css-ref-guest.txt (key: value lines the host puts into env.txt). Not for the host: there it
# refuses.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail

OUT=${OUT:-/mnt/out}
KS=/mnt/in/ks
if [ ! -r "$KS/scenarios/dm-css-ref/lib.sh" ] || [ ! -r "$OUT/dm-css-ref.params" ]; then
	echo "dm-css-ref-guest: runs inside the lab guest VM (started by scenarios/dm-css-ref/run.sh)" >&2
	exit 1
fi
export LAB_STATE=/tmp/lab-state
# shellcheck source=SCRIPTDIR/../../common/rc.sh
. "$KS/common/rc.sh"
# shellcheck source=SCRIPTDIR/lib.sh
. "$KS/scenarios/dm-css-ref/lib.sh"
BRIDGE_DIR=/mnt/in/bridge

_guest_params "$OUT/dm-css-ref.params" runtime rounds depths size_mb bridge # into P

DC_OUT=$OUT DC_RUNTIME=${P[runtime]} DC_ROUNDS=${P[rounds]} DC_SIZE_MB=${P[size_mb]}
read -r -a DC_DEPTHS <<<"${P[depths]}"
DC_NUMJOBS=(1)
if [ "$(nproc)" -gt 1 ]; then DC_NUMJOBS+=("$(nproc)"); fi
DC_JOBS_FROM=$OUT/jobs
DC_BRIDGE=()
_guest_cgroup2_traps # removes the lab's objects, then unmounts the cgroup2 mounted here

# bridge_init: DC_BRIDGE when the host asked for the bridge and shared it; else BRIDGE_WHY says
# why not
bridge_init() {
	BRIDGE_WHY=
	if [ "${P[bridge]}" != 1 ]; then BRIDGE_WHY=${P[bridge_why]:-not asked for}; return; fi
	if [ ! -x "$BRIDGE_DIR/jre/bin/java" ]; then BRIDGE_WHY="not shared by guest.sh (needs LAB_JDK with jlink, bridge.jar, liburing2)"; return; fi
	DC_BRIDGE=(env "LD_LIBRARY_PATH=$BRIDGE_DIR/lib" "$BRIDGE_DIR/jre/bin/java" --enable-native-access=ALL-UNNAMED
		-XX:TieredStopAtLevel=1 -Dlab.registry="$LAB_REGISTRY" -jar "$BRIDGE_DIR/bridge.jar")
}

_guest_cgroup2_mount
bridge_init
nr=1
if [ ${#DC_BRIDGE[@]} -gt 0 ] && [[ " ${DC_DEPTHS[*]} " == *" 0 "* ]]; then nr=2; fi
_lab_msg "dm-css-ref-guest: $(uname -r), $(nproc) cpus, depths ${DC_DEPTHS[*]}, bridge: ${BRIDGE_WHY:-yes}"

dc_jobs
labmod zram num_devices=0
dc_emulation_probe guest
dc_setup "$nr"
dc_rounds
_made_remove

tools="fio (psync)"
if [ ${#DC_BRIDGE[@]} -gt 0 ]; then
	tools+="; bridge (psync, C1 only: -XX:TieredStopAtLevel=1; root cgroup, numjobs 1, at depth 0 on ram1, a second ram disk like ram0, and at depth 5)"
else
	tools+="; bridge skipped: $BRIDGE_WHY"
fi
dc_facts "$tools" >"$OUT/dm-css-ref-guest.txt"
