package lab.engine.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.engine.sync.PrimitiveKind;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
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
 * Usage: PrimitivesByKind KIND LINES THREADS PREFIX ROUND WARMUPS WARMUP_MS ITERATIONS ITERATION_MS
 *   LINES and THREADS comma-separated (shared,private and 1,2, say).
 */

/** One round of one primitive kind's {@link Primitives#getPut}, its lines at each thread count, in this JVM. */
public final class PrimitivesByKind {
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
            Path out = Path.of(args[3] + "-" + kind + "-r" + Integer.parseInt(args[4]) + "-t" + t + ".json");
            new Runner(new OptionsBuilder().include(Primitives.class.getName() + ".getPut$").forks(0).threads(t)
                    .param("primitive", kind).param("line", lines)
                    .warmupIterations(Integer.parseInt(args[5])).warmupTime(TimeValue.milliseconds(Long.parseLong(args[6])))
                    .measurementIterations(Integer.parseInt(args[7])).measurementTime(TimeValue.milliseconds(Long.parseLong(args[8])))
                    .resultFormat(ResultFormatType.JSON).result(out.toString()).build()).run();
        }
    }
}
