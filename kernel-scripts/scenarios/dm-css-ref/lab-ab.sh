# shellcheck shell=bash
# shellcheck disable=SC2034 # AB_WORKLOAD and AB_DEV are read by kernel/ab-guest.sh, which sources this
# scenarios/dm-css-ref/lab-ab.sh: dm-css-ref's switch A/B on the lab kernel, sourced by
# kernel/ab-guest.sh inside the guest. The seed's experiment: five nested dm-linear targets over a
# ram disk, fio randrw bs=512 direct, one job per CPU; the switch adds a shared atomic operation
# per clone and per clone completion, at every layer.
AB_WORKLOAD="fio psync randrw 512 B direct, one job per CPU, on dm-linear x5 over a 256 MiB brd ram disk"
AB_SITES=5 # each of the five layers clones every I/O: the switch's sites, five times over

ab_setup() {
	local below i
	below=$(_brd_add 1 256M)
	MADE+=("brd ram0")
	for i in 1 2 3 4 5; do
		below=$(_dm_linear_add "lab-ab$i" "$below")
		MADE+=("dm lab-ab$i")
	done
	AB_DEV=$below
}

ab_fio_args() {
	printf '%s\n' --name=dm-css-ref --filename="$1" --rw=randrw --bs=512 --direct=1 --ioengine=psync \
		--numjobs="$(nproc)" --size=100% --group_reporting
}
