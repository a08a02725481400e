package lab.engine.dm;

import java.util.List;
import java.util.Objects;
import lab.engine.block.Bio;
import lab.engine.block.BlockDevice;

/**
 * dm-linear (drivers/md/dm-linear.c): maps its {@link #len} sectors onto {@code dev} from sector
 * {@link #start}, {@code struct linear_c}. Immutable: {@link #map} is one subtraction and one
 * addition, as {@code linear_map_sector()}; every check is the constructor's ({@code linear_ctr}).
 */
public final class LinearTarget implements DmTarget {
    private final long begin;
    private final long len;
    /** {@code lc->dev}. */
    private final BlockDevice dev;
    /** {@code lc->start}. */
    private final long start;

    /**
     * {@code linear_ctr}: the table line {@code BEGIN LEN linear DEV START}.
     *
     * @throws IllegalArgumentException when the range is empty or does not fit {@code dev}, or
     *         {@code len} is not a whole number of {@code dev}'s logical blocks
     */
    public LinearTarget(long begin, long len, BlockDevice dev, long start) {
        this.dev = Objects.requireNonNull(dev, "dev");
        long lbs = dev.logicalBlockSize() >>> Bio.SECTOR_SHIFT;
        if (begin < 0 || len <= 0 || start < 0 || start > dev.capacitySectors() - len) {
            throw new IllegalArgumentException("linear: device lookup failed or out of range: " + begin + " " + len
                    + " linear " + dev.name() + " " + start + " (" + dev.name() + " has " + dev.capacitySectors() + " sectors)");
        }
        if (start % lbs != 0 || len % lbs != 0) {
            throw new IllegalArgumentException("linear: start " + start + " and length " + len + " must be multiples of "
                    + dev.name() + "'s " + dev.logicalBlockSize() + "-byte logical block");
        }
        this.begin = begin;
        this.len = len;
        this.start = start;
    }

    /** The whole of {@code dev}, from its sector 0: the lab's stacks. */
    public static LinearTarget whole(BlockDevice dev) {
        return new LinearTarget(0, dev.capacitySectors(), dev, 0);
    }

    @Override
    public long begin() {
        return begin;
    }

    @Override
    public long len() {
        return len;
    }

    @Override
    public String type() {
        return "linear";
    }

    /** {@code linear_map}: {@code bio_set_dev}, then {@code lc->start + dm_target_offset(ti, sector)}. */
    @Override
    public int map(DmTargetIo tio) {
        Bio clone = tio.clone;
        tio.dev = dev;
        clone.flags &= ~Bio.BIO_REMAPPED; // bio_set_dev() clears it: the clone is relative to dev now
        clone.bdev = null;
        clone.sector = start + (clone.sector - begin);
        return DM_MAPIO_REMAPPED;
    }

    @Override
    public String status() {
        return dev.name() + " " + start;
    }

    /** {@code linear_ctr} sets {@code num_discard_bios = 1}: a discard is remapped like any bio, if {@code dev} takes one. */
    @Override
    public long maxDiscardSectors() {
        return dev.maxDiscardSectors();
    }

    @Override
    public List<BlockDevice> devices() {
        return List.of(dev);
    }
}
