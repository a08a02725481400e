package lab.engine.block;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import lab.engine.count.Handoffs;
import lab.engine.count.LineCounter;
import lab.engine.count.LineOp;
import lab.engine.count.SharedLines;
import lab.engine.sync.Ref;

/**
 * A partition of a {@link Gendisk}, the partition side of {@code struct block_device}
 * (block/partitions/core.c; {@code struct hd_struct} in the seed's v4.2): number, first sector,
 * length, and the accounting state of the {@code part-acct} fix. Partition 0 ({@code part0}) is
 * the whole disk. Submitting to a partition sets the bio's {@link Bio#bdev} and hands it to the
 * disk, which checks it against the partition and remaps it ({@link Gendisk#submitBio}).
 *
 * <h2>Accounting state</h2>
 * What the disk's accounting strategies read and write per I/O, kept where v4.2 kept it:
 * <ul>
 * <li>{@link #stats}: the per-cpu {@code dkstats} (and, with {@link PercpuInFlight}, the
 *     in-flight counters).</li>
 * <li>The hot line: {@code stamp}, {@code in_flight[2]} ({@link AtomicInFlight}) and the
 *     {@code atomic_t ref} ({@link AtomicPartRef}) sit within a few bytes of each other in
 *     {@code struct hd_struct} (after the large {@code struct device}), so on one cache line. The
 *     model keeps them on one padded line of their own, so that the atomic modes pay for the same
 *     sharing: every in-flight or reference atomic evicts the stamp every other CPU reads on each
 *     I/O. Words a mode does not use stay zero.</li>
 * <li>{@link #ref}: the partition reference, made once by the disk's {@link PartRef}: a
 *     {@link lab.engine.sync.RefCount} embedded in the hot line ({@code atomic_t}) or a
 *     {@link lab.engine.sync.PercpuRef} in the disk's RCU ({@code percpu_ref}, patches 1-2; see
 *     {@link PercpuPartRef} for its read-side sections and model notes).</li>
 * </ul>
 * <h2>Counting</h2>
 * The hot line's operations are reported to the disk's {@link SharedLines} ({@link Gendisk}'s
 * constructor), at sites named after the fields: {@code part.stamp} (store, cas),
 * {@code part.in_flight} (rmw) and {@code part.ref} (the reference's) for a partition, and
 * {@code part0.stamp}, {@code part0.in_flight}, {@code part0.ref} for the whole disk, whose hot
 * line is both the I/O's when a bio goes to the disk and the extra accounting when it goes to a
 * partition. The per-cpu {@link #stats} are written by their owner only and not counted.
 *
 * <p>The partition table never changes under I/O; {@link #refKill} stands for
 * {@code delete_partition()}'s drop of the reference, after which {@code hd_struct_try_get} fails
 * and I/O is accounted to {@code part0}.
 */
public final class Partition implements BlockDevice {

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    /** The hot line's words, after 128 bytes of padding ({@link #hot}). */
    private static final int STAMP = 16;
    private static final int IN_FLIGHT = 17; // [READ], [WRITE] at +1
    private static final int REF = 19;
    /** The lab line's words ({@link #lab}). */
    private static final int LAB_REF = 16;
    private static final int LAB_IN_FLIGHT = 17; // [READ], [WRITE] at +1

    private final Gendisk disk;
    private final int partno;
    private final long startSect;
    private final long nrSects;
    private final String name;

    /** {@code dkstats}. */
    final DiskStats stats;
    /** {@code stamp}, {@code in_flight[2]}, {@code atomic_t ref}: one line, 128 bytes of padding each side. */
    private final long[] hot = new long[48];
    /** {@code hd_struct.ref}: {@code atomic_t} at {@code hot[REF]}, or a {@code percpu_ref}; chosen by the disk. */
    private final Ref ref;
    /** Times the reference reached zero ({@code __delete_partition}); the table is static, so 0 or 1. */
    private final AtomicInteger released = new AtomicInteger();
    /** {@code part->stamp = now} (part_round_stats). */
    private final LineCounter stampStore;
    /** {@code try_cmpxchg(&part->bd_stamp)} (update_io_ticks), each attempt. */
    private final LineCounter stampCas;
    /** {@code atomic_inc/dec(&part->in_flight[rw])}. */
    private final LineCounter inFlightRmw;
    /** The lab switch's words ({@link LabPartAcct}): {@code bd_lab_ref}, {@code bd_lab_in_flight[2]}, a line of their own, padded. */
    private final long[] lab = new long[48];
    /** Their atomics, at the site {@code part.lab_acct} (or {@code part0.lab_acct}). */
    private final LineCounter labRmw;
    /** The hot line changing hands: its stamp, in_flight and ref (the ref's own tracker is this one). */
    private final Handoffs hotLine;
    /** The lab switch's line changing hands. */
    private final Handoffs labLine;

    Partition(Gendisk disk, int partno, long startSect, long nrSects) {
        this.disk = disk;
        this.partno = partno;
        this.startSect = startSect;
        this.nrSects = nrSects;
        this.name = partno == 0 ? disk.name() : disk.name() + "p" + partno;
        this.stats = new DiskStats(disk.nrCpus());
        String site = partno == 0 ? "part0" : "part";
        SharedLines lines = disk.sharedLines();
        this.stampStore = lines.counter(site + ".stamp", LineOp.STORE);
        this.stampCas = lines.counter(site + ".stamp", LineOp.CAS);
        this.inFlightRmw = lines.counter(site + ".in_flight", LineOp.RMW);
        this.labRmw = lines.counter(site + ".lab_acct", LineOp.RMW);
        this.hotLine = lines.handoffs(site + ".hot", hot);
        this.labLine = lines.handoffs(site + ".lab_acct", lab);
        this.ref = disk.partRef().init(hot, REF, this::release, lines, site + ".ref"); // hd_ref_init: the table's reference
    }

    private void release() {
        released.incrementAndGet();
    }

    // ---- the hot line: stamp ----

    /** {@code READ_ONCE(part->stamp)}. */
    long stamp() {
        return (long) LONGS.getOpaque(hot, STAMP);
    }

    /** {@code part->stamp = now}: a plain store in v4.2, racing with other CPUs' (as there). */
    void setStamp(long now) {
        stampStore.add();
        hotLine.write();
        LONGS.setOpaque(hot, STAMP, now);
    }

    /** {@code try_cmpxchg(&part->bd_stamp, &stamp, now)}: one CPU per tick wins. */
    boolean casStamp(long stamp, long now) {
        stampCas.add();
        hotLine.write();
        return LONGS.compareAndSet(hot, STAMP, stamp, now);
    }

    // ---- the hot line: atomic in_flight[2] (AtomicInFlight) ----

    /** {@code atomic_inc/dec(&part->in_flight[rw])}: a locked xadd; no ordering needed (a counter). */
    void atomicInFlightAdd(int rw, long delta) {
        inFlightRmw.add();
        hotLine.write();
        LONGS.getAndAdd(hot, IN_FLIGHT + rw, delta);
    }

    /** {@code atomic_read(&in_flight[rw])}. */
    long atomicInFlight(int rw) {
        return (long) LONGS.getOpaque(hot, IN_FLIGHT + rw);
    }

    // ---- the lab switch's words (LabPartAcct) ----

    /** {@code atomic_inc(&bdev->bd_lab_ref)}: a locked xadd. */
    void labGet() {
        labRmw.add();
        labLine.write();
        LONGS.getAndAdd(lab, LAB_REF, 1L);
    }

    /** {@code atomic_dec(&bdev->bd_lab_ref)}. */
    void labPut() {
        labRmw.add();
        labLine.write();
        LONGS.getAndAdd(lab, LAB_REF, -1L);
    }

    /** {@code atomic_inc/dec(&bdev->bd_lab_in_flight[rw])}. */
    void labInFlightAdd(int rw, long delta) {
        labRmw.add();
        labLine.write();
        LONGS.getAndAdd(lab, LAB_IN_FLIGHT + rw, delta);
    }

    // ---- per-cpu stats ----

    /** {@code part_stat_add()}: the partition's copy and, for a partition, part0's. Owner of {@code cpu} only. */
    void partStatAdd(int cpu, int field, long n) {
        stats.add(cpu, field, n);
        if (partno != 0) {
            disk.part0().stats.add(cpu, field, n);
        }
    }

    // ---- the partition reference ----

    /** {@code hd_struct_try_get()}: {@code atomic_inc_not_zero} or {@code percpu_ref_tryget_live}. */
    boolean refTryGet(int cpu) {
        return ref.tryGetLive(cpu);
    }

    /** {@code hd_struct_get()}: the caller knows the partition is alive (part0). */
    void refGet(int cpu) {
        ref.get(cpu);
    }

    /** {@code hd_struct_put()}: the put that reaches zero releases the partition. */
    void refPut(int cpu) {
        ref.put(cpu);
    }

    /** {@code delete_partition()}'s end: {@code hd_struct_put} (atomic) or {@code hd_struct_kill} (percpu). */
    void refKill() {
        ref.kill();
    }

    /** How many times release ran: 0, or 1 once the reference has reached zero (tests). */
    int releases() {
        return released.get();
    }

    /** Whether the reference count is exactly zero (percpu: in atomic mode and folded). */
    boolean refIsZero() {
        return ref.isZero();
    }

    /** Whether the partition's reference has reached zero and it was released. */
    public boolean released() {
        return released.get() != 0;
    }

    /**
     * {@code part_stat_read_all()} and {@code part_in_flight()}: the partition's counters as
     * {@code /proc/diskstats} shows them. Exact once no I/O is in flight.
     */
    public DiskStats.Sum stat() {
        PartInFlight inFlight = disk.inFlight();
        long inRead = inFlight.read(this, 0);
        long inWrite = inFlight.read(this, 1);
        return new DiskStats.Sum(name, partno,
                stats.read(DiskStats.IOS), stats.read(DiskStats.IOS + 1),
                stats.read(DiskStats.SECTORS), stats.read(DiskStats.SECTORS + 1),
                stats.read(DiskStats.TICKS), stats.read(DiskStats.TICKS + 1),
                inRead, inWrite, stats.read(DiskStats.IO_TICKS), stats.read(DiskStats.TIME_IN_QUEUE));
    }

    /** {@code bdev_partno()}: 0 for the whole disk. */
    public int partno() {
        return partno;
    }

    /** {@code bd_start_sect}: first sector of the partition on the disk. */
    public long startSect() {
        return startSect;
    }

    /** {@code bdev_nr_sectors()}: length in sectors. */
    public long nrSects() {
        return nrSects;
    }

    /** {@code bd_disk}. */
    public Gendisk disk() {
        return disk;
    }

    /** True when {@code sector} (disk-relative) lies in this partition. */
    boolean contains(long sector) {
        return sector >= startSect && sector - startSect < nrSects;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long capacitySectors() {
        return nrSects;
    }

    @Override
    public int logicalBlockSize() {
        return disk.driver().logicalBlockSize();
    }

    /** {@code submit_bio()} on this block device: {@code bio.bdev = this}, then the disk's path. */
    @Override
    public void submitBio(Bio bio) {
        bio.bdev = this;
        disk.submitBio(bio);
    }

    /** The disk's: every partition shares the disk's RCU ({@link Gendisk#cpuOnline}). */
    @Override
    public void cpuOnline(int cpu) {
        disk.cpuOnline(cpu);
    }

    /** The disk's ({@link Gendisk#cpuOffline}). */
    @Override
    public void cpuOffline(int cpu) {
        disk.cpuOffline(cpu);
    }

    /** Polls the disk's driver: completions belong to the disk, not to one partition. */
    @Override
    public int poll(int cpu) {
        return disk.driver().poll(cpu);
    }
}
