#!/usr/bin/env bash
# 047: perf script's call chains collapse into "comm;root;...;leaf COUNT" (_stack_collapse, over
# a captured perf script output kept beside this test): frames root first, kernel frames marked
# _[k], one line a stack with its samples. Needs nothing: it runs where 018 (a real perf record)
# skips for want of root or perf.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"

_stack_collapse <"$KS_DIR/tests/047-stack-collapse.perf-script"
