#!/usr/bin/env bash
# bridge-flamegraphs.sh: async-profiler CPU flamegraphs of the bridge on rows of a
# bridge-vs-fio run, on a fresh zram device of the same size, filled the same way.
#
#   native-bridge/bench/bridge-flamegraphs.sh RUN-DIR ROW[:JAVA_OPTS]...
#
# For each ROW (a job file RUN-DIR/raw/jobs/ROW.fio) writes RUN-DIR/flamegraphs/ROW.html
# (ROW-c1.html when JAVA_OPTS is -XX:TieredStopAtLevel=1), the same samples as collapsed
# stacks (ROW.collapsed.gz, for grep and awk) and the run's JSON beside it.
# The profiled runs are not part of the paired table: profiling costs a little throughput.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: $0 RUN-DIR ROW[:JAVA_OPTS]..." >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "$0: needs root (it makes a zram device)" >&2; exit 2; }
run=$(cd "$1" && pwd)
shift
out=$run/flamegraphs
size=$(sed -n 's/^size=//p' "$run/raw/jobs/$(cut -f1 "$run/raw/rows.tsv" | head -n 1).fio")

# shellcheck source=native-bridge/bench/zram-bench.sh
. "$here/zram-bench.sh"
trap zram_remove EXIT
trap 'exit 130' INT TERM

mkdir -p "$out"
zram_add "$size"
zram_fill "$out/fill-fio.json"
for spec in "$@"; do
	row=${spec%%:*}
	opts=""
	name=$row
	if [ "$spec" != "$row" ]; then
		opts=${spec#*:}
		case $opts in *TieredStopAtLevel=1*) name=$row-c1 ;; *) name=$row-opts ;; esac
	fi
	[ -f "$run/raw/jobs/$row.fio" ] || { echo "$0: no job file for row $row" >&2; exit 2; }
	echo "$0: $name" >&2
	LAB_JAVA_OPTS=$opts "$root/lab" bridge run "$run/raw/jobs/$row.fio" --filename "$dev" \
		--flamegraph "$out/$name.html" --output "$out/$name.json" 2> >(sed "s#$root/##g" >>"$out/stderr.log")
	gzip -9f "$out/$name.collapsed"
done
