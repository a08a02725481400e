package lab.analysis.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.DoubleStream;
import java.util.stream.Stream;
import lab.analysis.chart.Svg.Anchor;

/**
 * Grouped bars as a standalone SVG: one group per category (say, a variant) and one bar per
 * series in each group (say, a thread count, or JVM and kernel), in the order given. A bar may
 * carry an error bar from its low to its high value; a NaN value is a missing bar, drawn as a
 * small "n/a". Horizontal dashed reference lines ("1.0 = baseline") are optional, their labels
 * kept apart where lines lie close. The y axis always holds 0. Each bar has a tooltip with its
 * exact values, and a bar wide enough for it its value written above it (a chart shown as an
 * image has no tooltips).
 *
 * <pre>{@code
 * String svg = new BarChart("Ratio to seed", "speed-up (x)")
 *         .categories(List.of("spin", "mcs"))
 *         .series("jvm", List.of(Bar.of(1.7, 1.6, 1.8), Bar.missing()))
 *         .referenceLine(1.0, "1.0 = baseline")
 *         .toSvg();
 * }</pre>
 */
public final class BarChart {
    /** One bar: its value, and an error bar when low and high are both given. NaN value: missing. */
    public record Bar(double value, Double low, Double high) {
        public Bar {
            Plot.checkValue(value, low, high);
        }

        public static Bar of(double value) {
            return new Bar(value, null, null);
        }

        public static Bar of(double value, double low, double high) {
            return new Bar(value, low, high);
        }

        public static Bar missing() {
            return of(Double.NaN);
        }
    }

    private record Series(String name, List<Bar> bars) {}

    private record Reference(double y, String label) {}

    /** Share of a category's width the bars take; the rest separates the groups. */
    private static final double GROUP_SHARE = 0.8;
    /** Width of an error bar's caps, as a share of the bar's width. */
    private static final double CAP_SHARE = 0.4;
    /** The narrowest bar (px) that gets its value written above it. */
    static final double VALUE_MIN_WIDTH = 30;
    /** Vertical room (px) a reference line's 11 px label takes; a closer label goes below its line. */
    private static final double LABEL_ROOM = 13;

    private final String title;
    private final String yLabel;
    private String xLabel;
    private List<String> categories = List.of();
    private final List<Series> series = new ArrayList<>();
    private final List<Reference> references = new ArrayList<>();

    /** {@code yLabel} names the quantity and its unit: "throughput (MiB/s)". */
    public BarChart(String title, String yLabel) {
        this.title = Plot.require("title", title);
        this.yLabel = Plot.require("y label", yLabel);
    }

    /** Names the categories under the x axis ("variant"); none by default. */
    public BarChart xLabel(String label) {
        this.xLabel = Plot.require("x label", label);
        return this;
    }

    public BarChart categories(List<String> names) {
        this.categories = List.copyOf(names);
        return this;
    }

    /** Adds a series: one bar per category, in category order. */
    public BarChart series(String name, List<Bar> bars) {
        series.add(new Series(Plot.require("series name", name), List.copyOf(bars)));
        return this;
    }

    /** Adds a dashed horizontal line at {@code y}, labelled at its right end. */
    public BarChart referenceLine(double y, String label) {
        if (!Double.isFinite(y)) {
            throw new IllegalArgumentException("reference line at " + y);
        }
        references.add(new Reference(y, label == null ? "" : label));
        return this;
    }

    public String toSvg() {
        check();
        Plot plot = new Plot(series.stream().map(Series::name).toList());
        double band = (plot.right - Plot.LEFT) / categories.size();
        plot.xLabelLines(categories.stream().mapToInt(c -> Plot.wrap(c, Plot.labelFit(band - 4)).size()).max().orElse(1));
        Axis y = yAxis();
        Scale ys = plot.yScale(y);
        Svg svg = plot.frame(title, xLabel, yLabel, y);
        double width = band * GROUP_SHARE / series.size();
        for (int c = 0; c < categories.size(); c++) {
            double groupX = Plot.LEFT + band * c + band * (1 - GROUP_SHARE) / 2;
            for (int s = 0; s < series.size(); s++) {
                String tip = series.get(s).name() + " / " + categories.get(c) + ": ";
                bar(svg, ys, y.decimals() + 2, groupX + s * width, width, Plot.colour(s), tip, series.get(s).bars().get(c));
            }
            Plot.xTickLabel(svg, Plot.LEFT + band * (c + 0.5), categories.get(c), band - 4);
        }
        if (y.min() < 0) {
            svg.line(Plot.LEFT, ys.px(0), plot.right, ys.px(0), Plot.INK, 1);
        }
        for (Reference r : references) {
            svg.dashed(Plot.LEFT, ys.px(r.y()), plot.right, ys.px(r.y()), Plot.INK, 1.5);
        }
        List<Double> placed = new ArrayList<>();
        for (Reference r : references) {
            if (!r.label().isEmpty()) {
                double at = labelY(ys.px(r.y()), placed);
                placed.add(at);
                svg.textOnPlot(plot.right - 4, at, Anchor.END, 11, r.label());
            }
        }
        plot.legend(svg, false);
        return svg.finish();
    }

    /**
     * The baseline of a reference line's label at pixel {@code line}: above the line, or below it
     * where a label already {@code placed} is closer than {@link #LABEL_ROOM}, or further down
     * until it is clear.
     */
    static double labelY(double line, List<Double> placed) {
        for (double at : new double[] {line - 5, line + LABEL_ROOM}) {
            if (placed.stream().allMatch(p -> Math.abs(p - at) >= LABEL_ROOM)) {
                return at;
            }
        }
        double at = line + LABEL_ROOM;
        while (true) {
            double a = at;
            if (placed.stream().allMatch(p -> Math.abs(p - a) >= LABEL_ROOM)) {
                return at;
            }
            at += LABEL_ROOM;
        }
    }

    /** The y pixel of a value, as {@link #toSvg} draws it. */
    Scale yScale() {
        return new Plot(series.stream().map(Series::name).toList()).yScale(yAxis());
    }

    Axis yAxis() {
        Stream<Bar> bars = series.stream().flatMap(s -> s.bars().stream());
        double[] r = Plot.range(DoubleStream.concat(
                bars.flatMapToDouble(b -> b.low() == null ? DoubleStream.of(b.value())
                        : DoubleStream.of(b.value(), b.low(), b.high())),
                references.stream().mapToDouble(Reference::y)));
        return Axis.linearFromZero(r[0], r[1]);
    }

    private static void bar(Svg svg, Scale ys, int decimals, double x, double width, String colour, String tip, Bar bar) {
        double zero = ys.px(0);
        double cx = x + width / 2;
        if (Double.isNaN(bar.value())) {
            svg.group(tip + "n/a").text(cx, zero - 4, Anchor.MIDDLE, 10, "n/a").end();
            return;
        }
        double top = ys.px(bar.value());
        svg.group(tip + Svg.fixed(bar.value(), decimals) + (bar.low() == null ? ""
                : " [" + Svg.fixed(bar.low(), decimals) + ", " + Svg.fixed(bar.high(), decimals) + "]"));
        svg.rect(x + 1, Math.min(top, zero), Math.max(1, width - 2), Math.abs(zero - top), colour);
        if (bar.low() != null) {
            Plot.errorBar(svg, cx, ys.px(bar.low()), ys.px(bar.high()), width * CAP_SHARE, Plot.INK);
        }
        if (width >= VALUE_MIN_WIDTH) {
            double above = Math.min(top, bar.high() == null ? top : ys.px(Math.max(bar.high(), bar.value())));
            svg.textOnPlot(cx, Math.min(above, zero) - 4, Anchor.MIDDLE, 10, Svg.fixed(bar.value(), Math.min(2, decimals - 1)));
        }
        svg.end();
    }

    private void check() {
        if (categories.isEmpty() || series.isEmpty()) {
            throw new IllegalStateException("a bar chart needs categories and at least one series");
        }
        for (Series s : series) {
            if (s.bars().size() != categories.size()) {
                throw new IllegalStateException("series " + s.name() + " has " + s.bars().size() + " bars for "
                        + categories.size() + " categories");
            }
        }
    }
}
