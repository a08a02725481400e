package lab.engine.block;

/*
 * update_io_ticks() (v5.7 form, block/blk-core.c), Tejun's "way lazier":
 * part_round_stats gone (v5.0), no in-flight sum on the I/O path.
 *
 *   start:  for part, then part0:
 *               stamp = READ_ONCE(part->bd_stamp)
 *               if (time_after(now, stamp) && try_cmpxchg(&bd_stamp, &stamp, now))
 *                   io_ticks += 1                  the winner only, own per-cpu copy
 *   done:   time_in_queue += duration              own per-cpu copy (v5.0: the sum of
 *                                                  the I/Os' durations)
 *           then as start, the winner adding now - stamp
 *
 * One CPU per tick wins the compare-and-set; the losers and every other I/O
 * of the tick pay one load of the stamp's line. The CAS is fully ordered only
 * because a locked cmpxchg is; nothing is published through the stamp, so
 * nothing pairs with it. In-flight is summed only when someone reads it
 * (/proc/diskstats). Kernels since 2024 call part_in_flight() here again, at
 * the CAS winner on the start side only, to keep %util <= 100; the model keeps
 * the v5.7 form, the one Tejun's "way lazier" led to.
 *
 * Stateless (the stamp is the partition's), so one instance serves every disk.
 */

/** {@code update_io_ticks()}: one compare-and-set per tick on the stamp, no in-flight sum. */
final class UpdateIoTicks implements IoTicks {
    static final UpdateIoTicks INSTANCE = new UpdateIoTicks();

    private UpdateIoTicks() {
    }

    @Override
    public void start(int cpu, Partition part, long now) {
        updateIoTicks(part, cpu, now, false);
    }

    @Override
    public void done(int cpu, Partition part, long now, long duration) {
        part.partStatAdd(cpu, DiskStats.TIME_IN_QUEUE, duration);
        updateIoTicks(part, cpu, now, true);
    }

    /** {@code update_io_ticks()}: one winner per tick, for the partition and then part0. */
    private static void updateIoTicks(Partition part, int cpu, long now, boolean end) {
        for (Partition p = part; ; p = p.disk().part0()) {
            long stamp = p.stamp();
            if (now - stamp > 0 && p.casStamp(stamp, now)) { // time_after(now, stamp)
                p.stats.add(cpu, DiskStats.IO_TICKS, end ? now - stamp : 1);
            }
            if (p.partno() == 0) {
                return;
            }
        }
    }

    @Override
    public String toString() {
        return "update_io_ticks";
    }
}
