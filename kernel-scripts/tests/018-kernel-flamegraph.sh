#!/usr/bin/env bash
# 018: with root and perf, a real perf record -e cpu-clock -g run through _kernel_flamegraph
# yields a gzipped collapsed file with kernel frames, and no SVG: the lab's Java side draws that
# after a scenario (KernelFlamegraphs, with its own unit test). Skips without root or perf, or
# where perf cannot record; the collapsing itself is 047's, which needs neither.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"

_have_root
_have_cmd perf
_test_begin
out=$LAB_STATE/out
mkdir -p "$out"
LAB_FLAMEGRAPH=1 _kernel_flamegraph "$out" dd dd if=/dev/zero of=/dev/null bs=4k count=200000 status=none
if [ -e "$out/dd.kernel-flamegraph-missing.txt" ]; then
	_skip "perf record cannot record here: $(head -n 3 "$out/dd.kernel-flamegraph-missing.txt" | tr '\n' ' ')"
fi
# The workload's stacks carry its name once perf has recorded its exec; a sample taken before
# that, or after a lost COMM event on a busy machine (CI builds the lab kernels beside this
# test), carries perf's name for the forked child, perf-exec. Either is the workload's.
if zcat "$out/dd.kernel.collapsed.gz" | grep -Eq '^(dd|perf-exec);.*_\[k\] [0-9]+$'; then
	echo "recorded: dd stacks with kernel frames"
else
	echo "no dd stack with kernel frames; the recorded commands, by samples:" >&2
	zcat "$out/dd.kernel.collapsed.gz" | awk '{ n[substr($0, 1, index($0, ";") - 1)] += $NF } END { for (c in n) print n[c], c }' |
		sort -rn | head -n 8 >&2
	echo "dd's most sampled stacks (their last 3 frames), for why:" >&2
	zcat "$out/dd.kernel.collapsed.gz" | awk '/^(dd|perf-exec);/ { l = $0; sub(/ [0-9]+$/, "", l); n = split(l, f, ";")
		s = f[n > 3 ? n - 2 : 2]; for (i = (n > 3 ? n - 1 : 3); i <= n; i++) s = s ";" f[i]; c[s] += $NF }
		END { for (s in c) print c[s], s }' | sort -rn | head -n 8 >&2
fi
[ ! -e "$out/dd.kernel.svg" ] && [ ! -e "$out/dd.kernel.collapsed" ] && echo "left for the Java side: no SVG, only the .gz"
