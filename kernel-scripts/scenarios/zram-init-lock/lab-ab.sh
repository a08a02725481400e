# shellcheck shell=bash
# shellcheck disable=SC2034 # AB_WORKLOAD and AB_DEV are read by kernel/ab-guest.sh, which sources this
# scenarios/zram-init-lock/lab-ab.sh: zram-init-lock's switch A/B on the lab kernel, sourced by
# kernel/ab-guest.sh inside the guest. The seed's job: fio randrw 4k on zram with zero pages
# (zero_buffers: zram keeps them as same-filled pages, no compression to hide the lock), one job
# per CPU; the switch takes init_lock (rwsem, the before) or an SRCU read section (the
# alternative the thread measured) around each I/O in zram_submit_bio.
AB_WORKLOAD="fio psync randrw 4k direct, zero_buffers, one job per CPU, on a 256 MiB zram"

ab_setup() {
	labmod zram num_devices=0
	AB_DEV=/dev/$(_zram_add 256M)
	MADE+=("zram ${AB_DEV#/dev/}")
}

ab_fio_args() {
	printf '%s\n' --name=zram-init-lock --filename="$1" --rw=randrw --bs=4k --direct=1 --ioengine=psync \
		--zero_buffers --numjobs="$(nproc)" --size=100% --group_reporting
}
