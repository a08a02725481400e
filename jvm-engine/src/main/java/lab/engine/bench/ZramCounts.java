package lab.engine.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import lab.engine.count.LineTally;
import lab.engine.count.SharedLineCounts;
import lab.engine.count.SharedLines;
import lab.engine.count.ContentionCounts;
import lab.engine.count.Contention;

/**
 * The zram-init-lock count run: the shared-line operations of one {@link ZramInitLock} op, per
 * guard, rw mode and data pattern. It runs the benchmark's own code ({@link ZramInitLock.Device}
 * with its fill, {@link ZramInitLock.Worker} with its write ring, {@link ZramInitLock#io}) on one
 * thread with the device reporting to a {@link LineTally}: {@code ios} I/Os of warm-up (the pool's
 * classes and the statistics' maxima reach their working set), then {@code ios} I/Os counted.
 *
 * <p>What counts (lab.engine.count): the guard ({@code zram.init_lock} rwsem-read,
 * {@code zram.meta_ref} cas and rmw; none for srcu and none), the statistics
 * ({@code zram.stats.*}, rmw, and the cas of {@code max_used_pages}), the pool
 * ({@code zs_pool.class.lock} mutex, {@code zs_pool.pages_allocated} rmw). Not the per-slot bit
 * locks, which threads share only by chance ({@link lab.engine.zram.ZramMeta}). Single-threaded:
 * fast paths only. No clock, so no per-tick entry. In-process; the fill of the device (16 MiB by
 * default, compressed) takes tens of ms.
 */
public final class ZramCounts {
    /** The {@link SharedLineCounts#model()} of these counts. */
    public static final String MODEL = "zram-init-lock";
    /** The benchmark's defaults. */
    static final String COMPRESSOR = "lzo-rle";
    static final int SIZE_MIB = 16;

    private ZramCounts() {
    }

    /**
     * The counts of {@code guard} (a {@link lab.engine.zram.GuardKind} id, or its A/A control
     * {@code id~aa}) for the {@code rw} example ({@code randread}, {@code randwrite},
     * {@code randrw}) and data {@code pattern} ({@link lab.engine.load.DataPattern} id), with the
     * benchmark's default compressor and size, over {@code ios} I/Os (at least 1).
     */
    public static SharedLineCounts of(String guard, String rw, String pattern, long ios) {
        return of(guard, rw, pattern, COMPRESSOR, SIZE_MIB, ios);
    }

    /** {@link #of(String, String, String, long)} with a compressor ({@code lzo-rle}, {@code lz4}) and device size. */
    public static SharedLineCounts of(String guard, String rw, String pattern, String compressor, int sizeMiB,
                                      long ios) {
        return of(guard, 1, rw, pattern, compressor, sizeMiB, ios);
    }

    /**
     * As {@link #of(String, String, String, String, int, long)}, with the benchmark's
     * {@code sections} (the lab switch's count N: read sections per I/O; 1 the guard alone), which
     * the point then names where it is not 1.
     */
    public static SharedLineCounts of(String guard, int sections, String rw, String pattern, String compressor, int sizeMiB,
                                      long ios) {
        if (ios < 1) {
            throw new IllegalArgumentException("ios " + ios);
        }
        LineTally tally = new LineTally();
        ZramInitLock.Device d = device(guard, sections, rw, pattern, compressor, sizeMiB, 0, tally);
        Map<String, Map<String, Long>> counted;
        try {
            ZramInitLock.Worker w = new ZramInitLock.Worker();
            w.setUp(d);
            ZramInitLock bench = new ZramInitLock();
            run(bench, d, w, ios);
            tally.reset();
            run(bench, d, w, ios);
            counted = tally.snapshot();
        } finally {
            d.tearDown();
        }
        Map<String, String> point = new LinkedHashMap<>();
        point.put("rw", rw);
        point.put("pattern", pattern);
        point.put("compressor", compressor);
        point.put("sizeMiB", Integer.toString(sizeMiB));
        if (sections != 1) {
            point.put("sections", Integer.toString(sections));
        }
        return new SharedLineCounts(MODEL, Variants.id(guard), point, ios, SharedLineCounts.per(counted, ios), 0,
                Map.of());
    }

    /** The benchmark's device at this point with {@code baseNs} of work per op, set up reporting to {@code lines}. */
    private static ZramInitLock.Device device(String guard, int sections, String rw, String pattern, String compressor, int sizeMiB,
                                              long baseNs, SharedLines lines) {
        ZramInitLock.Device d = new ZramInitLock.Device();
        d.guard = guard;
        d.rw = rw;
        d.pattern = pattern;
        d.compressor = compressor;
        d.sizeMiB = sizeMiB;
        d.sections = sections;
        d.baseNs = baseNs;
        d.setUp(ZramInitLock.example(rw, pattern), lines);
        return d;
    }

    private static void run(ZramInitLock bench, ZramInitLock.Device d, ZramInitLock.Worker w, long n) {
        for (long i = 0; i < n; i++) {
            if (!bench.io(d, w)) {
                throw new IllegalStateException("count run: an I/O failed (" + d.zram + ")");
            }
        }
    }

    /**
     * The contention of {@code guard} (with the lab switch's {@code sections}) for the {@code rw}
     * example and {@code pattern}, with the benchmark's default compressor and size, on
     * {@code threads} threads at once, {@code iosPerThread} I/Os each ({@link ContentionRun}): per
     * I/O, the guard's acquisitions ({@code zram.init_lock} read, {@code zram.srcu} read, never
     * contended), contended ones and their wait, and the handoffs of the rwsem's count word.
     */
    public static ContentionCounts contention(String guard, int sections, String rw, String pattern, int threads, long iosPerThread) {
        return contention(guard, sections, rw, pattern, 0, threads, iosPerThread);
    }

    /**
     * {@link #contention(String, int, String, String, int, long)} with the benchmark's calibrated
     * work, {@code baseNs} per op (the amplified sweep's cells).
     */
    public static ContentionCounts contention(String guard, int sections, String rw, String pattern, long baseNs, int threads,
                                              long iosPerThread) {
        Contention c = new Contention();
        ZramInitLock.Device d = device(guard, sections, rw, pattern, COMPRESSOR, SIZE_MIB, baseNs, c);
        ZramInitLock bench = new ZramInitLock();
        return ContentionRun.run(c, threads, iosPerThread, () -> {
            ZramInitLock.Worker w = new ZramInitLock.Worker();
            w.setUp(d);
            long[] done = new long[1];
            return ContentionRun.Worker.of(() -> done[0] += bench.io(d, w) ? 1 : 0, () -> done[0], () -> { });
        }, d::tearDown);
    }
}
