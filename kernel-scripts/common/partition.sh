# shellcheck shell=bash
# common/partition.sh: DOS partition tables on lab devices (sfdisk on a scratch image, then
# the kernel or partx). Sourced by common/rc.sh; changes nothing by itself.

# _mbr_image FILE SECTOR_SIZE START_MIB SIZE_MIB: write to FILE the 512-byte DOS partition table
# that sfdisk makes with one Linux partition (type 83) from START_MIB for SIZE_MIB, for a device
# whose logical blocks are SECTOR_SIZE bytes. An MBR names no sector size: the kernel counts a
# partition's start and length in the device's logical blocks, so they are given to sfdisk
# (which writes them as they are into a scratch image) in those units. Needs sfdisk (Debian:
# fdisk); the image can go where there is none (the guest VM) for _mbr_write.
_mbr_image() {
	local file=$1 ss=$2 start len img
	start=$(($3 * 1048576 / ss)) len=$(($4 * 1048576 / ss))
	img=$(mktemp "${TMPDIR:-/tmp}/lab-mbr.XXXXXX")
	truncate -s $(((start + len) * 512 + 1048576)) "$img"
	if ! printf 'label: dos\nlabel-id: 0x4c414221\nstart=%s, size=%s, type=83\n' "$start" "$len" |
		sfdisk -q "$img" >/dev/null; then
		rm -f "$img"
		return 1
	fi
	dd if="$img" of="$file" bs=512 count=1 2>/dev/null
	rm -f "$img"
}

# _part1_node DISK: print the node of DISK's partition 1 (/dev/loop5p1, /dev/labnbx1), or fail.
_part1_node() {
	local disk=${1#/dev/} p
	for p in "/sys/class/block/$disk/$disk"*; do
		if [ "$(cat "$p/partition" 2>/dev/null)" = 1 ]; then
			echo "/dev/${p##*/}"
			return 0
		fi
	done
	return 1
}

# _mbr_write DEV MBRFILE: write the partition table MBRFILE (from _mbr_image) to the first
# sector of the lab device DEV and make partition 1 appear; print "NODE HOW": its node and how
# it came, "kernel" (the kernel read the table: BLKRRPART) or "partx" (partx read it and told
# the kernel through BLKPG: for kernels built without partition table parsers, as the host's
# here). A loop device needs partscan (loop:SIZE:partscan); null_blk keeps the table only when
# memory backed (_nullb_add SIZE mem).
_mbr_write() {
	local dev=$1 mbr=$2 p
	_lab_require_owned "$dev"
	dd if="$mbr" of="$dev" bs=512 count=1 conv=notrunc 2>/dev/null
	blockdev --flushbufs "$dev"
	blockdev --rereadpt "$dev" 2>/dev/null || true
	for _ in $(seq 1 10); do
		if p=$(_part1_node "$dev") && [ -b "$p" ]; then echo "$p kernel"; return 0; fi
		sleep 0.1
	done
	if command -v partx >/dev/null 2>&1 && partx --add --nr 1 "$dev" 2>/dev/null; then
		for _ in $(seq 1 25); do
			if p=$(_part1_node "$dev") && [ -b "$p" ]; then echo "$p partx"; return 0; fi
			sleep 0.2
		done
	fi
	_lab_msg "$dev: no partition 1 after writing the table (kernel: BLKRRPART; partx: $(command -v partx || echo none))"
	return 1
}
