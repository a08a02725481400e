package lab.engine.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import lab.engine.blkcg.Blkcg;
import lab.engine.blkcg.CssForward;
import lab.engine.block.Bio;
import lab.engine.block.BioEndIo;
import lab.engine.block.Bioset;
import lab.engine.block.BlockDevice;
import lab.engine.block.NullBlk;
import lab.engine.block.RamDisk;
import lab.engine.block.ReqOp;
import lab.engine.count.SharedLines;
import lab.engine.dm.LinearStack;
import lab.engine.inject.InjectPoint;
import lab.engine.inject.Injection;
import lab.engine.sync.Rcu;
import lab.engine.work.CpuWork;
import lab.jobspec.Inject;
import lab.jobspec.Job;
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
 * dm-css-ref (seed 000_c7038be60bc9096a.txt): what carrying a bio's cgroup
 * down a stack of dm-linear devices costs, per css forwarding, across
 * threads (JMH -t) and stack depths.
 *
 * One op is one I/O of the fix's job file, examples/dm-css-ref.fio (the
 * seed's fio randrw at bs=512, direct): a bio from the worker's per-cpu
 * bioset, associated with the worker's cgroup (a child of the root, as the
 * seed's fio ran in one cgroup), submitted to the top of `depth` nested
 * MappedDevices with one LinearTarget each (the seed's linear1..linear5),
 * each cloning it, carrying the association to the clone and submitting the
 * clone below, down to a RamDisk (brd), which copies the 512 bytes and
 * completes inline; completion walks back up, every clone letting its cgroup
 * go; the worker lets the original's go and frees it.
 *
 *   variant  lab.engine.blkcg.CssForward ids: none (nothing associated),
 *            atomic (get/put on one shared atomic per bio of the stack: the
 *            seed's kernel (4)), atomic-cmpxchg (plus the seed's no-op
 *            cmpxchg at each clone and each put: kernel (5)), percpu (the
 *            same operations on a percpu_ref: today); an id with ~aa runs the
 *            same as an A/A control trial (Variants)
 *   depth    dm-linear layers over the disk, 0 (the disk itself) .. any
 *   device   ram (brd, the seed's ramdisk) or null (null_blk irqmode=0: no
 *            copy, for the model's own per-layer cost)
 *   inject   the job key inject= (lab.jobspec.Inject): contention points at
 *            submit, clone, map, complete, end_io; "none" for none. The
 *            seed's experiment by hand is variant none + inject
 *            clone:cmpxchg,end_io:cmpxchg
 *   baseNs   ns of calibrated uncontended CPU the disk spends per I/O in its
 *            submit (CpuWork): the kernel's per-I/O work, for the calibrated
 *            model; 0 spends nothing
 *   userNs   ns of the same work the worker spends after its bio completes,
 *            before it submits the next: the kernel's per-I/O work outside the
 *            stack (fio's loop, the system call's way out and in); without it
 *            one I/O's puts and the next one's gets run back to back and meet
 *            the css count's line once, where the kernel's meet it twice
 *
 * What the model fixes by itself, not the job file: threads from -t (not
 * numjobs); a 64 MiB disk written once at setup (the seed's 4 GiB ramdisk
 * filled with dd, 1 GiB per job: the span changes no shared line, and a
 * smaller one keeps every page in memory the JVM can spare); one bio in
 * flight per worker (psync); no runtime.
 *
 * Every worker is online in the stack's RCU for the trial, as a busy CPU is.
 *
 * Score: ns per op per thread (AverageTime); throughput = threads / score.
 * The shared-line operations of one op: DmCssRefCounts, from this code.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DmCssRef {
    /** The fix's job file, {@code examples/dm-css-ref.fio}. */
    static final String EXAMPLE = "dm-css-ref";
    /** The disk: 64 MiB (see the notes above). */
    static final long CAPACITY = 64L << 20;

    @State(Scope.Benchmark)
    public static class Stack {
        /** {@link CssForward#ids()}, in order. */
        @Param({"none", "atomic", "atomic-cmpxchg", "percpu"})
        public String variant;

        @Param({"5"})
        public int depth;

        @Param({"ram"})
        public String device;

        /** {@code inject=} as a job file writes it; {@code none} for none. */
        @Param({"none"})
        public String inject;

        @Param({"0"})
        public long baseNs;

        /** ns of calibrated CPU per I/O in the submitter, between a completion and the next submission; 0 for none. */
        @Param({"0"})
        public long userNs;

        /** The work for {@link #baseNs} and {@link #userNs}: calibrated; the count run's marks instead. */
        java.util.function.LongFunction<CpuWork> works = CpuWork::forNs;
        /** What {@link #userNs} spends. */
        CpuWork user;

        Rcu rcu;
        CssForward forward;
        Blkcg root;
        /** The workers' cgroup. */
        Blkcg cgroup;
        BlockDevice disk;
        /** The top of the stack: what the workers submit to. */
        BlockDevice top;
        LinearStack stack;
        Bioset bioset;
        CpuIds cpus;
        Injection injection;
        InjectPoint injectSubmit;
        InjectPoint injectComplete;
        IoMix mix;
        long blocks;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            setUp(params.getThreads(), ExampleJob.load(EXAMPLE, List.of()), SharedLines.NONE);
        }

        /** The trial's setup for {@code threads} workers doing {@code job}'s I/O, counting to {@code lines}. */
        void setUp(int threads, Job job, SharedLines lines) {
            mix = IoMix.of(job);
            int bs = mix.bs();
            if (bs % 512 != 0) {
                throw new IllegalArgumentException(ExampleJob.where(job) + ": bs=" + bs + " is not a multiple of 512");
            }
            int nrCpus = threads;
            rcu = new Rcu(nrCpus);
            forward = CssForward.of(Variants.id(variant));
            injection = new Injection(Inject.parse(inject.equals("none") ? "" : inject), nrCpus, lines);
            injectSubmit = injection.at(Inject.Stage.SUBMIT);
            injectComplete = injection.at(Inject.Stage.COMPLETE);
            root = Blkcg.root(forward, rcu, lines);
            cgroup = root.child("fio", rcu, lines);
            CpuWork work = works.apply(baseNs);
            user = works.apply(userNs);
            disk = switch (device) {
                case "ram" -> new RamDisk("ram0", CAPACITY, work);
                case "null" -> NullBlk.immediate("nullb0", CAPACITY, 512, work);
                default -> throw new IllegalArgumentException("unknown device '" + device + "' (ram, null)");
            };
            bioset = new Bioset(nrCpus, Math.max(bs, 4096));
            fill();
            stack = LinearStack.over(disk, depth, nrCpus, rcu, forward, injection);
            top = stack.top();
            blocks = (top.capacitySectors() << Bio.SECTOR_SHIFT) / bs;
            cpus = new CpuIds(nrCpus);
        }

        /** Writes every page of the disk once, as the seed filled its ramdisk with dd (no allocation in the timed run). */
        private void fill() {
            BioEndIo ignore = b -> { };
            for (long s = 0; s < disk.capacitySectors(); s += 8) {
                Bio b = bioset.alloc(0, ignore);
                b.op = ReqOp.WRITE;
                b.sector = s;
                b.size = 512;
                disk.submitBio(b);
                bioset.free(b);
            }
        }

        /** The workers online; the last to leave frees the stack ({@link LastOut}: not JMH's trial teardown). */
        final LastOut workers = new LastOut(this::free);

        /** Frees the stack, unless its last worker has (a stack set up by hand, without JMH). */
        public void tearDown() {
            workers.release();
        }

        private void free() {
            stack.close();
            bioset.close();
            if (disk instanceof RamDisk ram) {
                ram.close();
            }
        }
    }

    /** One fio job ({@link BioWorker}), online in the stack's RCU; its completions pass the complete injection point. */
    @State(Scope.Thread)
    public static class Worker extends BioWorker {
        Stack stack;

        @Setup(Level.Trial)
        public void setUp(Stack s) {
            stack = s;
            start(s.cpus);
            s.rcu.online(cpu); // a busy CPU: per-cpu css operations cost no fence
            s.top.cpuOnline(cpu);
            s.workers.enter();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            stack.top.cpuOffline(cpu);
            if (stack.rcu.isOnline(cpu)) {
                stack.rcu.offline(cpu);
            }
            stack.workers.leave();
        }

        @Override
        public void endIo(Bio bio) {
            stack.injectComplete.hit(cpu);
            super.endIo(bio);
        }
    }

    @Benchmark
    public long io(Stack s, Worker w) {
        int cpu = w.cpu;
        Bio bio = s.bioset.alloc(cpu, w);
        s.mix.prepare(bio, w.stream.nextLong(), s.blocks);
        s.forward.associate(bio, s.cgroup, cpu);
        s.injectSubmit.hit(cpu);
        s.top.submitBio(bio);
        s.forward.disassociate(bio, cpu); // bio_uninit: the original lets its cgroup go as it is put
        s.bioset.free(bio);
        s.user.spend();
        return w.completed;
    }
}
