package lab.fix.dmcssref;

import static lab.fix.dmcssref.DmCssRef.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import lab.analysis.chart.LineChart;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.fidelity.NoiseFloor;
import lab.notebook.Fmt;
import lab.notebook.Parts;

/**
 * The model's side of dm-css-ref from its JMH sweeps: each variant's slow-down against today's
 * {@code percpu} at a depth and thread count (the notebook's estimator, checked against the A/A
 * floor), the cost of one dm layer (the slope of ns per op over depth, per round), and the seed's
 * experiment injected against the same stack without it.
 *
 * <p>Every figure is made where the table is built ({@link #of}, {@link #injected(SweepEstimates,
 * SweepEstimates)}); the tables and charts print them.
 */
final class StackTable {
    /** One thread count of the slow-down table: each variant's ns per op, the four slow-downs, the A/A. */
    record Row(int threads, Map<String, Estimate> ns, Estimate seed, Estimate atomic, Estimate cmpxchg, Estimate percpu, NoiseFloor floor) {}

    /** The seed's experiment by depth and threads: with over without, in the same round. */
    record Injected(List<Integer> threads, Map<Integer, Map<Integer, Estimate>> byDepth) {}

    private final SortedSet<Integer> threads;
    private final List<Integer> depths;
    private final int depth;
    private final List<Row> rows = new ArrayList<>();
    /** ns per op by variant, depth and threads, at one and the most threads ({@link #depthThreads}). */
    private final Map<String, Estimate> ns = new LinkedHashMap<>();
    /** ns per layer by variant and threads, at one and the most threads. */
    private final Map<String, Estimate> perLayer = new LinkedHashMap<>();
    /** Total throughput by variant and threads at the table's depth. */
    private final Map<String, Estimate> throughput = new LinkedHashMap<>();
    /** B/op by variant at the table's depth and the most threads. */
    private final Map<String, Double> bytes = new LinkedHashMap<>();

    private StackTable(SweepEstimates s, int depth, boolean depthSweep) {
        this.threads = s.threadCounts();
        this.depths = depths(s);
        this.depth = depth;
        for (int t : threads) {
            Map<String, Estimate> byV = new LinkedHashMap<>();
            for (String v : VARIANTS) {
                byV.put(v, s.ns(key(v, depth), t));
            }
            rows.add(new Row(t, byV, estimateSlowdown(s, CMPXCHG, ATOMIC, depth, t), estimateSlowdown(s, ATOMIC, PERCPU, depth, t),
                    estimateSlowdown(s, CMPXCHG, PERCPU, depth, t), estimateSlowdown(s, PERCPU, NONE, depth, t), estimateFloor(s, depth, t)));
        }
        for (int t : depthSweep ? depthThreads() : List.<Integer>of()) {
            for (int d : depths) {
                for (String v : VARIANTS) {
                    ns.put(v + "/" + d + "/" + t, s.ns(key(v, d), t));
                }
            }
            for (String v : VARIANTS) {
                perLayer.put(v + "/" + t, estimatePerLayer(s, v, t));
            }
        }
        for (String v : depthSweep ? VARIANTS : List.<String>of()) {
            for (int n : threads) {
                throughput.put(v + "/" + n, s.throughput(key(v, depth), n));
            }
            bytes.put(v, s.bytesPerOp(key(v, depth), maxThreads()));
        }
    }

    /** The raw table of the sweep {@code s} at {@code depth}: every figure its tables and charts print, made. */
    static StackTable of(SweepEstimates s, int depth) {
        return new StackTable(s, depth, true);
    }

    /** The slow-down table alone ({@link #slowdownTable}) of the sweep {@code s} at {@code depth}: a calibrated sweep's, one depth. */
    static StackTable slowdowns(SweepEstimates s, int depth) {
        return new StackTable(s, depth, false);
    }

    /** The A/A floor at {@code depth} and {@code t}: percpu against its copy; null without a control. */
    private static NoiseFloor estimateFloor(SweepEstimates s, int depth, int t) {
        return s.aa(key(PERCPU, depth), key(CONTROL, depth), t);
    }

    /** time(variant) / time(base) per round, their geometric mean with its 95% interval: above 1, {@code variant} is slower. */
    private static Estimate estimateSlowdown(SweepEstimates s, String variant, String base, int depth, int t) {
        return s.ratio(key(variant, depth), key(base, depth), t);
    }

    /** The sweep's thread counts. */
    SortedSet<Integer> threads() {
        return threads;
    }

    int maxThreads() {
        return threads.last();
    }

    /** The row of the slow-down table at the most threads: the headline's figures. */
    Row last() {
        return rows.getLast();
    }

    /** The thread counts of the depth table: one and the most. */
    private List<Integer> depthThreads() {
        return maxThreads() == 1 ? List.of(1) : List.of(1, maxThreads());
    }

    /** ns per op of {@code variant} at {@code d} and {@code t} (one or the most threads); null where not measured. */
    Estimate ns(String variant, int d, int t) {
        return ns.get(variant + "/" + d + "/" + t);
    }

    /** ns per dm layer of {@code variant} at {@code t} (one or the most threads); null without two depths. */
    Estimate perLayer(String variant, int t) {
        return perLayer.get(variant + "/" + t);
    }

    /** Total throughput of {@code variant} at the table's depth and {@code t} threads. */
    Estimate throughput(String variant, int t) {
        return throughput.get(variant + "/" + t);
    }

    /** B/op of {@code variant} at the table's depth and the most threads; NaN where not measured. */
    double bytesPerOp(String variant) {
        return bytes.get(variant);
    }

    /**
     * Per thread count at the table's depth: ns per op of each variant, their slow-downs against
     * percpu, the floor; and whether percpu stays within noise of none.
     */
    String slowdownTable(String label, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("| threads | " + String.join(" | ", VARIANTS.stream().map(v -> "`" + v + "` ns/op").toList())
                + " | `atomic-cmpxchg` / `atomic` (the seed's) | `atomic` / `percpu` | `atomic-cmpxchg` / `percpu` | `percpu` / `none`"
                + " | A/A |\n|---:|" + "---:|".repeat(VARIANTS.size() + 5) + "\n");
        for (Row r : rows) {
            NoiseFloor f = r.floor();
            Estimate percpu = r.percpu();
            b.append("| ").append(r.threads());
            for (String v : VARIANTS) {
                b.append(" | ").append(Fmt.est(r.ns().get(v), 1));
            }
            b.append(" | ").append(Parts.ratioCell(r.seed())).append(" | ").append(Parts.ratioCell(r.atomic())).append(" | ")
                    .append(Parts.ratioCell(r.cmpxchg())).append(" | ").append(Parts.ratioCell(percpu)).append(" | ")
                    .append(f == null ? "—" : Parts.ratioCell(f.aa())).append(" |\n");
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("atomic_cmpxchg_vs_atomic", Parts.json(r.seed()));
            row.put("atomic_vs_percpu", Parts.json(r.atomic()));
            row.put("atomic_cmpxchg_vs_percpu", Parts.json(r.cmpxchg()));
            row.put("percpu_vs_none", Parts.json(percpu));
            row.put("percpu_within_noise_of_none", percpu == null || !percpu.hasInterval() ? null : !percpu.excludes(1));
            row.put("aa", f == null ? null : Parts.json(f.aa()));
            out.put(Integer.toString(r.threads()), row);
        }
        return "**" + label + "**: ns per op per thread and slow-downs within each round (the"
                + " seed's contrast, kernel (5) over (4), first; then each against `percpu`, today's css), each the geometric mean over"
                + " rounds with its 95% interval, \"(holds 1)\" where the interval holds 1:\n\n" + b + '\n';
    }

    /** The depths of 0..{@value DmCssRef#SEED_DEPTH} the sweep {@code s} holds: all in a full run, 0 and the seed's in a quick one. */
    static List<Integer> depths(SweepEstimates s) {
        List<String> have = s.values("depth");
        return DEPTHS.stream().filter(d -> have.contains(Integer.toString(d))).toList();
    }

    /** {@code depths} in words: "0..5" where they are all of them, else "0 and 5". */
    static String words(List<Integer> depths) {
        if (depths.equals(DEPTHS)) {
            return DEPTHS.getFirst() + ".." + DEPTHS.getLast();
        }
        return Fmt.and(depths.stream().map(String::valueOf).toList());
    }

    /**
     * What a quick run's table leaves out, in words, once; empty in a full run and where the table
     * has every depth (every quick run before issue 33).
     */
    String quickNote(boolean quick) {
        return !quick || depths.size() == DEPTHS.size() ? "" : "Quick run: the raw table and the injected experiment measured depths "
                + words(depths) + " only (the headline's depth, and the ram disk alone); a dm layer's cost below is the slope between them."
                + " `./lab pair " + ID + "` measures every depth " + words(DEPTHS) + ".\n\n";
    }

    /** ns per dm layer of {@code variant} at {@code t}: the slope over the depths measured of ns per op, fitted per round; null without two depths. */
    private static Estimate estimatePerLayer(SweepEstimates s, String variant, int t) {
        Map<Double, Map<String, String>> byDepth = new LinkedHashMap<>();
        for (int d : depths(s)) {
            byDepth.put((double) d, key(variant, d));
        }
        return s.slope(byDepth, t);
    }

    /** The depth sweep: ns per op by depth at one and the most threads, and each variant's cost per layer. */
    String depthTable(Map<String, Object> out) {
        List<Integer> ts = depthThreads();
        StringBuilder b = new StringBuilder("### The cost of a dm layer (depth sweep, raw)\n\nns per op per thread by dm-linear depth"
                + " (0: the ram disk alone), the geometric mean over rounds; the last row is the slope, ns per layer, fitted per round"
                + " over depths " + words(depths) + " (the mean over rounds with its 95% interval):\n\n| depth |");
        for (int t : ts) {
            for (String v : VARIANTS) {
                b.append(" `").append(v).append("` ").append(t).append("t |");
            }
        }
        b.append("\n|---:|").append("---:|".repeat(ts.size() * VARIANTS.size())).append('\n');
        for (int d : depths) {
            b.append("| ").append(d).append(" |");
            for (int t : ts) {
                for (String v : VARIANTS) {
                    Estimate x = ns(v, d, t);
                    b.append(' ').append(x == null ? "—" : Fmt.f(x.value(), 1)).append(" |");
                }
            }
            b.append('\n');
        }
        b.append("| **ns per layer** |");
        Map<String, Object> layers = new LinkedHashMap<>();
        for (int t : ts) {
            Map<String, Object> byV = new LinkedHashMap<>();
            for (String v : VARIANTS) {
                Estimate p = perLayer(v, t);
                b.append(' ').append(Fmt.est(p, 1)).append(" |");
                byV.put(v, Parts.json(p));
            }
            layers.put(Integer.toString(t), byV);
        }
        out.put("ns_per_layer", layers);
        b.append("\n\nA layer of `none` is the dm core's own work per bio (a clone from the layer's bioset, the live table under RCU,"
                + " the target's map, the completion back up: no shared line); what each variant adds per layer over it is its css"
                + " operations, one `get` at the clone and one `put` at its completion (and with `atomic-cmpxchg` the seed's two probes),"
                + " on the cgroup's one count.\n\n");
        return b.toString();
    }

    /** ns per op over depth at the most threads, one series per variant. */
    String depthChart() {
        int t = maxThreads();
        LineChart c = new LineChart("ns per I/O by dm-linear depth, " + t + (t == 1 ? " thread" : " threads"), "dm-linear depth",
                "ns per op per thread").yFromZero(true);
        for (String v : VARIANTS) {
            List<LineChart.Point> pts = new ArrayList<>();
            for (int d : depths) {
                LineChart.Point p = Parts.point(d, ns(v, d, t));
                if (p != null) {
                    pts.add(p);
                }
            }
            if (!pts.isEmpty()) {
                c.series(v, pts);
            }
        }
        return c.toSvg();
    }

    /**
     * The seed's experiment by hand ({@code inject=clone:cmpxchg,end_io:cmpxchg} on {@code none})
     * against {@code none} in {@code table} in the same round, by depth and threads.
     */
    static Injected estimateInjected(SweepEstimates table, SweepEstimates inj) {
        List<Integer> ts = new ArrayList<>(inj.threadCounts());
        Map<Integer, Map<Integer, Estimate>> rows = new LinkedHashMap<>();
        for (int d : depths(inj)) {
            Map<Integer, Estimate> byT = new LinkedHashMap<>();
            for (int t : ts) {
                byT.put(t, inj.across(table, DmCssRef.injected(d), key(NONE, d), t, "with/without", (w, o) -> w / o, false));
            }
            rows.put(d, byT);
        }
        return new Injected(ts, rows);
    }

    /** The injected experiment's table: the slow-down by depth and threads, checked against the floor at that depth. */
    static String injected(Injected inj, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("### The seed's experiment as an option: `inject=" + SEED_INJECT + "`\n\n"
                + "What Mikulas Patocka added by hand, one no-op `cmpxchg` where each clone is made and one where it completes, is the"
                + " job key `inject=" + SEED_INJECT + "` here (any job file, or `lab engine run --inject`); the injected points share"
                + " one word of their own. Slow-down of `none` with it over `none` without it, measured in the same round (time"
                + " with / time without), by depth and threads; at depth 0 no clone is made, so nothing fires (a control):\n\n| depth |");
        List<Integer> ts = inj.threads();
        ts.forEach(t -> b.append(' ').append(t).append(t == 1 ? " thread |" : " threads |"));
        b.append("\n|---:|").append("---:|".repeat(ts.size())).append('\n');
        Map<String, Object> rows = new LinkedHashMap<>();
        inj.byDepth().forEach((d, cells) -> {
            b.append("| ").append(d).append(" |");
            Map<String, Object> byT = new LinkedHashMap<>();
            cells.forEach((t, sp) -> {
                b.append(' ').append(Parts.ratioCell(sp)).append(" |");
                byT.put(Integer.toString(t), Parts.json(sp));
            });
            b.append('\n');
            rows.put(Integer.toString(d), byT);
        });
        out.put("injected_vs_none", rows);
        return b.append("\nThe floor of each cell is the A/A of the same depth and thread count (`percpu` against its copy), measured"
                + " within one JMH invocation; the injected runs are an invocation of their own, and depth 0, where nothing fires, is"
                + " how far the two invocations differ without any injection: read every row against that row too.\n\n").toString();
    }
}
