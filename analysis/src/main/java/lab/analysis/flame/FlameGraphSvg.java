package lab.analysis.flame;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import lab.analysis.MalformedResultException;

/**
 * A CPU flamegraph as a standalone SVG, from collapsed stacks ("frame;frame;leaf COUNT" per
 * line, root first: the format of Brendan Gregg's stackcollapse scripts and of async-profiler's
 * {@code collapsed} output). Frames at each level are sorted by name, as flamegraph.pl does, so
 * the same input always gives the same bytes. Each box has a {@code <title>} with its samples
 * and share; kernel frames (names ending in {@code _[k]}) are drawn in orange, others in red.
 */
public final class FlameGraphSvg {
    private static final int WIDTH = 1200;
    private static final int FRAME_H = 16;
    private static final int PAD_TOP = 40;
    private static final int PAD_SIDE = 10;
    private static final double MIN_PX = 0.5; // narrower boxes are dropped (flamegraph.pl: 0.1): keeps SVGs small

    /** One frame of the merged call tree. */
    static final class Node {
        final String name;
        long samples;
        final Map<String, Node> children = new TreeMap<>();

        Node(String name) {
            this.name = name;
        }

        Node child(String n) {
            return children.computeIfAbsent(n, Node::new);
        }

        int depth() {
            int d = 0;
            for (Node c : children.values()) {
                d = Math.max(d, c.depth());
            }
            return d + 1;
        }
    }

    private FlameGraphSvg() {}

    /** Parses collapsed stacks; a line without a trailing count is an error naming file and line. */
    public static Node parse(Path file) throws IOException, MalformedResultException {
        Node root = new Node("all");
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        int n = 0;
        for (String line : lines) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            long count = count(file, n, line);
            int sp = line.lastIndexOf(' ');
            Node at = root;
            root.samples += count;
            for (String frame : line.substring(0, sp).split(";")) {
                at = at.child(frame);
                at.samples += count;
            }
        }
        if (root.samples == 0) {
            throw new MalformedResultException(file, "no samples");
        }
        return root;
    }

    /** The sample count of collapsed-stack line {@code n} ("frame;frame;... COUNT"); an error naming file and line if it has none. */
    static long count(Path file, int n, String line) throws MalformedResultException {
        int sp = line.lastIndexOf(' ');
        long count;
        try {
            count = sp < 0 ? -1 : Long.parseLong(line.substring(sp + 1).trim());
        } catch (NumberFormatException e) {
            count = -1;
        }
        if (count < 0) {
            throw new MalformedResultException(file, "line " + n + ": not a collapsed stack (\"frames COUNT\")");
        }
        return count;
    }

    /** Renders {@code collapsed} to {@code svg} with {@code title}; returns the sample count. */
    public static long render(Path collapsed, Path svg, String title) throws IOException, MalformedResultException {
        Node root = parse(collapsed);
        Files.writeString(svg, svg(root, title), StandardCharsets.UTF_8);
        return root.samples;
    }

    static String svg(Node root, String title) {
        int depth = root.depth();
        int height = PAD_TOP + depth * FRAME_H + 20;
        StringBuilder b = new StringBuilder(1 << 16);
        b.append("<?xml version=\"1.0\" standalone=\"no\"?>\n")
                .append("<svg version=\"1.1\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"Verdana\" font-size=\"12\">\n")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"#f8f8f8\"/>\n")
                .append("<text x=\"").append(WIDTH / 2).append("\" y=\"24\" text-anchor=\"middle\" font-size=\"17\">")
                .append(escape(title)).append("</text>\n")
                .append("<text x=\"").append(PAD_SIDE).append("\" y=\"").append(height - 6).append("\" font-size=\"11\">")
                .append(root.samples).append(" samples; width = share of samples; hover a box for its count</text>\n");
        double scale = (WIDTH - 2.0 * PAD_SIDE) / root.samples;
        draw(b, root, PAD_SIDE, 0, depth, scale, root.samples);
        return b.append("</svg>\n").toString();
    }

    private static void draw(StringBuilder b, Node node, double x, int level, int depth, double scale, long total) {
        double w = node.samples * scale;
        if (w < MIN_PX) {
            return;
        }
        double y = PAD_TOP + (depth - level - 1) * FRAME_H;
        b.append("<g><title>").append(escape(node.name)).append(" (").append(node.samples).append(" samples, ")
                .append(fmt(100.0 * node.samples / total)).append("%)</title><rect x=\"").append(fmt(x))
                .append("\" y=\"").append(y).append("\" width=\"").append(fmt(w)).append("\" height=\"")
                .append(FRAME_H - 1).append("\" fill=\"").append(color(node.name)).append("\" rx=\"2\"/>");
        int chars = (int) ((w - 6) / 7);
        if (chars >= 3) {
            String label = node.name.length() <= chars ? node.name : node.name.substring(0, chars - 2) + "..";
            b.append("<text x=\"").append(fmt(x + 3)).append("\" y=\"").append(y + FRAME_H - 4).append("\">")
                    .append(escape(label)).append("</text>");
        }
        b.append("</g>\n");
        double cx = x;
        for (Node c : node.children.values()) {
            draw(b, c, cx, level + 1, depth, scale, total);
            cx += c.samples * scale;
        }
    }

    /** A warm colour from a hash of the name: stable across runs. Kernel frames orange. */
    static String color(String name) {
        int h = 0;
        for (int i = 0; i < name.length(); i++) {
            h = 31 * h + name.charAt(i);
        }
        int v = Math.floorMod(h, 55);
        boolean kernel = name.endsWith("_[k]") || name.startsWith("[k]");
        int r = kernel ? 230 : 205 + v / 2;
        int g = kernel ? 130 + v : 60 + v;
        int bl = kernel ? 30 : 40 + v / 3;
        return String.format(Locale.ROOT, "rgb(%d,%d,%d)", r, g, bl);
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
