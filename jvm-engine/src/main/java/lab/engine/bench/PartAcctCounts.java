package lab.engine.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.engine.block.Jiffies;
import lab.engine.count.LineTally;
import lab.engine.count.SharedLineCounts;
import lab.engine.count.ContentionCounts;
import lab.engine.count.Contention;
import lab.engine.work.CpuWork;

/**
 * The part-acct count run: the shared-line operations of one {@link PartAcct} op, per variant and
 * target, for the lab's prediction (DESIGN.md, "Fidelity"). It runs the benchmark's own code
 * ({@link PartAcct.Disk}, {@link PartAcct.Worker}, {@link PartAcct#io}) on one thread, with the
 * disk's partitions reporting to a {@link LineTally} and a manual clock, so that per-I/O and
 * per-tick operations come apart:
 * <ol>
 * <li>warm-up: one tick, then {@value #WARMUP} I/Os (the bio free list fills, the stamps catch up);</li>
 * <li>{@code ios} I/Os within one tick: {@link SharedLineCounts#perIo};</li>
 * <li>{@value #TICKS} ticks of one I/O each: what they count beyond {@code perIo} per I/O is
 *     {@link SharedLineCounts#perTick} (the stamp's store or compare-and-set).</li>
 * </ol>
 * The worker is online in the disk's RCU, as in the benchmark. Single-threaded, so every operation
 * takes its fast path: what contention adds is in c(kind, n), not here. No {@code base_ns} is
 * spent (the work touches no shared line): where a calibrated run spends it, a mark tells the
 * tally's visits apart. In-process and quick (well under a second for 10^5 I/Os).
 */
public final class PartAcctCounts {
    /** The {@link SharedLineCounts#model()} of these counts. */
    public static final String MODEL = "part-acct";
    static final int WARMUP = 256;
    static final int TICKS = 16;
    /** Possible CPUs of the counted disk: the benchmark's default; no count depends on it. */
    static final int SLOTS = 64;
    /** The clock's HZ; the counts per tick do not depend on it. */
    static final int HZ = 1000;

    private PartAcctCounts() {
    }

    /**
     * The counts of {@code variant} (an {@link lab.engine.block.AcctMode} id, or its A/A control
     * {@code id~aa}) for bios to {@code target} ({@link PartAcct.Target} id: {@code disk} or
     * {@code part}), over {@code ios} I/Os (at least 1) of the fix's example job.
     */
    public static SharedLineCounts of(String variant, String target, long ios) {
        return of(variant, target, ios, false);
    }

    /**
     * As {@link #of(String, String, long)}, with visits ({@link LineTally}): the device's work
     * ({@code baseNs}) marks a boundary in every I/O, between its start accounting and its end,
     * and with {@code submitterWork} the submitter's ({@code userNs}) marks one between an I/O's
     * end and the next one's start; without it the two run back to back, one visit, as in a
     * calibrated run without {@code userNs}.
     */
    public static SharedLineCounts of(String variant, String target, long ios, boolean submitterWork) {
        return of(variant, 0, target, ios, submitterWork);
    }

    /**
     * As {@link #of(String, String, long, boolean)}, with the benchmark's {@code amp} (the lab
     * switch's count: N shared atomics of each word at start and done; 0 none), which the point
     * then names.
     */
    public static SharedLineCounts of(String variant, int amp, String target, long ios, boolean submitterWork) {
        if (ios < 1) {
            throw new IllegalArgumentException("ios " + ios);
        }
        LineTally tally = new LineTally();
        PartAcct.Disk d = disk(variant, amp, target, SLOTS);
        d.baseNs = 1; // any work: a mark
        d.userNs = submitterWork ? 1 : 0;
        d.works = ns -> ns == 0 ? CpuWork.NONE : CpuWork.marking(tally::boundary);
        d.setUp(1, ExampleJob.load(PartAcct.EXAMPLE, List.of()), Jiffies::manual, tally);
        PartAcct.Worker w = new PartAcct.Worker();
        w.setUp(d);
        PartAcct bench = new PartAcct();
        Map<String, Map<String, Long>> perIo;
        Map<String, Map<String, Long>> ticked;
        Map<String, Long> visits;
        try {
            d.jiffies.advance(1);
            run(bench, d, w, WARMUP);
            tally.reset();
            run(bench, d, w, ios);
            perIo = tally.snapshot();
            visits = tally.visits();
            tally.reset();
            for (int t = 0; t < TICKS; t++) {
                d.jiffies.advance(1);
                run(bench, d, w, 1);
            }
            ticked = tally.snapshot();
        } finally {
            w.tearDown();
            d.tearDown();
        }
        long expected = WARMUP + ios + TICKS;
        if (w.completed != expected) {
            throw new IllegalStateException("count run: " + w.completed + " of " + expected + " I/Os completed OK");
        }
        Map<String, String> point = new LinkedHashMap<>();
        point.put("target", target);
        if (amp != 0) {
            point.put("amp", Integer.toString(amp));
        }
        return new SharedLineCounts(MODEL, Variants.id(variant), point, ios, SharedLineCounts.per(perIo, ios),
                TICKS, perTick(ticked, perIo, ios), SharedLineCounts.perVisits(visits, ios));
    }

    private static void run(PartAcct bench, PartAcct.Disk d, PartAcct.Worker w, long n) {
        for (long i = 0; i < n; i++) {
            bench.io(d, w);
        }
    }

    /** Per tick: the tick run's counts less its {@value #TICKS} I/Os' per-I/O share, per tick. */
    private static Map<String, Map<String, Double>> perTick(Map<String, Map<String, Long>> ticked,
                                                             Map<String, Map<String, Long>> perIo, long ios) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        ticked.forEach((site, kinds) -> kinds.forEach((kind, n) -> {
            long ioOps = perIo.getOrDefault(site, Map.of()).getOrDefault(kind, 0L);
            double extra = ((double) n - (double) ioOps * TICKS / ios) / TICKS;
            if (Math.abs(extra) > 1e-9) {
                out.computeIfAbsent(site, s -> new LinkedHashMap<>()).put(kind, extra);
            }
        }));
        return out;
    }

    /**
     * The contention of {@code variant} (with the lab switch's {@code amp}) for bios to {@code target},
     * on {@code threads} threads at once with the benchmark's running clock, {@code iosPerThread}
     * I/Os each ({@link ContentionRun}): per I/O, the handoffs of the partitions' hot lines
     * ({@code part0}, {@code part}: stamp, in_flight, ref, and the lab switch's words).
     */
    public static ContentionCounts contention(String variant, int amp, String target, int threads, long iosPerThread) {
        return contention(variant, amp, target, 0, 0, threads, iosPerThread);
    }

    /**
     * {@link #contention(String, int, String, int, long)} with the benchmark's calibrated work:
     * {@code baseNs} on the disk and {@code userNs} in the worker per I/O (the amplified sweep's cells).
     */
    public static ContentionCounts contention(String variant, int amp, String target, long baseNs, long userNs, int threads,
                                              long iosPerThread) {
        Contention c = new Contention();
        PartAcct.Disk d = disk(variant, amp, target, Math.max(SLOTS, threads));
        d.baseNs = baseNs;
        d.userNs = userNs;
        d.setUp(threads, ExampleJob.load(PartAcct.EXAMPLE, List.of()), Jiffies::start, c);
        PartAcct bench = new PartAcct();
        return ContentionRun.run(c, threads, iosPerThread, () -> {
            PartAcct.Worker w = new PartAcct.Worker();
            w.setUp(d);
            return ContentionRun.Worker.of(() -> bench.io(d, w), () -> w.completed, w::tearDown);
        }, d::tearDown);
    }

    /** The benchmark's disk at this point with {@code slots} possible CPUs, not set up yet. */
    private static PartAcct.Disk disk(String variant, int amp, String target, int slots) {
        PartAcct.Disk d = new PartAcct.Disk();
        d.variant = variant;
        d.target = target;
        d.amp = amp;
        d.hz = HZ;
        d.slots = slots;
        return d;
    }
}
