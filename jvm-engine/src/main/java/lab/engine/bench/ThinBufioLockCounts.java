package lab.engine.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.engine.count.LineTally;
import lab.engine.count.SharedLineCounts;
import lab.engine.count.ContentionCounts;
import lab.engine.count.Contention;
import lab.engine.work.CpuWork;

/**
 * The thin-bufio-lock count run: the shared-line operations of one {@link ThinBufioLock} op, per
 * variant, target and cache, for the lab's prediction (DESIGN.md, "Fidelity"). It runs the
 * benchmark's own code ({@link ThinBufioLock.Stack}, {@link ThinBufioLock.Worker},
 * {@link ThinBufioLock#io}) on one thread with the pool reporting to a {@link LineTally}:
 * {@value CountRun#WARMUP} I/Os of warm-up, then {@code ios} counted. Single-threaded, so every operation
 * takes its fast path. With {@code visits}, the data disk's work ({@code baseNs}) marks a boundary
 * in every I/O, and with {@code submitterWork} the worker's ({@code userNs}) one between I/Os, as
 * in DmCssRefCounts.
 *
 * <p>Sites: {@code bufio.lock} (the client lock: mutex pairs, or rwsem-read pairs), {@code
 * bufio.tree} (striped: the trees' rw locks), {@code bufio.hold} (atomic hold counts, rmw),
 * {@code thin.prison}, {@code thin.all_io_ds} (spinlock pairs), {@code thin.root_lock} (rwsem-read).
 */
public final class ThinBufioLockCounts {
    /** The {@link SharedLineCounts#model()} of these counts. */
    public static final String MODEL = "thin-bufio-lock";
    /** The sites of the bufio lock acquisitions: the client's lock and the striped trees'. */
    public static final List<String> LOCK_SITES = List.of("bufio.lock", "bufio.tree");

    private ThinBufioLockCounts() {
    }

    /** {@link #of(String, String, String, long, boolean, boolean)} without visits. */
    public static SharedLineCounts of(String variant, String target, String cache, long ios) {
        return of(variant, target, cache, ios, false, false);
    }

    /**
     * The counts of {@code variant} (a {@link lab.engine.bufio.BufioLocking} id, or its control
     * {@code id~aa}) on {@code target} (thin, linear) with the {@code cache} (whole, small), over
     * {@code ios} I/Os (at least 1) of the fix's example job. The point also says how many nodes a
     * lookup visits ({@code nodes_per_lookup}) and the metadata's nodes ({@code nodes}).
     */
    public static SharedLineCounts of(String variant, String target, String cache, long ios, boolean visits, boolean submitterWork) {
        return of(variant, 0, target, cache, ios, visits, submitterWork);
    }

    /**
     * {@link #of(String, String, String, long, boolean, boolean)} with the benchmark's {@code amp}
     * (the lab switch's client-lock count on striped; 0 none), which the point then names.
     */
    public static SharedLineCounts of(String variant, int amp, String target, String cache, long ios, boolean visits,
                                      boolean submitterWork) {
        LineTally tally = new LineTally();
        ThinBufioLock.Stack s = stack(variant, amp, target, cache);
        s.baseNs = visits ? 1 : 0; // any work: a mark
        s.userNs = visits && submitterWork ? 1 : 0;
        s.works = ns -> ns == 0 ? CpuWork.NONE : CpuWork.marking(tally::boundary);
        s.setUp(1, ExampleJob.load(ThinBufioLock.EXAMPLE, List.of()), tally);
        ThinBufioLock.Worker w = new ThinBufioLock.Worker();
        w.setUp(s);
        ThinBufioLock bench = new ThinBufioLock();
        int nodesPerLookup = ThinBufioLock.nodesPerLookup(s.pool.metadata());
        CountRun.Counted counted;
        try {
            counted = CountRun.run(tally, ios, () -> bench.io(s, w), () -> w.completed);
        } finally {
            w.tearDown();
            s.tearDown();
        }
        Map<String, String> point = new LinkedHashMap<>();
        point.put("target", target);
        point.put("cache", cache);
        point.put("nodes_per_lookup", Integer.toString(nodesPerLookup));
        point.put("nodes", Integer.toString(s.nodes));
        point.put("cache_blocks", Integer.toString(s.cacheBlocks));
        if (amp != 0) {
            point.put("amp", Integer.toString(amp));
        }
        return new SharedLineCounts(MODEL, Variants.id(variant), point, ios, SharedLineCounts.per(counted.perIo(), ios), 0, Map.of(),
                visits ? SharedLineCounts.perVisits(counted.visits(), ios) : null);
    }

    /** Lock acquisitions of the bufio cache per I/O in {@code c}: every kind at {@link #LOCK_SITES}. */
    public static double lockAcquisitionsPerIo(SharedLineCounts c) {
        double n = 0;
        for (String site : LOCK_SITES) {
            Map<String, Double> kinds = c.perIo().get(site);
            if (kinds != null) {
                n += kinds.values().stream().mapToDouble(Double::doubleValue).sum();
            }
        }
        return n;
    }

    /**
     * The contention of {@code variant} at the point of {@link #of(String, int, String, String, long, boolean, boolean)}
     * ({@code amp}, {@code target}, {@code cache}; no CpuWork) on {@code threads} threads at once,
     * {@code iosPerThread} I/Os each ({@link ContentionRun}): per I/O, the bufio locks' acquisitions,
     * contended ones and their wait ({@code bufio.lock}, {@code bufio.tree}, and the pool's
     * {@code thin.root_lock}), and the handoffs of their count words' lines.
     */
    public static ContentionCounts contention(String variant, int amp, String target, String cache, int threads, long iosPerThread) {
        return contention(variant, amp, target, cache, 0, 0, threads, iosPerThread);
    }

    /**
     * {@link #contention(String, int, String, String, int, long)} with the benchmark's calibrated
     * work: {@code baseNs} on the data disk and {@code userNs} in the worker per I/O, as a timed
     * cell at a guest's CPU per I/O has them (the amplified sweep's cells).
     */
    public static ContentionCounts contention(String variant, int amp, String target, String cache, long baseNs, long userNs, int threads,
                                              long iosPerThread) {
        Contention c = new Contention();
        ThinBufioLock.Stack s = stack(variant, amp, target, cache);
        s.baseNs = baseNs;
        s.userNs = userNs;
        s.setUp(threads, ExampleJob.load(ThinBufioLock.EXAMPLE, List.of()), c);
        ThinBufioLock bench = new ThinBufioLock();
        return ContentionRun.run(c, threads, iosPerThread, () -> {
            ThinBufioLock.Worker w = new ThinBufioLock.Worker();
            w.setUp(s);
            return ContentionRun.Worker.of(() -> bench.io(s, w), () -> w.completed, w::tearDown);
        }, s::tearDown);
    }

    /** The benchmark's stack at this point, not set up yet. */
    private static ThinBufioLock.Stack stack(String variant, int amp, String target, String cache) {
        ThinBufioLock.Stack s = new ThinBufioLock.Stack();
        s.variant = variant;
        s.amp = amp;
        s.target = target;
        s.cache = cache;
        return s;
    }
}
