package lab.analysis.estimate;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The lab's one estimation rule, used for every figure a notebook and summary.json show: a
 * figure is computed within each round (a ratio from the two variants measured in that round,
 * interleaved in a random balanced order), and the run's estimate is the geometric mean over
 * rounds with a Student-t interval on the log values ({@link Estimate}). A ratio is resampled, so
 * to speak, as the ratio of the paired variants within a round; nothing pools iterations across
 * rounds, so drift between rounds cancels in the ratio and JVM-to-JVM and round-to-round noise
 * are in the interval, not left out of it.
 *
 * <p>Why t over rounds and not a percentile bootstrap: with the 3 to 8 rounds a run has, a
 * bootstrap that resamples rounds under-covers (its resamples cannot be wider than the rounds
 * seen), and one that resamples only the iterations inside each trial leaves out the largest
 * noise; {@code EstimatorCoverageTest} measures both against this rule on synthetic
 * hierarchical data with known variance components.
 */
public final class Estimator {
    private Estimator() {}

    /** Student's t, 0.975 quantile, for 1..30 degrees of freedom. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

    /** Student's t 0.975 quantile for {@code df} degrees of freedom (tabled to 30, then 1.96 + 2.4/df, within 0.002). */
    public static double t975(int df) {
        if (df < 1) {
            throw new IllegalArgumentException("df " + df);
        }
        return df <= T975.length ? T975[df - 1] : 1.96 + 2.4 / df;
    }

    /** The estimate of a positive figure measured once per round; null for no rounds. */
    public static Estimate of(Collection<Double> perRound) {
        if (perRound.isEmpty()) {
            return null;
        }
        int n = perRound.size();
        double[] logs = new double[n];
        int i = 0;
        for (double v : perRound) {
            if (!(v > 0) || !Double.isFinite(v)) {
                throw new IllegalArgumentException("a per-round figure must be positive and finite, not " + v);
            }
            logs[i++] = Math.log(v);
        }
        double m = 0;
        for (double x : logs) {
            m += x;
        }
        m /= n;
        if (n == 1) {
            return new Estimate(Math.exp(m), Double.NaN, Double.NaN, 1, Double.NaN);
        }
        double ss = 0;
        for (double x : logs) {
            ss += (x - m) * (x - m);
        }
        double sd = Math.sqrt(ss / (n - 1));
        double h = t975(n - 1) * sd / Math.sqrt(n);
        return new Estimate(Math.exp(m), Math.exp(m - h), Math.exp(m + h), n, sd);
    }

    /**
     * The estimate of a signed figure measured once per round (a slope, an ns difference): the
     * arithmetic mean with Student's t interval on the values themselves ({@link Estimate#sdLog}
     * NaN: such a figure has no verdict against 1); null for no rounds.
     */
    public static Estimate mean(Collection<Double> perRound) {
        if (perRound.isEmpty()) {
            return null;
        }
        int n = perRound.size();
        double m = 0;
        for (double v : perRound) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("a per-round figure must be finite, not " + v);
            }
            m += v;
        }
        m /= n;
        if (n == 1) {
            return new Estimate(m, Double.NaN, Double.NaN, 1, Double.NaN);
        }
        double ss = 0;
        for (double v : perRound) {
            ss += (v - m) * (v - m);
        }
        double h = t975(n - 1) * Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
        return new Estimate(m, m - h, m + h, n, Double.NaN);
    }

    /**
     * The ratio {@code base / cand} of two figures measured in the same rounds (ns per op: the
     * candidate's throughput over the base's), from the rounds that have both; null when none has.
     */
    public static Estimate ratio(Map<Integer, Double> base, Map<Integer, Double> cand) {
        List<Double> r = base.entrySet().stream().filter(e -> cand.containsKey(e.getKey()))
                .map(e -> e.getValue() / cand.get(e.getKey())).toList();
        return of(r);
    }
}
