package lab.fix;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import lab.analysis.fidelity.LineCost;
import lab.engine.sync.PrimitiveKind;
import lab.notebook.ScalePage;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * A machine's cost profile, measured: {@code lab.engine.bench.Primitives} for every kind a fix's
 * counts can hold ({@link CostSweep#PROBES}) and the two that keep their line per thread (an SRCU
 * read side and a per-cpu slot), on a line all threads share and on one of each thread's own, at
 * each thread count and gap, rounds interleaved (thread counts in alternating order); into
 * {@code raw/profile/costs-rR-tT.json} (the score, gap included: gaps under 1 µs) and
 * {@code costs-timed-rR-tT.json} (the operations alone, timed: 1 µs and up), which
 * {@link ScalePage} fits. One fork per cell, 1 x 300 ms warm-up, 3 x 200 ms measured: a cell takes
 * about 1.5 s here (322 s for 216 cells, results/profile-2core-20261207), so the sweep takes cells x
 * thread counts x rounds of them (kinds' primitives 6, lines 2, gaps 3: 36 cells per thread count
 * and round).
 */
public final class ProfileSweep {
    private ProfileSweep() {}

    /** Every kind a profile prices, and how: a fix's kinds, then the per-cpu two. */
    public static final Map<String, LineCost.Probe> PROBES = probes();
    /** The gaps of a full profile, ns: back to back, ~100 ns, ~1 µs. */
    public static final List<Long> GAPS = List.of(0L, 100L, 1000L);
    /** A quick profile's gap: back to back alone (its fit has one gap: S and M less well told apart). */
    public static final List<Long> QUICK_GAPS = List.of(0L);

    private static Map<String, LineCost.Probe> probes() {
        Map<String, LineCost.Probe> m = new LinkedHashMap<>(CostSweep.PROBES);
        m.put("srcu", new LineCost.Probe(PrimitiveKind.SRCU.id(), 1));
        m.put("percpu-slot", new LineCost.Probe(PrimitiveKind.PADDED_SLOT.id(), 1));
        return m;
    }

    /** The thread counts of a machine with {@code cpus} CPUs: 1, 2, 4, ... and {@code cpus} itself. */
    public static List<Integer> threads(int cpus) {
        TreeSet<Integer> t = new TreeSet<>();
        for (int n = 1; n <= cpus; n *= 2) {
            t.add(n);
        }
        t.add(Math.max(1, cpus));
        return new ArrayList<>(t);
    }

    /** JMH cells of one thread count and round. */
    public static int cells(List<Long> gaps) {
        Set<String> primitives = new LinkedHashSet<>();
        PROBES.values().forEach(p -> primitives.add(p.primitive()));
        return primitives.size() * 2 * gaps.size();
    }

    /** Runs the sweep into {@code raw} ({@code raw/profile}). */
    public static void run(Path raw, List<Integer> threads, int rounds, List<Long> gaps, PrintStream progress) throws Exception {
        Set<String> primitives = new LinkedHashSet<>();
        PROBES.values().forEach(p -> primitives.add(p.primitive()));
        String[] scored = gaps.stream().filter(g -> g < CostSweep.TIMED_FROM).map(String::valueOf).toArray(String[]::new);
        String[] timed = gaps.stream().filter(g -> g >= CostSweep.TIMED_FROM).map(String::valueOf).toArray(String[]::new);
        Rounds.interleave(threads, rounds, progress, "profile", (r, t) -> {
            progress.printf("lab: profile round %d/%d, %d thread(s): %s on a shared and a private line, gaps %s ns%n", r, rounds, t,
                    primitives, gaps);
            for (boolean time : new boolean[] {false, true}) {
                if ((time ? timed : scored).length == 0) {
                    continue;
                }
                ChainedOptionsBuilder o = JmhOptions.of(time ? CostSweep.TIMED : CostSweep.SCORED, 1, 1, 300, 3, 200).threads(t)
                        .param("primitive", primitives.toArray(String[]::new)).param("line", "shared", "private")
                        .param("gapNs", time ? timed : scored);
                String prefix = time ? ScalePage.TIMED_PREFIX : ScalePage.PREFIX;
                new Runner(JmhOptions.toJson(o, CostSweep.file(raw, prefix, r, t)).build()).run();
            }
        });
    }
}
