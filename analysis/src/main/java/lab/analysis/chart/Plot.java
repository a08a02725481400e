package lab.analysis.chart;

import java.util.List;
import java.util.stream.DoubleStream;
import lab.analysis.chart.Svg.Anchor;

/**
 * The frame both charts share: page layout, palette, title, y grid with tick labels, axis lines,
 * axis labels, error bars and the legend (drawn only for more than one series).
 */
final class Plot {
    static final int WIDTH = 720;
    static final int HEIGHT = 420;
    /** Plot area, in pixels; its right edge depends on the legend. */
    static final double TOP = 48;
    static final double BOTTOM = HEIGHT - 64;
    static final double LEFT = 72;
    private static final double MARGIN_RIGHT = 24;
    private static final double LEGEND_GAP = 12;
    private static final double SWATCH = 14;
    /** Rough width of one 12 px sans-serif character, to size the legend. */
    private static final double CHAR_PX = 7;

    /** Okabe-Ito (colour-blind safe), by series index; yellow, faint on white, comes late. */
    static final List<String> PALETTE =
            List.of("#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#000000");
    static final String INK = "#333333";
    static final String GRID = "#dddddd";

    /** Text height of one more line of an 11 px label. */
    static final double LINE_PX = 13;
    /** The most characters of a legend entry on one line: the legend takes at most a third of the width. */
    private static final int LEGEND_FIT = (int) ((WIDTH / 3.0 - LEGEND_GAP - SWATCH - 6) / CHAR_PX);

    /** Right edge of the plot area. */
    final double right;
    private final List<String> legend;
    /** Lines of the tallest x label: past two, the picture grows downwards, so no label is ever cut. */
    private int xLabelLines = 1;

    Plot(List<String> seriesNames) {
        this.legend = seriesNames.size() > 1 ? List.copyOf(seriesNames) : List.of();
        this.right = WIDTH - MARGIN_RIGHT - legendWidth();
    }

    /** Reserves room for x labels of up to {@code lines} lines (see {@link #xTickLabel(Svg, double, String, double)}). */
    Plot xLabelLines(int lines) {
        this.xLabelLines = Math.max(1, lines);
        return this;
    }

    /** The picture's height: {@link #HEIGHT}, and a line more for each x-label line past two. */
    double height() {
        return HEIGHT + LINE_PX * Math.max(0, xLabelLines - 2);
    }

    /**
     * {@code text} on lines of at most {@code fit} characters: broken after spaces and dashes,
     * and a word longer than a line split where it must; nothing is cut or dropped.
     */
    static List<String> wrap(String text, int fit) {
        List<String> tokens = new java.util.ArrayList<>();
        StringBuilder t = new StringBuilder();
        for (char ch : text.toCharArray()) {
            if (ch == ' ') {
                if (!t.isEmpty()) {
                    tokens.add(t.toString());
                    t.setLength(0);
                }
                continue;
            }
            t.append(ch);
            if (ch == '-') {
                tokens.add(t.toString());
                t.setLength(0);
            }
        }
        if (!t.isEmpty()) {
            tokens.add(t.toString());
        }
        List<String> lines = new java.util.ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String tok : tokens) {
            String sep = line.isEmpty() || line.charAt(line.length() - 1) == '-' ? "" : " ";
            if (line.length() + sep.length() + tok.length() <= fit) {
                line.append(sep).append(tok);
                continue;
            }
            if (!line.isEmpty()) {
                lines.add(line.toString());
                line.setLength(0);
            }
            String rest = tok;
            while (rest.length() > fit) {
                lines.add(rest.substring(0, fit));
                rest = rest.substring(fit);
            }
            line.append(rest);
        }
        if (!line.isEmpty() || lines.isEmpty()) {
            lines.add(line.toString());
        }
        return lines;
    }

    /** How many characters of an 11 px label fit a band {@code width} px wide. */
    static int labelFit(double width) {
        return Math.max(3, (int) (width / 6.2)); // 11 px text: about 6.2 px a character
    }

    static String colour(int series) {
        return PALETTE.get(series % PALETTE.size());
    }

    static String require(String what, String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return text;
    }

    /** A value is finite or NaN (missing); its error bar has both ends or neither, finite, low <= high. */
    static void checkValue(double value, Double low, Double high) {
        if (Double.isInfinite(value)) {
            throw new IllegalArgumentException("an infinite value: " + value);
        }
        if ((low == null) != (high == null)) {
            throw new IllegalArgumentException("an error bar needs both low and high: " + low + ", " + high);
        }
        if (low != null && !(Double.isFinite(low) && Double.isFinite(high) && low <= high)) {
            throw new IllegalArgumentException("not an error bar: low " + low + ", high " + high);
        }
    }

    /** {min, max} of the finite values, or {0, 0} when there are none. */
    static double[] range(DoubleStream values) {
        double[] v = values.filter(Double::isFinite).toArray();
        return v.length == 0 ? new double[] {0, 0}
                : new double[] {DoubleStream.of(v).min().orElseThrow(), DoubleStream.of(v).max().orElseThrow()};
    }

    Scale yScale(Axis y) {
        return y.scale(BOTTOM, TOP);
    }

    /** Starts the drawing: title, y grid and tick labels, axis lines, axis labels (x label if any). */
    Svg frame(String title, String xLabel, String yLabel, Axis y) {
        Svg svg = new Svg(WIDTH, (int) height()).text(WIDTH / 2.0, 28, Anchor.MIDDLE, 16, title);
        Scale ys = yScale(y);
        for (double t : y.ticks()) {
            svg.line(LEFT, ys.px(t), right, ys.px(t), GRID, 1).text(LEFT - 6, ys.px(t) + 4, Anchor.END, 11, y.label(t));
        }
        svg.line(LEFT, TOP, LEFT, BOTTOM, INK, 1).line(LEFT, BOTTOM, right, BOTTOM, INK, 1);
        if (xLabel != null) {
            svg.text((LEFT + right) / 2, height() - 14, Anchor.MIDDLE, 13, xLabel);
        }
        return svg.textUp(18, (TOP + BOTTOM) / 2, 13, yLabel);
    }

    /** A label under the x axis at pixel {@code x}. */
    static void xTickLabel(Svg svg, double x, String label) {
        svg.text(x, BOTTOM + 18, Anchor.MIDDLE, 11, label);
    }

    /**
     * A category label in a band {@code width} px wide: on one line when it fits, else wrapped at
     * spaces and dashes onto as many lines as it needs ({@link #wrap}); the chart has reserved
     * room for them ({@link #xLabelLines}). Never cut.
     */
    static void xTickLabel(Svg svg, double x, String label, double width) {
        List<String> lines = wrap(label, labelFit(width));
        if (lines.size() == 1) {
            xTickLabel(svg, x, label);
            return;
        }
        for (int i = 0; i < lines.size(); i++) {
            svg.text(x, BOTTOM + 16 + LINE_PX * i, Anchor.MIDDLE, 11, lines.get(i));
        }
    }

    /** A vertical line from {@code yHigh} down to {@code yLow} with a cap of {@code cap} px at each end. */
    static void errorBar(Svg svg, double x, double yLow, double yHigh, double cap, String stroke) {
        svg.line(x, yHigh, x, yLow, stroke, 1.5)
                .line(x - cap / 2, yHigh, x + cap / 2, yHigh, stroke, 1.5)
                .line(x - cap / 2, yLow, x + cap / 2, yLow, stroke, 1.5);
    }

    /**
     * One entry per series right of the plot area: a swatch (a box, or a line with a marker) and
     * the name, wrapped onto more lines where it is longer than the legend's width.
     */
    void legend(Svg svg, boolean lines) {
        double y = TOP + 8;
        for (int i = 0; i < legend.size(); i++) {
            double x = right + LEGEND_GAP;
            if (lines) {
                svg.line(x, y, x + SWATCH, y, colour(i), 2).circle(x + SWATCH / 2, y, 3, colour(i));
            } else {
                svg.rect(x, y - SWATCH / 2, SWATCH, SWATCH, colour(i));
            }
            List<String> text = wrap(legend.get(i), LEGEND_FIT);
            for (int l = 0; l < text.size(); l++) {
                svg.text(x + SWATCH + 6, y + 4 + 14 * l, Anchor.START, 12, text.get(l));
            }
            y += 20 + 14 * (text.size() - 1);
        }
    }

    private double legendWidth() {
        int chars = legend.stream().mapToInt(String::length).max().orElse(-1);
        return chars < 0 ? 0 : Math.min(WIDTH / 3.0, LEGEND_GAP + SWATCH + 6 + chars * CHAR_PX);
    }
}
