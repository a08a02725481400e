#!/usr/bin/env bash
# Quick jcstress run of the lab's sync primitives (lab.stress.*): every test
# once, quick mode, one JVM configuration, no split compilation. About 30-60 s
# on 2 cores. Exits non-zero on any forbidden outcome, error or missing test.
#
#   stress/run-quick.sh JAVA RESULTS_DIR
#
# jcstress 0.16 itself exits 1 when a test fails (forbidden outcome or error);
# the summary line is checked as well, so that a run that tested nothing, or
# a future jcstress that exits 0 on failure, does not pass.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 JAVA RESULTS_DIR" >&2
    exit 2
fi
java=$1
results=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jar=$here/target/jcstress.jar
flags=(--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow)

[[ -x $java ]] || { echo "$0: not executable: $java" >&2; exit 2; }
[[ -f $jar ]] || { echo "$0: missing $jar (build the stress module)" >&2; exit 2; }
mkdir -p "$results"
results=$(cd "$results" && pwd)
log=$results/jcstress.log
cd "$results" # jcstress drops its result blob in the working directory

rc=0
"$java" "${flags[@]}" -jar "$jar" -m quick -sc false -t 'lab\.stress\.' \
    -r "$results" -jvmArgs "${flags[*]}" >"$log" 2>&1 || rc=$?

summary=$(grep -E '^\(Results: [0-9]+ planned' "$log" | tail -n 1 || true)
echo "${summary:-no summary line}"
if [[ $rc -ne 0 ]]; then
    grep -E 'FAILED|ERROR|Observed forbidden' "$log" >&2 || true
    echo "$0: jcstress exited $rc; see $log" >&2
    exit 1
fi
if [[ ! $summary =~ ^\(Results:\ ([0-9]+)\ planned\;\ ([0-9]+)\ passed,\ 0\ failed,\ 0\ soft\ errs,\ 0\ hard\ errs\)$ ]] \
    || [[ ${BASH_REMATCH[1]} -eq 0 || ${BASH_REMATCH[1]} -ne ${BASH_REMATCH[2]} ]]; then
    echo "$0: not every planned test passed; see $log" >&2
    exit 1
fi
