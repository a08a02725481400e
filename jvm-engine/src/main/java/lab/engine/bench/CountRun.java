package lab.engine.bench;

import java.util.Map;
import java.util.function.LongSupplier;
import lab.engine.count.LineTally;

/**
 * The loop of a per-I/O count run (DmCssRefCounts, ThinBufioLockCounts): {@value #WARMUP} I/Os of
 * warm-up (free lists fill, caches settle), the tally reset, {@code ios} I/Os counted; every one
 * of them must have completed OK. The caller sets the benchmark up with the tally and tears it
 * down.
 */
final class CountRun {
    static final int WARMUP = 256;

    /** What the counted I/Os did: site -> kind -> operations, and line -> visits ({@link LineTally}). */
    record Counted(Map<String, Map<String, Long>> perIo, Map<String, Long> visits) {}

    private CountRun() {
    }

    /** Runs {@code io} {@value #WARMUP} + {@code ios} times, counting the last {@code ios}; {@code completed}: I/Os done OK so far. */
    static Counted run(LineTally tally, long ios, Runnable io, LongSupplier completed) {
        if (ios < 1) {
            throw new IllegalArgumentException("ios " + ios);
        }
        for (int i = 0; i < WARMUP; i++) {
            io.run();
        }
        tally.reset();
        for (long i = 0; i < ios; i++) {
            io.run();
        }
        Counted c = new Counted(tally.snapshot(), tally.visits());
        if (completed.getAsLong() != WARMUP + ios) {
            throw new IllegalStateException("count run: " + completed.getAsLong() + " of " + (WARMUP + ios) + " I/Os completed OK");
        }
        return c;
    }
}
