package lab.engine.block;

/*
 * in_flight[2] of a partition, the counters of patches 3-4 of the part-acct
 * seed: part_inc_in_flight() and part_dec_in_flight() on every I/O (for a
 * partition, part0's as well), and part_in_flight(), which the per-tick work
 * of part_round_stats() reads and /proc/diskstats shows.
 *
 * Two kinds, one per implementation: AtomicInFlight (two atomic_t on the
 * partition's hot line, before patch 4/4) and PercpuInFlight (a field of the
 * per-cpu disk_stats, summed over every possible CPU by part_in_flight(),
 * after it). AcctMode picks one per Gendisk.
 */

/** A disk's in-flight counting: {@code part_inc/dec_in_flight()} and {@code part_in_flight()}. */
interface PartInFlight {
    /**
     * {@code part_inc_in_flight()} ({@code delta} 1) and {@code part_dec_in_flight()} (-1) of
     * direction {@code rw} (0 read, 1 write): the partition's counter and, for a partition,
     * part0's. Owner of {@code cpu} only.
     */
    void add(int cpu, Partition part, int rw, long delta);

    /** {@code part_in_flight(part)}: both directions of one partition, as the tick work reads it. */
    long sum(Partition part);

    /** {@code in_flight[rw]} of one partition, as {@code /proc/diskstats} reads it. */
    long read(Partition part, int rw);
}
