package lab.engine.block;

/**
 * What a bio can be submitted to: the {@code submit_bio} entry of {@code struct
 * block_device_operations} (include/linux/blkdev.h) plus the queue limits a submitter needs.
 * Drivers ({@link NullBlk}, {@link RamDisk}) and partitions of a {@link Gendisk} implement it.
 *
 * <p>Contract: {@link #submitBio} takes ownership of the bio and eventually calls
 * {@link Bio#bioEndio} exactly once, with {@link Bio#status} set; a bio that does not fit the
 * device ends with {@link BlkStatus#IOERR}. Where and when {@code endIo} runs is the device's to
 * document: inline in {@code submitBio}, or from {@link #poll} on the submitter's slot.
 */
public interface BlockDevice {

    /** The disk name, as in /sys/block ({@code nullb0}, {@code ram0}, {@code ram0p1}). */
    String name();

    /** Capacity in 512-byte sectors ({@code get_capacity()}, {@code bdev_nr_sectors()}). */
    long capacitySectors();

    /** {@code queue_logical_block_size()}: the unit of an I/O's size and position, in bytes. */
    int logicalBlockSize();

    /**
     * {@code bdev_max_discard_sectors()}: the largest discard the queue takes, in sectors; 0 (the
     * default) when the device does no discards, and {@code submit_bio_noacct()} ends a
     * {@link ReqOp#DISCARD} bio sent to it with {@link BlkStatus#NOTSUPP}.
     */
    default long maxDiscardSectors() {
        return 0;
    }

    /** {@code submit_bio()}: takes ownership of {@code bio} until its {@code endIo} runs. */
    void submitBio(Bio bio);

    /**
     * {@code bio_poll()}: completes what is due of the bios submitted from slot {@code cpu}.
     * Must run on the thread that owns {@code cpu}.
     *
     * @return how many bios it completed; 0 for a device that completes inline
     */
    default int poll(int cpu) {
        return 0;
    }

    /**
     * The thread that owns slot {@code cpu} starts issuing I/O here, as a CPU leaves idle: a
     * device with RCU-protected per-cpu state (a {@link Gendisk} whose partitions hold a
     * {@code percpu_ref}) brings the slot online in its RCU, so that the per-I/O read-side
     * sections cost no fence, and reports the slot's quiescent states between I/Os. Until
     * {@link #cpuOffline}, a grace period on that RCU waits for this thread's next I/O to end (or
     * for its going offline): a worker that stops issuing must go offline, and must not wait for
     * a grace period of the device while online. Owner of {@code cpu} only; not nested. I/O from
     * a slot that is not online is just as correct, at the cost of a full fence per section.
     * Default: nothing (the device has no such state).
     */
    default void cpuOnline(int cpu) {
    }

    /** Ends {@link #cpuOnline}: the slot is idle again, an extended quiescent state. Owner of {@code cpu} only. */
    default void cpuOffline(int cpu) {
    }
}
