# shellcheck shell=bash
# shellcheck disable=SC2034 # AB_WORKLOAD and AB_DEV are read by kernel/ab-guest.sh, which sources this
# scenarios/part-acct/lab-ab.sh: part-acct's switch A/B on the lab kernel, sourced by
# kernel/ab-guest.sh inside the guest. The seed's job: fio randread over null_blk (blk-mq, no
# memory behind it), one job per CPU; the switch puts the shared atomic partition reference and
# in-flight count back on every I/O's accounting path.
AB_WORKLOAD="fio psync randread 4k direct, one job per CPU, on null_blk (blk-mq, 1 GiB, not memory-backed)"

ab_setup() {
	labmod null_blk nr_devices=0
	AB_DEV=$(_nullb_add 1G)
	MADE+=("nullb ${AB_DEV#/dev/}")
}

ab_fio_args() {
	printf '%s\n' --name=part-acct --filename="$1" --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--numjobs="$(nproc)" --size=100% --group_reporting
}
