package lab.fix.primitives;

import lab.fix.Rounds;
import lab.fix.JmhOptions;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * Runs the {@code lab.engine.bench.Primitives} JMH benchmark over a thread sweep, in rounds
 * that interleave the thread counts (1, 2, .. N then N, .., 1, alternating), one JMH JSON file
 * per round and thread count: {@link PrimitivesRaw}, with JMH's GC profiler on
 * (allocation per pair as a secondary metric).
 */
public final class PrimitivesBench {
    public static final String BENCHMARK = PrimitivesRaw.BENCHMARK;

    /** JMH iteration settings: the demo's quick one and the benchmark's default. */
    public record Profile(String name, int forks, int warmups, long warmupMs, int iterations, long iterationMs) {
        public static final Profile QUICK = new Profile("quick", 1, 2, 200, 3, 300);
        public static final Profile FULL = new Profile("full", 1, 3, 1000, 5, 1000);

        public String describe() {
            return String.format("%d fork(s), %d x %d ms warm-up, %d x %d ms measured", forks, warmups, warmupMs,
                    iterations, iterationMs);
        }
    }

    private PrimitivesBench() {}

    public static void run(Path rawDir, List<Integer> threads, int rounds, Profile profile, PrintStream progress)
            throws RunnerException {
        Rounds.interleave(threads, rounds, progress, "primitives sweep", (r, t) -> {
            progress.printf("lab: primitives round %d/%d, %d thread(s) (%s)%n", r, rounds, t, profile.describe());
            Path out = PrimitivesRaw.file(rawDir, r, t);
            ChainedOptionsBuilder o = JmhOptions.of(BENCHMARK, profile.forks(), profile.warmups(), profile.warmupMs(),
                    profile.iterations(), profile.iterationMs()).threads(t);
            new Runner(JmhOptions.toJson(o, out).build()).run(); // -prof gc: B/op, the hot path should allocate nothing
        });
    }
}
