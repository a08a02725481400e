#!/usr/bin/env bash
# bridge-verify.sh: verify=crc32c end to end on zram. The bridge writes SIZE of 4k blocks at
# random (each with a header: magic, offset, generation, crc32c; do_verify=0: no read-back of its own), then reads every block back
# in another run and checks it. Writes results/<id>/ with both JSON reports and NOTEBOOK.md.
#
#   native-bridge/bench/bridge-verify.sh [--size 1g] [--id ID]
set -euo pipefail

size=1g
id=bridge-verify-zram-$(date -u +%Y%m%d-%H%M%S)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cmdline="native-bridge/bench/bridge-verify.sh $*"
while [ $# -gt 0 ]; do
	case $1 in
	--size) size=$2; shift 2 ;;
	--id) id=$2; shift 2 ;;
	*) echo "usage: $0 [--size SIZE] [--id ID]" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" -eq 0 ] || { echo "$0: needs root (it makes a zram device)" >&2; exit 2; }
# shellcheck source=native-bridge/bench/zram-bench.sh
. "$here/zram-bench.sh"
run_start "$root" "$id"
for rw in randwrite randread; do
	own=""
	[ "$rw" = randwrite ] && own="do_verify=0"
	cat >"$raw/jobs/$rw.fio" <<JOB
; verify=crc32c: $rw of every 4k block of $size, in a random order
[global]
rw=$rw
bs=4k
size=$size
direct=1
ioengine=io_uring
iodepth=32
verify=crc32c
$own
[$rw-verify]
JOB
done
zram_add "$(( $(numfmt --from=iec "${size^^}") + 64 * 1024 * 1024 ))"
zram_describe | grep -v '^fill' >"$raw/device.txt"
for rw in randwrite randread; do
	"$root/lab" bridge run "$raw/jobs/$rw.fio" --filename "$dev" --output "$raw/$rw.json" \
		2> >(sed "s#$root/##g" >>"$raw/stderr.log")
done
zram_remove

# field RUN KEY [N]: the Nth value of KEY in RUN's JSON (jobs[].read, .write, .trim come in that order)
field() { grep -o "\"$2\" : [0-9.]*" "$raw/$1.json" | sed -n "${3:-1}p" | awk '{print $3}'; }
{
	echo "# verify=crc32c through the bridge on zram"
	echo
	echo '```'
	cat "$raw/device.txt"
	echo '```'
	echo
	echo "| run | I/Os | IOPS | verify mismatches | blocks without a header |"
	echo "|---|---:|---:|---:|---:|"
	for rw in randwrite randread; do
		n=1
		[ "$rw" = randwrite ] && n=2
		echo "| $rw | $(field "$rw" total_ios "$n") | $(field "$rw" iops "$n") | $(field "$rw" verifyMismatches) | $(field "$rw" verifyUnwritten) |"
	done
	echo
	echo "The write run stamps each block; the read run checks magic, offset and crc32c of every block."
	echo
	echo "Reproduce: \`$cmdline\`"
} >"$work/NOTEBOOK.md"
run_commit "$root" "$id"
cat "$root/results/$id/NOTEBOOK.md"
