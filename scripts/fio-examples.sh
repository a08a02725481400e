#!/usr/bin/env bash
# scripts/fio-examples.sh EXAMPLES_DIR: runs `./lab spec check` on each of fio's example job files
# (the examples/ folder of fio's source, e.g. `git archive fio-3.33 examples` from
# github.com/axboe/fio) that the lab could run: those whose ioengine= lines name only psync,
# sync, pvsync, libaio or io_uring (psync when none is set) and that set no zone option, less
# xnvme-compare.fio, whose engine comes from the command line. Prints PASS or FAIL with the
# refused keys for each, then "N of M pass"; exits 0, or 1 when fewer than 80% pass.
set -euo pipefail

dir=${1:?usage: scripts/fio-examples.sh EXAMPLES_DIR (fio source examples/)}
[[ -d $dir ]] || { echo "fio-examples: $dir is not a folder" >&2; exit 2; }
lab=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lab

eligible() {
	local f=$1 engine
	[[ $(basename "$f") == xnvme-compare.fio ]] && return 1
	grep -qE '^[[:space:]]*(zonemode|zonesize|zonerange|zoneskip|zonecapacity|max_open_zones)[[:space:]]*=' "$f" && return 1
	while read -r engine; do
		case $engine in psync | sync | pvsync | libaio | io_uring) ;; *) return 1 ;; esac
	done < <(sed -nE 's/^[[:space:]]*ioengine[[:space:]]*=[[:space:]]*([^[:space:]]+).*/\1/p' "$f")
	return 0
}

pass=0 total=0
for f in "$dir"/*.fio; do
	eligible "$f" || continue
	total=$((total + 1))
	if out=$("$lab" spec check "$f" 2>&1); then
		pass=$((pass + 1))
		echo "PASS $(basename "$f")"
	else
		echo "FAIL $(basename "$f"): $(grep -oE "key '[^']+'" <<<"$out" | sort -u | tr '\n' ' ')"
	fi
done
echo "$pass of $total pass"
((total > 0 && pass * 5 >= total * 4))
