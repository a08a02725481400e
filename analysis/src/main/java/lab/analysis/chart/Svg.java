package lab.analysis.chart;

import java.util.Locale;

/**
 * A minimal SVG 1.1 writer: rectangles, lines, polylines, circles, text and tooltip groups,
 * appended in call order to one {@link StringBuilder}. Every coordinate is written with one
 * decimal in {@link Locale#ROOT}, so the same calls always give the same bytes. No scripts, no
 * CSS, no ids: the result renders as a standalone file and in GitHub's markdown images.
 */
public final class Svg {
    /** Where a text's x coordinate lies: its start, middle or end. */
    public enum Anchor {
        START, MIDDLE, END;

        String attr() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final String TEXT_FILL = "#222222";

    private final StringBuilder b = new StringBuilder(1 << 14);

    /** Starts a drawing of {@code width} x {@code height} pixels on a white background. */
    public Svg(int width, int height) {
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"").append(width)
                .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ')
                .append(height).append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
        rect(0, 0, width, height, "#ffffff");
    }

    public Svg rect(double x, double y, double w, double h, String fill) {
        b.append("<rect x=\"").append(num(x)).append("\" y=\"").append(num(y)).append("\" width=\"").append(num(w))
                .append("\" height=\"").append(num(h)).append("\" fill=\"").append(fill).append("\"/>\n");
        return this;
    }

    public Svg line(double x1, double y1, double x2, double y2, String stroke, double width) {
        lineStart(x1, y1, x2, y2, stroke, width);
        b.append("/>\n");
        return this;
    }

    /** A line dashed 6 px on, 4 px off: reference lines and markers. */
    public Svg dashed(double x1, double y1, double x2, double y2, String stroke, double width) {
        lineStart(x1, y1, x2, y2, stroke, width);
        b.append(" stroke-dasharray=\"6 4\"/>\n");
        return this;
    }

    /** An open line through ({@code xs[i]}, {@code ys[i]}), not filled. */
    public Svg polyline(double[] xs, double[] ys, String stroke, double width) {
        b.append("<polyline points=\"");
        for (int i = 0; i < xs.length; i++) {
            b.append(i == 0 ? "" : " ").append(num(xs[i])).append(',').append(num(ys[i]));
        }
        b.append("\" fill=\"none\" stroke=\"").append(stroke).append("\" stroke-width=\"").append(num(width))
                .append("\" stroke-linejoin=\"round\"/>\n");
        return this;
    }

    public Svg circle(double cx, double cy, double r, String fill) {
        b.append("<circle cx=\"").append(num(cx)).append("\" cy=\"").append(num(cy)).append("\" r=\"").append(num(r))
                .append("\" fill=\"").append(fill).append("\"/>\n");
        return this;
    }

    /** {@code s} with its baseline at {@code y}; escaped. */
    public Svg text(double x, double y, Anchor anchor, int size, String s) {
        textStart(x, y, anchor, size);
        b.append('>').append(escape(s)).append("</text>\n");
        return this;
    }

    /**
     * {@link #text} on a white outline of its own glyphs, so that it reads where it crosses a bar
     * or a line: a label drawn over the plot.
     */
    public Svg textOnPlot(double x, double y, Anchor anchor, int size, String s) {
        textStart(x, y, anchor, size);
        b.append(" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">").append(escape(s)).append("</text>\n");
        return this;
    }

    /** {@code s} read bottom to top, centred on ({@code x}, {@code y}): the y axis label. */
    public Svg textUp(double x, double y, int size, String s) {
        textStart(x, y, Anchor.MIDDLE, size);
        b.append(" transform=\"rotate(-90 ").append(num(x)).append(' ').append(num(y)).append(")\">")
                .append(escape(s)).append("</text>\n");
        return this;
    }

    /** Opens a group whose {@code tooltip} shows on hover; close it with {@link #end()}. */
    public Svg group(String tooltip) {
        b.append("<g><title>").append(escape(tooltip)).append("</title>\n");
        return this;
    }

    public Svg end() {
        b.append("</g>\n");
        return this;
    }

    /** Closes the document and returns it; the builder is not to be used after. */
    public String finish() {
        return b.append("</svg>\n").toString();
    }

    /** {@code v} with one decimal; -0.0 is written as 0.0. Non-finite numbers are a bug. */
    public static String num(double v) {
        return fixed(v, 1);
    }

    /** {@code v} with {@code decimals} decimals in {@link Locale#ROOT}; -0.0 is written as 0.0. */
    public static String fixed(double v, int decimals) {
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException("non-finite number in a chart: " + v);
        }
        String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
        return s.startsWith("-") && s.matches("-0\\.?0*") ? s.substring(1) : s;
    }

    /** XML-escapes {@code s}; control characters XML 1.0 cannot hold become U+FFFD. */
    public static String escape(String s) {
        StringBuilder e = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> e.append("&amp;");
                case '<' -> e.append("&lt;");
                case '>' -> e.append("&gt;");
                case '"' -> e.append("&quot;");
                default -> e.append(c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? '\uFFFD' : c);
            }
        }
        return e.toString();
    }

    private void lineStart(double x1, double y1, double x2, double y2, String stroke, double width) {
        b.append("<line x1=\"").append(num(x1)).append("\" y1=\"").append(num(y1)).append("\" x2=\"").append(num(x2))
                .append("\" y2=\"").append(num(y2)).append("\" stroke=\"").append(stroke).append("\" stroke-width=\"")
                .append(num(width)).append('"');
    }

    private void textStart(double x, double y, Anchor anchor, int size) {
        b.append("<text x=\"").append(num(x)).append("\" y=\"").append(num(y)).append("\" text-anchor=\"")
                .append(anchor.attr()).append("\" font-size=\"").append(size).append("\" fill=\"").append(TEXT_FILL)
                .append('"');
    }
}
