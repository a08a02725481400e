package lab.analysis.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The two stages a notebook is made in, and the guard between them. First every figure a page
 * will show is estimated from raw/ ({@link #estimate}): the estimates are made whole, in one
 * place, and the stage keeps a record of each {@link SweepEstimates} figure it made, in the
 * order made, for summary.json. Then each page is rendered ({@link #rendering}), and a page only
 * prints what the first stage made: JMH's result pipeline, where a formatter prints the
 * immutable results and computes nothing.
 *
 * <p>The guard is a per-thread phase. While a page renders, {@link #check} throws: every call
 * that makes an estimate (the public estimating methods of {@link Estimator},
 * {@code RoundRatio}, {@code NoiseFloor.of} and {@code ofIterations}, and a figure
 * {@link SweepEstimates} has not made yet) calls it first, so a page that asks for a figure the
 * estimation stage did not make fails at once, naming the figure, instead of quietly estimating
 * it a second way. A figure the stage made is read back from {@link SweepEstimates}' record
 * without a check: reading the record is what rendering is. The static half of the same rule,
 * that no page method calls an estimator at all, is {@code PagesComputeNothingTest}'s.
 *
 * <p>Thread-confined: each thread has its own phase and record, so two notebooks made at once
 * on two threads (the tests) do not see each other's.
 */
public final class EstimationStage {
    /** What is rendering on this thread ({@code null}: nothing, estimation allowed). */
    private static final ThreadLocal<String> RENDERING = new ThreadLocal<>();
    /** The record of the estimation stage open on this thread ({@code null}: none open, nothing recorded). */
    private static final ThreadLocal<List<Map<String, Object>>> RECORD = new ThreadLocal<>();

    private EstimationStage() {}

    /** Work that may fail with {@code E}: a page's rendering, or an estimation stage. */
    @FunctionalInterface
    public interface Work<T, E extends Exception> {
        T run() throws E;
    }

    /** What an estimation stage made: its result, and the record of its figures in the order made. */
    public record Made<T>(T value, List<Map<String, Object>> estimates) {}

    /**
     * Runs {@code page}'s rendering with estimation forbidden on this thread ({@link #check}
     * throws), and restores the phase before it, however it ends.
     */
    public static <T, E extends Exception> T rendering(Work<T, E> page) throws E {
        String before = RENDERING.get();
        RENDERING.set("a page");
        try {
            return page.run();
        } finally {
            restore(RENDERING, before);
        }
    }

    /**
     * Runs an estimation stage: {@code work} may estimate, and each figure a {@link SweepEstimates}
     * makes in it is recorded ({@link #record}). A stage opened while a page renders is refused:
     * rendering cannot reach estimation by opening a stage of its own.
     */
    public static <T, E extends Exception> Made<T> estimate(Work<T, E> work) throws E {
        check("an estimation stage");
        List<Map<String, Object>> before = RECORD.get();
        List<Map<String, Object>> made = new ArrayList<>();
        RECORD.set(made);
        try {
            return new Made<>(work.run(), List.copyOf(made));
        } finally {
            restore(RECORD, before);
        }
    }

    /**
     * Throws where this thread is rendering a page: {@code what}, the estimate asked for, cannot
     * be made there. Every estimating call makes this check first.
     */
    public static void check(String what) {
        if (RENDERING.get() != null) {
            throw new IllegalStateException("a page asked for an estimate while it rendered: " + what
                    + "; make it in the estimation stage");
        }
    }

    /** Whether this thread is rendering a page (estimation forbidden). */
    public static boolean isRendering() {
        return RENDERING.get() != null;
    }

    /** Adds a figure to the record of the estimation stage open on this thread, if one is. */
    static void record(Map<String, Object> figure) {
        List<Map<String, Object>> r = RECORD.get();
        if (r != null) {
            r.add(figure);
        }
    }

    private static <V> void restore(ThreadLocal<V> t, V v) {
        if (v == null) {
            t.remove();
        } else {
            t.set(v);
        }
    }
}
