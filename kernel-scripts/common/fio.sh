# shellcheck shell=bash
# common/fio.sh: fio as the lab's writer of whole devices (_fill). Sourced by common/rc.sh;
# changes nothing by itself.

# _fill DEV PATTERN: write the whole device once with fio. PATTERN: random (incompressible),
# zero (every page zero: zram keeps it as a same-filled page), compressible50 (50% compressible
# with fio's default 512-byte chunks, the data a job file's buffer_compress_percentage=50 writes:
# the bridge takes no buffer_compress_chunk), or a compressible percentage N (4 KiB chunks).
_fill() {
	local dev=$1 pat=${2:-50} extra=()
	_lab_require_owned "$dev"
	case $pat in
	random) extra=(--refill_buffers) ;;
	zero) extra=(--zero_buffers --scramble_buffers=0) ;;
	compressible50) extra=(--refill_buffers --buffer_compress_percentage=50) ;;
	*[!0-9]*) _lab_msg "fill: bad pattern $pat"; return 1 ;;
	*) extra=(--refill_buffers "--buffer_compress_percentage=$pat" --buffer_compress_chunk=4k) ;;
	esac
	fio --name=lab-fill --filename="$dev" --rw=write --bs=1M --direct=1 --ioengine=psync \
		--size=100% "${extra[@]}" --output=/dev/null
}
