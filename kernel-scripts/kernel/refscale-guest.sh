#!/usr/bin/env bash
# kernel/refscale-guest.sh: one refscale test, INSIDE the guest booted on the lab kernel (started by
# kernel/refscale.sh through guest/guest.sh run, under busybox sh, then re-run under bash).
#
# refscale is built in (kernel/config: RCU_REF_SCALE_TEST): it starts at boot with the type, reader
# count, loops, runs and holdoff that kernel/refscale.sh put on the command line (refscale.*), and
# prints its figures with pr_alert. This script only waits for its table to be complete in the
# kernel log (or for the deadline in $OUT/refscale.params), then leaves in $OUT:
#   dmesg.txt             the kernel log (refscale's per-run and per-reader figures; the lab
#                         kernel has no CONFIG_BUG, so refscale's WARN_ONs on a reader's CPU print
#                         nothing: the readers' lines below are the check)
#   refscale-guest.txt    key: value: the test's parameters as the kernel took them, the CPUs
#                         online, each reader kthread's allowed CPUs, last CPU and CPU time, and
#                         the per-CPU busy ticks while the script waited
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail
OUT=${OUT:-/mnt/out}
[ -r "$OUT/refscale.params" ] || { echo "refscale-guest: runs inside the lab guest VM (kernel/refscale.sh)" >&2; exit 1; }
# param KEY: KEY=VALUE of refscale.params
param() { sed -n "s/^$1=//p" "$OUT/refscale.params"; }
# arg NAME: the last NAME=VALUE on the kernel command line
arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -n 1; }
type=$(param type)
nruns=$(param nruns)
deadline=$(param deadline_s)
[ "$(arg refscale.scale_type)" = "$type" ] || { echo "refscale-guest: the kernel's refscale.scale_type is '$(arg refscale.scale_type)', not '$type'" >&2; exit 1; }

# busy CPU ticks per CPU (everything but idle and iowait), one "cpuN TICKS" a line
busy() { awk '/^cpu[0-9]/ { b = 0; for (i = 2; i <= NF; i++) if (i != 5 && i != 6) b += $i; print $1, b }' /proc/stat; }
# rows: the lines of refscale's closing table ("N<tab>NS.NNN" after "Runs<tab>Time(ns)"), without
# the log's time stamps
rows() {
	dmesg | sed 's/^\[[^]]*\] *//' | awk -v t="$type" '
		index($0, t "-ref-scale: END OF TEST") == 1 { end = 1; next }
		end && /^Runs\tTime\(ns\)$/ { on = 1; next }
		on && /^[0-9]+\t[0-9]+\.[0-9]+$/ { print }'
}

t0=$(cut -d' ' -f1 /proc/uptime)
busy0=$(busy)
online0=$(cat /sys/devices/system/cpu/online)
waited=0
until [ "$(rows | wc -l)" -ge "$nruns" ]; do
	if [ "$waited" -ge "$deadline" ]; then
		dmesg >"$OUT/dmesg.txt"
		echo "refscale-guest: $type: refscale's table not complete after ${deadline}s (dmesg.txt)" >&2
		exit 1
	fi
	sleep 1
	waited=$((waited + 1))
done
t1=$(cut -d' ' -f1 /proc/uptime)
busy1=$(busy)
dmesg >"$OUT/dmesg.txt"
{
	echo "type: $type"
	echo "cmdline_refscale: $(tr ' ' '\n' </proc/cmdline | grep '^refscale\.' | xargs)"
	echo "kernel_params: $(grep -o -- '--- Start of test: .*' "$OUT/dmesg.txt" | sed 's/^--- Start of test: *//' | head -n 1)"
	echo "cpus_online_at_script_start: $online0"
	echo "cpus_online_at_end: $(cat /sys/devices/system/cpu/online)"
	echo "script_start_uptime_s: $t0"
	echo "table_done_uptime_s: $t1"
	echo "rows: $(rows | wc -l)"
	# each reader kthread (comm ref_scale_reader: a kthread's comm file has its full name): the CPUs
	# it may run on, the CPU it ran on last (stat field 39) and its system time in ticks (field 15)
	for d in /proc/[0-9]*; do
		case $(cat "$d/comm" 2>/dev/null) in ref_scale_reade | ref_scale_reader) ;; *) continue ;; esac
		allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$d/status")
		# the fields after the command's closing parenthesis: field 3 is the first
		read -r -a f <<<"$(sed 's/^.*) //' "$d/stat")"
		echo "reader: pid ${d#/proc/} cpus_allowed $allowed last_cpu ${f[36]} stime_ticks ${f[12]}"
	done | sort -k3n
	# per CPU: busy ticks while the script waited (the test ran in that time)
	printf '%s\n' "$busy0" "--" "$busy1" | awk '$1 == "--" { after = 1; next }
		!after { b[$1] = $2; next } { printf "busy_ticks_%s: %d\n", $1, $2 - b[$1] }'
} >"$OUT/refscale-guest.txt"
