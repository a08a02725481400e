package lab.engine.block;

/*
 * Block I/O accounting, the part-acct fix (seed 002_84cddfb167739f27.txt):
 * blk_account_io_start() / blk_account_io_done() of block/blk-core.c (v4.2)
 * with queue/iostats = 1. What each step costs is the disk's strategies,
 * chosen once by its AcctMode, never tested per I/O:
 *
 *   start   part = disk_map_sector(disk, bio sector)      the partition table
 *           hd_struct_try_get(part), else part0 + get      Ref (PartRef: atomic_t | percpu_ref)
 *           per-tick work                                  IoTicks (part_round_stats | update_io_ticks)
 *           part_inc_in_flight(part)                       PartInFlight (atomic | per-cpu), part and part0
 *   done    ios, sectors, ticks += ...                     per-cpu, part and part0
 *           per-tick work                                  IoTicks
 *           part_dec_in_flight(part)                       PartInFlight
 *           hd_struct_put(part)                            Ref
 *           quiescent state                                PartRef (percpu_ref: its RCU; atomic_t: nothing)
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
 *
 * The lab kernel's switch (LabPartAcct, the disk's, NONE when off) adds its
 * shared atomics after the in-flight counting at start and at done.
 *
 * One instance per disk; its fields are final and set before the disk takes
 * I/O. Allocates nothing.
 */

/** {@code blk_account_io_start/done} over a disk's reference, in-flight and tick strategies. */
final class BlkAccount implements IoStat {
    /** The tick clock (not owned). */
    private final Jiffies jiffies;
    /** The kind of the partitions' references: for the quiescent-state report. */
    private final PartRef partRef;
    /** {@code part_inc/dec_in_flight()}. */
    private final PartInFlight inFlight;
    /** {@code part_round_stats()} or {@code update_io_ticks()}. */
    private final IoTicks ticks;

    /** The lab kernel's switch: its shared atomics after the in-flight counting, or nothing. */
    private final LabPartAcct lab;

    BlkAccount(Jiffies jiffies, PartRef partRef, PartInFlight inFlight, IoTicks ticks, LabPartAcct lab) {
        this.lab = lab;
        this.jiffies = jiffies;
        this.partRef = partRef;
        this.inFlight = inFlight;
        this.ticks = ticks;
    }

    @Override
    public void ioStart(Gendisk disk, Bio bio) {
        int cpu = bio.cpu;
        long now = jiffies.now();
        Partition part = disk.diskMapSector(bio.sector);
        if (!part.refTryGet(cpu)) {
            part = disk.part0();
            part.refGet(cpu);
        }
        ticks.start(cpu, part, now);
        int rw = rw(bio);
        inFlight.add(cpu, part, rw, 1);
        lab.start(part, rw);
        bio.acctPart = part;
        bio.acctStart = now;
        bio.acctSectors = bio.sectors();
    }

    @Override
    public void ioDone(Bio bio) {
        Partition part = bio.acctPart;
        int cpu = bio.cpu;
        int rw = rw(bio);
        long now = jiffies.now();
        long duration = now - bio.acctStart;
        part.partStatAdd(cpu, DiskStats.IOS + rw, 1);
        part.partStatAdd(cpu, DiskStats.SECTORS + rw, bio.acctSectors);
        part.partStatAdd(cpu, DiskStats.TICKS + rw, duration);
        ticks.done(cpu, part, now, duration);
        inFlight.add(cpu, part, rw, -1);
        lab.done(part, rw);
        part.refPut(cpu);
        bio.acctPart = null;
        partRef.quiescent(cpu); // between I/Os: no read-side section open (see PercpuPartRef)
    }

    private static int rw(Bio bio) {
        return bio.op.isWrite() ? 1 : 0;
    }

    @Override
    public String toString() {
        return "BlkAccount[" + partRef + ", " + inFlight + ", " + ticks + ", " + lab + "]";
    }
}
