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
 * the same disk beside them. Every figure is made where the table is built ({@link #of}); the
 * table and charts print them.
 */
final class LockTable {
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

    /**
     * One thread count: each variant's ns per op, dm-linear's (null: no linear run beside the
     * table), each comparison's ratio, the A/A; with the charts, each variant's total throughput
     * and dm-linear's, and each variant's B/op (NaN: not measured).
     */
    record Row(int threads, Map<String, Estimate> ns, Estimate linear, Map<Comparison, Estimate> ratios, NoiseFloor floor,
               Map<String, Estimate> throughput, Estimate linearThroughput, Map<String, Double> bytes) {}

    private final String cache;
    private final boolean withLinear;
    private final Map<Integer, Row> rows = new LinkedHashMap<>();

    private LockTable(SweepEstimates s, SweepEstimates linear, String cache, boolean charts) {
        this.cache = cache;
        this.withLinear = linear != null;
        for (int t : s.threadCounts()) {
            Map<String, Estimate> ns = new LinkedHashMap<>();
            Map<String, Estimate> tp = new LinkedHashMap<>();
            Map<String, Double> bytes = new LinkedHashMap<>();
            for (String v : VARIANTS) {
                ns.put(v, s.ns(key(v, cache), t));
                if (charts) {
                    tp.put(v, s.throughput(key(v, cache), t));
                    bytes.put(v, s.bytesPerOp(key(v, cache), t));
                }
            }
            Map<Comparison, Estimate> ratios = new LinkedHashMap<>();
            for (Comparison c : COMPARISONS) {
                ratios.put(c, estimateRatio(s, c, cache, t));
            }
            rows.put(t, new Row(t, ns, linear == null ? null : linear.ns(linear(), t), ratios, estimateFloor(s, cache, t), tp,
                    charts && linear != null ? linear.throughput(linear(), t) : null, bytes));
        }
    }

    /**
     * The table of the sweep {@code s} at {@code cache}, with dm-linear's run {@code linear} beside
     * it (null: none, as for a calibrated sweep); {@code charts}: with the figures of the sweep chart
     * and the allocation line too.
     */
    static LockTable of(SweepEstimates s, SweepEstimates linear, String cache, boolean charts) {
        return new LockTable(s, linear, cache, charts);
    }

    /** The A/A floor at {@code cache} and {@code t}: the mutex against its copy; null without a control. */
    private static NoiseFloor estimateFloor(SweepEstimates s, String cache, int t) {
        return s.aa(key(MUTEX, cache), key(CONTROL, cache), t);
    }

    /** Throughput of {@code c}'s candidate over its base per round, estimated over rounds: the base's ns per op over the candidate's. */
    static Estimate estimateRatio(SweepEstimates s, Comparison c, String cache, int t) {
        return s.ratio(key(c.base(), cache), key(c.cand(), cache), t);
    }

    /** The row at {@code t} threads; null where the sweep has none. */
    Row row(int t) {
        return rows.get(t);
    }

    /** The thread counts, ascending. */
    List<Integer> threads() {
        return List.copyOf(rows.keySet());
    }

    /**
     * Per thread count at the table's cache: ns per op of each variant and of dm-linear (its own
     * JMH run in the same rounds), the comparisons, the floor.
     */
    String table(String label, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("| threads | " + String.join(" | ", VARIANTS.stream().map(v -> "`" + v + "` ns/op").toList())
                + " | dm-linear ns/op | " + String.join(" | ", COMPARISONS.stream().map(Comparison::label).toList())
                + " | A/A |\n|---:|" + "---:|".repeat(VARIANTS.size() + 1 + COMPARISONS.size() + 1) + "\n");
        for (Row r : rows.values()) {
            NoiseFloor f = r.floor();
            b.append("| ").append(r.threads());
            for (String v : VARIANTS) {
                b.append(" | ").append(Fmt.est(r.ns().get(v), 1));
            }
            b.append(" | ").append(!withLinear ? "—" : Fmt.est(r.linear(), 1));
            Map<String, Object> row = new LinkedHashMap<>();
            for (Comparison c : COMPARISONS) {
                Estimate x = r.ratios().get(c);
                b.append(" | ").append(Parts.ratioCell(x));
                row.put(c.json(), Parts.json(x));
                row.put(c.json() + "_within_noise", x == null || !x.hasInterval() ? null : !x.excludes(1));
            }
            b.append(" | ").append(f == null ? "—" : Parts.ratioCell(f.aa())).append(" |\n");
            row.put("aa", f == null ? null : Parts.json(f.aa()));
            out.put(Integer.toString(r.threads()), row);
        }
        return "**" + label + "**: ns per op per thread and throughput ratios within each round"
                + " (the base's ns per op over the candidate's; above 1 the candidate is faster), each the geometric mean over rounds"
                + " with its 95% interval:\n\n" + b + '\n';
    }

    /**
     * What a quick run's raw table leaves out ({@code caches}: those it measured), in words, once;
     * empty in a full run and where it has every cache (every quick run before issue 33).
     */
    static String quickNote(List<String> caches, boolean quick) {
        return !quick || caches.containsAll(CACHES) ? "" : "Quick run: the raw table measured the cache " + String.join(", ", caches)
                + " only (the whole btree cached: the headline's), every variant and the A/A copy; `./lab pair " + ID
                + "` measures the small cache (fewer buffers than the btree) too.\n\n";
    }

    /** Total throughput by threads at the table's cache, one series per variant and dm-linear. */
    String sweepChart() {
        List<String> series = new ArrayList<>(VARIANTS);
        series.add(LINEAR);
        return Parts.sweepChart("thin volume, whole tree cached: total throughput by threads", "M I/Os per second (all threads)",
                series, rows.keySet(), (v, n) -> Parts.point(n, v.equals(LINEAR) ? rows.get(n).linearThroughput()
                        : rows.get(n).throughput().get(v)));
    }

    /** B/op of each variant at the table's cache (JMH -prof gc): the hot path should allocate nothing. */
    String allocation(int t) {
        List<String> parts = new ArrayList<>();
        for (String v : VARIANTS) {
            double b = rows.get(t).bytes().get(v);
            parts.add("`" + v + "` " + (Double.isNaN(b) ? "n/a" : Fmt.f(b, 3)));
        }
        return "Allocation per op, whole tree cached, " + t + (t == 1 ? " thread" : " threads") + " (JMH `-prof gc`, B/op): "
                + String.join(", ", parts) + ".\n\n";
    }
}
