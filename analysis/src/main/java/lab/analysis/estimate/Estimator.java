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
 * <p>Three rules beside that one: fewer than three rounds give a value and no interval (t with one
 * degree of freedom is 12.7); rounds a sequential design added after its pilot take their
 * interval from the pilot's spread on the pilot's degrees of freedom ({@link Stein}); rounds
 * nested in boots are read with the boot as the unit ({@link #nested}).
 *
 * <p>Why t over rounds and not a percentile bootstrap: with the 3 to 8 rounds a run has, a
 * bootstrap that resamples rounds under-covers (its resamples cannot be wider than the rounds
 * seen), and one that resamples only the iterations inside each trial leaves out the largest
 * noise; {@code EstimatorCoverageTest} measures both against this rule on synthetic
 * hierarchical data with known variance components, and {@code SequentialCoverageTest} measures
 * the whole path (JMH's files, the sweep's reading, the adaptive rounds, the verdict).
 */
public final class Estimator {
    private Estimator() {}

    /** Student's t, 0.975 quantile, for 1..30 degrees of freedom. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

    /**
     * Student's t 0.975 quantile for {@code df} degrees of freedom (tabled to 30, then 1.96 + 2.4/df, within 0.002). A table,
     * not an estimate, so a page may read it ({@link Estimate#fromJson} does, reading summary.json's record back): the only
     * public method here that makes no {@link EstimationStage#check}.
     */
    public static double t975(int df) {
        if (df < 1) {
            throw new IllegalArgumentException("df " + df);
        }
        return df <= T975.length ? T975[df - 1] : 1.96 + 2.4 / df;
    }

    /** The estimate of a positive figure measured once per round; null for no rounds. */
    public static Estimate of(Collection<Double> perRound) {
        EstimationStage.check("Estimator.of over rounds");
        if (perRound.isEmpty()) {
            return null;
        }
        return ofLogs(logs(perRound), perRound.size());
    }

    /**
     * {@link #of(Collection)} for rounds of a sequential design ({@link Stein}): the geometric mean
     * over every round, its interval from the spread of the rounds in {@code pilot} alone, on their
     * degrees of freedom. Where every round is a pilot round (no round was added after it), or
     * {@code pilot} is empty, {@link #of(Collection)} itself. Null for no rounds.
     */
    public static Estimate of(Map<Integer, Double> perRound, java.util.Set<Integer> pilot) {
        EstimationStage.check("Estimator.of over rounds of a sequential design");
        if (perRound.isEmpty()) {
            return null;
        }
        if (pilot.isEmpty() || pilot.containsAll(perRound.keySet())) {
            return of(perRound.values());
        }
        double[] all = logs(perRound.values());
        double[] first = logs(perRound.entrySet().stream().filter(e -> pilot.contains(e.getKey())).map(Map.Entry::getValue).toList());
        double m = mean(all);
        int n = all.length;
        if (first.length < 2) {
            return new Estimate(Math.exp(m), Double.NaN, Double.NaN, n, Double.NaN, Math.max(0, first.length - 1), 1);
        }
        double s0 = sd(first);
        int df = first.length - 1;
        if (df < Estimate.MIN_UNITS - 1) {
            return new Estimate(Math.exp(m), Double.NaN, Double.NaN, n, s0, df, 1);
        }
        double h = t975(df) * s0 / Math.sqrt(n);
        return new Estimate(Math.exp(m), Math.exp(m - h), Math.exp(m + h), n, s0, df, 1);
    }

    private static Estimate ofLogs(double[] logs, int n) {
        double m = mean(logs);
        if (n == 1) {
            return new Estimate(Math.exp(m), Double.NaN, Double.NaN, 1, Double.NaN);
        }
        double sd = sd(logs);
        if (n < Estimate.MIN_UNITS) {
            return new Estimate(Math.exp(m), Double.NaN, Double.NaN, n, sd);
        }
        double h = t975(n - 1) * sd / Math.sqrt(n);
        return new Estimate(Math.exp(m), Math.exp(m - h), Math.exp(m + h), n, sd);
    }

    private static double[] logs(Collection<Double> perRound) {
        double[] logs = new double[perRound.size()];
        int i = 0;
        for (double v : perRound) {
            if (!(v > 0) || !Double.isFinite(v)) {
                throw new IllegalArgumentException("a per-round figure must be positive and finite, not " + v);
            }
            logs[i++] = Math.log(v);
        }
        return logs;
    }

    private static double mean(double[] x) {
        double m = 0;
        for (double v : x) {
            m += v;
        }
        return m / x.length;
    }

    private static double sd(double[] x) {
        double m = mean(x);
        double ss = 0;
        for (double v : x) {
            ss += (v - m) * (v - m);
        }
        return Math.sqrt(ss / (x.length - 1));
    }

    /**
     * The estimate of a signed figure measured once per round (a slope, an ns difference): the
     * arithmetic mean with Student's t interval on the values themselves ({@link Estimate#sdLog}
     * NaN: such a figure has no verdict against 1); no interval under three rounds; null for no
     * rounds.
     */
    public static Estimate mean(Collection<Double> perRound) {
        EstimationStage.check("Estimator.mean over rounds");
        if (perRound.isEmpty()) {
            return null;
        }
        int n = perRound.size();
        double[] x = new double[n];
        int i = 0;
        for (double v : perRound) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("a per-round figure must be finite, not " + v);
            }
            x[i++] = v;
        }
        double m = mean(x);
        if (n < Estimate.MIN_UNITS) {
            return new Estimate(m, Double.NaN, Double.NaN, n, Double.NaN);
        }
        double h = t975(n - 1) * sd(x) / Math.sqrt(n);
        return new Estimate(m, m - h, m + h, n, Double.NaN);
    }

    /**
     * {@link #mean(Collection)} for rounds of a sequential design: the mean over every round, its
     * interval from the pilot rounds' spread on their degrees of freedom ({@link Stein}).
     */
    public static Estimate mean(Map<Integer, Double> perRound, java.util.Set<Integer> pilot) {
        EstimationStage.check("Estimator.mean over rounds of a sequential design");
        if (perRound.isEmpty()) {
            return null;
        }
        if (pilot.isEmpty() || pilot.containsAll(perRound.keySet())) {
            return mean(perRound.values());
        }
        double[] all = perRound.values().stream().mapToDouble(Double::doubleValue).toArray();
        double[] first = perRound.entrySet().stream().filter(e -> pilot.contains(e.getKey())).mapToDouble(Map.Entry::getValue).toArray();
        double m = mean(all);
        int df = first.length - 1;
        if (df < Estimate.MIN_UNITS - 1) {
            return new Estimate(m, Double.NaN, Double.NaN, all.length, Double.NaN, Math.max(0, df), 1);
        }
        double h = t975(df) * sd(first) / Math.sqrt(all.length);
        return new Estimate(m, m - h, m + h, all.length, Double.NaN, df, 1);
    }

    /**
     * {@link #of(Collection)} for rounds nested in boots (a lab kernel's guest booted more than
     * once), the boot the unit ({@link #nested}): the geometric mean of the boots' geometric means.
     * One boot: {@link #of(Collection)} itself. Null for no rounds.
     */
    public static Estimate of(Map<Integer, ? extends Collection<Double>> perRoundByBoot) {
        EstimationStage.check("Estimator.of over boots");
        List<Double> all = flat(perRoundByBoot);
        if (perRoundByBoot.values().stream().filter(v -> !v.isEmpty()).count() < 2 || all.isEmpty()) {
            return of(all);
        }
        Map<Integer, List<Double>> logs = new java.util.TreeMap<>();
        perRoundByBoot.forEach((b, v) -> logs.put(b, v.stream().map(x -> {
            if (!(x > 0) || !Double.isFinite(x)) {
                throw new IllegalArgumentException("a per-round figure must be positive and finite, not " + x);
            }
            return Math.log(x);
        }).toList()));
        Nested n = nested(logs);
        return n.hasInterval() ? new Estimate(Math.exp(n.mean()), Math.exp(n.mean() - n.half()), Math.exp(n.mean() + n.half()), all.size(),
                n.sd(), n.boots() - 1, n.boots())
                : new Estimate(Math.exp(n.mean()), Double.NaN, Double.NaN, all.size(), n.sd(), n.boots() - 1, n.boots());
    }

    /**
     * {@link #mean(Collection)} for rounds nested in boots, the boot the unit ({@link #nested}). One
     * boot: {@link #mean(Collection)} itself. Null for no rounds.
     */
    public static Estimate mean(Map<Integer, ? extends Collection<Double>> perRoundByBoot) {
        EstimationStage.check("Estimator.mean over boots");
        List<Double> all = flat(perRoundByBoot);
        if (perRoundByBoot.values().stream().filter(v -> !v.isEmpty()).count() < 2 || all.isEmpty()) {
            return mean(all);
        }
        Map<Integer, List<Double>> v = new java.util.TreeMap<>();
        perRoundByBoot.forEach((b, x) -> v.put(b, List.copyOf(x)));
        Nested n = nested(v);
        return n.hasInterval() ? new Estimate(n.mean(), n.mean() - n.half(), n.mean() + n.half(), all.size(), Double.NaN, n.boots() - 1,
                n.boots()) : new Estimate(n.mean(), Double.NaN, Double.NaN, all.size(), Double.NaN, n.boots() - 1, n.boots());
    }

    /** Rounds nested in boots, read with the boot as the unit: the mean of the boots' means, its half-width, their spread, the boots. */
    record Nested(double mean, double half, double sd, int boots) {
        boolean hasInterval() {
            return boots >= Estimate.MIN_UNITS && Double.isFinite(half);
        }
    }

    /**
     * The mean of rounds nested in boots and its 95% half-width, the boot the unit: each boot's
     * mean over its rounds, then Student's t over the boots' means on {@code boots - 1} degrees of
     * freedom ({@code t s_b / √boots}). A boot's mean carries its rounds' noise and the boot's own
     * (a guest's placement, its caches, its clock), so the boots' spread is the whole noise of one
     * boot's figure, as a round's is of its forks'. The lab pooled rounds across boots before
     * 2026-12-07 wherever the boots' mean square was below the rounds': a pre-test rule that
     * covered 91.35% with 2 boots of 3 rounds and equal components (93.9% with 3 boots), where this
     * one covers 95.0% (400,000 simulated runs; {@code NestedEstimateTest}). No interval under three boots ({@link Estimate#MIN_UNITS}).
     */
    static Nested nested(Map<Integer, List<Double>> byBoot) {
        List<Double> means = new java.util.ArrayList<>();
        for (List<Double> v : byBoot.values()) {
            if (!v.isEmpty()) {
                means.add(v.stream().mapToDouble(Double::doubleValue).sum() / v.size());
            }
        }
        double[] x = means.stream().mapToDouble(Double::doubleValue).toArray();
        int b = x.length;
        double m = mean(x);
        if (b < 2) {
            return new Nested(m, Double.NaN, Double.NaN, b);
        }
        double s = sd(x);
        return new Nested(m, b < Estimate.MIN_UNITS ? Double.NaN : t975(b - 1) * s / Math.sqrt(b), s, b);
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
        EstimationStage.check("Estimator.ratio");
        return ratio(base, cand, java.util.Set.of());
    }

    /** {@link #ratio(Map, Map)} for rounds of a sequential design whose pilot rounds are {@code pilot} ({@link #of(Map, java.util.Set)}). */
    public static Estimate ratio(Map<Integer, Double> base, Map<Integer, Double> cand, java.util.Set<Integer> pilot) {
        EstimationStage.check("Estimator.ratio");
        Map<Integer, Double> r = new java.util.TreeMap<>();
        base.forEach((round, b) -> {
            Double c = cand.get(round);
            if (c != null) {
                r.put(round, b / c);
            }
        });
        return of(r, pilot);
    }
}
