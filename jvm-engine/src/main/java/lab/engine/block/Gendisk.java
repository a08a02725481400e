package lab.engine.block;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import lab.engine.count.SharedLines;
import lab.engine.sync.Rcu;

/**
 * A disk and its partition table, {@code struct gendisk} (block/genhd.c) with the bio entry of
 * block/blk-core.c ({@code submit_bio_noacct()}): checks a bio against its partition, remaps it
 * to the disk ({@code blk_partition_remap()}), and hands it to the driver's {@code submit_bio}.
 *
 * <p>The partition table is set up before I/O starts: {@link #addPartition} publishes a new table
 * with a volatile store, read by {@link #diskMapSector} and {@link #partition} with a volatile load
 * (the kernel uses an RCU-protected xarray), but partitions are not meant to change under load.
 *
 * <p>Accounting ({@code queue/iostats}, the {@code part-acct} fix): the constructor asks the
 * {@link AcctMode} once for the disk's strategies: the kind of the partitions' reference
 * ({@link PartRef}), the in-flight counting ({@link PartInFlight}) and the accounting itself
 * ({@link IoStat}: a {@link BlkAccount} with its per-tick work, or {@link IoStatOff} for
 * {@link AcctMode#OFF}). Every bio passed to the driver goes through {@code blk_account_io_start}
 * here and {@code blk_account_io_done} from {@link Bio#bioEndio}, against a {@link Jiffies} clock
 * and per-cpu stats for {@code nrCpus} possible CPUs; no mode is tested per I/O.
 * {@link #diskstats()} reads the stats back.
 *
 * <p>RCU ({@code percpu_ref} modes): the partitions' references share one {@link Rcu} of
 * {@code nrCpus} slots, owned by the disk's {@link PercpuPartRef}, whose grace period a kill
 * ({@link Partition#refKill}) waits for before it folds the per-cpu counts. A worker that goes
 * online in it ({@link #cpuOnline}) enters the per-I/O read-side sections for free and reports a
 * quiescent state as each I/O's accounting ends (in {@link BlkAccount}); a submitter that never
 * does is still safe, paying a full fence per section. Model note: a kernel CPU reports its
 * quiescent state at its next context switch or scheduler tick, not per I/O; the model's per-I/O
 * report costs one read of the grace-period counter, a line that is written only when a grace
 * period starts.
 *
 * <p>Counting ({@code lab.engine.count}): the disk's partitions report the operations on their
 * hot lines ({@code part.ref}, {@code part.in_flight}, {@code part.stamp}, {@code part0.*}) to the
 * {@link SharedLines} the disk was made with; {@link SharedLines#NONE} unless a count run passes
 * one.
 *
 * <p>Model note: no request queue and no blk-mq; every driver here is bio-based, so the driver's
 * {@code submitBio} runs in the submitter's context, as brd and dm do.
 */
public final class Gendisk {

    /** The driver, {@code fops->submit_bio}; its capacity is the disk's. */
    private final BlockDevice driver;
    /** {@code disk_name}. */
    private final String name;
    /** {@code part0}: the whole disk. */
    private final Partition part0;
    /** {@code part_tbl}, indexed by partno; entry 0 is {@link #part0}, holes are null. Copy on write. */
    private volatile Partition[] parts;
    /** How I/O is accounted: the switch the strategies below came from. */
    private final AcctMode acctMode;
    /** The tick clock accounting reads; null when accounting is off. */
    private final Jiffies jiffies;
    /** {@code nr_cpu_ids}: per-cpu copies in each partition's stats, and slots of the references' RCU. */
    private final int nrCpus;
    /** The partitions' reference kind ({@code atomic_t}, or {@code percpu_ref} and its RCU). */
    private final PartRef partRef;
    /** {@code in_flight[2]}: shared atomics or per-cpu counters. */
    private final PartInFlight inFlight;
    /** {@code blk_account_io_start/done}, or nothing ({@code queue/iostats} = 0). */
    private final IoStat ioStat;
    /** Where the partitions report their shared-line operations. */
    private final SharedLines lines;

    /** A disk over {@code driver}, named after it, with no partition but {@code part0}, not accounting I/O. */
    public Gendisk(BlockDevice driver) {
        this(driver, AcctMode.OFF, null, 1);
    }

    /**
     * A disk that accounts I/O as {@code mode} says, reading {@code jiffies} (not owned: the
     * caller closes it), with per-cpu state for {@code nrCpus} possible CPUs; every bio's
     * {@link Bio#cpu} must be below {@code nrCpus}.
     */
    public Gendisk(BlockDevice driver, AcctMode mode, Jiffies jiffies, int nrCpus) {
        this(driver, mode, jiffies, nrCpus, SharedLines.NONE);
    }

    /**
     * {@link #Gendisk(BlockDevice, AcctMode, Jiffies, int)} whose partitions report their
     * shared-line operations to {@code lines} (a count run's {@link lab.engine.count.LineTally}).
     */
    public Gendisk(BlockDevice driver, AcctMode mode, Jiffies jiffies, int nrCpus, SharedLines lines) {
        this(driver, mode, jiffies, nrCpus, 0, lines);
    }

    /**
     * As {@link #Gendisk(BlockDevice, AcctMode, Jiffies, int, SharedLines)}, with the lab kernel's
     * switch block.lab_part_acct at "atomic" and count {@code labAcctCount} (0: off): that many
     * shared atomic get and in-flight increments at each accounted I/O's start, and decrements at
     * its done, on the accounted partition's own words ({@link LabPartAcct}). A mode that accounts
     * nothing ignores it, as the patch's sites are in the accounting.
     */
    public Gendisk(BlockDevice driver, AcctMode mode, Jiffies jiffies, int nrCpus, int labAcctCount, SharedLines lines) {
        if (mode.enabled() && jiffies == null) {
            throw new IllegalArgumentException(driver.name() + ": accounting (" + mode.id() + ") needs a jiffies clock");
        }
        this.driver = driver;
        this.name = driver.name();
        this.acctMode = mode;
        this.jiffies = jiffies;
        this.nrCpus = nrCpus;
        this.lines = lines;
        this.partRef = mode.newPartRef(nrCpus);
        this.inFlight = mode.inFlight();
        this.ioStat = mode.newIoStat(jiffies, partRef, LabPartAcct.of(labAcctCount));
        this.part0 = new Partition(this, 0, 0, driver.capacitySectors());
        this.parts = new Partition[] {part0};
    }

    /** How this disk accounts I/O. */
    public AcctMode acctMode() {
        return acctMode;
    }

    /** The clock accounting reads (null when off). */
    Jiffies jiffies() {
        return jiffies;
    }

    /** Possible CPUs: the per-cpu copies a sum reads. */
    public int nrCpus() {
        return nrCpus;
    }

    /** The RCU domain of the partitions' {@code percpu_ref}s, or null when the mode has none. */
    Rcu rcu() {
        return partRef.rcu();
    }

    /** Where the partitions report their shared-line operations ({@link Partition}'s constructor). */
    SharedLines sharedLines() {
        return lines;
    }

    /** The partitions' reference kind: {@link Partition}'s constructor takes its reference from it. */
    PartRef partRef() {
        return partRef;
    }

    /** The in-flight counting, as {@link Partition#stat} reads it. */
    PartInFlight inFlight() {
        return inFlight;
    }

    /** The accounting, which {@link Bio#bioEndio} ends. */
    IoStat ioStat() {
        return ioStat;
    }

    /**
     * The owner of slot {@code cpu} starts issuing I/O ({@link BlockDevice#cpuOnline}): online in
     * the partitions' RCU, when the reference kind has one, and in the driver's (a dm stack's).
     * Owner of {@code cpu} only.
     */
    public void cpuOnline(int cpu) {
        partRef.cpuOnline(cpu);
        driver.cpuOnline(cpu);
    }

    /** The owner of slot {@code cpu} stops issuing I/O: offline, an extended quiescent state (the driver first). */
    public void cpuOffline(int cpu) {
        driver.cpuOffline(cpu);
        partRef.cpuOffline(cpu);
    }

    /** {@code /proc/diskstats} for this disk: part0, then each partition, as {@link DiskStats.Sum}s. */
    public List<DiskStats.Sum> diskstats() {
        List<DiskStats.Sum> out = new ArrayList<>();
        for (Partition p : parts) {
            if (p != null) {
                out.add(p.stat());
            }
        }
        return out;
    }

    /** {@code disk_name}. */
    public String name() {
        return name;
    }

    /** The driver behind the disk. */
    public BlockDevice driver() {
        return driver;
    }

    /** {@code disk->part0}: the whole disk as a block device. */
    public Partition part0() {
        return part0;
    }

    /**
     * {@code add_partition()}: partition {@code partno} (from 1) of {@code nrSects} sectors at
     * {@code start}. Refuses a number in use, an empty or out-of-disk range, or an overlap.
     */
    public synchronized Partition addPartition(int partno, long start, long nrSects) {
        Partition[] old = parts;
        if (partno < 1 || (partno < old.length && old[partno] != null)) {
            throw new IllegalArgumentException(name + ": partition number " + partno + " is taken or invalid");
        }
        if (start < 0 || nrSects < 1 || start + nrSects > driver.capacitySectors()) {
            throw new IllegalArgumentException(name + ": partition " + partno + " [" + start + ", +"
                    + nrSects + ") lies outside the disk's " + driver.capacitySectors() + " sectors");
        }
        for (int i = 1; i < old.length; i++) {
            Partition p = old[i];
            if (p != null && start < p.startSect() + p.nrSects() && p.startSect() < start + nrSects) {
                throw new IllegalArgumentException(name + ": partition " + partno + " overlaps " + p.name());
            }
        }
        Partition part = new Partition(this, partno, start, nrSects);
        Partition[] table = Arrays.copyOf(old, Math.max(old.length, partno + 1));
        table[partno] = part;
        parts = table;
        return part;
    }

    /** Partition {@code partno}, or null when there is none. */
    public Partition partition(int partno) {
        Partition[] table = parts;
        return partno >= 0 && partno < table.length ? table[partno] : null;
    }

    /**
     * {@code disk_map_sector_rcu()}: the partition that holds disk sector {@code sector}, or
     * {@link #part0} when none does. Linear in the number of partitions; allocates nothing.
     */
    public Partition diskMapSector(long sector) {
        Partition[] table = parts;
        for (int i = 1; i < table.length; i++) {
            Partition p = table[i];
            if (p != null && p.contains(sector)) {
                return p;
            }
        }
        return part0;
    }

    /**
     * {@code submit_bio_noacct()} for a bio whose {@link Bio#bdev} is a partition of this disk (null
     * = {@code part0}): end it with {@link BlkStatus#IOERR} if it does not fit the partition, with
     * {@link BlkStatus#NOTSUPP} if it is a discard the driver does not do, else remap it to the
     * disk and pass it to the driver.
     */
    public void submitBio(Bio bio) {
        Partition part = bio.bdev == null ? part0 : bio.bdev;
        bio.bdev = part;
        if ((bio.flags & Bio.BIO_REMAPPED) == 0 && !Bio.bioCheck(bio, part.nrSects(), driver.logicalBlockSize())) {
            Bio.bioIoError(bio);
            return;
        }
        if (Bio.notSupported(bio, driver)) {
            return;
        }
        blkPartitionRemap(bio, part);
        ioStat.ioStart(this, bio); // blk_account_io_start, or nothing; its _done runs in Bio.bioEndio
        driver.submitBio(bio);
    }

    /** {@code blk_partition_remap()}: partition-relative sector to disk sector, once. */
    private static void blkPartitionRemap(Bio bio, Partition part) {
        if (part.partno() != 0 && (bio.flags & Bio.BIO_REMAPPED) == 0) {
            bio.sector += part.startSect();
            bio.flags |= Bio.BIO_REMAPPED;
        }
    }
}
