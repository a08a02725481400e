package lab.analysis;

import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;

/** Order statistics over a handful of samples: the lab reports medians with their range. */
public final class Stats {
    private Stats() {}

    /** Median, minimum and maximum of a non-empty sample. */
    public record Spread(double median, double min, double max, int n) {
        /** {@code median [min–max]} with {@code digits} decimals. */
        public String format(int digits) {
            String f = "%." + digits + "f";
            return String.format(Locale.ROOT, f + " [" + f + "–" + f + "]", median, min, max);
        }
    }

    public static Spread spread(Collection<Double> samples) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no samples");
        }
        double[] s = samples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return new Spread(median(s), s[0], s[s.length - 1], s.length);
    }

    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    public static double median(Collection<Double> samples) {
        double[] s = samples.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(s);
        return median(s);
    }

    /** A straight line {@code y = a + b x}. */
    public record Line(double a, double b) {}

    /**
     * The least-squares line through {@code points} ({@code {x, y}} pairs), in the centred form
     * (slope from the deviations about the means); null with fewer than two distinct x.
     */
    public static Line line(java.util.List<double[]> points) {
        if (points.size() < 2) {
            return null;
        }
        double mx = points.stream().mapToDouble(p -> p[0]).average().orElseThrow();
        double my = points.stream().mapToDouble(p -> p[1]).average().orElseThrow();
        double sxy = 0;
        double sxx = 0;
        for (double[] p : points) {
            sxy += (p[0] - mx) * (p[1] - my);
            sxx += (p[0] - mx) * (p[0] - mx);
        }
        if (sxx == 0) {
            return null;
        }
        double b = sxy / sxx;
        return new Line(my - b * mx, b);
    }
}
