package lab.fix.zraminitlock;

import static lab.fix.zraminitlock.ZramInitLock.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lab.analysis.JmhSweep;
import lab.analysis.Stats;
import lab.analysis.chart.LineChart;
import lab.engine.load.DataPattern;
import lab.analysis.compare.Comparison;
import lab.analysis.compare.Crossover;
import lab.analysis.compare.Sample;
import lab.notebook.Fmt;
import lab.notebook.Parts;

/**
 * The JVM model's guard table ({@code zram-rR-tT.json}, {@code zram-lz4-rR-tT.json}): each guard's
 * throughput over rwsem's per rw mode, pattern and thread count; the seed's table beside the
 * model's; where "marginal" stops; the sweep chart, allocation and the summary.
 */
final class GuardTable {
    /** Where "marginal" stops: the guard costing more than this share of throughput. */
    static final double MARGINAL = 0.10;

    private GuardTable() {}

    /** The seed's 4 workers where the machine has 4 cores, else the most threads that fit its cores. */
    static int headlineThreads(JmhSweep s, int cores) {
        int best = s.threadCounts().first();
        for (int t : s.threadCounts()) {
            if (t <= Math.max(cores, 1) && t <= 4) {
                best = t;
            }
        }
        return best;
    }

    static Map<String, String> key(String guard, String rw, String pattern) {
        return Map.of("guard", guard, "rw", rw, "pattern", pattern);
    }

    /** Per round: guard throughput / rwsem throughput = score(rwsem) / score(guard); median [min–max] over rounds. */
    static Stats.Spread roundRatios(JmhSweep s, String guard, String rw, String p, int t) {
        List<Double> r = s.perRound(key(BASE, rw, p), key(guard, rw, p), t, (b, x) -> b / x);
        return r.isEmpty() ? null : Stats.spread(r);
    }

    static Double ratio(JmhSweep s, String guard, String rw, String p, int t) {
        List<Double> base = s.samples(key(BASE, rw, p), t);
        List<Double> g = s.samples(key(guard, rw, p), t);
        return base.isEmpty() || g.isEmpty() ? null : Stats.median(base) / Stats.median(g);
    }

    static String ratioMatrix(JmhSweep s) {
        StringBuilder b = new StringBuilder("| rw | pattern | threads |");
        GUARDS.subList(1, GUARDS.size()).forEach(g -> b.append(' ').append(g).append(" / rwsem |"));
        b.append(" rwsem ns/op |\n|---|---|---:|");
        GUARDS.subList(1, GUARDS.size()).forEach(g -> b.append("---:|"));
        b.append("---:|\n");
        for (String rw : s.values("rw")) {
            for (String p : s.values("pattern")) {
                for (int t : s.threadCounts()) {
                    List<Double> base = s.samples(key(BASE, rw, p), t);
                    if (base.isEmpty()) {
                        continue;
                    }
                    b.append("| ").append(rw).append(" | ").append(p).append(" | ").append(t).append(" |");
                    for (String g : GUARDS.subList(1, GUARDS.size())) {
                        Stats.Spread r = roundRatios(s, g, rw, p, t);
                        List<Double> gs = s.samples(key(g, rw, p), t);
                        String sig = gs.isEmpty() ? "" : new Comparison("x", new Sample(base), new Sample(gs), false).significance()
                                == Comparison.Significance.SIGNIFICANT ? "*" : "";
                        b.append(' ').append(r == null ? "n/a" : Fmt.spread(r, 2) + "x" + sig).append(" |");
                    }
                    b.append(' ').append(Fmt.f(Stats.median(base), 0)).append(" |\n");
                }
            }
        }
        return b.toString();
    }

    /** Total throughput (M ops/s) of {@code guard} at each thread count. */
    static Map<Integer, Double> throughput(JmhSweep s, String guard, String rw, String p) {
        Map<Integer, Double> m = new TreeMap<>();
        for (int t : s.threadCounts()) {
            List<Double> v = s.samples(key(guard, rw, p), t);
            if (!v.isEmpty()) {
                m.put(t, t * 1e3 / Stats.median(v));
            }
        }
        return m;
    }

    /** The seed's SRCU-vs-rwsem change per rw mode beside the model's, at the seed's pattern and the headline thread count. */
    static String seedVsModel(JmhSweep s, int t) {
        StringBuilder b = new StringBuilder("The seed's table beside the model's (compressible50, " + t + " threads; "
                + "SRCU throughput over rwsem's, as a change; significance from the ns/op confidence intervals):\n\n"
                + "| rw | seed: SRCU vs rwsem | model: SRCU vs rwsem | model significant? | the guards' own difference, from the zero pattern |\n"
                + "|---|---:|---:|---|---:|\n");
        for (String rw : RWS) {
            List<Double> base = s.samples(key(BASE, rw, HEADLINE_PATTERN), t);
            List<Double> srcu = s.samples(key(SRCU, rw, HEADLINE_PATTERN), t);
            String model = "n/a";
            String sig = "";
            if (!base.isEmpty() && !srcu.isEmpty()) {
                Comparison c = new Comparison("ns", new Sample(base), new Sample(srcu), false);
                model = String.format(java.util.Locale.ROOT, "%+.1f%%", 100 * (c.base().mean() / c.candidate().mean() - 1));
                sig = switch (c.significance()) {
                    case SIGNIFICANT -> "yes";
                    case NOT_SIGNIFICANT -> "no: within noise";
                    case UNKNOWN -> "unknown (one sample)";
                };
            }
            b.append("| ").append(rw).append(" | ").append(String.format(java.util.Locale.ROOT, "%+.2f%%", SEED_PCT.get(rw)))
                    .append(" | ").append(model).append(" | ").append(sig).append(" | ").append(guardShare(s, rw, t)).append(" |\n");
        }
        return b.append("\nThe last column isolates the guards: with the zero pattern an op is a same-filled page (no compression), so ")
                .append("rwsem's and srcu's ns/op differ by what the guards themselves cost; that difference, as a share of one ")
                .append("compressible50 op, is the change the guard alone can make at the seed's conditions. A measured change ")
                .append("larger than that, or of the other sign, is run-to-run noise: see the per-round [min–max] ranges of the first table.\n\n").toString();
    }

    /** (ns_rwsem(zero) - ns_srcu(zero)) / ns_rwsem(compressible50) at {@code t} threads, as a signed percent. */
    static String guardShare(JmhSweep s, String rw, int t) {
        List<Double> rz = s.samples(key(BASE, rw, DataPattern.ZERO.id()), t);
        List<Double> sz = s.samples(key(SRCU, rw, DataPattern.ZERO.id()), t);
        List<Double> rc = s.samples(key(BASE, rw, HEADLINE_PATTERN), t);
        if (rz.isEmpty() || sz.isEmpty() || rc.isEmpty()) {
            return "n/a";
        }
        double delta = Stats.median(rz) - Stats.median(sz);
        return String.format(java.util.Locale.ROOT, "%+.1f%% (%+.0f ns of %.0f)", 100 * delta / Stats.median(rc), delta, Stats.median(rc));
    }

    /** Where rwsem first costs more than MARGINAL against srcu, per rw and pattern. */
    static String marginal(JmhSweep s) {
        if (s.threadCounts().size() < 2) {
            return "";
        }
        StringBuilder b = new StringBuilder("Where \"marginal\" stops being marginal (rwsem more than "
                + Math.round(MARGINAL * 100) + "% slower than srcu in total throughput):\n\n");
        for (String rw : s.values("rw")) {
            for (String p : s.values("pattern")) {
                Map<Integer, Double> rwsem = throughput(s, BASE, rw, p);
                Map<Integer, Double> srcu = throughput(s, SRCU, rw, p);
                if (rwsem.size() >= 2 && rwsem.keySet().equals(srcu.keySet())) {
                    b.append("- ").append(rw).append(", ").append(p).append(": ")
                            .append(Crossover.threshold("rwsem", rwsem, "srcu", srcu, MARGINAL).sentence())
                            .append("; curves: ").append(Crossover.find("rwsem", rwsem, "srcu", srcu).sentence()).append('\n');
                }
            }
        }
        return b.append('\n').toString();
    }

    static String sweepChart(JmhSweep s, String rw, String p) {
        return Parts.sweepChart("zram model, " + rw + ", " + p + ": total throughput by threads, per guard", "M ops/s (all threads)",
                GUARDS, s.threadCounts(), (g, t) -> {
                    List<Double> v = s.samples(key(g, rw, p), t);
                    if (v.isEmpty()) {
                        return null;
                    }
                    Stats.Spread ns = Stats.spread(v);
                    return LineChart.Point.of(t, t * 1e3 / ns.median(), t * 1e3 / ns.max(), t * 1e3 / ns.min());
                });
    }

    static String allocation(JmhSweep s, int t) {
        StringBuilder b = new StringBuilder();
        for (String g : GUARDS) {
            double bytes = s.bytesPerOp(key(g, "randrw", HEADLINE_PATTERN), t);
            if (!Double.isNaN(bytes)) {
                b.append(b.isEmpty() ? "" : ", ").append('`').append(g).append("` ").append(Fmt.f(bytes, 3));
            }
        }
        return b.isEmpty() ? "" : "Allocation per op (JMH -prof gc, randrw compressible50, " + t + " threads, B/op): " + b + ".\n\n";
    }

    static Map<String, Object> summary(JmhSweep s) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String rw : s.values("rw")) {
            for (String p : s.values("pattern")) {
                Map<String, Object> byT = new LinkedHashMap<>();
                for (int t : s.threadCounts()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (String g : GUARDS) {
                        List<Double> v = s.samples(key(g, rw, p), t);
                        if (!v.isEmpty()) {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("ns_per_op_median", Stats.median(v));
                            Double r = ratio(s, g, rw, p, t);
                            m.put("throughput_vs_rwsem", r);
                            row.put(g, m);
                        }
                    }
                    byT.put(Integer.toString(t), row);
                }
                out.put(rw + "/" + p, byT);
            }
        }
        return out;
    }

    /** The LKP blocks: rwsem (base) against each guard at {@code t} threads, per rw mode and pattern. */
    static String lkp(JmhSweep s, int t) {
        StringBuilder b = new StringBuilder("\n### LKP layout: rwsem (base) against each guard at " + t
                + " threads, ns per op per thread (lower is better)\n\n");
        for (String g : GUARDS.subList(1, GUARDS.size())) {
            List<Comparison> rows = new ArrayList<>();
            for (String rw : s.values("rw")) {
                for (String p : s.values("pattern")) {
                    List<Double> a = s.samples(key(BASE, rw, p), t);
                    List<Double> c = s.samples(key(g, rw, p), t);
                    if (!a.isEmpty() && !c.isEmpty()) {
                        rows.add(new Comparison("ns_per_io." + rw + "." + p, new Sample(a), new Sample(c), false));
                    }
                }
            }
            b.append(Parts.lkpBlock(BASE, g, null, rows));
        }
        return b.append(Parts.lkpLegend()).toString();
    }
}
