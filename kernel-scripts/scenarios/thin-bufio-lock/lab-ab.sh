# shellcheck shell=bash
# shellcheck disable=SC2034 # AB_* are read by kernel/ab-guest.sh and kernel/lab-ab.sh, which source this
# scenarios/thin-bufio-lock/lab-ab.sh: thin-bufio-lock's switch A/B on the lab kernel (6.12: the
# switch lives in kernel/patches/6.12, 6.1's dm-bufio being the before itself), sourced by
# kernel/ab-guest.sh inside the guest. The seed's job on the scenario's devices
# (scenarios/thin-bufio-lock/lib.sh: a thin pool over two brd ram disks, its volume written whole
# first so every block is provisioned): fio psync randrw 4k direct, one job per CPU, on the thin
# volume; the switch takes dm-bufio's client lock for every btree node a lookup gets and releases.
AB_WORKLOAD="fio psync randrw 4k direct, one job per CPU, on a 192 MiB thin volume written whole first (thin pool over brd: 64 KiB blocks, skip_block_zeroing)"

# the scenario's devices (at file scope: its declare -A tables must stay global); KS_DIR on the
# host (kernel/lab-ab.sh), KS in the guest (kernel/ab-guest.sh)
# shellcheck source=SCRIPTDIR/lib.sh
. "${KS_DIR:-$KS}/scenarios/thin-bufio-lock/lib.sh"

ab_setup() {
	# brd's one rd_size is the lab kernel's boot parameter (guest.sh: LAB_BRD_KB, 256 MiB)
	TB_OUT=$OUT/ab TB_VOLUME_MB=192 TB_DATA_MB=256
	mkdir -p "$TB_OUT"
	tb_setup
	printf '%s\n' "${TB_FACTS[@]}" >"$TB_OUT/thin-facts.txt"
	AB_DEV=${TB_NODE[thin]}
	ab_nodes_per_io
}

# ab_nodes_per_io: AB_SITES, the btree nodes an I/O visits, measured: the switch on at N = 1 for a
# short random read on the volume, its counter over the I/Os the volume counted, over the
# switch's K (2 a node: the get and the release), rounded; the switch back at its default.
ab_nodes_per_io() {
	local kname=${TB_KNAME[thin]} o0 o1 i0 i1
	set_param "$SW_PARAM" "$SW_BEFORE"
	set_param "$SW_COUNT" 1
	o0=$(cat "$SW_OPS")
	i0=$(awk '{ print $1 + $5 }' "/sys/block/$kname/stat")
	fio --name=nodes --filename="$AB_DEV" --rw=randread --bs=4k --direct=1 --ioengine=psync --number_ios=2000 \
		--size=100% --output=/dev/null
	o1=$(cat "$SW_OPS")
	i1=$(awk '{ print $1 + $5 }' "/sys/block/$kname/stat")
	set_param "$SW_PARAM" "$SW_DEFAULT"
	AB_SITES=$(awk -v d=$((o1 - o0)) -v n=$((i1 - i0)) -v k="$SW_K" 'BEGIN { printf "%d", d / n / k + 0.5 }')
	AB_SITES_NOTE="btree nodes visited per I/O, measured: the switch on at N = 1 counted $((o1 - o0)) acquisitions over $((i1 - i0)) random 4k reads of the volume ($SW_K a node)"
	[ "$AB_SITES" -ge 1 ] || { _lab_msg "thin-bufio-lock: the switch counted $((o1 - o0)) acquisitions over $((i1 - i0)) I/Os: no btree node per I/O?"; return 1; }
}

ab_fio_args() {
	printf '%s\n' --name=thin-bufio-lock --filename="$1" --rw=randrw --bs=4k --direct=1 --ioengine=psync \
		--numjobs="$(nproc)" --size=100% --group_reporting
}
