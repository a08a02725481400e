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
}
