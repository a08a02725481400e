package lab.analysis.compare;

import java.util.Arrays;
import java.util.List;

/**
 * The raw values of one metric for one variant, one value per run, as LKP keeps them per
 * {@code stats.json} and mmtests per iteration. The values are kept in ascending order, so every
 * statistic (and every bootstrap drawn from it) is independent of the order runs were read in.
 *
 * @param values the runs' values, at least one, all finite; stored sorted ascending
 */
public record Sample(List<Double> values) {
    /**
     * Two-sided 95% critical values of Student's t, {@code t(0.975, df)} for df 1..30, then 40, 60
     * and 120, as tabulated in the NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.2
     * "Critical values of the Student's t distribution" (checked against scipy.stats.t.ppf).
     */
    private static final double[] T975 = {
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, //  1..10
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,  // 11..20
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,  // 21..30
    };
    private static final int[] T975_LARGE_DF = {40, 60, 120};
    private static final double[] T975_LARGE = {2.021, 2.000, 1.980};
    /** The normal quantile, used from df 121 on (1% narrower than the df 120 value at most). */
    private static final double Z975 = 1.960;

    public Sample {
        if (values == null || values.isEmpty()) {
            throw new IllegalArgumentException("a sample needs at least one value");
        }
        for (Double v : values) {
            if (v == null || !Double.isFinite(v)) {
                throw new IllegalArgumentException("not a finite value: " + v + " in " + values);
            }
        }
        values = values.stream().sorted().toList();
    }

    public static Sample of(double... values) {
        return new Sample(Arrays.stream(values).boxed().toList());
    }

    public int n() {
        return values.size();
    }

    public double mean() {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / n();
    }

    /** Sample standard deviation (divisor n - 1); 0 for a single run. */
    public double stddev() {
        if (n() < 2) {
            return 0;
        }
        double mean = mean();
        double squares = 0;
        for (double v : values) {
            squares += (v - mean) * (v - mean);
        }
        return Math.sqrt(squares / (n() - 1));
    }

    /** Standard deviation as a percent of |mean|, LKP's {@code %stddev}; NaN when the mean is 0. */
    public double stddevPct() {
        double mean = mean();
        return mean == 0 ? Double.NaN : stddev() / Math.abs(mean) * 100;
    }

    public double min() {
        return values.getFirst();
    }

    public double max() {
        return values.getLast();
    }

    public double median() {
        int n = n();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    /**
     * 95% confidence interval of the mean, {@code mean ± t(0.975, n-1) * stddev / sqrt(n)};
     * null for a single run, where it is undefined.
     */
    public Interval ci95() {
        if (n() < 2) {
            return null;
        }
        double half = t975(n() - 1) * stddev() / Math.sqrt(n());
        return new Interval(mean() - half, mean() + half);
    }

    /**
     * {@code t(0.975, df)}: exact to three decimals for df 1..30; between tabulated rows the value of
     * the row below (a slightly wider, conservative interval); 1.960 beyond 120.
     */
    static double t975(int df) {
        if (df < 1) {
            throw new IllegalArgumentException("degrees of freedom must be >= 1: " + df);
        }
        if (df <= T975.length) {
            return T975[df - 1];
        }
        double t = T975[T975.length - 1];
        for (int i = 0; i < T975_LARGE_DF.length && df >= T975_LARGE_DF[i]; i++) {
            t = T975_LARGE[i];
        }
        return df > T975_LARGE_DF[T975_LARGE_DF.length - 1] ? Z975 : t;
    }
}
