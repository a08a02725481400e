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
}
