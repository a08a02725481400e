package lab.notebook;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.chart.LineChart;
import lab.analysis.compare.Comparison;
import lab.analysis.compare.LkpTable;

/** The notebook parts every fix section draws on: LKP blocks, the thread-sweep chart, spreads in summary.json. */
public final class Parts {
    private Parts() {}

    /**
     * One LKP block, {@code `BASE` -> `CAND`[ (NOTE)]:} and the table of {@code rows}; "" when
     * there are no rows. Blocks end with the {@link #lkpLegend()}.
     */
    public static String lkpBlock(String base, String cand, String note, List<Comparison> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        return "`" + base + "` -> `" + cand + "`" + (note == null ? "" : " (" + note + ")") + ":\n\n"
                + LkpTable.block(base, cand, rows) + '\n';
    }

    /** What the LKP columns mean, once after the blocks. */
    public static String lkpLegend() {
        return LkpTable.estimatorLegend() + '\n';
    }

    /** One LKP block of {@link lab.analysis.estimate.SweepEstimates#lkpRow}s, {@code `BASE` -> `CAND`[ (NOTE)]:} and the table; "" when there are no rows. */
    public static String lkpRows(String base, String cand, String note, List<LkpTable.Row> rows) {
        List<LkpTable.Row> present = rows.stream().filter(r -> r != null).toList();
        if (present.isEmpty()) {
            return "";
        }
        return "`" + base + "` -> `" + cand + "`" + (note == null ? "" : " (" + note + ")") + ":\n\n"
                + LkpTable.block(base, cand, present, true) + '\n';
    }

    /**
     * Total throughput by threads, one series per variant (log2 threads): {@code point(variant,
     * threads)} is the point, or null where the run has none; a variant with no point is left out.
     */
    public static String sweepChart(String title, String yLabel, List<String> variants, Collection<Integer> threads,
                                    BiFunction<String, Integer, LineChart.Point> point) {
        LineChart c = new LineChart(title, "threads", yLabel).log2X();
        for (String v : variants) {
            List<LineChart.Point> pts = threads.stream().map(t -> point.apply(v, t)).filter(p -> p != null).toList();
            if (!pts.isEmpty()) {
                c.series(v, pts);
            }
        }
        return c.toSvg();
    }

    /** A spread as summary.json writes it ({@code median, min, max, rounds}); null for none. */
    public static Map<String, Object> json(Stats.Spread s) {
        if (s == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", s.median());
        m.put("min", s.min());
        m.put("max", s.max());
        m.put("rounds", s.n());
        return m;
    }

    /** The calibration in words, and how much more a shared line weighs in the raw model's ratio than in the kernel's. */
    public static String calibration(lab.analysis.fidelity.Calibration cal) {
        return "Calibration: " + cal.describe() + ". The raw model's I/O costs " + Fmt.f(cal.modelNsPerIo(), 1) + " ns, the kernel's "
                + Fmt.f(cal.kernelNsPerIo(), 0) + ": uncalibrated, the same shared line weighs "
                + Fmt.f(cal.kernelNsPerIo() / cal.modelNsPerIo(), 0) + " times more in the model's ratio than in the kernel's.\n\n";
    }

    /**
     * A ratio in the notebook's estimator, {@code value [lo–hi]x}, marked "(holds 1)" where its own
     * interval holds 1 (no effect resolved); "n/a" when there is none.
     */
    public static String ratioCell(Estimate r) {
        if (r == null) {
            return "n/a";
        }
        return r.format(2) + "x" + (r.hasInterval() && !r.excludes(1) ? " (holds 1)" : "");
    }

    /**
     * The model's own noise at {@code threads}: each variant's fork-to-fork CV
     * ({@link lab.analysis.estimate.SweepEstimates#forkCv}), in the variants' order, those with one;
     * and whether any of those ran two forks or more a trial.
     */
    public record ForkCvs(int threads, Map<String, Double> byVariant, boolean forks) {
        /** The CVs of {@code variants} ({@code key}: a variant's cell) in {@code s} at {@code t} threads. */
        public static ForkCvs estimate(lab.analysis.estimate.SweepEstimates s, List<String> variants,
                                       java.util.function.Function<String, Map<String, String>> key, int t) {
            Map<String, Double> cvs = new LinkedHashMap<>();
            boolean forks = false;
            for (String v : variants) {
                double cv = s.forkCv(key.apply(v), t);
                if (Double.isFinite(cv)) {
                    cvs.put(v, cv);
                    forks |= s.multiFork(key.apply(v), t);
                }
            }
            return new ForkCvs(t, cvs, forks);
        }
    }

    /**
     * The model's own noise, one line: each variant's fork-to-fork CV at {@code cv}'s threads, and
     * into {@code out} by variant; "" where no variant has two forks or two rounds.
     */
    public static String forkCv(ForkCvs cv, Map<String, Object> out) {
        List<String> parts = new java.util.ArrayList<>();
        cv.byVariant().forEach((v, x) -> {
            parts.add("`" + v + "` " + Fmt.f(100 * x, 1) + "%");
            out.put(v, x);
        });
        if (parts.isEmpty()) {
            return "";
        }
        int t = cv.threads();
        return "The model's own noise at " + t + (t == 1 ? " thread" : " threads") + ", each variant's fork-to-fork CV ("
                + (cv.forks() ? "the spread of its forks' means within a round over their mean, the median over rounds" : "one fork per"
                + " trial: the spread of its rounds' scores, each a fresh JVM, over their mean") + "): " + String.join(", ", parts)
                + ".\n\n";
    }

    /** A chart point at {@code x} from an estimate: its value, and its interval where it has one; null for none. */
    public static LineChart.Point point(double x, Estimate e) {
        if (e == null) {
            return null;
        }
        return e.hasInterval() ? LineChart.Point.of(x, e.value(), e.lo(), e.hi()) : LineChart.Point.of(x, e.value());
    }

    /** An estimate as summary.json writes it ({@code value, ci95, rounds}); null for none. */
    public static Map<String, Object> json(Estimate e) {
        return e == null ? null : e.json();
    }
}
