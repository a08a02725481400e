package lab.engine.block;

/*
 * in_flight[2] after patch 4/4 of the part-acct seed: two fields of the
 * per-cpu disk_stats (DiskStats.IN_FLIGHT), and part_in_flight() their sum
 * over every possible CPU.
 *
 *   part_inc_in_flight   part_stat_inc: a plain add to the caller's own copy,
 *                        the partition's and, for a partition, part0's
 *   part_dec_in_flight   part_stat_dec, likewise; a copy may go negative
 *   part_in_flight       DiskStats.inFlightSum: one pass over nr_cpu_ids
 *                        copies, Jens Axboe's cost, paid by the tick work
 *
 * Ordering: owner-only writes (opaque stores, PercpuSlots' rule); the sum
 * reads every copy opaque and is exact once the writers are quiet. Nothing
 * pairs with anything: the counters publish nothing.
 *
 * Stateless (the slots are the partition's), so one instance serves every disk.
 */

/** {@code in_flight[2]} in the per-cpu {@link DiskStats}, summed by {@code part_in_flight()}. */
final class PercpuInFlight implements PartInFlight {
    static final PercpuInFlight INSTANCE = new PercpuInFlight();

    private PercpuInFlight() {
    }

    @Override
    public void add(int cpu, Partition part, int rw, long delta) {
        part.partStatAdd(cpu, DiskStats.IN_FLIGHT + rw, delta);
    }

    @Override
    public long sum(Partition part) {
        return part.stats.inFlightSum();
    }

    @Override
    public long read(Partition part, int rw) {
        return part.stats.read(DiskStats.IN_FLIGHT + rw);
    }

    @Override
    public String toString() {
        return "per-cpu in_flight";
    }
}
