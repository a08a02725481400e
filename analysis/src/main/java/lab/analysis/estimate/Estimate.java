package lab.analysis.estimate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One figure of a run with its 95% confidence interval, as {@link Estimator} makes it from the
 * run's rounds: the geometric mean of the per-round values, and {@code exp(m ± t(0.975, df) s/√n)}
 * over their logarithms, so a ratio and its inverse have the same interval inverted. Each round's
 * value already carries the noise of the levels below it (forks, iterations), so the spread
 * between rounds is the whole noise of one round's figure (Kalibera and Jones, "Rigorous
 * benchmarking in reasonable time", 2013: the top level's variance estimates the lower levels'
 * contribution too).
 *
 * <p>Three readings of {@code s} and {@code df}: rounds alone, {@code s} their spread on
 * {@code n - 1} degrees of freedom; a sequential design's rounds ({@link Stein}), {@code s} the
 * pilot's spread on the pilot's {@code n0 - 1}, whatever rounds came after; rounds nested in
 * boots, the boot the unit, {@code s} the boots' spread on {@code boots - 1}. An interval rests on
 * three units at least ({@code df >= 2}): with one degree of freedom t is 12.7 and the interval
 * says nothing a reader can use, so such a figure has its value and no interval.
 *
 * @param value  the estimate: geometric mean of the per-round values (of the boots' means, nested)
 * @param lo     lower end of the 95% interval (NaN without one)
 * @param hi     upper end of the 95% interval (NaN without one)
 * @param rounds how many rounds it came from
 * @param sdLog  the standard deviation the interval came from, per unit, in logs (NaN without one)
 * @param df     the degrees of freedom of {@code sdLog}: {@code rounds - 1}, a pilot's, or the boots'
 * @param boots  how many boots the rounds came from where the boot is the unit (1: rounds are)
 */
public record Estimate(double value, double lo, double hi, int rounds, double sdLog, int df, int boots) {

    /** Fewest units (rounds, or boots) an interval rests on: t(0.975, 2) = 4.30; with one degree of freedom, 12.7. */
    public static final int MIN_UNITS = 3;

    /** An estimate over rounds alone: {@code rounds - 1} degrees of freedom, one boot. */
    public Estimate(double value, double lo, double hi, int rounds, double sdLog) {
        this(value, lo, hi, rounds, sdLog, Math.max(0, rounds - 1), 1);
    }

    /** Whether the run had the units to give an interval (three rounds or boots, {@code df >= 2}). */
    public boolean hasInterval() {
        return df >= MIN_UNITS - 1 && Double.isFinite(lo) && Double.isFinite(hi);
    }

    /** Why there is no interval, in words: "2 rounds: no interval", "2 boots: no interval"; null where there is one. */
    public String noInterval() {
        if (hasInterval()) {
            return null;
        }
        return boots >= 2 ? boots + " boots: no interval" : rounds + (rounds == 1 ? " round" : " rounds") + ": no interval";
    }

    /** Whether the interval leaves out {@code x}: for a ratio and 1, a change at 95%. */
    public boolean excludes(double x) {
        return hasInterval() && (x < lo || x > hi);
    }

    /** Whether the interval lies inside {@code [1 - y, 1 + y]}. */
    public boolean within(double y) {
        return hasInterval() && lo >= 1 - y && hi <= 1 + y;
    }

    /** Whether the interval lies wholly beyond {@code ±y}: above {@code 1 + y} or below {@code 1 - y}. */
    public boolean beyond(double y) {
        return hasInterval() && (lo >= 1 + y || hi <= 1 - y);
    }

    /** The interval's farther end from 1, relative: 0.031 for an interval reaching 1.031 or 0.969 (NaN without one). */
    public double reach() {
        return hasInterval() ? Math.max(Math.abs(lo - 1), Math.abs(hi - 1)) : Double.NaN;
    }

    /** The interval's relative half-width about the estimate, in log terms: {@code exp(t s/√n) - 1}. */
    public double halfWidth() {
        return hasInterval() ? Math.sqrt(hi / lo) - 1 : Double.NaN;
    }

    /**
     * The rounds in all that Stein's rule ({@link Stein#rounds}) asks of a design whose pilot is
     * this figure's rounds, for an interval of log half-width {@code h}: {@code t(df)² s² / h²}
     * with this figure's own spread and degrees of freedom, never a spread taken as known. {@code
     * -1} where it cannot say: no interval (fewer than three rounds: t(1) makes the number
     * meaningless), or boots as the unit (a boot, not a round, is what would have to be added).
     */
    public int steinRounds(double h) {
        if (!hasInterval() || boots >= 2 || !Double.isFinite(sdLog)) {
            return -1;
        }
        return Stein.rounds(sdLog, df + 1, rounds, h);
    }

    /** {@code value [lo–hi]} with {@code digits} decimals; the value alone without an interval. */
    public String format(int digits) {
        String f = "%." + digits + "f";
        return hasInterval() ? String.format(Locale.ROOT, f + " [" + f + "–" + f + "]", value, lo, hi)
                : String.format(Locale.ROOT, f, value);
    }

    /**
     * {@code {value, ci95: [lo, hi], rounds}} for summary.json ({@code ci95} null without an
     * interval), with {@code df} where the interval's degrees of freedom are not {@code rounds - 1}
     * (a sequential design's pilot, boots) and {@code boots} where the boot is the unit.
     */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("value", round6(value));
        m.put("ci95", hasInterval() ? List.of(round6(lo), round6(hi)) : null);
        m.put("rounds", rounds);
        if (df != Math.max(0, rounds - 1)) {
            m.put("df", df);
        }
        if (boots >= 2) {
            m.put("boots", boots);
        }
        return m;
    }

    /** One measured value, no rounds to spread it over: the value alone, no interval. */
    public static Estimate single(double value) {
        return new Estimate(value, Double.NaN, Double.NaN, 1, Double.NaN);
    }

    /** {@code e} scaled: every end times {@code k} (an ns figure from a ratio, say). */
    public Estimate times(double k) {
        return new Estimate(value * k, lo * k, hi * k, rounds, sdLog, df, boots);
    }

    /** An estimate as {@link #json} wrote it (its log spread recovered from the interval); null for anything else. */
    public static Estimate fromJson(Object o) {
        if (!(o instanceof Map<?, ?> m) || !(m.get("value") instanceof Number v) || !(m.get("rounds") instanceof Number n)) {
            return null;
        }
        int rounds = n.intValue();
        int boots = m.get("boots") instanceof Number b ? b.intValue() : 1;
        int df = m.get("df") instanceof Number d ? d.intValue() : Math.max(0, rounds - 1);
        if (m.get("ci95") instanceof List<?> ci && ci.size() == 2 && ci.get(0) instanceof Number lo && ci.get(1) instanceof Number hi
                && df >= 1) {
            int units = boots >= 2 ? boots : rounds;
            double sd = Math.log(hi.doubleValue() / lo.doubleValue()) / 2 * Math.sqrt(units) / Estimator.t975(df);
            return new Estimate(v.doubleValue(), lo.doubleValue(), hi.doubleValue(), rounds, sd, df, boots);
        }
        return new Estimate(v.doubleValue(), Double.NaN, Double.NaN, rounds, Double.NaN, df, boots);
    }

    private static double round6(double v) {
        return Double.isFinite(v) ? Math.round(v * 1e6) / 1e6 : v;
    }
}
