package lab.engine.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * One op is one 4 KiB page through Zram.read or Zram.write at a random page
 * index (fio's randread / randwrite / randrw with rwmixread=50), on a device
 * filled with the pattern first, so reads decompress (or copy a same-filled
 * word, or a huge page) what the pattern wrote:
 *   zero            fio zero_buffers: every page same-filled, no compression:
 *                   the guard is most of the op
 *   random          fio refill_buffers: incompressible, stored huge (memcpy)
 *   compressible50  fio buffer_compress_percentage=50 (512-byte chunks, half
 *                   random, half zeros): LZO/LZ4 does real work per page
 * Writes take their data from a ring of 64 pages per thread, made once: fio
 * refills its buffer in its own process, which is not the device's cost.
 *
 * Guards (lab.engine.zram.MetaGuard): rwsem (init_lock down_read per bio, as
 * before the fix), srcu, atomic-ref (the seed's zram_meta_get/put), none
 * (today's kernel). The seed measured SRCU vs rwsem within -0.6%..+2.3% at 4
 * CPUs on compressible data; this benchmark asks where that stops holding.
 *
 * Score: ns per op per thread (AverageTime); throughput = threads / score.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ZramInitLock {
    static final int MAX_THREADS = 64;
    static final int RING = 64;

    @State(Scope.Benchmark)
    public static class Device {
        @Param({"rwsem", "srcu", "atomic-ref", "none"})
        public String guard;

        @Param({"randread", "randwrite", "randrw"})
        public String rw;

        @Param({"compressible50", "zero", "random"})
        public String pattern;

        @Param({"lzo-rle"})
        public String compressor;

        /** Device size in MiB: 16 MiB = 4096 pages, filled at setup. */
        @Param({"16"})
        public int sizeMiB;

        Zram zram;
        long pages;
        int readPercent;
        final CpuIds cpus = new CpuIds(MAX_THREADS);

        @Setup(Level.Trial)
        public void setUp() {
            zram = new Zram(GuardKind.of(guard), Compressor.of(compressor), MAX_THREADS);
            zram.init((long) sizeMiB << 20);
            zram.open();
            pages = zram.disksize() / Zram.PAGE_SIZE;
            readPercent = switch (rw) {
                case "randread" -> 100;
                case "randwrite" -> 0;
                case "randrw" -> 50;
                default -> throw new IllegalArgumentException("unknown rw: " + rw);
            };
            byte[] page = new byte[Zram.PAGE_SIZE];
            SplittableRandom rnd = new SplittableRandom(42);
            for (long i = 0; i < pages; i++) {
                fill(pattern, page, rnd);
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
            SplittableRandom rnd = new SplittableRandom(1000 + cpu);
            for (byte[] p : ring) {
                fill(d.pattern, p, rnd);
            }
        }

    }

    @Benchmark
    public boolean io(Device d, Worker w) {
        long r = w.stream.nextLong();
        long index = Long.remainderUnsigned(r, d.pages);
        boolean read = d.readPercent == 100 || (d.readPercent != 0 && (int) ((r >>> 40) % 100) < d.readPercent);
        return read ? d.zram.read(index, w.buf, w.cpu)
                : d.zram.write(index, w.ring[w.next++ & (RING - 1)], w.cpu);
    }

    /** A page of the pattern, as fio fills a buffer (jobspec's BufferPattern, for byte[] pages). */
    static void fill(String pattern, byte[] page, SplittableRandom rnd) {
        switch (pattern) {
            case "zero" -> java.util.Arrays.fill(page, (byte) 0);
            case "random" -> rnd.nextBytes(page);
            case "compressible50" -> {
                byte[] half = new byte[256];
                for (int chunk = 0; chunk < page.length; chunk += 512) {
                    rnd.nextBytes(half);
                    System.arraycopy(half, 0, page, chunk, 256);
                    java.util.Arrays.fill(page, chunk + 256, chunk + 512, (byte) 0);
                }
            }
            default -> throw new IllegalArgumentException("unknown pattern: " + pattern);
        }
    }
}
