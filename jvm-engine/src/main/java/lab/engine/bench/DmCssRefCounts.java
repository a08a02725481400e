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
 * The dm-css-ref count run: the shared-line operations of one {@link DmCssRef} op, per variant,
 * depth and injection, for the lab's prediction (DESIGN.md, "Fidelity"). It runs the benchmark's
 * own code ({@link DmCssRef.Stack}, {@link DmCssRef.Worker}, {@link DmCssRef#io}) on one thread
 * with the stack's cgroups and injections reporting to a {@link LineTally}: {@value CountRun#WARMUP} I/Os
 * of warm-up, then {@code ios} counted. Single-threaded, so every operation takes its fast path:
 * what contention adds is in c(kind, n), not here. With {@code visits}, the disk's work
 * ({@code baseNs}) marks a boundary in every I/O, between its clone-time operations and its
 * completion-time ones, and with {@code submitterWork} the worker's ({@code userNs}) one between an
 * I/O's last put and the next one's tryget ({@link LineTally}); as in PartAcctCounts.
 */
public final class DmCssRefCounts {
    /** The {@link SharedLineCounts#model()} of these counts. */
    public static final String MODEL = "dm-css-ref";

    private DmCssRefCounts() {
    }

    /**
     * The counts of {@code variant} (a {@link lab.engine.blkcg.CssForward} id, or its control
     * {@code id~aa}) at {@code depth} layers with {@code inject} ({@code none} or the job key's
     * value), over {@code ios} I/Os (at least 1) of the fix's example job on the null disk.
     */
    public static SharedLineCounts of(String variant, int depth, String inject, long ios) {
        return of(variant, depth, inject, ios, false, false);
    }

    /** {@link #of(String, int, String, long)}, with the visits of a calibrated run (see the class notes). */
    public static SharedLineCounts of(String variant, int depth, String inject, long ios, boolean visits, boolean submitterWork) {
        LineTally tally = new LineTally();
        DmCssRef.Stack s = new DmCssRef.Stack();
        s.variant = variant;
        s.depth = depth;
        s.device = "null"; // the device does no shared-line operation: the counts are the stack's
        s.inject = inject;
        s.baseNs = visits ? 1 : 0; // any work: a mark
        s.userNs = visits && submitterWork ? 1 : 0;
        s.works = ns -> ns == 0 ? CpuWork.NONE : CpuWork.marking(tally::boundary);
        s.setUp(1, ExampleJob.load(DmCssRef.EXAMPLE, List.of()), tally);
        DmCssRef.Worker w = new DmCssRef.Worker();
        w.setUp(s);
        DmCssRef bench = new DmCssRef();
        CountRun.Counted counted;
        try {
            counted = CountRun.run(tally, ios, () -> bench.io(s, w), () -> w.completed);
        } finally {
            w.tearDown();
            s.tearDown();
        }
        Map<String, String> point = new LinkedHashMap<>();
        point.put("depth", Integer.toString(depth));
        point.put("inject", inject);
        return new SharedLineCounts(MODEL, Variants.id(variant), point, ios, SharedLineCounts.per(counted.perIo(), ios), 0, Map.of(),
                visits ? SharedLineCounts.perVisits(counted.visits(), ios) : null);
    }

    /**
     * The contention of {@code variant} at {@code depth} layers with {@code inject} on the null disk,
     * on {@code threads} threads at once, {@code iosPerThread} I/Os each ({@link ContentionRun}):
     * per I/O, the handoffs of the css count's line ({@code blkcg.css}) and of any lock the stack takes.
     */
    public static ContentionCounts contention(String variant, int depth, String inject, int threads, long iosPerThread) {
        return contention(variant, depth, "null", inject, 0, 0, threads, iosPerThread);
    }

    /**
     * {@link #contention(String, int, String, int, long)} on the benchmark's {@code device} with
     * its calibrated work: {@code baseNs} on the bottom device and {@code userNs} in the worker per
     * I/O (the amplified sweep's cells).
     */
    public static ContentionCounts contention(String variant, int depth, String device, String inject, long baseNs, long userNs,
                                              int threads, long iosPerThread) {
        Contention c = new Contention();
        DmCssRef.Stack s = new DmCssRef.Stack();
        s.variant = variant;
        s.depth = depth;
        s.device = device;
        s.inject = inject;
        s.baseNs = baseNs;
        s.userNs = userNs;
        s.setUp(threads, ExampleJob.load(DmCssRef.EXAMPLE, List.of()), c);
        DmCssRef bench = new DmCssRef();
        return ContentionRun.run(c, threads, iosPerThread, () -> {
            DmCssRef.Worker w = new DmCssRef.Worker();
            w.setUp(s);
            return ContentionRun.Worker.of(() -> bench.io(s, w), () -> w.completed, w::tearDown);
        }, s::tearDown);
    }
}
