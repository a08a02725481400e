package lab.analysis.compare;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;

/**
 * Renders comparisons in the layout of the kernel test robot's (LKP, 0-day) reports, as a markdown
 * code block followed by a legend line:
 *
 * <pre>
 *           atomic                  percpu-ref
 * ---------------- ---------------------------
 *          %stddev     %change         %stddev
 *              \          |                \
 *    1234567 ±  2%     +12.3%*   1386543 ±  1%  metric.name
 * </pre>
 *
 * The column widths are LKP's: mean 10, {@code ±%3d%} 6, {@code %change} 11, mean 10 (LKP's 11
 * less the marker), stddev 6, then two spaces and the metric name. The one addition is the marker
 * right after {@code %change}, mmtests-style: {@code *} when {@link Comparison#significance()} is
 * SIGNIFICANT. Wider values push the rest of their row to the right; trailing blanks are trimmed.
 * Variant names are right-aligned over their columns instead of LKP's truncated commit ids.
 */
public final class LkpTable {
    private static final String FENCE = "```";
    private static final String DASHES = "---------------- ---------------------------";
    private static final String STDDEV_HEADER = "         %stddev     %change         %stddev";
    private static final String ARROWS = "             \\          |                \\";
    private static final String ROW = "%10s%-6s%11s%1s%10s%-6s  %s";
    static final String LEGEND = "`*` the 95% confidence intervals of the two means do not overlap"
        + " (mmtests cidiff); `± N%` stddev as a percent of the mean, shown when N >= 1 and there"
        + " are 2+ runs; means: integers from 1000, two decimals from 1, three significant digits"
        + " below.";

    /**
     * The legend of blocks whose {@code %change} comes from a notebook's one estimator
     * ({@link #block(String, String, List, boolean)}).
     */
    static final String ESTIMATOR_LEGEND = "`%change`: the change in the row's metric, from the notebook's estimator (the geometric"
        + " mean of the per-round ratios, or per repetition where the notebook says so), not from the means; `~` marks a change whose"
        + " 95% interval holds 0, which is no finding; `± N%` stddev of the iterations (or repetitions) as a percent of their mean, shown when N >= 1 and there"
        + " are 2+ of them; means: integers from 1000, two decimals from 1, three significant digits below.";

    /** One row whose change is given: a notebook's estimator, not the means (see {@link #ESTIMATOR_LEGEND}). */
    public record Row(String metric, Sample base, Sample candidate, double pctChange, boolean withinNoise) {}

    private LkpTable() {}

    /** The fence and the column heads of one table. */
    private static StringBuilder header(String baseName, String candidateName) {
        StringBuilder out = new StringBuilder();
        line(out, FENCE);
        line(out, String.format(Locale.ROOT, "%16s %27s", baseName, candidateName));
        line(out, DASHES);
        line(out, STDDEV_HEADER);
        line(out, ARROWS);
        return out;
    }

    /** One table of {@link Row}s without the legend: the base's and candidate's means and stddev, the given change. */
    public static String block(String baseName, String candidateName, List<Row> rows, boolean estimator) {
        StringBuilder out = header(baseName, candidateName);
        rows.forEach(r -> line(out, String.format(Locale.ROOT, ROW, number(r.base().mean()), stddev(r.base()),
                change(r.pctChange()), r.withinNoise() ? "~" : "", number(r.candidate().mean()), stddev(r.candidate()),
                r.metric())));
        line(out, FENCE);
        return out.toString();
    }

    /** The legend of {@link Row} blocks. */
    public static String estimatorLegend() {
        return ESTIMATOR_LEGEND + "\n";
    }

    /** One table, base variant against candidate variant, rows in the order given, then the legend. */
    public static String render(String baseName, String candidateName, List<Comparison> rows) {
        StringBuilder out = new StringBuilder(block(baseName, candidateName, rows));
        line(out, LEGEND);
        return out.toString();
    }

    /** The legend line, for a notebook that prints several tables and explains them once. */
    public static String legend() {
        return LEGEND + "\n";
    }

    /** One table without the legend. */
    public static String block(String baseName, String candidateName, List<Comparison> rows) {
        StringBuilder out = header(baseName, candidateName);
        rows.forEach(c -> line(out, row(c)));
        line(out, FENCE);
        return out.toString();
    }

    static String row(Comparison c) {
        return String.format(Locale.ROOT, ROW,
            number(c.base().mean()), stddev(c.base()),
            change(c.pctChange()), c.significance() == Comparison.Significance.SIGNIFICANT ? "*" : "",
            number(c.candidate().mean()), stddev(c.candidate()), c.metric());
    }

    /**
     * A mean as the table prints it, never with an exponent: from 1000 on an integer (as LKP), from
     * 1 two decimals (as LKP), below 1 three significant digits (LKP's two decimals would print
     * 0.0042 as 0.00).
     */
    static String number(double v) {
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%.0f", v);
        } else if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        } else if (v == 0) {
            return "0";
        }
        return new BigDecimal(v).round(new MathContext(3, RoundingMode.HALF_EVEN)).toPlainString();
    }

    /** LKP's {@code " ± N%"}: the rounded percent, only when it is at least 1 and n >= 2. */
    static String stddev(Sample s) {
        double pct = s.stddevPct();
        long rounded = Double.isFinite(pct) ? Math.round(pct) : 0;
        return s.n() >= 2 && rounded >= 1 ? String.format(Locale.ROOT, " ±%3d%%", rounded) : "";
    }

    /** LKP's {@code %change}: sign and one decimal; {@code n/a} against a zero base. */
    static String change(double pct) {
        return Double.isFinite(pct) ? String.format(Locale.ROOT, "%+.1f%%", pct) : "n/a";
    }

    private static void line(StringBuilder out, String text) {
        out.append(text.stripTrailing()).append('\n');
    }
}
