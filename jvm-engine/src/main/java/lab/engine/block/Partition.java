package lab.engine.block;

/**
 * A partition of a {@link Gendisk}, the partition side of {@code struct block_device}
 * (block/partitions/core.c): number, first sector, length. Partition 0 ({@code part0}) is the whole
 * disk. Submitting to a partition sets the bio's {@link Bio#bdev} and hands it to the disk, which
 * checks it against the partition and remaps it ({@link Gendisk#submitBio}).
 *
 * <p>Immutable; made only by {@link Gendisk}.
 *
 * <p>Accounting hook ({@code part-acct}): the kernel keeps here the per-partition I/O statistics
 * ({@code bd_stats}), the in-flight counters ({@code in_flight[2]}, later per-cpu) and the
 * reference that pins the partition for an I/O ({@code hd_struct.ref}, an {@code atomic_t} that
 * became a {@code percpu_ref}). The {@code part-acct} fix adds those fields to this class and
 * switches their kind; see the hooks in {@link Gendisk#submitBio}.
 */
public final class Partition implements BlockDevice {

    private final Gendisk disk;
    private final int partno;
    private final long startSect;
    private final long nrSects;
    private final String name;

    Partition(Gendisk disk, int partno, long startSect, long nrSects) {
        this.disk = disk;
        this.partno = partno;
        this.startSect = startSect;
        this.nrSects = nrSects;
        this.name = partno == 0 ? disk.name() : disk.name() + "p" + partno;
    }

    /** {@code bdev_partno()}: 0 for the whole disk. */
    public int partno() {
        return partno;
    }

    /** {@code bd_start_sect}: first sector of the partition on the disk. */
    public long startSect() {
        return startSect;
    }

    /** {@code bdev_nr_sectors()}: length in sectors. */
    public long nrSects() {
        return nrSects;
    }

    /** {@code bd_disk}. */
    public Gendisk disk() {
        return disk;
    }

    /** True when {@code sector} (disk-relative) lies in this partition. */
    boolean contains(long sector) {
        return sector >= startSect && sector - startSect < nrSects;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long capacitySectors() {
        return nrSects;
    }

    @Override
    public int logicalBlockSize() {
        return disk.driver().logicalBlockSize();
    }

    /** {@code submit_bio()} on this block device: {@code bio.bdev = this}, then the disk's path. */
    @Override
    public void submitBio(Bio bio) {
        bio.bdev = this;
        disk.submitBio(bio);
    }

    /** Polls the disk's driver: completions belong to the disk, not to one partition. */
    @Override
    public int poll(int cpu) {
        return disk.driver().poll(cpu);
    }
}
