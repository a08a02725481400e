package lab.engine.dm;

import java.util.List;
import lab.engine.block.BlockDevice;

/**
 * A target instance, {@code struct dm_target} with its {@code struct target_type} ops
 * (include/linux/device-mapper.h): it covers sectors {@link #begin()} .. {@code begin + len - 1}
 * of its mapped device. Immutable once built: its constructor is the type's {@code ctr}, and
 * validates; {@link #map} may run on many threads at once.
 */
public interface DmTarget {
    /** {@code DM_MAPIO_SUBMITTED}: the target has submitted (or queued) the clone itself. */
    int DM_MAPIO_SUBMITTED = 0;
    /** {@code DM_MAPIO_REMAPPED}: the clone is remapped; the core submits it to {@link DmTargetIo#dev}. */
    int DM_MAPIO_REMAPPED = 1;
    /** {@code DM_MAPIO_KILL}: the core ends the clone with an I/O error. */
    int DM_MAPIO_KILL = 4;
    /** {@code DM_ENDIO_DONE}: the clone's completion goes on up. */
    int DM_ENDIO_DONE = 0;

    /** {@code ti->begin}: the target's first sector in its mapped device. */
    long begin();

    /** {@code ti->len}: sectors the target covers. */
    long len();

    /** The type's name, as {@code dmsetup table} prints it. */
    String type();

    /** {@code map}: remaps {@code tio}'s clone; one of the {@code DM_MAPIO_*} codes. */
    int map(DmTargetIo tio);

    /** {@code end_io}: the clone has completed below; {@link #DM_ENDIO_DONE} by default. */
    default int endIo(DmTargetIo tio) {
        return DM_ENDIO_DONE;
    }

    /** {@code status} with {@code STATUSTYPE_TABLE}: the table line's arguments. */
    String status();

    /** {@code iterate_devices}: the devices the target maps onto. */
    List<BlockDevice> devices();

    /**
     * The discards the target passes down, in sectors: 0 (the default) for a target that sets no
     * {@code num_discard_bios}, so that {@code dm_table_supports_discards()} is false; else its
     * devices' limit, as {@code dm_calculate_queue_limits()} stacks it.
     */
    default long maxDiscardSectors() {
        return 0;
    }

    /** {@code dtr}: the table holding the target is destroyed; no I/O is in flight on it. */
    default void dtr() {
    }
}
