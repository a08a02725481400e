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
     * {@link #of(Collection)} for rounds nested in boots (a lab kernel's guest booted more than
     * once): the geometric mean over every round, its interval by {@link #nested}'s rule on the
     * logs. One boot: {@link #of(Collection)} itself. Null for no rounds.
     */
    public static Estimate of(Map<Integer, ? extends Collection<Double>> perRoundByBoot) {
        List<Double> all = flat(perRoundByBoot);
        if (perRoundByBoot.size() < 2 || all.isEmpty()) {
            return of(all);
        }
        Map<Integer, List<Double>> logs = new java.util.TreeMap<>();
        perRoundByBoot.forEach((b, v) -> logs.put(b, v.stream().map(x -> {
            if (!(x > 0) || !Double.isFinite(x)) {
                throw new IllegalArgumentException("a per-round figure must be positive and finite, not " + x);
            }
            return Math.log(x);
        }).toList()));
        double[] mh = nested(logs);
        return new Estimate(Math.exp(mh[0]), Math.exp(mh[0] - mh[1]), Math.exp(mh[0] + mh[1]), all.size(), mh[2]);
    }

    /**
     * {@link #mean(Collection)} for rounds nested in boots, by {@link #nested}'s rule. One boot:
     * {@link #mean(Collection)} itself. Null for no rounds.
     */
    public static Estimate mean(Map<Integer, ? extends Collection<Double>> perRoundByBoot) {
        List<Double> all = flat(perRoundByBoot);
        if (perRoundByBoot.size() < 2 || all.isEmpty()) {
            return mean(all);
        }
        Map<Integer, List<Double>> v = new java.util.TreeMap<>();
        perRoundByBoot.forEach((b, x) -> v.put(b, List.copyOf(x)));
        double[] mh = nested(v);
        return new Estimate(mh[0], mh[0] - mh[1], mh[0] + mh[1], all.size(), Double.NaN);
    }

    /**
     * The mean of rounds nested in boots and its 95% half-width, by the one-way random-effects
     * reading of the two levels: MSW, the rounds' mean square within their boots, and MSB, the
     * boots' mean square (each boot's mean about the grand mean, weighted by its rounds). Where
     * MSB &le; MSW the boots differ no more than their rounds do: the rounds are taken as
     * independent, Student's t over all N of them (N &minus; 1 degrees of freedom), as in one
     * boot. Where MSB &gt; MSW a boot adds its own noise, and the boot is the unit: the grand
     * mean's variance is MSB / N (for equal rounds per boot, exactly its expectation, boot
     * variance / boots + round variance / N) on boots &minus; 1 degrees of freedom; with two boots
     * that is t = 12.7, the honest width of two boots that disagree. Returns {mean, half-width,
     * the standard deviation the width came from (per round)}.
     */
    static double[] nested(Map<Integer, List<Double>> byBoot) {
        List<Double> all = flat(byBoot);
        int n = all.size();
        int b = (int) byBoot.values().stream().filter(v -> !v.isEmpty()).count();
        double m = all.stream().mapToDouble(Double::doubleValue).sum() / n;
        double ssw = 0;
        double ssb = 0;
        for (List<Double> v : byBoot.values()) {
            if (v.isEmpty()) {
                continue;
            }
            double mi = v.stream().mapToDouble(Double::doubleValue).sum() / v.size();
            for (double x : v) {
                ssw += (x - mi) * (x - mi);
            }
            ssb += v.size() * (mi - m) * (mi - m);
        }
        if (n < 2) {
            return new double[] {m, Double.NaN, Double.NaN};
        }
        double msb = b < 2 ? 0 : ssb / (b - 1);
        double msw = n - b < 1 ? Double.POSITIVE_INFINITY : ssw / (n - b);
        if (b < 2 || msb <= msw) {
            double sd = Math.sqrt((ssw + ssb) / (n - 1));
            return new double[] {m, t975(n - 1) * sd / Math.sqrt(n), sd};
        }
        return new double[] {m, t975(b - 1) * Math.sqrt(msb / n), Math.sqrt(msb)};
    }

    private static List<Double> flat(Map<Integer, ? extends Collection<Double>> byBoot) {
        List<Double> all = new java.util.ArrayList<>();
        byBoot.values().forEach(all::addAll);
        return all;
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
