#!/usr/bin/env bash
# 005: a device-mapper name the lab did not make (no lab uuid, not in the registry) is refused;
# one in the registry passes the lab's rule (the commands themselves take /dev paths only: 049).
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_test_begin

_expect_refusal "dm name" "$LK" check dm:lab-not-ours
_expect_refusal "mapper path" "$LK" check /dev/mapper/vg0-root
_expect_refusal "dm node" "$LK" check /dev/dm-0
# shellcheck disable=SC2016 # expanded by the inner shell
_expect_refusal "refusal function" bash -c '. "$1"; _lab_require_owned /dev/mapper/somebody' _ "$KS_DIR/common/rc.sh"
_reg_add dm lab-ours -
# shellcheck disable=SC2016
_expect_refusal "registered dm name" bash -c '. "$1"; _lab_require_owned dm:lab-ours' _ "$KS_DIR/common/rc.sh"
_expect_refusal "registered dm name, given to check (a path is asked: 049)" "$LK" check dm:lab-ours
