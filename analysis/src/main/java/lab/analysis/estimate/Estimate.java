package lab.analysis.estimate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One figure of a run with its 95% confidence interval, as {@link Estimator} makes it from the
 * run's rounds: the geometric mean of the per-round values, and {@code exp(m ± t(0.975, R-1) s/√R)}
 * over their logarithms, so a ratio and its inverse have the same interval inverted. Each round's
 * value already carries the noise of the levels below it (forks, iterations), so the spread
 * between rounds is the whole noise of one round's figure (Kalibera and Jones, "Rigorous
 * benchmarking in reasonable time", 2013: the top level's variance estimates the lower levels'
 * contribution too).
 *
 * @param value  the estimate: geometric mean of the per-round values
 * @param lo     lower end of the 95% interval (NaN with one round: no spread between rounds is known)
 * @param hi     upper end of the 95% interval (NaN with one round)
 * @param rounds how many rounds it came from
 * @param sdLog  standard deviation of the per-round log values (NaN with one round)
 */
public record Estimate(double value, double lo, double hi, int rounds, double sdLog) {

    /** Whether the run had the rounds to give an interval (two or more). */
    public boolean hasInterval() {
        return rounds >= 2 && Double.isFinite(lo) && Double.isFinite(hi);
    }

    /** Whether the interval leaves out {@code x}: for a ratio and 1, an effect at 95%. */
    public boolean excludes(double x) {
        return hasInterval() && (x < lo || x > hi);
    }

    /** Whether the interval lies inside {@code [1 - y, 1 + y]}: no effect larger than ±y. */
    public boolean within(double y) {
        return hasInterval() && lo >= 1 - y && hi <= 1 + y;
    }

    /** The interval's farther end from 1, relative: 0.031 for an interval reaching 1.031 or 0.969 (NaN without one). */
    public double reach() {
        return hasInterval() ? Math.max(Math.abs(lo - 1), Math.abs(hi - 1)) : Double.NaN;
    }

    /** The interval's relative half-width about the estimate, in log terms: {@code exp(t s/√R) - 1}. */
    public double halfWidth() {
        return hasInterval() ? Math.sqrt(hi / lo) - 1 : Double.NaN;
    }

    /**
     * The rounds this figure's spread between rounds says a run needs for an interval of relative
     * half-width {@code y} (the same noise per round, t's quantile for that many); {@code -1}
     * where it cannot say (one round).
     */
    public int roundsFor(double y) {
        if (rounds < 2 || !Double.isFinite(sdLog)) {
            return -1;
        }
        double target = Math.log1p(y);
        for (int n = 2; n <= 10_000; n++) {
            if (Estimator.t975(n - 1) * sdLog / Math.sqrt(n) <= target) {
                return n;
            }
        }
        return 10_000;
    }

    /**
     * The rounds this figure's spread says would settle its verdict at {@code y} if the estimate
     * held: an interval narrow enough to leave out 1, or to fit inside {@code [1 - y, 1 + y]},
     * whichever needs fewer; {@code -1} where it cannot say (one round).
     */
    public int roundsToResolve(double y) {
        if (rounds < 2 || !Double.isFinite(sdLog)) {
            return -1;
        }
        double off = Math.abs(Math.log(value));
        double h = Math.max(off, Math.log1p(y) - off);
        if (!(h > 0)) {
            return 10_000;
        }
        for (int n = 2; n <= 10_000; n++) {
            if (Estimator.t975(n - 1) * sdLog / Math.sqrt(n) < h) {
                return n;
            }
        }
        return 10_000;
    }

    /** {@code value [lo–hi]} with {@code digits} decimals; the value alone with one round. */
    public String format(int digits) {
        String f = "%." + digits + "f";
        return hasInterval() ? String.format(Locale.ROOT, f + " [" + f + "–" + f + "]", value, lo, hi)
                : String.format(Locale.ROOT, f, value);
    }

    /** {@code {value, ci95: [lo, hi], rounds}} for summary.json ({@code ci95} null with one round). */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("value", round6(value));
        m.put("ci95", hasInterval() ? List.of(round6(lo), round6(hi)) : null);
        m.put("rounds", rounds);
        return m;
    }

    /** One measured value, no rounds to spread it over: the value alone, no interval. */
    public static Estimate single(double value) {
        return new Estimate(value, Double.NaN, Double.NaN, 1, Double.NaN);
    }

    /** {@code e} scaled: every end times {@code k} (an ns figure from a ratio, say). */
    public Estimate times(double k) {
        return new Estimate(value * k, lo * k, hi * k, rounds, sdLog);
    }

    /** An estimate as {@link #json} wrote it (its log spread recovered from the interval); null for anything else. */
    public static Estimate fromJson(Object o) {
        if (!(o instanceof Map<?, ?> m) || !(m.get("value") instanceof Number v) || !(m.get("rounds") instanceof Number n)) {
            return null;
        }
        int rounds = n.intValue();
        if (m.get("ci95") instanceof List<?> ci && ci.size() == 2 && ci.get(0) instanceof Number lo && ci.get(1) instanceof Number hi
                && rounds >= 2) {
            double sd = Math.log(hi.doubleValue() / lo.doubleValue()) / 2 * Math.sqrt(rounds) / Estimator.t975(rounds - 1);
            return new Estimate(v.doubleValue(), lo.doubleValue(), hi.doubleValue(), rounds, sd);
        }
        return new Estimate(v.doubleValue(), Double.NaN, Double.NaN, rounds, Double.NaN);
    }

    private static double round6(double v) {
        return Double.isFinite(v) ? Math.round(v * 1e6) / 1e6 : v;
    }
}
