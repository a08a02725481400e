package lab.engine.block;

/*
 * Block I/O accounting, the part-acct fix (seed 002_84cddfb167739f27.txt):
 * blk_account_io_start() / blk_account_io_done() of block/blk-core.c (v4.2),
 * part_round_stats(), part_inc/dec_in_flight() and part_in_flight() of
 * include/linux/genhd.h, and update_io_ticks() of today's block/blk-core.c.
 *
 * Per I/O, with accounting on (AcctMode.enabled()):
 *
 *   start   part = disk_map_sector(disk, bio sector)      the partition table
 *           hd_struct_try_get(part), else part0 + get      the partition ref
 *           part_round_stats(part) | update_io_ticks(part) the per-tick work
 *           part_inc_in_flight(part)                       part and part0
 *   done    ios, sectors, ticks += ...                     per-cpu, part and part0
 *           part_round_stats(part) | update_io_ticks(part)
 *           part_dec_in_flight(part)
 *           hd_struct_put(part)
 *
 * part_round_stats (v4.2), for part and, for a partition, part0 too: when
 * jiffies differs from the partition's stamp, add in_flight x elapsed ticks to
 * time_in_queue and the elapsed ticks to io_ticks if anything was in flight,
 * then store the new stamp. The stamp is a plain shared word: several CPUs
 * that read the old stamp in the same tick all do the work (the kernel's race,
 * kept). The in_flight it needs is two atomic reads before patch 4/4 and a sum
 * over every possible CPU after it: Jens Axboe's cost, paid at most once per
 * tick per partition, by whichever CPU sees the tick first.
 *
 * update_io_ticks (v5.7 form, AcctMode.LAZY_TICKS): one compare-and-set on
 * the stamp per tick; the winner adds 1 tick at the start of an I/O and the
 * elapsed ticks at its end, to io_ticks only. No in-flight sum on the I/O
 * path: time_in_queue becomes the sum of the I/Os' durations (v5.0), in-flight
 * is summed only when read. (Kernels since 2024 call part_in_flight() there
 * again, at the CAS winner on the start side only, to keep %util <= 100; the
 * model keeps the v5.7 form, the one Tejun's "way lazier" led to.)
 *
 * Model notes: completion runs on the submitter's slot (bio.cpu), as the
 * model's devices complete there; the kernel uses the completing CPU, which
 * for null_blk's default irqmode is the submitting one too. Sectors are added
 * with ios at completion, as blk_account_io_completion/done did for requests.
 * LAZY_TICKS keeps the per-cpu partition reference and the partition lookup
 * of the other modes, so it differs from PERCPU_INFLIGHT only in the tick
 * work (today's kernel takes neither: the bio's bi_bdev is the partition, held
 * by its opener). In the percpu_ref modes the end of ioDone reports the slot's
 * RCU quiescent state (nothing unless the worker is online, Gendisk.cpuOnline):
 * a kernel CPU reports it at its next context switch or tick instead.
 */

/** {@code blk_account_io_start/done} and their helpers, per {@link AcctMode}. */
final class BlkAccount {
    private BlkAccount() {}

    /** {@code blk_account_io_start(rq, new_io=true)}, for a bio already remapped to the disk. */
    static void ioStart(Gendisk disk, Bio bio) {
        AcctMode mode = disk.acctMode();
        int cpu = bio.cpu;
        long now = disk.jiffies().now();
        Partition part = disk.diskMapSector(bio.sector);
        if (!part.refTryGet(cpu)) {
            part = disk.part0();
            part.refGet(cpu);
        }
        if (mode.lazyTicks()) {
            updateIoTicks(part, cpu, now, false);
        } else {
            partRoundStats(mode, cpu, part, now);
        }
        partInFlightAdd(mode, cpu, part, rw(bio), 1);
        bio.acctPart = part;
        bio.acctStart = now;
        bio.acctSectors = bio.sectors();
    }

    /** {@code blk_account_io_completion() + blk_account_io_done()}: from {@link Bio#bioEndio}. */
    static void ioDone(Bio bio) {
        Partition part = bio.acctPart;
        Gendisk disk = part.disk();
        AcctMode mode = disk.acctMode();
        int cpu = bio.cpu;
        int rw = rw(bio);
        long now = disk.jiffies().now();
        long duration = now - bio.acctStart;
        partStatAdd(cpu, part, DiskStats.IOS + rw, 1);
        partStatAdd(cpu, part, DiskStats.SECTORS + rw, bio.acctSectors);
        partStatAdd(cpu, part, DiskStats.TICKS + rw, duration);
        if (mode.lazyTicks()) {
            partStatAdd(cpu, part, DiskStats.TIME_IN_QUEUE, duration);
            updateIoTicks(part, cpu, now, true);
        } else {
            partRoundStats(mode, cpu, part, now);
        }
        partInFlightAdd(mode, cpu, part, rw, -1);
        part.refPut(cpu);
        bio.acctPart = null;
        disk.rcuQuiescent(cpu); // between I/Os: no read-side section open (see Gendisk)
    }

    private static int rw(Bio bio) {
        return bio.op.isWrite() ? 1 : 0;
    }

    /** {@code part_stat_add()}: the partition's copy and, for a partition, part0's. */
    private static void partStatAdd(int cpu, Partition part, int field, long n) {
        part.stats.add(cpu, field, n);
        if (part.partno() != 0) {
            part.disk().part0().stats.add(cpu, field, n);
        }
    }

    /** {@code part_inc_in_flight()} ({@code delta} 1) and {@code part_dec_in_flight()} (-1). */
    private static void partInFlightAdd(AcctMode mode, int cpu, Partition part, int rw, long delta) {
        if (mode.percpuInFlight()) {
            partStatAdd(cpu, part, DiskStats.IN_FLIGHT + rw, delta);
        } else {
            part.atomicInFlightAdd(rw, delta);
            if (part.partno() != 0) {
                part.disk().part0().atomicInFlightAdd(rw, delta);
            }
        }
    }

    /** {@code part_in_flight()}: two atomic reads, or (patch 4/4) a sum over every possible CPU. */
    static long partInFlight(AcctMode mode, Partition part) {
        return mode.percpuInFlight() ? part.stats.inFlightSum() : part.atomicInFlight();
    }

    /** {@code part_round_stats()}: part0 first for a partition, then the partition. */
    private static void partRoundStats(AcctMode mode, int cpu, Partition part, long now) {
        if (part.partno() != 0) {
            partRoundStatsSingle(mode, cpu, part.disk().part0(), now);
        }
        partRoundStatsSingle(mode, cpu, part, now);
    }

    /** {@code part_round_stats_single()}: once per tick (per CPU that sees the tick first). */
    private static void partRoundStatsSingle(AcctMode mode, int cpu, Partition part, long now) {
        long stamp = part.stamp();
        if (now == stamp) {
            return;
        }
        long inflight = partInFlight(mode, part);
        if (inflight != 0) {
            part.stats.add(cpu, DiskStats.TIME_IN_QUEUE, inflight * (now - stamp));
            part.stats.add(cpu, DiskStats.IO_TICKS, now - stamp);
        }
        part.setStamp(now);
    }

    /** {@code update_io_ticks()} (v5.7): one winner per tick, for the partition and then part0. */
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
}
