#!/usr/bin/env bash
# 007: up loop:SIZE attaches a backing file under the state folder; down detaches and deletes it.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver loop
_test_begin

l=$("$LK" up loop:64M)
file=$(_reg_get loop "$l")
case $file in "$LAB_KDIR"/loop/*) echo "backing file under the state folder" ;; esac
[ "$(cat "/sys/block/${l#/dev/}/loop/backing_file")" = "$file" ] && echo "attached to it"
echo "size: $(blockdev --getsize64 "$l")"
"$LK" check "$l"  | sed "s|$l|<loop>|"
"$LK" down "$l"
[ ! -e "/sys/block/${l#/dev/}/loop/backing_file" ] && echo "detached"
[ ! -e "$file" ] && echo "backing file deleted"
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
