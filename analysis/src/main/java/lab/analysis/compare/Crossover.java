package lab.analysis.compare;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Where two thread sweeps cross: the scalability-curve question behind "A wins at low thread counts,
 * B at high ones". Each series maps a thread count to a mean (throughput, cost, ...); both must be
 * measured at the same thread counts. {@link #find} answers "where does the sign of A - B change",
 * {@link #threshold} answers "where does B's excess over A stop being marginal".
 */
public sealed interface Crossover permits Crossover.Crossing, Crossover.NoCrossing {

    /** The finding as one sentence for a notebook. */
    String sentence();

    /**
     * The sign of A - B changes between thread counts {@code low} and {@code high}, the last point
     * where {@code passed} is strictly above and the first where {@code passer} is. When the two
     * are measured equal in between ({@code exact}), {@code at} is the first such point; otherwise
     * it is the linear interpolation of A - B between {@code low} and {@code high}.
     */
    record Crossing(String passer, String passed, int low, int high, double at, boolean exact)
            implements Crossover {
        @Override
        public String sentence() {
            String where = exact
                ? String.format(Locale.ROOT, "equal at %d", (int) at)
                : String.format(Locale.ROOT, "≈%.1f", at);
            return "%s passes %s between %d and %d threads (%s)".formatted(passer, passed, low, high, where);
        }
    }

    /** No sign change from {@code from} to {@code to}; {@code touches}: equal at some point. */
    record NoCrossing(String above, String below, int from, int to, boolean touches) implements Crossover {
        @Override
        public String sentence() {
            return "no crossover from %d to %d threads: %s %s %s throughout"
                .formatted(from, to, above, touches ? "at or above" : "above", below);
        }
    }

    /**
     * The first thread count {@code x} where {@code B/A - 1 > fraction} ({@code exceeded}), with
     * {@code excess} = B/A - 1 there; when there is none, the point of the largest excess instead.
     */
    record Threshold(String a, String b, double fraction, int from, int to, boolean exceeded,
            int x, double excess) {
        public String sentence() {
            return exceeded
                ? "%s first exceeds %s by more than %s at %s (%s)"
                    .formatted(b, a, percent(fraction, false), threads(x), percent(excess, true))
                : "%s stays within %s of %s from %d to %d threads (at most %s, at %s)"
                    .formatted(b, percent(fraction, false), a, from, to, percent(excess, true), threads(x));
        }
    }

    /** Where the sign of {@code a - b} first changes, equal points skipped over. */
    static Crossover find(String aName, Map<Integer, Double> a, String bName, Map<Integer, Double> b) {
        int[] x = threadCounts(a, b);
        double[] d = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            d[i] = a.get(x[i]) - b.get(x[i]);
        }
        int prev = -1;                           // the last point where a != b
        for (int i = 0; i < x.length; i++) {
            if (d[i] == 0) {
                continue;
            }
            if (prev >= 0 && Math.signum(d[i]) != Math.signum(d[prev])) {
                boolean exact = i > prev + 1;
                double at = exact ? x[prev + 1] : x[prev] + d[prev] / (d[prev] - d[i]) * (x[i] - x[prev]);
                return d[i] > 0
                    ? new Crossing(aName, bName, x[prev], x[i], at, exact)
                    : new Crossing(bName, aName, x[prev], x[i], at, exact);
            }
            prev = i;
        }
        boolean touches = prev < 0 || Arrays.stream(d).anyMatch(v -> v == 0);
        boolean aAbove = prev < 0 || d[prev] > 0;
        return new NoCrossing(aAbove ? aName : bName, aAbove ? bName : aName, x[0], x[x.length - 1], touches);
    }

    /**
     * The first thread count where {@code b} exceeds {@code a} by more than {@code fraction}
     * (0.10 for "rwsem costs more than 10% over srcu"); every value of {@code a} must be positive.
     */
    static Threshold threshold(String aName, Map<Integer, Double> a, String bName, Map<Integer, Double> b,
            double fraction) {
        int[] x = threadCounts(a, b);
        int worst = 0;
        double worstExcess = Double.NEGATIVE_INFINITY;
        for (int xi : x) {
            if (!(a.get(xi) > 0)) {
                throw new IllegalArgumentException(aName + " must be positive, is " + a.get(xi) + " at " + xi);
            }
            double excess = b.get(xi) / a.get(xi) - 1;
            if (excess > fraction) {
                return new Threshold(aName, bName, fraction, x[0], x[x.length - 1], true, xi, excess);
            }
            if (excess > worstExcess) {
                worst = xi;
                worstExcess = excess;
            }
        }
        return new Threshold(aName, bName, fraction, x[0], x[x.length - 1], false, worst, worstExcess);
    }

    /** The common thread counts, ascending; the two series must cover the same ones. */
    private static int[] threadCounts(Map<Integer, Double> a, Map<Integer, Double> b) {
        if (a.isEmpty() || !a.keySet().equals(b.keySet())) {
            throw new IllegalArgumentException("series must share thread counts: " + a.keySet() + " vs " + b.keySet());
        }
        for (Map<Integer, Double> series : List.of(a, b)) {
            if (series.values().stream().anyMatch(v -> v == null || !Double.isFinite(v))) {
                throw new IllegalArgumentException("not a finite series: " + series);
            }
        }
        return new TreeSet<>(a.keySet()).stream().mapToInt(Integer::intValue).toArray();
    }

    private static String threads(int x) {
        return x == 1 ? "1 thread" : x + " threads";
    }

    /** 0.1 as "10%", 0.125 as "12.5%"; {@code signed} adds the sign and always one decimal. */
    private static String percent(double fraction, boolean signed) {
        String s = String.format(Locale.ROOT, signed ? "%+.1f%%" : "%.1f%%", fraction * 100);
        return signed ? s : s.replace(".0%", "%");
    }
}
