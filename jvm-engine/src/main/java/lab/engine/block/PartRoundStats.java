package lab.engine.block;

/*
 * part_round_stats() of v4.2 (block/blk-core.c), at the start and at the end
 * of every I/O, for part0 first and then, for a partition, the partition:
 *
 *   stamp = READ_ONCE(part->stamp)                 the hot line, every I/O
 *   if (now != stamp) {                            once per tick (per CPU that sees it first)
 *       inflight = part_in_flight(part)            PartInFlight.sum: two atomic reads,
 *                                                  or a sum over every possible CPU
 *       if (inflight) {
 *           time_in_queue += inflight * (now - stamp)    own per-cpu copy
 *           io_ticks      += now - stamp                 own per-cpu copy
 *       }
 *       part->stamp = now                          a plain store on the hot line
 *   }
 *
 * The stamp is a plain shared word: several CPUs that read the old stamp in
 * the same tick all do the work (the kernel's race, kept; each adds to its
 * own copy, so nothing is lost, and the extra ticks are the kernel's
 * over-count). Opaque loads and stores, as READ_ONCE/WRITE_ONCE: nothing is
 * published through the stamp, so nothing pairs with them.
 *
 * The in-flight sum is the disk's PartInFlight, given at construction: the
 * cost Jens Axboe worried about lives there, paid at most once per tick per
 * partition, by whichever CPU sees the tick first.
 */

/** {@code part_round_stats()}: the per-tick work that reads {@code part_in_flight()}. */
final class PartRoundStats implements IoTicks {
    /** The disk's in-flight counters, read once a tick. */
    private final PartInFlight inFlight;

    PartRoundStats(PartInFlight inFlight) {
        this.inFlight = inFlight;
    }

    @Override
    public void start(int cpu, Partition part, long now) {
        partRoundStats(cpu, part, now);
    }

    /** Same work at the end; {@code time_in_queue} comes from the tick work, not from {@code duration}. */
    @Override
    public void done(int cpu, Partition part, long now, long duration) {
        partRoundStats(cpu, part, now);
    }

    /** {@code part_round_stats()}: part0 first for a partition, then the partition. */
    private void partRoundStats(int cpu, Partition part, long now) {
        if (part.partno() != 0) {
            partRoundStatsSingle(cpu, part.disk().part0(), now);
        }
        partRoundStatsSingle(cpu, part, now);
    }

    /** {@code part_round_stats_single()}: once per tick (per CPU that sees the tick first). */
    private void partRoundStatsSingle(int cpu, Partition part, long now) {
        long stamp = part.stamp();
        if (now == stamp) {
            return;
        }
        long inflight = inFlight.sum(part);
        if (inflight != 0) {
            part.stats.add(cpu, DiskStats.TIME_IN_QUEUE, inflight * (now - stamp));
            part.stats.add(cpu, DiskStats.IO_TICKS, now - stamp);
        }
        part.setStamp(now);
    }

    @Override
    public String toString() {
        return "part_round_stats over " + inFlight;
    }
}
