package lab.engine.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import lab.engine.blkcg.CssForward;
import lab.engine.block.Bio;
import lab.engine.block.BioEndIo;
import lab.engine.block.Bioset;
import lab.engine.block.BlkStatus;
import lab.engine.block.RamDisk;
import lab.engine.block.ReqOp;
import lab.engine.bufio.BufioLocking;
import lab.engine.count.SharedLines;
import lab.engine.dm.DmTable;
import lab.engine.dm.MappedDevice;
import lab.engine.inject.Injection;
import lab.engine.sync.Rcu;
import lab.engine.thin.ThinMetadata;
import lab.engine.thin.ThinPool;
import lab.engine.work.CpuWork;
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
 * thin-bufio-lock (seed 004_779fcd164b83d477.txt): what dm-bufio's client
 * lock costs a thin volume's I/O, per locking, across threads (JMH -t) and
 * metadata cache sizes.
 *
 * One op is one I/O of the fix's job file, examples/thin-bufio-lock.fio
 * (the seed's fio randrw, bs=4k, direct, psync): a bio from the worker's
 * bioset to a MappedDevice with one ThinTarget (lab.engine.thin), which
 * detains the block's cell, looks it up in the pool's metadata btree
 * through the BufioClient (the switch), counts the I/O in all_io_ds,
 * releases the cells and remaps the clone to the data RamDisk (brd), which
 * copies the 4 KiB and completes inline; completion walks back up.
 *
 *   variant  lab.engine.bufio.BufioLocking ids: mutex (6.1: the client
 *            mutex per node get and per release), rwsem (patch 2), rwsem-walk
 *            (patches 1 + 4: one read lock per lookup), striped (6.4: a rw
 *            lock per tree of buffers); an id with ~aa runs the same as an
 *            A/A control trial (Variants)
 *   target   thin, or linear: a dm-linear over the same data disk (no
 *            btree, no prison), the baseline; it ignores variant and cache
 *   cache    whole (the metadata cache holds every node: the seed's steady
 *            state) or small (after the fill, the cache's limit cut to a
 *            quarter of the nodes, at least 4 per worker, as a smaller
 *            dm_bufio_cache_size would: misses, evictions and re-reads of
 *            4 KiB nodes, each checksummed)
 *   baseNs   ns of calibrated uncontended CPU the data disk spends per I/O
 *            (CpuWork): the kernel's per-I/O work, for the calibrated model
 *   userNs   ns of the same work the worker spends between a completion
 *            and its next submission (fio's loop, the system call's way)
 *   amp      the lab kernel's switch dm_bufio.lab_client_lock at count N
 *            (6.12/thin-bufio-lock.patch), on striped only: N empty
 *            lock/unlock pairs of the client mutex on each hit (a node's get)
 *            and at the top of each release, 2N per node a lookup visits; 0
 *            (the default) is the switch off, 6.12's striped path alone.
 *            Chosen when the pool is made (lab.engine.bufio.CacheLock's
 *            AmpStripedLock), never tested per I/O
 *
 * What the model fixes by itself, not the job file: threads from -t (not
 * numjobs); a 512 MiB volume (the kernel scenario's; the seed's was 16 GiB)
 * on a 512 MiB data disk, 64 KiB data blocks, every block provisioned at
 * setup by writing the whole volume once through the thin device (the
 * seed's dd): 8192 mappings, a mapping tree of two levels under the device
 * tree's one node, so a lookup visits 3 nodes (16 GiB would make it 4); a
 * 16 MiB metadata disk; one bio in flight per worker (psync); no runtime.
 *
 * Score: ns per op per thread (AverageTime); throughput = threads / score.
 * The shared-line operations of one op: ThinBufioLockCounts, from this code.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ThinBufioLock {
    /** The fix's job file, {@code examples/thin-bufio-lock.fio}. */
    static final String EXAMPLE = "thin-bufio-lock";
    /** The thin volume and its data disk: 512 MiB (see the notes above). */
    static final long VOLUME = 512L << 20;
    static final long METADATA = 16L << 20;
    static final int BLOCK_SECTORS = ThinPool.MIN_BLOCK_SECTORS;
    /** The whole tree's cache: more buffers than the volume's metadata has nodes. */
    static final int CACHE_WHOLE = 1024;
    static final long THIN_ID = 0;
    /** What {@code target} may name: the thin device, or the dm-linear baseline over its data disk. */
    static final List<String> TARGETS = List.of("thin", "linear");
    /** What {@code cache} may name: the whole tree cached, or a quarter of it. */
    static final List<String> CACHES = List.of("whole", "small");

    @State(Scope.Benchmark)
    public static class Stack {
        /** {@link BufioLocking#ids()}, in order. */
        @Param({"mutex", "rwsem", "rwsem-walk", "striped"})
        public String variant;

        @Param({"thin"})
        public String target;

        @Param({"whole"})
        public String cache;

        @Param({"0"})
        public long baseNs;

        @Param({"0"})
        public long userNs;

        /** The lab switch's client-lock count N at each hit and release (striped only); 0 for none. */
        @Param({"0"})
        public int amp;

        /** The work for {@link #baseNs} and {@link #userNs}: calibrated; the count run's marks instead. */
        java.util.function.LongFunction<CpuWork> works = CpuWork::forNs;
        CpuWork user;

        Rcu rcu;
        RamDisk data;
        RamDisk metadata;
        ThinPool pool;
        MappedDevice thin;
        MappedDevice linear;
        /** What the workers submit to: {@link #thin} or {@link #linear}. */
        MappedDevice top;
        Bioset bioset;
        CpuIds cpus;
        IoMix mix;
        long blocks;
        /** The metadata's nodes after the fill, and the cache's buffers. */
        int nodes;
        int cacheBlocks;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            setUp(params.getThreads(), ExampleJob.load(EXAMPLE, List.of()), SharedLines.NONE);
        }

        /** The trial's setup for {@code threads} workers doing {@code job}'s I/O, counting to {@code lines}. */
        void setUp(int threads, Job job, SharedLines lines) {
            mix = IoMix.of(job);
            int bs = mix.bs();
            if (bs % 512 != 0 || (BLOCK_SECTORS << 9) % bs != 0) {
                throw new IllegalArgumentException(ExampleJob.where(job) + ": bs=" + bs + " must divide the 64 KiB data block");
            }
            if (!TARGETS.contains(target)) {
                throw new IllegalArgumentException("unknown target '" + target + "' (" + String.join(", ", TARGETS) + ")");
            }
            int nrCpus = threads;
            BufioLocking locking = BufioLocking.of(Variants.id(variant));
            rcu = new Rcu(nrCpus);
            user = works.apply(userNs);
            data = new RamDisk("ram0", VOLUME, works.apply(baseNs));
            metadata = new RamDisk("ram1", METADATA);
            if (!CACHES.contains(cache)) {
                throw new IllegalArgumentException("unknown cache '" + cache + "' (" + String.join(", ", CACHES) + ")");
            }
            pool = new ThinPool(metadata, data, BLOCK_SECTORS, CACHE_WHOLE, locking, amp, nrCpus, lines);
            thin = new MappedDevice("thin", new DmTable(List.of(pool.createThin(THIN_ID, VOLUME >>> 9, 0)), nrCpus), nrCpus, rcu,
                    CssForward.NONE, Injection.NONE);
            bioset = new Bioset(nrCpus, Math.max(bs, 4096));
            fill();
            nodes = pool.metadata().shape(0).nodes();
            if (nodes >= CACHE_WHOLE) {
                throw new IllegalStateException("thin: " + nodes + " metadata nodes do not fit the whole-tree cache of " + CACHE_WHOLE);
            }
            cacheBlocks = cache.equals("whole") ? CACHE_WHOLE : Math.max(4 * nrCpus, nodes / 4);
            pool.metadata().bufio().setMaxBuffers(cacheBlocks, 0);
            linear = new MappedDevice("linear", DmTable.linear(data, nrCpus), nrCpus, rcu, CssForward.NONE, Injection.NONE);
            top = target.equals("thin") ? thin : linear;
            blocks = (top.capacitySectors() << Bio.SECTOR_SHIFT) / bs;
            cpus = new CpuIds(nrCpus);
        }

        /** Writes the whole volume once through the thin device, 64 KiB at a time (the seed's dd), and commits. */
        private void fill() {
            int chunk = BLOCK_SECTORS << Bio.SECTOR_SHIFT;
            try (Bioset big = new Bioset(1, chunk)) {
                BioEndIo check = b -> {
                    if (b.status != BlkStatus.OK) {
                        throw new IllegalStateException("thin fill: write at sector " + b.sector + " failed: " + b.status);
                    }
                };
                thin.cpuOnline(0);
                for (long s = 0; s < thin.capacitySectors(); s += BLOCK_SECTORS) {
                    Bio b = big.alloc(0, check);
                    b.op = ReqOp.WRITE;
                    b.sector = s;
                    b.size = chunk;
                    thin.submitBio(b);
                    big.free(b);
                }
                thin.cpuOffline(0);
            }
            if (!pool.metadata().commit(0)) {
                throw new IllegalStateException("thin fill: metadata commit failed");
            }
        }

        /** The workers online; the last to leave frees the stack ({@link LastOut}: not JMH's trial teardown). */
        final LastOut workers = new LastOut(this::free);

        /** Frees the stack, unless its last worker has (a stack set up by hand, without JMH). */
        public void tearDown() {
            workers.release();
        }

        private void free() {
            thin.close();
            linear.close();
            bioset.close();
            pool.close();
            data.close();
            metadata.close();
        }
    }

    /** One fio job ({@link BioWorker}), online in the stack. */
    @State(Scope.Thread)
    public static class Worker extends BioWorker {
        Stack stack;

        @Setup(Level.Trial)
        public void setUp(Stack s) {
            stack = s;
            start(s.cpus);
            s.top.cpuOnline(cpu);
            s.workers.enter();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            stack.top.cpuOffline(cpu);
            stack.workers.leave();
        }
    }

    @Benchmark
    public long io(Stack s, Worker w) {
        Bio bio = s.bioset.alloc(w.cpu, w);
        s.mix.prepare(bio, w.stream.nextLong(), s.blocks);
        s.top.submitBio(bio);
        s.bioset.free(bio);
        s.user.spend();
        return w.completed;
    }

    /** Nodes a lookup visits on this volume: the device tree's root and the mapping tree's levels. */
    static int nodesPerLookup(ThinMetadata pmd) {
        return 1 + pmd.shape(0).mappingDepth();
    }
}
