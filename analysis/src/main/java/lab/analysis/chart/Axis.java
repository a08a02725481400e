package lab.analysis.chart;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The ticks of one axis: 4 to 8 "nice" values (1, 2, 2.5 or 5 x 10^k apart) covering the data,
 * or powers of two for a log2 axis. The first and last tick are the ends of the axis, and
 * {@link #scale} maps that span onto pixels. Ticks are exact decimals (0.6, not 0.6000000000000001)
 * and labels have as many decimals as the step needs, so they print the same everywhere.
 */
public record Axis(List<Double> ticks, int decimals, boolean log2) {
    /** Nice steps, in tenths of a power of ten: 1, 2, 2.5 and 5 x 10^k. */
    private static final int[] STEP_TENTHS = {10, 20, 25, 50};
    private static final int MAX_TICKS = 8;
    private static final int MAX_LOG2_TICKS = 12;
    /** Slack for data a rounding error past a tick (1.0000000000000002 must not add a tick). */
    private static final double EPS = 1e-9;

    public Axis {
        ticks = List.copyOf(ticks);
        if (ticks.size() < 2) {
            throw new IllegalArgumentException("an axis needs two ticks or more: " + ticks);
        }
    }

    /** The smallest nice step whose ticks, at most 8, cover {@code [min, max]}. */
    public static Axis linear(double min, double max) {
        if (!(Double.isFinite(min) && Double.isFinite(max) && min <= max)) {
            throw new IllegalArgumentException("not a range: [" + min + ", " + max + "]");
        }
        if (min == max) {
            double pad = min == 0 ? 1 : Math.abs(min) / 10;
            min -= pad;
            max += pad;
        }
        // Start two decades below the range: far too many ticks; step up until they fit.
        int k = (int) Math.floor(StrictMath.log10(max - min)) - 2;
        for (;; k++) {
            for (int tenths : STEP_TENTHS) {
                BigDecimal step = BigDecimal.valueOf(tenths).scaleByPowerOfTen(k - 1);
                long lo = (long) Math.floor(min / step.doubleValue() + EPS);
                long hi = Math.max(lo + 1, (long) Math.ceil(max / step.doubleValue() - EPS));
                if (hi - lo + 1 <= MAX_TICKS) {
                    return multiples(lo, hi, step);
                }
            }
        }
    }

    /** As {@link #linear}, stretched to hold 0: bars grow from 0. All-zero data gives 0..1. */
    public static Axis linearFromZero(double min, double max) {
        return min == 0 && max == 0 ? linear(0, 1) : linear(Math.min(0, min), Math.max(0, max));
    }

    /** Every power of two from below {@code min} to above {@code max} (every other one, or fewer, past 12). */
    public static Axis log2(double min, double max) {
        if (!(min > 0 && Double.isFinite(max) && min <= max)) {
            throw new IllegalArgumentException("not a positive range: [" + min + ", " + max + "]");
        }
        int e0 = Math.getExponent(min);
        int e1 = Math.getExponent(max) + (max > Math.scalb(1.0, Math.getExponent(max)) ? 1 : 0);
        int stride = Math.max(1, Math.ceilDiv(e1 - e0, MAX_LOG2_TICKS - 1));
        e1 = e0 + stride * Math.max(1, Math.ceilDiv(e1 - e0, stride));
        List<Double> ticks = new ArrayList<>();
        for (int e = e0; e <= e1; e += stride) {
            ticks.add(Math.scalb(1.0, e));
        }
        return new Axis(ticks, Math.max(0, -e0), true);
    }

    public double min() {
        return ticks.getFirst();
    }

    public double max() {
        return ticks.getLast();
    }

    /** {@code v} printed as the tick labels are. */
    public String label(double v) {
        return Svg.fixed(v, decimals);
    }

    /** Maps this axis, first tick to last, onto pixels {@code from} to {@code to}. */
    public Scale scale(double from, double to) {
        return log2 ? Scale.log2(min(), max(), from, to) : Scale.linear(min(), max(), from, to);
    }

    private static Axis multiples(long lo, long hi, BigDecimal step) {
        List<Double> ticks = new ArrayList<>();
        for (long i = lo; i <= hi; i++) {
            ticks.add(BigDecimal.valueOf(i).multiply(step).doubleValue());
        }
        return new Axis(ticks, Math.max(0, step.stripTrailingZeros().scale()), false);
    }
}
