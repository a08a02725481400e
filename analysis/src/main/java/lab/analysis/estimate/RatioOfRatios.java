package lab.analysis.estimate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One figure of two independent runs set against each other: run A's estimate over run B's (two
 * hosts of a fleet, each with its own rounds, a ratio of two ratios), with a 95% interval.
 *
 * <p>The runs share no round, so nothing pairs them: each estimate ({@link Estimate}, the
 * geometric mean of its rounds with Student's t interval on the logs) is read back to its log
 * standard error, and the two are combined as independent. On logs, the ratio's log is the
 * difference of the logs, {@code D = ln a - ln b}; each side's standard error is its interval's
 * half-width on the log scale over the t quantile it was made with, {@code se = ln(hi / lo) / 2 /
 * t(0.975, df)} with the estimate's own degrees of freedom ({@code rounds - 1}, a sequential
 * design's pilot's, or the boots'); the two add in quadrature, {@code se² = se_a² + se_b²}, on
 * Welch–Satterthwaite's degrees of freedom {@code ν = se⁴ / (se_a⁴ / df_a + se_b⁴ / df_b)},
 * rounded down to the t table's integer (never fewer than either side's own: ν lies between
 * {@code min(df_a, df_b)} and {@code df_a + df_b}); the interval is
 * {@code exp(D ± t(0.975, ⌊ν⌋) se)}.
 *
 * <p>What that covers, measured ({@code RatioOfRatiosTest}: independent normal log rounds,
 * 20,000 pairs per case): 95% ± 1.5% from 4 and 8 rounds with spreads 1:3, 5 and 5 with 1:4,
 * 8 and 8, 3 and 20; with three rounds on each side Welch's rule is conservative (about 97.5%,
 * rounding ν down adds about one point of it), and the interval is the wider for it.
 *
 * <p>No interval where either side has none (fewer than three rounds or boots, no {@code ci95}):
 * the value alone and why ({@link #why}). Where either side's own A/A control failed, the ratio is
 * no evidence either ({@link #verdict}).
 *
 * @param ratio   A over B: the value {@code exp(D)}, its interval (NaN without one), {@code
 *                rounds} the two sides' rounds together, {@code df} {@code ⌊ν⌋}, {@code sdLog}
 *                the combined standard error times {@code √rounds} (so that {@link Estimate#fromJson}
 *                reads the same interval back)
 * @param seLog   the combined standard error of {@code D} (NaN without an interval)
 * @param dfWelch Welch–Satterthwaite's ν before rounding (NaN without an interval)
 * @param roundsA {@code a}'s rounds
 * @param roundsB {@code b}'s rounds
 * @param why     why there is no interval, in words ({@code "b: 2 rounds: no interval"}); null where there is one
 */
public record RatioOfRatios(Estimate ratio, double seLog, double dfWelch, int roundsA, int roundsB, String why) {

    /**
     * {@code a} over {@code b}, two independent estimates of the same figure, named {@code nameA}
     * and {@code nameB} in {@link #why}; null where either is null.
     */
    public static RatioOfRatios of(Estimate a, String nameA, Estimate b, String nameB) {
        EstimationStage.check("RatioOfRatios.of");
        if (a == null || b == null || !(a.value() > 0) || !(b.value() > 0)) {
            return null;
        }
        double d = Math.log(a.value()) - Math.log(b.value());
        int rounds = a.rounds() + b.rounds();
        String why = !a.hasInterval() ? nameA + ": " + a.noInterval() : !b.hasInterval() ? nameB + ": " + b.noInterval() : null;
        if (why != null) {
            return new RatioOfRatios(new Estimate(Math.exp(d), Double.NaN, Double.NaN, rounds, Double.NaN, 0, 1), Double.NaN, Double.NaN,
                    a.rounds(), b.rounds(), why);
        }
        double sa = seLog(a);
        double sb = seLog(b);
        double se = Math.sqrt(sa * sa + sb * sb);
        double nu = welchDf(sa, a.df(), sb, b.df());
        int df = (int) Math.floor(nu + 1e-9);
        double h = Estimator.t975(df) * se;
        return new RatioOfRatios(new Estimate(Math.exp(d), Math.exp(d - h), Math.exp(d + h), rounds, se * Math.sqrt(rounds), df, 1), se,
                nu, a.rounds(), b.rounds(), null);
    }

    /**
     * {@code a} over {@code b} where one has no estimate to read (a summary older than the
     * estimates: a median): the value alone, {@code why} there is no interval.
     */
    public static RatioOfRatios unestimated(double a, double b, String why) {
        return new RatioOfRatios(new Estimate(a / b, Double.NaN, Double.NaN, 0, Double.NaN, 0, 1), Double.NaN, Double.NaN, 0, 0, why);
    }

    /** An estimate's standard error on the log scale: its interval's log half-width over t(0.975, df); it must have an interval. */
    static double seLog(Estimate e) {
        return Math.log(e.hi() / e.lo()) / 2 / Estimator.t975(e.df());
    }

    /**
     * Welch–Satterthwaite's degrees of freedom of the sum of two independent variances {@code s1²}
     * on {@code df1} and {@code s2²} on {@code df2}: {@code (s1² + s2²)² / (s1⁴ / df1 + s2⁴ / df2)};
     * {@code df1 + df2} where both are 0 (two intervals of no width: the ratio has none either).
     */
    static double welchDf(double s1, int df1, double s2, int df2) {
        double v1 = s1 * s1;
        double v2 = s2 * s2;
        double den = v1 * v1 / df1 + v2 * v2 / df2;
        return den > 0 ? (v1 + v2) * (v1 + v2) / den : df1 + df2;
    }

    /** Whether the ratio's interval holds 1: no difference between the two runs shown at 95%. */
    public boolean holdsOne() {
        return ratio.hasInterval() && !ratio.excludes(1);
    }

    /**
     * The ratio's verdict at margin {@code m} ({@link Verdict}): {@link Verdict#CONTROL_FAILED}
     * where either side's figure failed its own A/A control ({@code controlA}, {@code controlB};
     * null: none), else the ratio's interval judged as any figure's is.
     */
    public Verdict verdict(Estimate controlA, Estimate controlB, double m) {
        if (Verdict.controlFailed(controlA) || Verdict.controlFailed(controlB)) {
            return Verdict.CONTROL_FAILED;
        }
        return Verdict.of(ratio, m);
    }

    /**
     * The ratio for summary.json: {@code value}, {@code ci95} (null without one), {@code df}
     * ({@code ⌊ν⌋}) and {@code df_welch} (ν), the two sides' {@code rounds}, whether it holds 1,
     * the verdict's code, and why there is no interval (null: there is one).
     */
    public Map<String, Object> json(Estimate controlA, Estimate controlB, double m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("value", round6(ratio.value()));
        out.put("ci95", ratio.hasInterval() ? List.of(round6(ratio.lo()), round6(ratio.hi())) : null);
        out.put("df", ratio.hasInterval() ? ratio.df() : null);
        out.put("df_welch", Double.isFinite(dfWelch) ? Math.round(dfWelch * 1000) / 1000.0 : null);
        out.put("rounds", roundsA + roundsB == 0 ? null : List.of(roundsA, roundsB));
        out.put("holds_1", ratio.hasInterval() ? holdsOne() : null);
        out.put("verdict", verdict(controlA, controlB, m).code);
        out.put("no_interval", why);
        return out;
    }

    private static double round6(double v) {
        return Math.round(v * 1e6) / 1e6;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s (se %.4f, ν %.2f)", ratio.format(3), seLog, dfWelch);
    }
}
