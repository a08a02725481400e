package lab.engine.dm;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import lab.engine.block.BlockDevice;
import lab.engine.sync.PercpuSlots;

/**
 * A device-mapper table, {@code struct dm_table} (drivers/md/dm-table.c): targets sorted by
 * {@code begin}, contiguous from sector 0, covering the mapped device. Immutable once built
 * ({@code dm_table_complete}); a mapped device swaps whole tables.
 *
 * <p>Pending I/O: each bio mapped with this table counts itself on the submitting slot from map
 * to completion ({@link #pendingInc}, {@link #pendingDec}; owner-only stores, no shared line), so
 * that a table swap can wait for the old table's last bio before its targets are destroyed. The
 * kernel counts in-flight I/O on the mapped device ({@code md->pending_io}) and suspends it
 * (queueing new bios) to drain before a swap; the model drains the old table only, while new bios
 * flow to the new one (see {@link MappedDevice#swapTable}).
 */
public final class DmTable {
    private final DmTarget[] targets;
    /** Sector after the last target ({@code dm_table_get_size}). */
    private final long sectors;
    private final int logicalBlockSize;
    private final PercpuSlots pending;

    /**
     * {@code dm_table_create} + {@code dm_table_add_target} for each + {@code dm_table_complete}.
     *
     * @param nrCpus per-cpu slots of the submitters
     * @throws IllegalArgumentException when the targets leave a gap, overlap, or there are none
     */
    public DmTable(List<? extends DmTarget> targets, int nrCpus) {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("dm table: no targets");
        }
        long next = 0;
        int lbs = 512;
        for (DmTarget t : targets) {
            if (t.begin() != next) {
                throw new IllegalArgumentException("dm table: target " + t.type() + " at " + t.begin() + " (" + t.status()
                        + ") does not start where the previous one ends (" + next + "): gap or overlap");
            }
            next = t.begin() + t.len();
            for (BlockDevice d : t.devices()) {
                lbs = Math.max(lbs, d.logicalBlockSize()); // dm_calculate_queue_limits: the largest below
            }
        }
        this.targets = targets.toArray(DmTarget[]::new);
        this.sectors = next;
        this.logicalBlockSize = lbs;
        this.pending = new PercpuSlots(nrCpus, 1);
    }

    /** One target over the whole of {@code dev}: {@code 0 SIZE linear DEV 0}. */
    public static DmTable linear(BlockDevice dev, int nrCpus) {
        return new DmTable(List.of(LinearTarget.whole(dev)), nrCpus);
    }

    /** {@code dm_table_find_target}: the target holding {@code sector}, null past the end. */
    DmTarget findTarget(long sector) {
        DmTarget[] t = targets;
        if (t.length == 1) {
            return sector < sectors ? t[0] : null;
        }
        int lo = 0;
        int hi = t.length - 1;
        while (lo < hi) { // the last target whose begin <= sector
            int mid = (lo + hi + 1) >>> 1;
            if (t[mid].begin() <= sector) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return sector >= 0 && sector < sectors ? t[lo] : null;
    }

    /** Sectors the table covers. */
    public long sectors() {
        return sectors;
    }

    /** The largest logical block size of the devices below. */
    public int logicalBlockSize() {
        return logicalBlockSize;
    }

    /** The table's discard limit: the smallest of its targets' ({@link DmTarget#maxDiscardSectors}), 0 if one does none. */
    public long maxDiscardSectors() {
        long min = Long.MAX_VALUE;
        for (DmTarget t : targets) {
            min = Math.min(min, t.maxDiscardSectors());
        }
        return min;
    }

    /** The targets, in order. */
    public List<DmTarget> targets() {
        return List.of(targets);
    }

    /** The devices every target maps onto, each once. */
    List<BlockDevice> devices() {
        List<BlockDevice> out = new ArrayList<>();
        for (DmTarget t : targets) {
            for (BlockDevice d : t.devices()) {
                if (!out.contains(d)) {
                    out.add(d);
                }
            }
        }
        return out;
    }

    /** A bio mapped with this table on slot {@code cpu}. Owner of {@code cpu} only. */
    void pendingInc(int cpu) {
        pending.setOpaque(cpu, 0, pending.getPlain(cpu, 0) + 1);
    }

    /** That bio completed (on the thread that owns {@code cpu}): every use of the table by it happens before. */
    void pendingDec(int cpu) {
        pending.setRelease(cpu, 0, pending.getPlain(cpu, 0) - 1);
    }

    /** Bios in flight on this table (a sum of snapshots; exact once no bio maps with it any more). */
    long pending() {
        long n = pending.sumOpaque(0);
        VarHandle.acquireFence(); // with pendingDec's release: a zero read sees every completion's uses done
        return n;
    }

    /** {@code dm_table_destroy}: each target's {@code dtr}. Only once no bio is pending. */
    void destroy() {
        for (DmTarget t : targets) {
            t.dtr();
        }
    }

    /** {@code dmsetup table}: one line per target. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (DmTarget t : targets) {
            b.append(t.begin()).append(' ').append(t.len()).append(' ').append(t.type()).append(' ').append(t.status()).append('\n');
        }
        return b.toString();
    }
}
