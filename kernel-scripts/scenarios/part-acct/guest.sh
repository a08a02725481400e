#!/usr/bin/env bash
# scenarios/part-acct/guest.sh: the null_blk half of the part-acct scenario (run.sh). Runs INSIDE
# the guest VM (kernel-scripts/guest/guest.sh run), started by /init under busybox sh, and goes on
# under the guest's bash-static with the host's kernel-scripts (as /mnt/in/ks): the same registry,
# _counted and rounds as on the host (scenarios/part-acct/lib.sh), on a lab null_blk device.
#
# Reads $OUT/part-acct.params (written by part-acct.sh: runtime, rounds, size_mb, start_mb,
# part_mb, mbr_sector_size), $OUT/part-acct.mbr (the DOS table sfdisk made on the host: the
# guest has no sfdisk) and $OUT/jobs/ (the job files the host rendered: the guest has no JVM). Makes a memory-backed null_blk (so the table survives), writes the
# table, and runs fio (psync) on the disk and, if the kernel made partition 1, on the partition:
# numjobs 1 and the guest's cores (the cells of the params' cells), iostats 1 and 0 interleaved. Writes into $OUT the host's
# names with dev nullb, perf-missing.txt, and part-acct-guest.txt (key: value lines the host
# puts into env.txt as guest_*). Not for the host: there it refuses.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail

OUT=${OUT:-/mnt/out}
KS=/mnt/in/ks
if [ ! -r "$KS/scenarios/part-acct/lib.sh" ] || [ ! -r "$OUT/part-acct.params" ]; then
	echo "part-acct-guest: runs inside the lab guest VM (started by scenarios/part-acct/run.sh)" >&2
	exit 1
fi
export LAB_STATE=/tmp/lab-state
# shellcheck source=SCRIPTDIR/../../common/rc.sh
. "$KS/common/rc.sh"
# shellcheck source=SCRIPTDIR/lib.sh
. "$KS/scenarios/part-acct/lib.sh"

_guest_params "$OUT/part-acct.params" runtime rounds size_mb start_mb part_mb mbr_sector_size # into P

CORES=$(nproc)
PA_OUT=$OUT PA_RUNTIME=${P[runtime]} PA_ROUNDS=${P[rounds]} PA_DEPTH=8
PA_SPAN="${P[start_mb]} ${P[part_mb]}" PA_PART_MIB=${P[part_mb]}
PA_NUMJOBS=(1)
if [ "$CORES" -gt 1 ]; then PA_NUMJOBS+=("$CORES"); fi
PA_TOOLS=(fio)
PA_JOBS_FROM=$OUT/jobs
PA_FLAME=
PA_CELLS=${P[cells]:-all}
_scenario_traps

labmod null_blk nr_devices=0
nb=$(_nullb_add "${P[size_mb]}M" mem)
MADE+=("nullb ${nb#/dev/}")
pa_iostats_own "$nb"
iostats_default=$PA_IOSTATS_OLD
PA_TARGETS=("nullb disk $nb $nb")

ss=$(blockdev --getss "$nb")
if [ "$ss" != "${P[mbr_sector_size]}" ]; then
	part_status="no: the table counts in ${P[mbr_sector_size]}-byte blocks, the device has $ss"
elif made=$(_mbr_write "$nb" "$OUT/part-acct.mbr" 2>"$FLAME_TMP/part.err"); then
	read -r part how <<<"$made"
	part_status="yes: $part, ${P[part_mb]}M from ${P[start_mb]}M, made by: $how"
	PA_TARGETS+=("nullb part $nb $part")
else
	part_status="no: $(tr '\n' ' ' <"$FLAME_TMP/part.err")"
fi
_lab_msg "part-acct-guest: $nb ($(uname -r), $CORES cpus), partition: $part_status"

pa_jobs
pa_rounds
_made_remove

{
	echo "device: nullb ${nb#/dev/} (null_blk through configfs, ${P[size_mb]}M, 4 KiB blocks, blk-mq, memory_backed=1)"
	echo "part: $part_status"
	echo "iostats_default: $iostats_default"
	echo "numjobs: ${PA_NUMJOBS[*]}"
	echo "tools: fio (psync)"
} >"$OUT/part-acct-guest.txt"
