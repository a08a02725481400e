#!/usr/bin/env bash
# kernel/ab-guest.sh: a fix's switch A/B, INSIDE the guest booted on the lab kernel (started by
# kernel/lab-ab.sh through guest/guest.sh run, under busybox sh, then re-run under bash with the
# host's kernel-scripts as /mnt/in/ks).
#
# Reads $OUT/lab-ab.params (fix, counts, rounds, runtime, quick, boot, round0) and the fix's switch from its
# patch's Lab-* header (kernel/build.sh switches). Sources scenarios/FIX/lab-ab.sh, which makes
# the device (ab_setup: sets AB_DEV) and names the workload (ab_fio_args: fio's arguments but the
# output; AB_WORKLOAD: in words), or runs a trial its own way (ab_trial PREFIX; AB_METRIC share:
# two writers' bandwidth ratio, their fio JSONs PREFIX.a.fio.json and PREFIX.b.fio.json). Then
# per round (this boot's rounds are round0+1..round0+rounds), per count N, each variant in turn (before,
# after, aa: the after again, the A/A; default when neither is the stock value), the order
# reversed every other round: the switch and its count written and read back, the switch's
# operation counter read before and after, fio under perf stat. Each trial leaves in $OUT/ab/:
#   N<n>-r<r>-s<slot>-<variant>.json       fio's JSON
#   ...perf.csv                            perf stat -x, (the guest's held events)
#   ...ops                                 "before after" of the counter
#   ...iops.<job>.log                      fio's IOPS per 250 ms, per job (the A/A's iterations)
# and $OUT/ab/trials.tsv, one line a trial: count round slot variant value prefix boot (each boot
# adds its lines to the last's). The host
# (kernel/ab-rows.py) turns them into lab-ab.tsv and lab-iter.tsv.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail

OUT=${OUT:-/mnt/out}
KS=/mnt/in/ks
if [ ! -r "$OUT/lab-ab.params" ] || [ ! -r "$KS/common/rc.sh" ]; then
	echo "ab-guest: runs inside the lab guest VM (started by kernel/lab-ab.sh)" >&2
	exit 1
fi
export LAB_STATE=/tmp/lab-state
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS/common/rc.sh"
_guest_params "$OUT/lab-ab.params" fix counts rounds runtime # into P
BOOT=${P[boot]:-1}
ROUND0=${P[round0]:-0}
FIX=${P[fix]}
read -r -a COUNTS <<<"${P[counts]}"
ROUNDS=${P[rounds]}
RUNTIME=${P[runtime]}
MADE=() # the devices ab_setup makes, removed on the way out (_scenario_teardown)
_scenario_traps

# sysfs_param MOD/PARAM: its file
sysfs_param() { echo "/sys/module/${1%%/*}/parameters/${1#*/}"; }

# The switch, from the patch's header: SW_* variables.
# shellcheck disable=SC2034 # SW_K is read by the fix's file
switch_facts() {
	local line w
	line=$(bash "$KS/kernel/build.sh" switches --source "${P[source]:-6.1}" | awk -v f="$FIX" '$1 == "fix=" f')
	[ -n "$line" ] || { _lab_msg "ab-guest: no switch for $FIX in kernel/patches"; exit 1; }
	for w in $line; do
		case $w in
		switch=*) SW_PARAM=$(sysfs_param "${w#switch=}") ;;
		count=*) SW_COUNT=${w#count=} ;;
		ops=*) SW_OPS=$(sysfs_param "${w#ops=}") ;;
		before=*) SW_BEFORE=${w#before=} ;;
		after=*) SW_AFTER=${w#after=} ;;
		values=*) SW_VALUES=${w#values=} ;;
		k=*) SW_K=${w#k=} ;; # for the fix's file (thin-bufio-lock measures its passes with it)
		esac
	done
	SW_DEFAULT=${SW_VALUES%%,*}
	[ "$SW_COUNT" = - ] || SW_COUNT=$(sysfs_param "$SW_COUNT")
	[ -w "$SW_PARAM" ] || { _lab_msg "ab-guest: $SW_PARAM missing: is this the lab kernel?"; exit 1; }
}

# set_param FILE VALUE: write and read back
set_param() {
	local got
	echo "$2" >"$1"
	got=$(cat "$1")
	[ "$got" = "$2" ] || { _lab_msg "ab-guest: $1 reads back '$got', not '$2'"; exit 1; }
}

# switch_to VALUE N: the switch at VALUE and its count at N (where it takes one), each read back
switch_to() {
	set_param "$SW_PARAM" "$1"
	[ "$SW_COUNT" = - ] || set_param "$SW_COUNT" "$2"
}

# trial N ROUND SLOT VARIANT VALUE
trial() {
	local n=$1 r=$2 s=$3 v=$4 val=$5 pre o0 o1
	pre=$OUT/ab/N$n-r$r-s$s-$v
	switch_to "$val" "$n"
	o0=$(cat "$SW_OPS")
	if declare -F ab_trial >/dev/null; then
		ab_trial "$pre"
	else
		perf stat -x, -o "$pre.perf.csv" -e "$LAB_PERF_EVENTS" -- \
			fio "${AB_FIO[@]}" --time_based --runtime="$RUNTIME" --eta=never \
			--write_iops_log="$pre" --log_avg_msec=250 --output-format=json --output="$pre.json" >/dev/null
	fi
	o1=$(cat "$SW_OPS")
	echo "$o0 $o1" >"$pre.ops"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$r" "$s" "$v" "$val" "ab/${pre##*/}" "$BOOT" >>"$OUT/ab/trials.tsv"
}

# traced_trial N ROUND VARIANT VALUE: the same trial under `perf lock record -a` (the kernel's
# lock:contention_begin/end, with callchains, on every CPU: fio's own and its I/O's kernel workers',
# dm-thin's deferred bios among them), then `perf lock contention` over it: contentions,
# total, max and average wait by caller, the most contended first. Not timed: its I/Os only divide
# the counts. Leaves N<n>-r<r>-t-<variant>.json (fio's), .lock.txt (perf lock contention's table
# and its warnings), .lock.err (perf lock record's messages), .ops, and a line in ab/traced.tsv.
# perf.data is dropped once read (MBs).
traced_trial() {
	local n=$1 r=$2 v=$3 val=$4 pre o0 o1
	pre=$OUT/ab/N$n-r$r-t-$v
	switch_to "$val" "$n"
	o0=$(cat "$SW_OPS")
	# perf.data on the guest's tmpfs: the 9p share takes no mmap, which perf's reading needs
	perf lock record -o /tmp/lab-lock.data -a -- \
		fio "${AB_FIO[@]}" --time_based --runtime="$TRACE_RUNTIME" --eta=never \
		--output-format=json --output="$pre.json" >/dev/null 2>"$pre.lock.err"
	o1=$(cat "$SW_OPS")
	echo "$o0 $o1" >"$pre.ops"
	# perf prints the table with pr_info, to stderr: the table and its warnings go together
	perf lock contention -i /tmp/lab-lock.data -k contended -F contended,wait_total,wait_max,avg_wait -E 50 \
		>"$pre.lock.txt" 2>&1
	rm -f /tmp/lab-lock.data
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$r" "$v" "$val" "ab/${pre##*/}" "$BOOT" >>"$OUT/ab/traced.tsv"
}

# c2c_trial N VARIANT VALUE: the same trial under `perf c2c record` (every CPU's sampled loads and
# stores, HITM: a load that found the line modified in another core's cache), reduced by perf c2c
# report --stdio to N<n>-c2c-<variant>.c2c.txt (the notebook's reduction: the top lines by HITM
# and their symbols). Only where the PMU samples loads (_c2c_supported).
c2c_trial() {
	local n=$1 v=$2 val=$3 pre
	pre=$OUT/ab/N$n-c2c-$v
	switch_to "$val" "$n"
	perf c2c record -a -o /tmp/lab-c2c.data -- \
		fio "${AB_FIO[@]}" --time_based --runtime="$TRACE_RUNTIME" --eta=never \
		--output-format=json --output="$pre.json" >/dev/null 2>"$pre.c2c.err"
	perf c2c report -i /tmp/lab-c2c.data --stdio >"$pre.c2c.txt" 2>>"$pre.c2c.err"
	rm -f /tmp/lab-c2c.data
}

switch_facts
# the defaults, before the fix's file (which may set them)
AB_METRIC=iops
AB_SITES=1 # how many times an I/O passes the switch's sites (dm-css-ref: once a dm layer)
AB_SITES_NOTE= # how AB_SITES was had, where the fix's file measured it (thin-bufio-lock: nodes per I/O)
# shellcheck source=/dev/null
. "$KS/scenarios/$FIX/lab-ab.sh"
mkdir -p "$OUT/ab"
[ -f "$OUT/ab/trials.tsv" ] || printf 'count\tround\tslot\tvariant\tvalue\tprefix\tboot\n' >"$OUT/ab/trials.tsv"
ab_setup # sets AB_DEV, joins MADE
AB_FIO=()
if ! declare -F ab_trial >/dev/null; then mapfile -t AB_FIO < <(ab_fio_args "$AB_DEV"); fi
# trace=lock: per round, per count in trace_counts, the before and the after once more under
# perf lock (traced_trial); the timed trials stay untraced. Only for fio trials (ab_trial's two
# writers are not a lock's A/B).
TRACE=${P[trace]:-}
read -r -a TRACE_COUNTS <<<"${P[trace_counts]:-}"
TRACE_RUNTIME=${P[trace_runtime]:-$RUNTIME}
if [ "$TRACE" = lock ]; then
	declare -F ab_trial >/dev/null && { _lab_msg "ab-guest: $FIX runs its own trials: no perf lock trials"; TRACE=; }
	[ -r /sys/kernel/tracing/events/lock/contention_begin/id ] ||
		{ _lab_msg "ab-guest: this kernel has no lock:contention_begin event (tracefs, CONFIG_EVENT_TRACING): no perf lock trials"; TRACE=; }
	[ -f "$OUT/ab/traced.tsv" ] || printf 'count\tround\tvariant\tvalue\tprefix\tboot\n' >"$OUT/ab/traced.tsv"
fi
# trace=c2c (a switch that adds shared atomics): one before and one after trial under perf c2c at
# the last trace count, where the PMU samples loads; else one line says why (C2C_NOTE)
C2C_NOTE=
if [ "$TRACE" = c2c ]; then
	if declare -F ab_trial >/dev/null; then
		C2C_NOTE="$FIX runs its own trials: no perf c2c trials"
	elif ! C2C_NOTE=$(_c2c_supported); then
		:
	else
		C2C_NOTE=
	fi
fi
variants=(before after aa)
[ "$SW_DEFAULT" = "$SW_BEFORE" ] || [ "$SW_DEFAULT" = "$SW_AFTER" ] || variants+=(default)
_lab_msg "ab-guest: $FIX on $(uname -r), $(nproc) cpus, boot $BOOT: $SW_PARAM $SW_BEFORE vs $SW_AFTER, counts ${COUNTS[*]}, rounds $((ROUND0 + 1))..$((ROUND0 + ROUNDS)) of ${RUNTIME}"
for ((r = ROUND0 + 1; r <= ROUND0 + ROUNDS; r++)); do
	order=("${variants[@]}")
	if ((r % 2 == 0)); then
		order=()
		for ((i = ${#variants[@]} - 1; i >= 0; i--)); do order+=("${variants[i]}"); done
	fi
	for n in "${COUNTS[@]}"; do
		s=0
		for v in "${order[@]}"; do
			s=$((s + 1))
			case $v in before) val=$SW_BEFORE ;; after | aa) val=$SW_AFTER ;; default) val=$SW_DEFAULT ;; esac
			_lab_msg "ab-guest: boot $BOOT, round $r/$((ROUND0 + ROUNDS)), N=$n, $v ($val)"
			trial "$n" "$r" "$s" "$v" "$val"
		done
	done
	[ "$TRACE" = lock ] || continue
	for n in "${TRACE_COUNTS[@]}"; do
		for v in "${order[@]}"; do
			case $v in before) val=$SW_BEFORE ;; after) val=$SW_AFTER ;; *) continue ;; esac
			_lab_msg "ab-guest: boot $BOOT, round $r, N=$n, $v ($val) under perf lock"
			traced_trial "$n" "$r" "$v" "$val"
		done
	done
done
if [ "$TRACE" = c2c ] && [ -z "$C2C_NOTE" ] && ((BOOT == 1)); then
	for v in before after; do
		case $v in before) val=$SW_BEFORE ;; after) val=$SW_AFTER ;; esac
		_lab_msg "ab-guest: N=${TRACE_COUNTS[-1]}, $v ($val) under perf c2c"
		c2c_trial "${TRACE_COUNTS[-1]}" "$v" "$val"
	done
fi
set_param "$SW_PARAM" "$SW_DEFAULT"
[ "$SW_COUNT" = - ] || set_param "$SW_COUNT" 1
{
	echo "fix: $FIX"
	echo "switch: $SW_PARAM"
	echo "values: ${SW_VALUES//,/ }"
	echo "before: $SW_BEFORE"
	echo "after: $SW_AFTER"
	echo "default: $SW_DEFAULT"
	echo "count_param: $SW_COUNT"
	echo "ops_param: $SW_OPS"
	echo "workload: $AB_WORKLOAD"
	echo "metric: $AB_METRIC"
	echo "sites: $AB_SITES"
	[ -z "$AB_SITES_NOTE" ] || echo "sites_note: $AB_SITES_NOTE"
	echo "cpus: $(nproc)"
	[ "$TRACE" != lock ] || echo "traced: perf lock record, $(perf --version), ${TRACE_RUNTIME} a trial, counts ${TRACE_COUNTS[*]}"
	[ "$TRACE" != c2c ] || echo "c2c: ${C2C_NOTE:-perf c2c record, $(perf --version), ${TRACE_RUNTIME} a trial at N=${TRACE_COUNTS[-1]}, before and after}"
} >"$OUT/ab/facts.txt"
