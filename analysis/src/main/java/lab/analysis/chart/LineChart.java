package lab.analysis.chart;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.DoubleStream;
import lab.analysis.chart.Svg.Anchor;

/**
 * Lines over a numeric x axis as a standalone SVG: thread sweeps, one line with markers per
 * series, each point with an optional vertical error bar. The x axis may be log2 (1, 2, 4, 8, 16
 * threads evenly spaced); the y axis holds 0 unless {@link #yFromZero(boolean) told otherwise}.
 * A NaN y leaves a gap in its line. {@link #markX} draws a dashed vertical line with a label,
 * for a crossover; {@link #markY} a dashed horizontal one ("1.0 = equal"), which the y axis
 * holds. Each point has a tooltip with its exact values.
 *
 * <pre>{@code
 * String svg = new LineChart("Lock hand-off", "threads", "throughput (Mops/s)")
 *         .log2X()
 *         .series("jvm", List.of(Point.of(1, 9.5, 9.1, 9.8), Point.of(2, 7.0), Point.of(4, 4.2)))
 *         .series("kernel", List.of(Point.of(1, 6.1), Point.of(2, 6.0), Point.of(4, 5.8)))
 *         .markX(3, "crossover")
 *         .toSvg();
 * }</pre>
 */
public final class LineChart {
    /** One point: x, y and an error bar when low and high are both given. NaN y: a gap. */
    public record Point(double x, double y, Double low, Double high) {
        public Point {
            if (!Double.isFinite(x)) {
                throw new IllegalArgumentException("a point needs a finite x: " + x);
            }
            Plot.checkValue(y, low, high);
        }

        public static Point of(double x, double y) {
            return new Point(x, y, null, null);
        }

        public static Point of(double x, double y, double low, double high) {
            return new Point(x, y, low, high);
        }
    }

    private record Series(String name, List<Point> points) {}

    /** A dashed reference line: at an x ({@link #markX}) or a y ({@link #markY}). */
    private record Mark(double at, String label) {}

    /** Space between the axis ends and the first and last x tick, so markers clear the axes. */
    private static final double X_PAD = 12;
    private static final double MARKER_R = 3.5;
    private static final double CAP_PX = 8;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private boolean log2X;
    private boolean yFromZero = true;
    private final List<Series> series = new ArrayList<>();
    private final List<Mark> marks = new ArrayList<>();
    private final List<Mark> yMarks = new ArrayList<>();

    /** The labels name the quantity and its unit: "threads", "latency p99 (us)". */
    public LineChart(String title, String xLabel, String yLabel) {
        this.title = Plot.require("title", title);
        this.xLabel = Plot.require("x label", xLabel);
        this.yLabel = Plot.require("y label", yLabel);
    }

    /** Spaces the x axis by powers of two; every x must then be above 0. */
    public LineChart log2X() {
        this.log2X = true;
        return this;
    }

    /** Whether the y axis must reach 0 (the default) or may fit the data alone. */
    public LineChart yFromZero(boolean fromZero) {
        this.yFromZero = fromZero;
        return this;
    }

    /** Adds a series; its points are drawn in x order (ties keep their given order). */
    public LineChart series(String name, List<Point> points) {
        List<Point> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparingDouble(Point::x));
        series.add(new Series(Plot.require("series name", name), List.copyOf(sorted)));
        return this;
    }

    /** Adds a dashed vertical line at {@code x} with {@code label} at its top. */
    public LineChart markX(double x, String label) {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("mark at " + x);
        }
        marks.add(new Mark(x, label == null ? "" : label));
        return this;
    }

    /** Adds a dashed horizontal line at {@code y} with {@code label} at its right end; the y axis then holds {@code y}. */
    public LineChart markY(double y, String label) {
        if (!Double.isFinite(y)) {
            throw new IllegalArgumentException("mark at " + y);
        }
        yMarks.add(new Mark(y, label == null ? "" : label));
        return this;
    }

    public String toSvg() {
        Plot plot = plot();
        Axis x = xAxis();
        Axis y = yAxis();
        Scale xs = xScale(plot, x);
        Scale ys = plot.yScale(y);
        Svg svg = plot.frame(title, xLabel, yLabel, y);
        for (double t : x.ticks()) {
            svg.line(xs.px(t), Plot.TOP, xs.px(t), Plot.BOTTOM, Plot.GRID, 1);
            Plot.xTickLabel(svg, xs.px(t), x.label(t));
        }
        for (Mark m : marks) {
            double px = xs.px(m.at());
            boolean leftOfIt = px > (Plot.LEFT + plot.right) / 2;
            svg.dashed(px, Plot.TOP, px, Plot.BOTTOM, Plot.INK, 1.5)
                    .text(px + (leftOfIt ? -4 : 4), Plot.TOP + 12, leftOfIt ? Anchor.END : Anchor.START, 11, m.label());
        }
        for (Mark m : yMarks) {
            svg.dashed(Plot.LEFT, ys.px(m.at()), plot.right, ys.px(m.at()), Plot.INK, 1.5)
                    .text(plot.right - 4, ys.px(m.at()) - 5, Anchor.END, 11, m.label());
        }
        for (int s = 0; s < series.size(); s++) {
            line(svg, xs, ys, Plot.colour(s), series.get(s).points());
            points(svg, xs, ys, x.decimals(), y.decimals() + 2, Plot.colour(s), series.get(s));
        }
        plot.legend(svg, true);
        return svg.finish();
    }

    /** The x and y pixels of a value, as {@link #toSvg} draws them. */
    Scale xScale() {
        return xScale(plot(), xAxis());
    }

    Scale yScale() {
        return plot().yScale(yAxis());
    }

    Axis xAxis() {
        double[] r = Plot.range(DoubleStream.concat(
                series.stream().flatMap(s -> s.points().stream()).mapToDouble(Point::x),
                marks.stream().mapToDouble(Mark::at)));
        if (log2X) {
            return r[0] == 0 && r[1] == 0 ? Axis.log2(1, 2) : Axis.log2(r[0], r[1]);
        }
        return Axis.linear(r[0], r[1]);
    }

    Axis yAxis() {
        double[] r = Plot.range(DoubleStream.concat(series.stream().flatMap(s -> s.points().stream())
                .flatMapToDouble(p -> p.low() == null ? DoubleStream.of(p.y()) : DoubleStream.of(p.y(), p.low(), p.high())),
                yMarks.stream().mapToDouble(Mark::at)));
        return yFromZero ? Axis.linearFromZero(r[0], r[1]) : Axis.linear(r[0], r[1]);
    }

    private Plot plot() {
        return new Plot(series.stream().map(Series::name).toList());
    }

    private static Scale xScale(Plot plot, Axis x) {
        return x.scale(Plot.LEFT + X_PAD, plot.right - X_PAD);
    }

    /** One polyline per run of points with a y; a lone point gets only its marker. */
    private static void line(Svg svg, Scale xs, Scale ys, String colour, List<Point> points) {
        List<Point> run = new ArrayList<>();
        for (int i = 0; i <= points.size(); i++) {
            if (i < points.size() && !Double.isNaN(points.get(i).y())) {
                run.add(points.get(i));
                continue;
            }
            if (run.size() > 1) {
                svg.polyline(run.stream().mapToDouble(p -> xs.px(p.x())).toArray(),
                        run.stream().mapToDouble(p -> ys.px(p.y())).toArray(), colour, 2);
            }
            run.clear();
        }
    }

    private static void points(Svg svg, Scale xs, Scale ys, int xDecimals, int yDecimals, String colour, Series s) {
        for (Point p : s.points()) {
            if (Double.isNaN(p.y())) {
                continue;
            }
            String x = p.x() == Math.rint(p.x()) ? Svg.fixed(p.x(), 0) : Svg.fixed(p.x(), xDecimals + 2);
            svg.group(s.name() + " @ " + x + ": " + Svg.fixed(p.y(), yDecimals)
                    + (p.low() == null ? "" : " [" + Svg.fixed(p.low(), yDecimals) + ", " + Svg.fixed(p.high(), yDecimals) + "]"));
            if (p.low() != null) {
                Plot.errorBar(svg, xs.px(p.x()), ys.px(p.low()), ys.px(p.high()), CAP_PX, colour);
            }
            svg.circle(xs.px(p.x()), ys.px(p.y()), MARKER_R, colour).end();
        }
    }
}
