#!/usr/bin/env bash
# 027: the thin pool and thin volume helpers (common/dm.sh) refuse, with exit 2 and before writing
# anything, a pool over ram disks the lab did not make (its metadata device is written: the first
# 4 KiB zeroed, so both checks come first), one whose metadata is the lab's but whose data device
# is not, one whose data is the lab's but whose metadata device is not, and a thin volume of a
# pool the lab did not make, each refusal naming the device refused; a name outside lab-* fails
# (exit 1).
# Needs no device: each refusal happens before any is touched.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
_test_begin

# labfn CMD...: run CMD with the lab's functions (rc.sh) in a fresh bash, this test's LAB_STATE
labfn() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	bash -c '. "$1"; shift; "$@"' _ "$KS_DIR/common/rc.sh" "$@"
}
# each refusal with its reason: which device was refused is the point (each device alone foreign)
export REFUSAL_WHY=1
_expect_refusal "thin pool over foreign ram disks" labfn _dm_thin_pool_add lab-tpool /dev/ram1 /dev/ram0 128 0 skip_block_zeroing
_reg_add brd ram1 1024
_expect_refusal "thin pool with the lab's metadata over a foreign data device" labfn _dm_thin_pool_add lab-tpool /dev/ram1 /dev/ram0 128 0
_reg_del brd ram1
_reg_add brd ram0 1024
_expect_refusal "thin pool with the lab's data under a foreign metadata device" labfn _dm_thin_pool_add lab-tpool /dev/ram1 /dev/ram0 128 0
_reg_del brd ram0
_expect_refusal "thin volume of a foreign pool" labfn _dm_thin_add lab-tthin /dev/mapper/vg0-pool 0 2048
_expect_refusal "thin pool not named lab-*" labfn _dm_thin_pool_add tpool /dev/ram1 /dev/ram0 128 0
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
