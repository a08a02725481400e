package lab.engine.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import lab.engine.blkcg.Blkcg;
import lab.engine.blkcg.CssForward;
import lab.engine.block.Bio;
import lab.engine.block.BioEndIo;
import lab.engine.block.Bioset;
import lab.engine.block.BlkStatus;
import lab.engine.block.BlockDevice;
import lab.engine.block.RamDisk;
import lab.engine.block.ReqOp;
import lab.engine.bufio.BufioLocking;
import lab.engine.count.SharedLines;
import lab.engine.dm.DmTable;
import lab.engine.dm.LinearStack;
import lab.engine.dm.MappedDevice;
import lab.engine.inject.Injection;
import lab.engine.iosched.Bfq;
import lab.engine.iosched.RequestQueue;
import lab.engine.sync.PaddedLong;
import lab.engine.sync.Rcu;
import lab.engine.thin.ThinPool;
import lab.engine.writeback.BdiWriteback;
import lab.jobspec.Job;
import lab.jobspec.JobFileParser;
import lab.jobspec.JobSpecException;
import lab.jobspec.Rw;

/*
 * dm-blkcg-clone's experiment (seed 003_e853cddf414699dc.txt): two cgroups,
 * a and b, weights wa and wb, each with one sequential writer, bs=1M, through a
 * dm stack over a disk of finite bandwidth with BFQ as its scheduler; the
 * bandwidth each writer gets, and how soon their ratio settles.
 *
 *   disk     RequestQueue "nullb0": null_blk, memory_backed=0, mbps, bfq
 *   stack    linear1..3: dm-linear x N over the disk (LinearStack), the clone
 *            submitted by the thread that submitted the bio above it;
 *            thin: a thin volume of a pool whose data device is the disk
 *            (metadata on brd, 1 MiB blocks, every block unprovisioned at the
 *            start: as the seed's fresh files, each write provisions, so the
 *            pool's worker issues it)
 *   path     direct: the writer submits its bio itself, with no association
 *            (2016: only writeback associated a bio; the disk charges a bio
 *            without one to the task that submits it);
 *            direct-assoc: the same, the bio associated with the writer's
 *            cgroup as it is made (bio_associate_blkg at submit: every bio
 *            since 5.0, so today's direct writes);
 *            buffered: the writer dirties its cgroup's pages (BdiWriteback,
 *            throttled at its dirty limit) and the cgroup's flusher, a kernel
 *            thread, writes them back in bios associated with the cgroup
 *   variant  CssForward lost | transfer: whether a dm clone keeps the source
 *            bio's association
 *
 * So the switch matters where the bio that reaches the disk is submitted by a
 * kernel thread: buffered writes (lost: the flusher's root group) at every
 * depth, and thin's provisioning writes. Direct writes through dm-linear reach
 * the disk from the writer's own thread and keep their weights either way;
 * direct writes through thin carry no association to keep and lose them
 * either way (the seed: "direct writes were not yet fixed"); associated at
 * submit, as today, they keep them through thin with transfer only.
 *
 * The measurement: all threads start together; after rampMs the bytes each
 * writer has written (direct: completed; buffered: dirtied, what dd counts)
 * are taken, and again runMs later: the window's ratio a/b. Every SAMPLE_MS the
 * bytes since the start are sampled; the convergence time is the first sample
 * from which the cumulative ratio stays within CONVERGED of the window's.
 */

/** Two weighted cgroups' sequential writers through a dm stack over one BFQ disk. */
public final class DmBlkcgClone {
    /** The switch: lost (before the fix), transfer (the fix). */
    public static final List<String> VARIANTS = CssForward.cloneIds();
    public static final String THIN = "thin";
    public static final List<String> STACKS = List.of("linear1", "linear2", "linear3", THIN);
    public static final String DIRECT = "direct";
    public static final String DIRECT_ASSOC = "direct-assoc";
    public static final String BUFFERED = "buffered";
    public static final List<String> PATHS = List.of(DIRECT, DIRECT_ASSOC, BUFFERED);
    /** The example job file both sides run: two sections, one per cgroup, sequential writes. */
    static final String EXAMPLE = "dm-blkcg-clone";
    /** The seed's dd bs=1M, as examples/dm-blkcg-clone.fio states it. */
    public static final int BS = exampleBs();
    /** The raw model's disk bandwidth, MiB/s. */
    public static final double RAW_MIB_PER_SEC = 1000;
    /** BFQ's max_budget: 4 MiB a slot. */
    public static final long MAX_BUDGET_SECTORS = 8192;
    /** BFQ's slice_idle: the kernel's default, 8 ms (bfq_slice_idle = NSEC_PER_SEC / 125). */
    public static final long SLICE_IDLE_NS = 8_000_000;
    /** A cgroup's dirty limit (buffered): 8 MiB. */
    public static final long DIRTY_LIMIT = 8L << 20;
    /** Writeback bios a flusher keeps out. */
    public static final int WB_IN_FLIGHT = 4;
    public static final long SAMPLE_MS = 10;
    /** Within 10% of the window's ratio: converged. */
    public static final double CONVERGED = 0.10;

    static final long CAPACITY = 16L << 30;
    static final long METADATA = 16L << 20;
    static final int BLOCK_SECTORS = BS >>> Bio.SECTOR_SHIFT;
    static final int CACHE_BLOCKS = 4096;
    static final int WRITER_A = 0;
    static final int WRITER_B = 1;
    static final int FLUSH_A = 2;
    static final int FLUSH_B = 3;
    static final int WORKER = 4;
    static final int NR_CPUS = 5;

    private DmBlkcgClone() {
    }

    /** The writers' bs from the example: both its jobs sequential writes of one bs, a whole number of sectors. */
    private static int exampleBs() {
        Path source = Path.of("examples", EXAMPLE + ".fio");
        List<Job> jobs;
        try {
            jobs = JobFileParser.parse(source, ExampleJob.text(EXAMPLE)).jobs();
        } catch (JobSpecException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        if (jobs.size() != 2 || jobs.stream().anyMatch(j -> j.rw() != Rw.WRITE || j.bs() != jobs.get(0).bs())
                || jobs.get(0).bs() % 512 != 0) {
            throw new IllegalStateException(source + ": dm-blkcg-clone's model runs two sequential writers (rw=write) of one bs, a"
                    + " multiple of 512; the file has " + jobs.size() + " job(s): "
                    + jobs.stream().map(j -> j.name() + " rw=" + j.rw() + " bs=" + j.bs()).toList());
        }
        return jobs.get(0).bs();
    }

    /** One measurement: variant, stack, path, the two weights, the disk's bandwidth (MiB/s), ramp and window (ms). */
    public record Config(String variant, String stack, String path, int weightA, int weightB, double mibPerSec, long rampMs,
            long runMs) {
        public Config {
            CssForward f = CssForward.of(variant);
            if (!VARIANTS.contains(f.id())) {
                throw new IllegalArgumentException("dm-blkcg-clone: variant '" + variant + "' is not one of " + VARIANTS);
            }
            if (!STACKS.contains(stack) || !PATHS.contains(path)) {
                throw new IllegalArgumentException("dm-blkcg-clone: stack '" + stack + "' (" + STACKS + "), path '" + path + "' ("
                        + PATHS + ")");
            }
            for (int w : new int[] {weightA, weightB}) {
                if (w < Blkcg.MIN_WEIGHT || w > Blkcg.MAX_WEIGHT) {
                    throw new IllegalArgumentException("dm-blkcg-clone: weight " + w);
                }
            }
            if (!(mibPerSec > 0) || rampMs < 0 || runMs < SAMPLE_MS) {
                throw new IllegalArgumentException("dm-blkcg-clone: MiB/s " + mibPerSec + ", ramp " + rampMs + " ms, run " + runMs + " ms");
            }
        }
    }

    /** Bytes each writer had written {@code atMs} after the start. */
    public record Sample(long atMs, long bytesA, long bytesB) {}

    /**
     * @param bytesA   bytes writer a wrote in the window
     * @param bytesB   bytes writer b wrote in the window
     * @param windowNs the window's length
     * @param charged  each cgroup's charge at the disk in the window ("/" the root, "/a", "/b")
     * @param timeline samples from the start
     * @param errors   I/Os that failed (0 in a good run)
     */
    public record Result(Config config, long bytesA, long bytesB, long windowNs, Map<String, RequestQueue.Charge> charged,
            List<Sample> timeline, long errors) {
        /** Writer a's bandwidth over writer b's in the window. */
        public double ratio() {
            return bytesB == 0 ? Double.POSITIVE_INFINITY : (double) bytesA / bytesB;
        }

        /** MiB/s of a writer in the window. */
        public double mibPerSec(long bytes) {
            return bytes / (double) (1 << 20) / (windowNs / 1e9);
        }

        /** The first sample time from which the cumulative ratio stays within {@link #CONVERGED} of the window's; -1 if the last is outside. */
        public long convergeMs() {
            double target = ratio();
            long since = -1;
            for (Sample s : timeline) {
                boolean in = s.bytesB() > 0 && Math.abs((double) s.bytesA() / s.bytesB() / target - 1) <= CONVERGED;
                if (!in) {
                    since = -1;
                } else if (since < 0) {
                    since = s.atMs();
                }
            }
            return since;
        }
    }

    /** Runs one measurement: builds the stack, runs the writers for ramp + window, tears all down. */
    public static Result run(Config c) throws InterruptedException {
        CssForward forward = CssForward.of(c.variant());
        Rcu rcu = new Rcu(NR_CPUS);
        Blkcg root = Blkcg.root(forward, rcu, SharedLines.NONE);
        Blkcg a = root.child("a", rcu, SharedLines.NONE);
        Blkcg b = root.child("b", rcu, SharedLines.NONE);
        a.setWeight(c.weightA());
        b.setWeight(c.weightB());
        RequestQueue disk = new RequestQueue("nullb0", CAPACITY, NR_CPUS, c.mibPerSec(), 0, new Bfq(MAX_BUDGET_SECTORS, SLICE_IDLE_NS));
        Stack stack = Stack.build(c.stack(), disk, rcu, forward);
        long half = (stack.top.capacitySectors() / 2) & ~((long) BLOCK_SECTORS - 1);
        List<Writer> writers = List.of(new Writer("a", a, WRITER_A, FLUSH_A, 0, half), new Writer("b", b, WRITER_B, FLUSH_B, half, half));
        Bioset bios = new Bioset(NR_CPUS, c.path().equals(BUFFERED) ? 0 : BS);
        try {
            for (Writer w : writers) {
                w.start(c, stack.top, forward, bios);
            }
            return measure(c, writers, disk);
        } finally {
            writers.forEach(Writer::stop);
            stack.close();
            disk.close();
            bios.close();
        }
    }

    private static Result measure(Config c, List<Writer> writers, RequestQueue disk) throws InterruptedException {
        Writer wa = writers.get(0);
        Writer wb = writers.get(1);
        long t0 = System.nanoTime();
        long rampEnd = t0 + c.rampMs() * 1_000_000;
        long end = rampEnd + c.runMs() * 1_000_000;
        List<Sample> timeline = new ArrayList<>();
        long a0 = -1;
        long b0 = -1;
        long w0 = 0;
        Map<String, RequestQueue.Charge> charged0 = null;
        for (long next = t0 + SAMPLE_MS * 1_000_000;; next += SAMPLE_MS * 1_000_000) {
            for (long left; (left = Math.min(next, a0 < 0 ? rampEnd : end) - System.nanoTime()) > 0;) {
                LockSupport.parkNanos(left);
            }
            long now = System.nanoTime();
            if (a0 < 0 && now >= rampEnd) {
                a0 = wa.bytes();
                b0 = wb.bytes();
                w0 = now;
                charged0 = disk.charges();
            }
            if (now >= end && a0 >= 0) {
                long a1 = wa.bytes();
                long b1 = wb.bytes();
                Map<String, RequestQueue.Charge> charged = minus(disk.charges(), charged0);
                timeline.add(new Sample((now - t0) / 1_000_000, a1, b1));
                return new Result(c, a1 - a0, b1 - b0, now - w0, charged, List.copyOf(timeline), wa.errors() + wb.errors());
            }
            if (now >= next) {
                timeline.add(new Sample((now - t0) / 1_000_000, wa.bytes(), wb.bytes()));
            }
        }
    }

    private static Map<String, RequestQueue.Charge> minus(Map<String, RequestQueue.Charge> after, Map<String, RequestQueue.Charge> before) {
        Map<String, RequestQueue.Charge> m = new LinkedHashMap<>();
        after.forEach((k, v) -> {
            RequestQueue.Charge z = before.getOrDefault(k, new RequestQueue.Charge(0, 0, 0));
            m.put(k, new RequestQueue.Charge(v.bios() - z.bios(), v.bytes() - z.bytes(), v.tagged() - z.tagged()));
        });
        return m;
    }

    /** The dm stack over the disk; {@link #top} is what the writers write to. */
    private record Stack(BlockDevice top, AutoCloseable[] parts) {
        static Stack build(String stack, RequestQueue disk, Rcu rcu, CssForward forward) {
            if (stack.equals(THIN)) {
                RamDisk metadata = new RamDisk("ram0", METADATA);
                ThinPool pool = new ThinPool(metadata, disk, BLOCK_SECTORS, CACHE_BLOCKS, BufioLocking.MUTEX, NR_CPUS, SharedLines.NONE);
                long len = pool.dataBlocks() * BLOCK_SECTORS;
                MappedDevice thin = new MappedDevice("thin", new DmTable(List.of(pool.createThin(0, len, WORKER)), NR_CPUS), NR_CPUS, rcu,
                        forward, Injection.NONE);
                pool.startWorker(WORKER);
                return new Stack(thin, new AutoCloseable[] {thin::close, pool, metadata});
            }
            int depth = Integer.parseInt(stack.substring("linear".length()));
            LinearStack s = LinearStack.over(disk, depth, NR_CPUS, rcu, forward, Injection.NONE);
            return new Stack(s.top(), new AutoCloseable[] {s::close});
        }

        void close() {
            for (AutoCloseable p : parts) {
                try {
                    p.close();
                } catch (Exception e) {
                    throw new IllegalStateException("dm-blkcg-clone: teardown of " + p, e);
                }
            }
        }
    }

    /** One cgroup's writer: dd of=FILE bs=1M in that cgroup, direct or buffered. */
    private static final class Writer implements BioEndIo {
        final String name;
        final Blkcg cg;
        final int cpu;
        final int flushCpu;
        final long regionStart;
        final long regionSectors;
        /** Bytes written so far: the writer's own slot, read by the sampler. */
        final PaddedLong bytes = new PaddedLong(0);
        volatile boolean stopping;
        Thread thread;
        BdiWriteback wb;
        Bioset bios;
        /** Direct: how the writer's bios are associated at submit; null: they are not (2016). */
        CssForward assoc;
        /** Direct: the bio out, its status; errors. Writer's thread only (errors read after join). */
        boolean done;
        long errors;

        Writer(String name, Blkcg cg, int cpu, int flushCpu, long regionStart, long regionSectors) {
            this.name = name;
            this.cg = cg;
            this.cpu = cpu;
            this.flushCpu = flushCpu;
            this.regionStart = regionStart;
            this.regionSectors = regionSectors;
        }

        void start(Config c, BlockDevice top, CssForward forward, Bioset bios) {
            this.bios = bios;
            if (c.path().equals(BUFFERED)) {
                wb = new BdiWriteback("wb-" + name, cg, top, forward, flushCpu, NR_CPUS, regionStart, regionSectors, BS, WB_IN_FLIGHT,
                        DIRTY_LIMIT);
                thread = Thread.ofPlatform().name("dd-" + name).start(() -> Blkcg.runAs(cg, this::buffered));
            } else {
                assoc = c.path().equals(DIRECT_ASSOC) ? forward : null;
                thread = Thread.ofPlatform().name("dd-" + name).start(() -> Blkcg.runAs(cg, () -> direct(top)));
            }
        }

        long bytes() {
            return bytes.getOpaque();
        }

        long errors() {
            return errors + (wb == null ? 0 : wb.stat().errors());
        }

        /** dd bs=1M: write(2) into the page cache, throttled by the cgroup's writeback. */
        private void buffered() {
            try {
                while (!stopping) {
                    wb.write(BS);
                    bytes.setOpaque(bytes.getPlain() + BS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /**
         * dd bs=1M oflag=direct: one bio at a time, submitted by this thread; associated with the
         * cgroup through {@link #assoc} (today), or not at all (null: 2016).
         */
        private void direct(BlockDevice top) {
            top.cpuOnline(cpu);
            try {
                long sector = regionStart;
                long step = BS >>> Bio.SECTOR_SHIFT;
                while (!stopping) {
                    Bio bio = bios.alloc(cpu, this);
                    bio.op = ReqOp.WRITE;
                    bio.sector = sector;
                    bio.size = BS;
                    if (assoc != null) {
                        assoc.associate(bio, cg, cpu);
                    }
                    sector = sector + 2 * step > regionStart + regionSectors ? regionStart : sector + step;
                    done = false;
                    top.submitBio(bio);
                    while (!done) {
                        if (top.poll(cpu) == 0) {
                            LockSupport.parkNanos(20_000);
                        }
                    }
                }
            } finally {
                top.cpuOffline(cpu);
            }
        }

        @Override
        public void endIo(Bio bio) {
            if (bio.status == BlkStatus.OK) {
                bytes.setOpaque(bytes.getPlain() + BS);
            } else {
                errors++;
            }
            if (assoc != null) {
                assoc.disassociate(bio, cpu); // bio_put
            }
            bios.free(bio);
            done = true;
        }

        void stop() {
            stopping = true;
            if (thread != null) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (wb != null) {
                wb.close();
            }
        }

        @Override
        public String toString() {
            return "writer " + name + " (" + Objects.toString(cg) + ")";
        }
    }
}
