package lab.engine.block;

import lab.engine.sync.PercpuSlots;

/*
 * struct disk_stats __percpu *dkstats (include/linux/genhd.h of v4.2, later
 * include/linux/part_stat.h): one copy of the counters per possible CPU.
 *
 * Writers add to their own CPU's copy with a plain add under
 * part_stat_lock() (preemption off): __part_stat_add. No atomics, no shared
 * line. Readers sum the copies (part_stat_read) and get a value that is exact
 * once the writers are quiet, and approximately right while they are not:
 * /proc/diskstats has always lived with that.
 *
 * Since patch 4/4 of the seed, in_flight[2] is one of these fields too, and
 * part_in_flight() is the sum over every possible CPU: its cost grows with
 * nr_possible_cpus, not with the CPUs doing I/O. nrCpus here is that number;
 * the model's workers use the first slots, the rest stay zero, as an idle
 * CPU's copy does.
 *
 * Owner rule (PercpuSlots): only the worker that owns slot cpu writes it.
 * Layout (PercpuSlots): the 10 fields take 80 bytes, padded by stride to 256,
 * so that 128 bytes or more separate two CPUs' copies.
 */

/** Per-cpu I/O statistics of one partition, {@code struct disk_stats}. */
public final class DiskStats {
    /** {@code ios[READ]}, then {@code ios[WRITE]} at +1: completed I/Os. */
    public static final int IOS = 0;
    /** {@code sectors[2]}: 512-byte sectors transferred. */
    public static final int SECTORS = 2;
    /** {@code ticks[2]}: summed I/O durations, in jiffies. */
    public static final int TICKS = 4;
    /** {@code io_ticks}: jiffies with at least one I/O in flight. */
    public static final int IO_TICKS = 6;
    /** {@code time_in_queue}: in-flight I/Os integrated over jiffies. */
    public static final int TIME_IN_QUEUE = 7;
    /** {@code in_flight[2]} (per-cpu since patch 4/4); a slot may be negative, the sum may not. */
    public static final int IN_FLIGHT = 8;
    private static final int FIELDS = 10;

    private final PercpuSlots slots;

    public DiskStats(int nrCpus) {
        this.slots = new PercpuSlots(nrCpus, FIELDS);
    }

    /** {@code nr_cpu_ids}: how many copies a sum reads. */
    public int nrCpus() {
        return slots.nrCpus();
    }

    /** {@code __part_stat_add(cpu, part, field, n)}: owner of {@code cpu} only. */
    void add(int cpu, int field, long n) {
        slots.addOpaque(cpu, field, n);
    }

    /** {@code part_stat_read(part, field)}: the sum over every possible CPU. */
    public long read(int field) {
        return slots.sumOpaque(field);
    }

    /**
     * {@code part_in_flight()} after patch 4/4: reads and writes of every possible CPU, the loop
     * Jens Axboe worried about: one pass over the slots, both directions' counts from each.
     */
    public long inFlightSum() {
        return slots.sumOpaque(IN_FLIGHT, 2);
    }

    /**
     * One partition's counters summed over the CPUs, one line of {@code /proc/diskstats} (the
     * fields the model keeps: no merges, no discards or flushes; ticks and {@code io_ticks} in
     * jiffies, not milliseconds).
     */
    public record Sum(String name, int partno, long readIos, long writeIos, long readSectors, long writeSectors,
                      long readTicks, long writeTicks, long readInFlight, long writeInFlight, long ioTicks,
                      long timeInQueue) {
        /** {@code part_in_flight()}. */
        public long inFlight() {
            return readInFlight + writeInFlight;
        }

        /** The line as {@code diskstats_show()} prints it, zeros where the model keeps nothing. */
        public String line() {
            return String.format("%4d %7d %s %d 0 %d %d %d 0 %d %d %d %d %d", 0, partno, name, readIos, readSectors,
                    readTicks, writeIos, writeSectors, writeTicks, inFlight(), ioTicks, timeInQueue);
        }
    }
}
