package lab.analysis.estimate;

/**
 * One figure less another, measured apart: {@code a - b} of two independent signed estimates
 * ({@link Estimator#mean}'s: an arithmetic mean with Student's t interval), each over units of its
 * own (two boots' runs: refscale's type and its empty type), with a 95% interval.
 *
 * <p>Nothing pairs the two sides' units, so each estimate is read back to its standard error, its
 * interval's half-width over the t quantile it was made with, {@code se = (hi - lo) / 2 / t(0.975,
 * df)} on its own degrees of freedom; the two add in quadrature, {@code se² = se_a² + se_b²}, on
 * Welch–Satterthwaite's degrees of freedom rounded down ({@link RatioOfRatios#welchDf}); the
 * interval is {@code a - b ± t(0.975, ⌊ν⌋) se}. This is {@link RatioOfRatios}' rule on the values
 * themselves rather than their logs: a cost less a cost can be near 0 or below it, where a log
 * cannot go.
 *
 * <p>No interval where either side has none (fewer than three units): the value alone, 0 degrees
 * of freedom.
 */
public final class DifferenceOfMeans {
    private DifferenceOfMeans() {}

    /**
     * {@code a - b}, two independent estimates made by {@link Estimator#mean}: its {@code rounds}
     * the two sides' together, {@code df} Welch's {@code ⌊ν⌋}, no log spread; null where either is
     * null.
     */
    public static Estimate of(Estimate a, Estimate b) {
        EstimationStage.check("DifferenceOfMeans.of");
        if (a == null || b == null) {
            return null;
        }
        double d = a.value() - b.value();
        int rounds = a.rounds() + b.rounds();
        if (!a.hasInterval() || !b.hasInterval()) {
            return new Estimate(d, Double.NaN, Double.NaN, rounds, Double.NaN, 0, 1);
        }
        double sa = se(a);
        double sb = se(b);
        double se = Math.sqrt(sa * sa + sb * sb);
        int df = (int) Math.floor(RatioOfRatios.welchDf(sa, a.df(), sb, b.df()) + 1e-9);
        double h = Estimator.t975(df) * se;
        return new Estimate(d, d - h, d + h, rounds, Double.NaN, df, 1);
    }

    /** A mean's standard error: its interval's half-width over t(0.975, df); it must have an interval. */
    static double se(Estimate e) {
        return (e.hi() - e.lo()) / 2 / Estimator.t975(e.df());
    }
}
