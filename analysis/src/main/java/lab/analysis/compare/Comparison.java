package lab.analysis.compare;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * One metric, base variant against candidate variant: one row of an LKP comparison
 * ({@code %change}) with mmtests' idea of significance attached.
 *
 * @param metric         the metric's name, as printed in the last LKP column
 * @param base           the baseline runs (LKP's left column)
 * @param candidate      the runs being judged (LKP's right column)
 * @param higherIsBetter true for throughput-like metrics, false for latency or cost
 */
public record Comparison(String metric, Sample base, Sample candidate, boolean higherIsBetter) {
    /** Bootstrap resamples, and the fixed seed that makes a notebook regenerate byte-identically. */
    static final int RESAMPLES = 2000;
    static final long SEED = 0x10CC_0DA7AL;
    /** Resampled ratios cut from each tail: 2.5% of {@link #RESAMPLES}. */
    private static final int TAIL = RESAMPLES * 25 / 1000;

    /** Verdict on whether the two means differ beyond run-to-run noise. */
    public enum Significance { SIGNIFICANT, NOT_SIGNIFICANT, UNKNOWN }

    public Comparison {
        if (metric == null || base == null || candidate == null) {
            throw new IllegalArgumentException("metric, base and candidate are required");
        }
    }

    /** LKP's {@code %change}: {@code (candidate - base) / base * 100}; NaN when the base mean is 0. */
    public double pctChange() {
        double b = base.mean();
        return b == 0 ? Double.NaN : (candidate.mean() - b) / b * 100;
    }

    /** {@code candidate mean / base mean}; NaN when the base mean is 0. */
    public double ratio() {
        double b = base.mean();
        return b == 0 ? Double.NaN : candidate.mean() / b;
    }

    /**
     * SIGNIFICANT when the 95% confidence intervals of the two means do not overlap; this is
     * mmtests' {@code cidiff} (bin/lib/VMR/Stat.pm: the difference of the means divided by the CI
     * half-widths facing each other) reaching 1. Touching intervals count as overlapping. UNKNOWN
     * when either side has fewer than two runs, as no interval exists then.
     */
    public Significance significance() {
        if (base.n() < 2 || candidate.n() < 2) {
            return Significance.UNKNOWN;
        }
        return base.ci95().overlaps(candidate.ci95())
            ? Significance.NOT_SIGNIFICANT : Significance.SIGNIFICANT;
    }

    /**
     * Whether the candidate moved the metric in the good direction (direction only: read it
     * together with {@link #significance()}). An unchanged mean is not better.
     */
    public boolean better() {
        double delta = candidate.mean() - base.mean();
        return higherIsBetter ? delta > 0 : delta < 0;
    }

    /**
     * Percentile-bootstrap 95% CI of {@link #ratio()}, a second opinion that assumes no normality:
     * {@value #RESAMPLES} times, resample both sides with replacement (base then candidate, from
     * their sorted values, one {@link SplittableRandom} seeded with {@link #SEED}) and take the
     * ratio of the resampled means; the interval drops the 50 lowest and 50 highest ratios.
     * Null when either side has fewer than two runs. With three to five runs a side the percentile
     * bootstrap is narrower than the t intervals (it cannot see beyond the observed values), so it
     * may exclude 1 where {@link #significance()} says NOT_SIGNIFICANT: the t verdict decides.
     */
    public Interval ratioCi() {
        if (base.n() < 2 || candidate.n() < 2) {
            return null;
        }
        double[] b = values(base);
        double[] c = values(candidate);
        SplittableRandom random = new SplittableRandom(SEED);
        double[] ratios = new double[RESAMPLES];
        for (int i = 0; i < RESAMPLES; i++) {
            double baseMean = resampledMean(b, random);
            ratios[i] = resampledMean(c, random) / baseMean;
        }
        Arrays.sort(ratios);
        return new Interval(ratios[TAIL], ratios[RESAMPLES - 1 - TAIL]);
    }

    private static double[] values(Sample s) {
        return s.values().stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double resampledMean(double[] values, SplittableRandom random) {
        double sum = 0;
        for (int i = 0; i < values.length; i++) {
            sum += values[random.nextInt(values.length)];
        }
        return sum / values.length;
    }
}
