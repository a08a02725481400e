package lab.fix;

import java.nio.file.Path;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The JMH settings the fixes' pairings share: one fork; quick 1 x 300 ms warm-up and 3 x 200 ms
 * measured, full 2 x 500 ms and 5 x 500 ms; the forked JVM gets the lab's flags (not the
 * parent's {@code -Dlab.*} paths).
 */
public final class JmhOptions {
    private JmhOptions() {}

    /** Forks, warm-up iterations and ms, measured iterations and ms: quick, and full. */
    private static final long[] QUICK = {1, 1, 300, 3, 200};
    private static final long[] FULL = {1, 2, 500, 5, 500};

    /** The benchmarks matching {@code include} (a regex, anchored to one class and method) with the quick or full iterations. */
    public static ChainedOptionsBuilder of(String include, boolean quick) {
        long[] p = quick ? QUICK : FULL;
        return of(include, (int) p[0], (int) p[1], p[2], (int) p[3], p[4]);
    }

    /**
     * {@link #of(String, boolean)} with {@code fullForks} forks in a full run (a quick run keeps its
     * one): for the trials whose floor matters, as JVM-to-JVM variance is part of the noise.
     */
    public static ChainedOptionsBuilder of(String include, boolean quick, int fullForks) {
        long[] p = quick ? QUICK : FULL;
        return of(include, quick ? (int) p[0] : fullForks, (int) p[1], p[2], (int) p[3], p[4]);
    }

    /** The settings of {@link #of(String, boolean)} in words, for manifest.json. */
    public static String describe(boolean quick) {
        long[] p = quick ? QUICK : FULL;
        return describe((int) p[0], (int) p[1], p[2], (int) p[3], p[4]);
    }

    /**
     * {@link #describe(boolean)} and, in a full run, the forks per trial of a fix's {@code trials}
     * ("the calibrated table"), which run more forks than the rest ({@link #of(String, boolean, int)}).
     */
    public static String describe(boolean quick, String trials, int fullForks) {
        return describe(quick) + (quick ? "" : "; " + trials + " " + fullForks + " forks per trial");
    }

    /** JMH settings in words: "1 fork(s), 2 x 500 ms warm-up, 5 x 500 ms measured". */
    public static String describe(int forks, int warmups, long warmupMs, int iterations, long iterationMs) {
        return forks + " fork(s), " + warmups + " x " + warmupMs + " ms warm-up, " + iterations + " x " + iterationMs + " ms measured";
    }

    /** The benchmarks matching {@code include} with the given forks and iterations, the lab's JVM flags, silent. */
    public static ChainedOptionsBuilder of(String include, int forks, int warmups, long warmupMs, int iterations, long iterationMs) {
        return new OptionsBuilder().include(include).forks(forks)
                .warmupIterations(warmups).warmupTime(TimeValue.milliseconds(warmupMs))
                .measurementIterations(iterations).measurementTime(TimeValue.milliseconds(iterationMs))
                .jvmArgs("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow") // not the parent's -Dlab.* paths
                .verbosity(VerboseMode.SILENT);
    }

    /** Runs {@code o} ({@link #toJson}: with the GC profiler) and writes JMH's JSON to {@code out}. */
    public static void run(ChainedOptionsBuilder o, Path out) throws RunnerException {
        new Runner(toJson(o, out).build()).run();
    }

    /** {@code o} with the GC profiler on (B/op: the hot path should allocate nothing) and JMH's JSON written to {@code out}. */
    public static ChainedOptionsBuilder toJson(ChainedOptionsBuilder o, Path out) {
        return o.addProfiler(GCProfiler.class).resultFormat(ResultFormatType.JSON).result(out.toString());
    }
}
