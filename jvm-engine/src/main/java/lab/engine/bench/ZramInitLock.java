package lab.engine.bench;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import lab.engine.count.SharedLines;
import lab.engine.load.DataPattern;
import lab.engine.work.CpuWork;
import lab.jobspec.BufferPattern;
import lab.jobspec.Job;
import lab.jobspec.SplitMix;
import lab.engine.zram.Compressor;
import lab.engine.zram.GuardKind;
import lab.engine.zram.Zram;
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

/*
 * zram-init-lock (seed 001_8702db15985e6798.txt): what the meta guard around
 * each zram I/O costs, per guard, rw mode, data pattern and compressor, across
 * threads (JMH -t).
 *
 * One op is one I/O of the fix's job file for the rw mode,
 * examples/zram-init-lock-<rw>.fio (fio's randread / randwrite / randrw, the
 * seed's three runs), parsed at setup (ExampleJob): its rw and rwmixread pick
 * read or write per op, and its bs must be zram's 4 KiB page, the model's unit
 * of I/O (Zram.read/write of one page at a random index). The data pattern is
 * the job's buffer keys with the pattern variant's settings appended
 * (lab.engine.load.DataPattern), so every page has fio's meaning of them
 * (jobspec's BufferPattern); the examples' own zero_buffers is pattern=zero.
 * The device is filled with the pattern first, so reads decompress (or copy a
 * same-filled word, or a huge page) what the pattern wrote:
 *   zero            fio zero_buffers: every page same-filled, no compression:
 *                   the guard is most of the op
 *   random          fio refill_buffers: incompressible, stored huge (memcpy)
 *   compressible50  fio buffer_compress_percentage=50 (512-byte chunks, half
 *                   random, half zeros): LZO/LZ4 does real work per page
 * Writes take their data from a ring of 64 pages per thread, filled once: fio
 * refills its buffer in its own process, which is not the device's cost.
 *
 * What the model fixes by itself, not the job file: threads come from JMH's
 * -t (not numjobs); the device is sizeMiB (not size=1g); each op is one
 * synchronous page I/O (psync, as the examples say; direct means nothing
 * without a page cache); JMH's iterations replace running to completion.
 *
 * Guards (lab.engine.zram.GuardKind ids): rwsem (init_lock down_read per bio,
 * as before the fix), srcu, atomic-ref (the seed's zram_meta_get/put), none
 * (today's kernel). The seed measured SRCU vs rwsem within -0.6%..+2.3% at 4
 * CPUs on compressible data; this benchmark asks where that stops holding.
 * An id with the suffix ~aa (rwsem~aa) runs the same guard as an A/A control
 * trial (Variants).
 *
 * sections: the lab kernel's zram.lab_init_lock_count N
 * (6.1/zram-init-lock.patch): each I/O enters and leaves the guard's read
 * section N-1 extra times, back to back, before the one it holds across the
 * I/O (lab.engine.zram.SectionsGuard, chosen when the device is made); 1 (the
 * default) is the guard alone. The same for rwsem (the switch's before) and
 * srcu (its after).
 *
 * baseNs: ns of calibrated uncontended CPU each page I/O spends before the
 * guard (lab.engine.work.CpuWork, Blackhole.consumeCPU tokens measured at
 * setup): the kernel's own per-I/O work around zram's, for the calibrated
 * model; 0 spends nothing. The shared-line operations of one op come from
 * the same code run single-threaded with a counting sink: ZramCounts.
 *
 * Score: ns per op per thread (AverageTime); throughput = threads / score.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ZramInitLock {
    /** The fix's job files, {@code examples/zram-init-lock-<rw>.fio}, one per rw mode. */
    static final String EXAMPLE_PREFIX = "zram-init-lock-";
    static final int MAX_THREADS = 64;
    static final int RING = 64;

    /** The job of a trial: {@code examples/zram-init-lock-<rw>.fio} with {@code pattern}'s buffer keys. */
    static Job example(String rw, String pattern) {
        return ExampleJob.load(EXAMPLE_PREFIX + rw, DataPattern.of(pattern).settings());
    }

    @State(Scope.Benchmark)
    public static class Device {
        /** {@link GuardKind} ids ({@code cliName}), in order. */
        @Param({"rwsem", "srcu", "atomic-ref", "none"})
        public String guard;

        /** The example each names, {@code examples/zram-init-lock-<rw>.fio}: one per embedded example. */
        @Param({"randread", "randwrite", "randrw"})
        public String rw;

        /** {@link DataPattern} ids, in order. */
        @Param({"compressible50", "zero", "random"})
        public String pattern;

        /** A {@link Compressor} id ({@code cliName}); lz4 by {@code -p compressor=lz4}. */
        @Param({"lzo-rle"})
        public String compressor;

        /** Device size in MiB: 16 MiB = 4096 pages, filled at setup. */
        @Param({"16"})
        public int sizeMiB;

        /** The lab switch's count: read sections per I/O, N-1 of them extra ({@code sections}); 1 for the guard alone. */
        @Param({"1"})
        public int sections = 1;

        /** ns of calibrated CPU per page I/O before the guard ({@code base_ns}); a number, 0 for none. */
        @Param({"0"})
        public long baseNs;

        Zram zram;
        long pages;
        /** The example with the pattern's settings, as parsed at setup: the workers fill their rings from it. */
        Job job;
        /** From the job: share of reads per op (0..100). */
        int readPercent;
        final CpuIds cpus = new CpuIds(MAX_THREADS);

        @Setup(Level.Trial)
        public void setUp() {
            setUp(example(rw, pattern));
        }

        /** The trial's setup for {@code job}'s I/O (tests pass a changed example). */
        void setUp(Job job) {
            setUp(job, SharedLines.NONE);
        }

        /** The setup with the device reporting its shared-line operations to {@code lines} (the count run, {@link ZramCounts}). */
        void setUp(Job job, SharedLines lines) {
            IoMix mix = IoMix.of(job);
            if (mix.bs() != Zram.PAGE_SIZE) {
                throw new IllegalArgumentException(ExampleJob.where(job) + ": bs=" + mix.bs()
                        + ": the zram model does one " + Zram.PAGE_SIZE + "-byte page per I/O");
            }
            this.job = job;
            readPercent = mix.readPercent();
            zram = new Zram(GuardKind.of(Variants.id(guard)), Compressor.of(compressor), MAX_THREADS,
                    CpuWork.forNs(baseNs), lines, sections);
            zram.init((long) sizeMiB << 20);
            zram.open();
            pages = zram.disksize() / Zram.PAGE_SIZE;
            byte[] page = new byte[Zram.PAGE_SIZE];
            BufferPattern fill = BufferPattern.forJob(job, MAX_THREADS); // a clone index no worker uses
            for (long i = 0; i < pages; i++) {
                fill.fillInitial(MemorySegment.ofArray(page));
                if (!zram.write(i, page, 0)) {
                    throw new IllegalStateException("fill failed at page " + i);
                }
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            zram.release();
        }

        int takeCpu() {
            return cpus.take();
        }
    }

    /** One fio worker: its "cpu" (per-cpu stream and slot), its random stream and its write ring. */
    @State(Scope.Thread)
    public static class Worker {
        int cpu;
        SplitMix stream;
        int next;
        final byte[] buf = new byte[Zram.PAGE_SIZE];
        final byte[][] ring = new byte[RING][Zram.PAGE_SIZE];

        @Setup(Level.Trial)
        public void setUp(Device d) {
            cpu = d.takeCpu();
            stream = new SplitMix(0x9E3779B97F4A7C15L * (cpu + 1)); // SplitMix64: a random long with no allocation
            BufferPattern fill = BufferPattern.forJob(d.job, cpu); // clone cpu of the job, as fio seeds each
            for (byte[] p : ring) {
                fill.fillInitial(MemorySegment.ofArray(p));
            }
        }

    }

    @Benchmark
    public boolean io(Device d, Worker w) {
        long r = w.stream.nextLong();
        long index = Long.remainderUnsigned(r, d.pages);
        return IoMix.isRead(d.readPercent, r) ? d.zram.read(index, w.buf, w.cpu)
                : d.zram.write(index, w.ring[w.next++ & (RING - 1)], w.cpu);
    }
}
