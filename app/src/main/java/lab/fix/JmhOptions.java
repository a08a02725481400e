package lab.fix;

import java.nio.file.Path;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
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

    /** The benchmarks matching {@code include} (a regex, anchored to one class and method) with the quick or full iterations. */
    public static ChainedOptionsBuilder of(String include, boolean quick) {
        return of(include, 1, quick ? 1 : 2, quick ? 300 : 500, quick ? 3 : 5, quick ? 200 : 500);
    }

    /** The benchmarks matching {@code include} with the given forks and iterations, the lab's JVM flags, silent. */
    public static ChainedOptionsBuilder of(String include, int forks, int warmups, long warmupMs, int iterations, long iterationMs) {
        return new OptionsBuilder().include(include).forks(forks)
                .warmupIterations(warmups).warmupTime(TimeValue.milliseconds(warmupMs))
                .measurementIterations(iterations).measurementTime(TimeValue.milliseconds(iterationMs))
                .jvmArgs("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow") // not the parent's -Dlab.* paths
                .verbosity(VerboseMode.SILENT);
    }

    /** {@code o} with the GC profiler on (B/op: the hot path should allocate nothing) and JMH's JSON written to {@code out}. */
    public static ChainedOptionsBuilder toJson(ChainedOptionsBuilder o, Path out) {
        return o.addProfiler(GCProfiler.class).resultFormat(ResultFormatType.JSON).result(out.toString());
    }
}
