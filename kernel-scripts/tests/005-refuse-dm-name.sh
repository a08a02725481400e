#!/usr/bin/env bash
# 005: a device-mapper name the lab did not make (no lab uuid, not in the registry) is refused.
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
_expect_refusal "registered dm name" "$LK" check dm:lab-ours
