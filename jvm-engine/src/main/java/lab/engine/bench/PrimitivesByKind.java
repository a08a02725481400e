package lab.engine.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.engine.sync.PrimitiveKind;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/*
 * One round of Primitives.getPut for one kind, in this JVM (JMH forks 0): its
 * lines at each thread count, a JMH run a thread count, into
 * PREFIX-KIND-rROUND-tT.json. One JVM a kind keeps the pair's call site
 * monomorphic, as a fork a cell does, at one JVM start a kind instead of one a
 * cell: under TCG a JVM takes about 25 s to start (kernel/refscale.sh's JVM
 * boot, measured), so a fork a cell would take 40 minutes where this takes 5.
 * The host runs the same class, the same way, so the guest and the host differ
 * in the CPU alone. Where it simplifies: the JMH harness shares the JVM with
 * the runner (JMH's -f 0: its warning applies alike to both sides).
 *
 * After each thread count's getPut, Primitives.baseline at that count in the
 * same JVM (the harness alone, refscale's empty type's twin), into
 * PREFIX-KIND-baseline-rROUND-tT.json: a kind's getPut less the baseline of
 * its own JVM and round is its pair alone.
 *
 * Usage: PrimitivesByKind KIND LINES THREADS PREFIX ROUND WARMUPS WARMUP_MS ITERATIONS ITERATION_MS
 *   LINES and THREADS comma-separated (shared,private and 1,2, say).
 */

/** One round of one primitive kind's {@link Primitives#getPut}, its lines at each thread count, in this JVM. */
public final class PrimitivesByKind {
    /** The word after the kind in the name of a file that holds {@link Primitives#baseline}: PREFIX-KIND-baseline-rR-tT.json. */
    public static final String BASELINE = "baseline";

    private PrimitivesByKind() {}

    public static void main(String[] args) throws RunnerException {
        if (args.length != 9) {
            System.err.println("usage: PrimitivesByKind KIND LINES THREADS PREFIX ROUND WARMUPS WARMUP_MS ITERATIONS ITERATION_MS");
            System.exit(2);
        }
        String kind = PrimitiveKind.of(args[0]).id();
        String[] lines = args[1].split(",");
        List<Integer> threads = new ArrayList<>();
        for (String t : args[2].split(",")) {
            threads.add(Integer.parseInt(t.strip()));
        }
        for (int t : threads) {
            String suffix = "-r" + Integer.parseInt(args[4]) + "-t" + t + ".json";
            run(args, new OptionsBuilder().include(Primitives.class.getName() + ".getPut$").threads(t)
                    .param("primitive", kind).param("line", lines), Path.of(args[3] + "-" + kind + suffix));
            run(args, new OptionsBuilder().include(Primitives.class.getName() + ".baseline$").threads(t),
                    Path.of(args[3] + "-" + kind + "-" + BASELINE + suffix));
        }
    }

    /** One JMH run in this JVM, with the warm-ups and iterations of {@code args}, into {@code out}. */
    private static void run(String[] args, ChainedOptionsBuilder o, Path out) throws RunnerException {
        new Runner(o.forks(0)
                .warmupIterations(Integer.parseInt(args[5])).warmupTime(TimeValue.milliseconds(Long.parseLong(args[6])))
                .measurementIterations(Integer.parseInt(args[7])).measurementTime(TimeValue.milliseconds(Long.parseLong(args[8])))
                .resultFormat(ResultFormatType.JSON).result(out.toString()).build()).run();
    }
}
