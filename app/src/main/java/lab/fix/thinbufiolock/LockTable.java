package lab.fix.thinbufiolock;

import static lab.fix.thinbufiolock.ThinBufioLock.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.fidelity.NoiseFloor;
import lab.notebook.Fmt;
import lab.notebook.Parts;

/**
 * The model's side of thin-bufio-lock from its JMH sweeps: each bufio locking's throughput
 * against the mutex's (and today's striped cache against the seed's rwsem-walk) at a cache size
 * and thread count, in the notebook's estimator, checked against the A/A floor; dm-linear over
 * the same disk beside them.
 */
final class LockTable {
    private LockTable() {}

    /** One comparison the notebook makes: throughput of {@code cand} over {@code base}. */
    record Comparison(String base, String cand, String json) {
        String label() {
            return "`" + cand + "` / `" + base + "`";
        }
    }

    /** The comparisons, the headline's second: each fix of the series against the mutex, and the 2023 rework against the seed's fix. */
    static final List<Comparison> COMPARISONS = List.of(new Comparison(MUTEX, RWSEM, "rwsem_vs_mutex"),
            new Comparison(MUTEX, WALK, "rwsem_walk_vs_mutex"), new Comparison(MUTEX, STRIPED, "striped_vs_mutex"),
            new Comparison(WALK, STRIPED, "striped_vs_rwsem_walk"));
    /** The headline's comparison: the seed's fix against the mutex. */
    static final Comparison HEADLINE = COMPARISONS.get(1);

    /** The A/A floor at {@code cache} and {@code t}: the mutex against its copy; null without a control. */
    static NoiseFloor floor(SweepEstimates s, String cache, int t) {
        return s.aa(key(MUTEX, cache), key(CONTROL, cache), t);
    }

    /** Throughput of {@code c}'s candidate over its base per round, estimated over rounds: the base's ns per op over the candidate's. */
    static Estimate ratio(SweepEstimates s, Comparison c, String cache, int t) {
        return s.ratio(key(c.base(), cache), key(c.cand(), cache), t);
    }

    private static String ns(SweepEstimates s, Map<String, String> key, int t) {
        return Fmt.est(s.ns(key, t), 1);
    }

    /**
     * Per thread count at {@code cache}: ns per op of each variant and of dm-linear ({@code linear},
     * its own JMH run in the same rounds), the comparisons, the floor.
     */
    static String table(SweepEstimates s, SweepEstimates linear, String cache, String label, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("| threads | " + String.join(" | ", VARIANTS.stream().map(v -> "`" + v + "` ns/op").toList())
                + " | dm-linear ns/op | " + String.join(" | ", COMPARISONS.stream().map(Comparison::label).toList())
                + " | A/A |\n|---:|" + "---:|".repeat(VARIANTS.size() + 1 + COMPARISONS.size() + 1) + "\n");
        for (int t : s.threadCounts()) {
            NoiseFloor f = floor(s, cache, t);
            b.append("| ").append(t);
            for (String v : VARIANTS) {
                b.append(" | ").append(ns(s, key(v, cache), t));
            }
            b.append(" | ").append(linear == null ? "—" : ns(linear, linear(), t));
            Map<String, Object> row = new LinkedHashMap<>();
            for (Comparison c : COMPARISONS) {
                Estimate r = ratio(s, c, cache, t);
                b.append(" | ").append(Parts.ratioCell(r));
                row.put(c.json(), Parts.json(r));
                row.put(c.json() + "_within_noise", r == null || !r.hasInterval() ? null : !r.excludes(1));
            }
            b.append(" | ").append(f == null ? "—" : Parts.ratioCell(f.aa())).append(" |\n");
            row.put("aa", f == null ? null : Parts.json(f.aa()));
            out.put(Integer.toString(t), row);
        }
        return "**" + label + "**: ns per op per thread and throughput ratios within each round"
                + " (the base's ns per op over the candidate's; above 1 the candidate is faster), each the geometric mean over rounds"
                + " with its 95% interval:\n\n" + b + '\n';
    }

    /**
     * What a quick run's raw table leaves out, in words, once; empty in a full run and where it has
     * every cache (every quick run before issue 33).
     */
    static String quickNote(SweepEstimates s, boolean quick) {
        return !quick || s.values("cache").containsAll(CACHES) ? "" : "Quick run: the raw table measured the cache " + String.join(", ", s.values("cache"))
                + " only (the whole btree cached: the headline's), every variant and the A/A copy; `./lab pair " + ID
                + "` measures the small cache (fewer buffers than the btree) too.\n\n";
    }

    /** Total throughput by threads with the whole tree cached, one series per variant and dm-linear. */
    static String sweepChart(SweepEstimates s, SweepEstimates linear) {
        List<String> series = new ArrayList<>(VARIANTS);
        series.add(LINEAR);
        return Parts.sweepChart("thin volume, whole tree cached: total throughput by threads", "M I/Os per second (all threads)",
                series, s.threadCounts(), (v, n) -> Parts.point(n, v.equals(LINEAR) ? linear.throughput(linear(), n) : s.throughput(key(v, WHOLE), n)));
    }

    /** B/op of each variant with the whole tree cached (JMH -prof gc): the hot path should allocate nothing. */
    static String allocation(SweepEstimates s, int t) {
        List<String> parts = new ArrayList<>();
        for (String v : VARIANTS) {
            double b = s.bytesPerOp(key(v, WHOLE), t);
            parts.add("`" + v + "` " + (Double.isNaN(b) ? "n/a" : Fmt.f(b, 3)));
        }
        return "Allocation per op, whole tree cached, " + t + (t == 1 ? " thread" : " threads") + " (JMH `-prof gc`, B/op): "
                + String.join(", ", parts) + ".\n\n";
    }
}
