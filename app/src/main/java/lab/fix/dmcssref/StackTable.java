package lab.fix.dmcssref;

import static lab.fix.dmcssref.DmCssRef.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 */
final class StackTable {
    private StackTable() {}

    /** The A/A floor at {@code depth} and {@code t}: percpu against its copy; null without a control. */
    static NoiseFloor floor(SweepEstimates s, int depth, int t) {
        return s.aa(key(PERCPU, depth), key(CONTROL, depth), t);
    }

    /** time(variant) / time(base) per round, their geometric mean with its 95% interval: above 1, {@code variant} is slower. */
    static Estimate slowdown(SweepEstimates s, String variant, String base, int depth, int t) {
        return s.ratio(key(variant, depth), key(base, depth), t);
    }

    /**
     * Per thread count at {@code depth}: ns per op of each variant, their slow-downs against percpu,
     * the floor; and whether percpu stays within noise of none.
     */
    static String slowdownTable(SweepEstimates s, int depth, String label, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("| threads | " + String.join(" | ", VARIANTS.stream().map(v -> "`" + v + "` ns/op").toList())
                + " | `atomic-cmpxchg` / `atomic` (the seed's) | `atomic` / `percpu` | `atomic-cmpxchg` / `percpu` | `percpu` / `none`"
                + " | A/A |\n|---:|" + "---:|".repeat(VARIANTS.size() + 5) + "\n");
        for (int t : s.threadCounts()) {
            NoiseFloor f = floor(s, depth, t);
            Estimate seed = slowdown(s, CMPXCHG, ATOMIC, depth, t);
            Estimate atomic = slowdown(s, ATOMIC, PERCPU, depth, t);
            Estimate cmpxchg = slowdown(s, CMPXCHG, PERCPU, depth, t);
            Estimate percpu = slowdown(s, PERCPU, NONE, depth, t);
            b.append("| ").append(t);
            for (String v : VARIANTS) {
                b.append(" | ").append(Fmt.est(s.ns(key(v, depth), t), 1));
            }
            b.append(" | ").append(Parts.ratioCell(seed)).append(" | ").append(Parts.ratioCell(atomic)).append(" | ").append(Parts.ratioCell(cmpxchg)).append(" | ")
                    .append(Parts.ratioCell(percpu)).append(" | ").append(f == null ? "—" : Parts.ratioCell(f.aa())).append(" |\n");
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("atomic_cmpxchg_vs_atomic", Parts.json(seed));
            row.put("atomic_vs_percpu", Parts.json(atomic));
            row.put("atomic_cmpxchg_vs_percpu", Parts.json(cmpxchg));
            row.put("percpu_vs_none", Parts.json(percpu));
            row.put("percpu_within_noise_of_none", percpu == null || !percpu.hasInterval() ? null : !percpu.excludes(1));
            row.put("aa", f == null ? null : Parts.json(f.aa()));
            out.put(Integer.toString(t), row);
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
    static String quickNote(SweepEstimates s, boolean quick) {
        List<Integer> d = depths(s);
        return !quick || d.size() == DEPTHS.size() ? "" : "Quick run: the raw table and the injected experiment measured depths " + words(d)
                + " only (the headline's depth, and the ram disk alone); a dm layer's cost below is the slope between them."
                + " `./lab pair " + ID + "` measures every depth " + words(DEPTHS) + ".\n\n";
    }

    /** ns per dm layer of {@code variant} at {@code t}: the slope over the depths measured of ns per op, fitted per round; null without two depths. */
    static Estimate perLayer(SweepEstimates s, String variant, int t) {
        Map<Double, Map<String, String>> byDepth = new LinkedHashMap<>();
        for (int d : depths(s)) {
            byDepth.put((double) d, key(variant, d));
        }
        return s.slope(byDepth, t);
    }

    /** The depth sweep: ns per op by depth at one and the most threads, and each variant's cost per layer. */
    static String depthTable(SweepEstimates s, Map<String, Object> out) {
        int maxT = s.threadCounts().last();
        List<Integer> ts = maxT == 1 ? List.of(1) : List.of(1, maxT);
        StringBuilder b = new StringBuilder("### The cost of a dm layer (depth sweep, raw)\n\nns per op per thread by dm-linear depth"
                + " (0: the ram disk alone), the geometric mean over rounds; the last row is the slope, ns per layer, fitted per round"
                + " over depths " + words(depths(s)) + " (the mean over rounds with its 95% interval):\n\n| depth |");
        for (int t : ts) {
            for (String v : VARIANTS) {
                b.append(" `").append(v).append("` ").append(t).append("t |");
            }
        }
        b.append("\n|---:|").append("---:|".repeat(ts.size() * VARIANTS.size())).append('\n');
        for (int d : depths(s)) {
            b.append("| ").append(d).append(" |");
            for (int t : ts) {
                for (String v : VARIANTS) {
                    Estimate x = s.ns(key(v, d), t);
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
                Estimate p = perLayer(s, v, t);
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
    static String depthChart(SweepEstimates s) {
        int t = s.threadCounts().last();
        LineChart c = new LineChart("ns per I/O by dm-linear depth, " + t + (t == 1 ? " thread" : " threads"), "dm-linear depth",
                "ns per op per thread").yFromZero(true);
        for (String v : VARIANTS) {
            List<LineChart.Point> pts = new ArrayList<>();
            for (int d : depths(s)) {
                LineChart.Point p = Parts.point(d, s.ns(key(v, d), t));
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
     * The seed's experiment by hand ({@code inject=clone:cmpxchg,end_io:cmpxchg} on {@code none}) against {@code none}
     * in the same round: the slow-down by depth and threads, checked against the floor at that depth.
     */
    static String injected(SweepEstimates table, SweepEstimates inj, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("### The seed's experiment as an option: `inject=" + SEED_INJECT + "`\n\n"
                + "What Mikulas Patocka added by hand, one no-op `cmpxchg` where each clone is made and one where it completes, is the"
                + " job key `inject=" + SEED_INJECT + "` here (any job file, or `lab engine run --inject`); the injected points share"
                + " one word of their own. Slow-down of `none` with it over `none` without it, measured in the same round (time"
                + " with / time without), by depth and threads; at depth 0 no clone is made, so nothing fires (a control):\n\n| depth |");
        List<Integer> ts = new ArrayList<>(inj.threadCounts());
        ts.forEach(t -> b.append(' ').append(t).append(t == 1 ? " thread |" : " threads |"));
        b.append("\n|---:|").append("---:|".repeat(ts.size())).append('\n');
        Map<String, Object> rows = new LinkedHashMap<>();
        for (int d : depths(inj)) {
            b.append("| ").append(d).append(" |");
            Map<String, Object> byT = new LinkedHashMap<>();
            for (int t : ts) {
                Estimate sp = inj.across(table, DmCssRef.injected(d), key(NONE, d), t, "with/without", (w, o) -> w / o, false);
                b.append(' ').append(Parts.ratioCell(sp)).append(" |");
                byT.put(Integer.toString(t), Parts.json(sp));
            }
            b.append('\n');
            rows.put(Integer.toString(d), byT);
        }
        out.put("injected_vs_none", rows);
        return b.append("\nThe floor of each cell is the A/A of the same depth and thread count (`percpu` against its copy), measured"
                + " within one JMH invocation; the injected runs are an invocation of their own, and depth 0, where nothing fires, is"
                + " how far the two invocations differ without any injection: read every row against that row too.\n\n").toString();
    }
}
