package lab.engine.dm;

import lab.engine.block.Bio;
import lab.engine.block.BlockDevice;
import lab.engine.block.BlkStatus;

/**
 * One clone's context, {@code struct dm_target_io} inside its {@code struct dm_io}
 * (drivers/md/dm-core.h): the original bio, the table and target it was mapped with, the clone,
 * and where the clone goes. dm has one per target a bio touches; a model bio touches one (no
 * splits, see {@link MappedDevice}), so the two structs are one object here.
 *
 * <p>Ownership: from its mapped device's per-cpu cache; lives from {@code dm_submit_bio} to the
 * clone's completion, owned by whoever holds the clone. The target may read and set {@link #dev}
 * and the clone's iterator in {@code map}; nothing else of it.
 */
public final class DmTargetIo {
    /** {@code io->orig_bio}: the bio submitted to the mapped device. */
    Bio orig;
    /** The table the bio was mapped with: its pending count holds the table until completion. */
    DmTable table;
    /** {@code tio->ti}. */
    DmTarget ti;
    /** {@code &tio->clone}. */
    Bio clone;
    /** The clone's {@code bi_bdev}: where the core submits a remapped clone (a device, not a partition). */
    BlockDevice dev;
    /** {@code dm_per_bio_data()}: the target's own word of per-bio state, 0 at map. */
    long perBio;
    /** Per-cpu free-list link. */
    DmTargetIo next;

    DmTargetIo() {
    }

    /** The clone the target remaps. */
    public Bio clone() {
        return clone;
    }

    /** The target this clone was mapped with. */
    public DmTarget target() {
        return ti;
    }

    /** {@code bio_set_dev(clone, dev)}: where the core submits the clone after a remap. */
    public void setDev(BlockDevice dev) {
        this.dev = dev;
    }

    /** The target's per-bio word ({@code dm_per_bio_data}). */
    public long perBio() {
        return perBio;
    }

    public void setPerBio(long v) {
        perBio = v;
    }

    /** The clone's status as it completed. */
    public BlkStatus status() {
        return clone.status;
    }
}
