package lab.engine.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import lab.jobspec.Job;
import lab.jobspec.SplitMix;
import lab.engine.block.AcctMode;
import lab.engine.block.Bio;
import lab.engine.block.BioEndIo;
import lab.engine.block.Bioset;
import lab.engine.block.BlkStatus;
import lab.engine.block.BlockDevice;
import lab.engine.block.Gendisk;
import lab.engine.block.Jiffies;
import lab.engine.block.NullBlk;
import lab.engine.block.ReqOp;
import lab.engine.count.SharedLines;
import lab.engine.work.CpuWork;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/*
 * part-acct (seed 002_84cddfb167739f27.txt): what accounting one I/O to its
 * partition costs, per accounting mode, across threads (JMH -t), tick rates
 * and numbers of possible CPUs.
 *
 * One op is one I/O of the fix's job file, examples/part-acct.fio (the seed's
 * fio randread at 4 KiB over null_blk), parsed at setup (ExampleJob): its rw,
 * rwmixread and bs (IoMix) make each bio. A bio from the worker's per-cpu
 * bioset, a random bs-aligned sector of the target, submit_bio through the
 * Gendisk (partition check and remap, accounting start), null_blk completing
 * it at once (irqmode=0, bio-based), accounting done in bio_endio, the bio
 * freed. Each worker is online in the disk's RCU for the trial
 * (BlockDevice.cpuOnline), as a busy CPU is: the percpu_ref's per-I/O
 * read-side sections cost no fence, and each I/O ends with a quiescent-state
 * report (one read of the grace-period counter).
 *
 * What the model fixes by itself, not the job file: threads come from JMH's
 * -t (not numjobs); the device is a 4 GiB null_blk (not size=); each worker
 * submits one bio and null_blk completes it inline, so one I/O per worker is
 * in flight whatever iodepth and ioengine say; direct means nothing without a
 * page cache; JMH's iterations replace runtime.
 *
 *   variant  lab.engine.block.AcctMode ids: atomic (before the series),
 *            percpu-ref (patches 1-2), percpu-ref+percpu-inflight (all four),
 *            lazy-ticks (today's update_io_ticks), iostats=0 (no accounting);
 *            an id with the suffix ~aa (atomic~aa) runs the same mode as an
 *            A/A control trial (Variants)
 *   hz       CONFIG_HZ of the jiffies ticker: how often the per-tick work
 *            (and, with per-cpu in-flight, the sum over every slot) runs
 *   slots    possible CPUs: the per-cpu copies part_in_flight() sums
 *            (max(slots, threads); the workers use the first slots, the
 *            rest stay zero, as idle CPUs' copies do)
 *   target   Target ids: disk, bios to a disk with no partition table (the
 *            seed's /dev/nullb0); part, bios to partition 1, which doubles the
 *            accounting (part and part0: in-flight, stats, round_stats)
 *   baseNs   ns of calibrated uncontended CPU null_blk spends per I/O in its
 *            submit (lab.engine.work.CpuWork, Blackhole.consumeCPU tokens
 *            measured at setup): the kernel's own per-I/O work, for the
 *            calibrated model; 0 spends nothing
 *   amp      the lab kernel's switch block.lab_part_acct at "atomic" with
 *            count N (6.1/part-acct.patch) on top of the variant: N shared
 *            atomic increments of the accounted partition's ref and
 *            in_flight[rw] words at accounting start, N decrements of each
 *            at done (4N per I/O), on a line of their own; 0 (the default)
 *            is the switch off. Chosen when the disk is made
 *            (lab.engine.block.LabPartAcct), never tested per I/O. The
 *            switch's "after" is today's code: lazy-ticks (per-cpu ref and
 *            in-flight, update_io_ticks) is the model's nearest
 *   userNs   ns of the same work the submitting thread spends per I/O after
 *            the bio completes, before it submits the next: the kernel's
 *            per-I/O work outside the accounted window (fio's own loop, the
 *            system call's way out and in), for the calibrated model; without
 *            it one I/O's end accounting and the next one's start run back to
 *            back and visit the shared line once, where the kernel's visit it
 *            twice
 *
 * The ticker thread runs in every variant (the tick exists with iostats=0 as
 * well), so every variant shares the machine with it equally.
 *
 * Score: ns per op per thread (AverageTime); throughput = threads / score.
 *
 * The shared-line operations of one op, per variant, come from the same
 * code run single-threaded with a counting sink: PartAcctCounts.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PartAcct {
    /** The fix's job file, {@code examples/part-acct.fio}: the workload of every op. */
    static final String EXAMPLE = "part-acct";
    /** null_blk's size: 4 GiB, 512-byte logical blocks (null_blk's default bs). */
    static final long CAPACITY = 4L << 30;
    static final int LOGICAL_BLOCK = 512;
    /** Partition 1 starts at 1 MiB, as fdisk's default alignment puts it, and runs to the end. */
    static final long PART_START = 2048;

    /** Where the bios go: the {@code target} ids. */
    public enum Target {
        /** The whole disk, no partition table. */
        DISK("disk"),
        /** Partition 1, from {@link #PART_START} to the end. */
        PART("part");

        private final String id;

        Target(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        static Target of(String id) {
            for (Target t : values()) {
                if (t.id.equals(id)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("unknown target: " + id + " (disk, part)");
        }
    }

    @State(Scope.Benchmark)
    public static class Disk {
        /** {@link AcctMode#ids()}, in order. */
        @Param({"atomic", "percpu-ref", "percpu-ref+percpu-inflight", "lazy-ticks", "iostats=0"})
        public String variant;

        @Param({"1000"})
        public int hz;

        @Param({"64"})
        public int slots;

        /** {@link Target} ids. */
        @Param({"disk", "part"})
        public String target;

        /** ns of calibrated CPU per I/O in null_blk's submit ({@code base_ns}); a number, 0 for none. */
        @Param({"0"})
        public long baseNs;

        /** ns of calibrated CPU per I/O in the submitter, between a completion and the next submission; 0 for none. */
        @Param({"0"})
        public long userNs;

        /** The lab switch's count N: N shared atomics of each word at start and at done; 0 for none. */
        @Param({"0"})
        public int amp;

        /** What {@link #userNs} spends. */
        CpuWork user;

        /** The work for {@link #baseNs} and {@link #userNs}: calibrated; the count run's marks where they lie instead. */
        java.util.function.LongFunction<CpuWork> works = CpuWork::forNs;

        Jiffies jiffies;
        Gendisk disk;
        BlockDevice dev;
        Bioset bioset;
        CpuIds cpus;
        /** The example's workload, as parsed at setup. */
        IoMix mix;
        /** Per op, from {@link #mix}: share of reads (0..100), bytes, and sectors per block. */
        int readPercent;
        int bs;
        int sectorsPerIo;
        /** bs-sized blocks in the target. */
        long blocks;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            setUp(params.getThreads(), ExampleJob.load(EXAMPLE, List.of()));
        }

        /** The trial's setup for {@code threads} workers doing {@code job}'s I/O (tests pass a changed example). */
        void setUp(int threads, Job job) {
            setUp(threads, job, Jiffies::start, SharedLines.NONE);
        }

        /**
         * The setup on the clock {@code clock} makes for {@link #hz} (tearDown closes it), the disk's
         * partitions reporting their shared-line operations to {@code lines}: the count run
         * ({@link PartAcctCounts}) passes a manual clock and a tally.
         */
        void setUp(int threads, Job job, IntFunction<Jiffies> clock, SharedLines lines) {
            mix = IoMix.of(job);
            if (mix.bs() % LOGICAL_BLOCK != 0) {
                throw new IllegalArgumentException(ExampleJob.where(job) + ": bs=" + mix.bs()
                        + " is not a multiple of null_blk's " + LOGICAL_BLOCK + "-byte logical block");
            }
            readPercent = mix.readPercent();
            bs = mix.bs();
            sectorsPerIo = bs >>> Bio.SECTOR_SHIFT;
            int nrCpus = Math.max(slots, threads);
            AcctMode mode = AcctMode.of(Variants.id(variant));
            Target to = Target.of(target);
            CpuWork work = works.apply(baseNs);
            user = works.apply(userNs);
            jiffies = clock.apply(hz);
            disk = new Gendisk(NullBlk.immediate("nullb0", CAPACITY, LOGICAL_BLOCK, work), mode, jiffies, nrCpus, amp, lines);
            dev = switch (to) {
                case DISK -> disk.part0();
                case PART -> disk.addPartition(1, PART_START, (CAPACITY >>> Bio.SECTOR_SHIFT) - PART_START);
            };
            blocks = (dev.capacitySectors() << Bio.SECTOR_SHIFT) / bs;
            bioset = new Bioset(nrCpus, 0); // null_blk moves no data: bios carry no pages
            cpus = new CpuIds(nrCpus);
        }

        /** The workers online; the last to leave frees the disk ({@link LastOut}: not JMH's trial teardown). */
        final LastOut workers = new LastOut(this::free);

        /** Frees the disk, unless its last worker has (a disk set up by hand, without JMH). */
        public void tearDown() {
            workers.release();
        }

        /** Checks that nothing is in flight, and frees the bioset and the clock. */
        private void free() {
            for (var s : disk.diskstats()) {
                if (s.inFlight() != 0) {
                    throw new IllegalStateException("in flight after the trial: " + s.line());
                }
            }
            bioset.close();
            jiffies.close();
        }
    }

    /** One fio job: its cpu (per-cpu slot), random stream, and completion callback. */
    @State(Scope.Thread)
    public static class Worker implements BioEndIo {
        int cpu;
        SplitMix stream;
        long completed;
        /** The target, kept for tearDown. */
        BlockDevice dev;
        /** The disk, whose last worker out frees it. */
        Disk disk;

        @Setup(Level.Trial)
        public void setUp(Disk d) {
            cpu = d.cpus.take();
            stream = new SplitMix(0x9E3779B97F4A7C15L * (cpu + 1)); // SplitMix64: a random long with no allocation
            dev = d.dev;
            dev.cpuOnline(cpu); // a registered RCU reader: the percpu_ref's sections cost no fence
            disk = d;
            d.workers.enter();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            dev.cpuOffline(cpu);
            disk.workers.leave();
        }

        @Override
        public void endIo(Bio bio) {
            if (bio.status == BlkStatus.OK) {
                completed++;
            }
        }
    }

    @Benchmark
    public long io(Disk d, Worker w) {
        long r = w.stream.nextLong();
        Bio bio = d.bioset.alloc(w.cpu, w);
        bio.op = IoMix.isRead(d.readPercent, r) ? ReqOp.READ : ReqOp.WRITE;
        bio.sector = Long.remainderUnsigned(r, d.blocks) * d.sectorsPerIo;
        bio.size = d.bs;
        d.dev.submitBio(bio);
        d.bioset.free(bio);
        d.user.spend();
        return w.completed;
    }
}
