package lab.notebook;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import lab.analysis.Stats;
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
        return LkpTable.legend() + '\n';
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

    /** {@code spread(v)}, or null for no values. */
    public static Stats.Spread spread(List<Double> v) {
        return v.isEmpty() ? null : Stats.spread(v);
    }
}
