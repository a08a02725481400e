package lab.engine.block;

/*
 * The per-tick work of block accounting: what keeps io_ticks (jiffies with
 * I/O in flight) and time_in_queue, done at the start and at the end of every
 * I/O but doing real work only when jiffies has moved past the partition's
 * stamp.
 *
 * Two kinds, one per implementation: PartRoundStats (part_round_stats of
 * v4.2, which reads part_in_flight() once a tick) and UpdateIoTicks
 * (update_io_ticks of v5.7, one compare-and-set on the stamp per tick, no
 * in-flight sum). AcctMode picks one per Gendisk.
 */

/** A disk's per-tick accounting work, at each I/O's start and end. */
interface IoTicks {
    /** At {@code blk_account_io_start}, after the reference, before the in-flight increment. Owner of {@code cpu}. */
    void start(int cpu, Partition part, long now);

    /**
     * At {@code blk_account_io_done}, after ios/sectors/ticks, before the in-flight decrement;
     * {@code duration} is the I/O's, in jiffies. Owner of {@code cpu}.
     */
    void done(int cpu, Partition part, long now, long duration);
}
