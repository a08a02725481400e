package lab.analysis.estimate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The estimator against synthetic runs with known truth: each run has R rounds, each round F
 * forks of each of two variants, each fork I iterations, and noise at every level (a drift per
 * round common to both variants, which the paired ratio cancels; a per-round, per-variant
 * effect; a per-fork JVM effect; per-iteration noise), all multiplicative (log-normal), with a
 * true ratio of base over candidate. Over 1000 simulated runs the 95% interval must cover the
 * truth in 93–97% of them; the lab's first method (a bootstrap of the iterations inside each
 * trial, the median over rounds) and a percentile bootstrap over rounds are measured against it.
 */
class EstimatorCoverageTest {
    private static final int RUNS = 1000;
    private static final double TRUTH = 1.04;

    /** Variance components in log units: round drift (shared), round x variant, fork, iteration. */
    record Levels(double drift, double round, double fork, double iter) {}

    /** One simulated run: per round, the two variants' means (ns per op) over their forks and iterations. */
    record SimRun(double[] base, double[] cand, List<double[]> baseIters, List<double[]> candIters) {}

    static SimRun simulate(SplittableRandom rnd, int rounds, int forks, int iters, Levels l) {
        double[] b = new double[rounds];
        double[] c = new double[rounds];
        List<double[]> bi = new ArrayList<>();
        List<double[]> ci = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            double drift = l.drift() * gauss(rnd);
            double[] xb = trial(rnd, 100 * TRUTH, drift, forks, iters, l);
            double[] xc = trial(rnd, 100, drift, forks, iters, l);
            b[r] = mean(xb);
            c[r] = mean(xc);
            bi.add(xb);
            ci.add(xc);
        }
        return new SimRun(b, c, bi, ci);
    }

    private static double[] trial(SplittableRandom rnd, double ns, double drift, int forks, int iters, Levels l) {
        double round = l.round() * gauss(rnd);
        double[] out = new double[forks * iters];
        for (int f = 0; f < forks; f++) {
            double fork = l.fork() * gauss(rnd);
            for (int i = 0; i < iters; i++) {
                out[f * iters + i] = ns * Math.exp(drift + round + fork + l.iter() * gauss(rnd));
            }
        }
        return out;
    }

    private static double gauss(SplittableRandom rnd) {
        double u = rnd.nextDouble();
        double v = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
    }

    private static double mean(double[] x) {
        return Arrays.stream(x).average().orElseThrow();
    }

    /** The lab's estimator: per-round ratios, t over their logs. */
    static boolean covers(SimRun s) {
        List<Double> r = new ArrayList<>();
        for (int i = 0; i < s.base().length; i++) {
            r.add(s.base()[i] / s.cand()[i]);
        }
        Estimate e = Estimator.of(r);
        return e.lo() <= TRUTH && TRUTH <= e.hi();
    }

    /** The first method: resample each trial's iterations, median over rounds of the ratio of means, 2.5–97.5 percentiles. */
    static boolean withinTrialBootstrapCovers(SimRun s, SplittableRandom rnd) {
        int n = 400;
        double[] stat = new double[n];
        double[] per = new double[s.base().length];
        for (int k = 0; k < n; k++) {
            for (int r = 0; r < per.length; r++) {
                per[r] = resampledMean(s.baseIters().get(r), rnd) / resampledMean(s.candIters().get(r), rnd);
            }
            double[] sorted = per.clone();
            Arrays.sort(sorted);
            stat[k] = sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
        }
        Arrays.sort(stat);
        return stat[(int) (0.025 * (n - 1))] <= TRUTH && TRUTH <= stat[(int) Math.ceil(0.975 * (n - 1))];
    }

    /** A percentile bootstrap that resamples rounds (and inside them the iterations): the hierarchy's top level by resampling. */
    static boolean roundBootstrapCovers(SimRun s, SplittableRandom rnd) {
        int n = 400;
        int rounds = s.base().length;
        double[] stat = new double[n];
        for (int k = 0; k < n; k++) {
            double sum = 0;
            for (int j = 0; j < rounds; j++) {
                int r = rnd.nextInt(rounds);
                sum += Math.log(resampledMean(s.baseIters().get(r), rnd) / resampledMean(s.candIters().get(r), rnd));
            }
            stat[k] = Math.exp(sum / rounds);
        }
        Arrays.sort(stat);
        return stat[(int) (0.025 * (n - 1))] <= TRUTH && TRUTH <= stat[(int) Math.ceil(0.975 * (n - 1))];
    }

    private static double resampledMean(double[] xs, SplittableRandom rnd) {
        double sum = 0;
        for (int i = 0; i < xs.length; i++) {
            sum += xs[rnd.nextInt(xs.length)];
        }
        return sum / xs.length;
    }

    private static double coverage(int rounds, int forks, int iters, Levels l, String method) {
        SplittableRandom rnd = new SplittableRandom(0x5EED + rounds * 31L + forks);
        int hit = 0;
        for (int i = 0; i < RUNS; i++) {
            SimRun s = simulate(rnd, rounds, forks, iters, l);
            boolean ok = switch (method) {
                case "t" -> covers(s);
                case "within-trial" -> withinTrialBootstrapCovers(s, rnd);
                case "round-bootstrap" -> roundBootstrapCovers(s, rnd);
                default -> throw new IllegalArgumentException(method);
            };
            hit += ok ? 1 : 0;
        }
        return (double) hit / RUNS;
    }

    /** The committed runs' shape: rounds vary (drift), JVMs vary (forks), iterations vary least. */
    private static final Levels TYPICAL = new Levels(0.10, 0.03, 0.02, 0.01);

    @Test
    void theIntervalCoversTheTruthNineteenTimesInTwentyAtThreeRounds() {
        double c = coverage(3, 3, 5, TYPICAL, "t");
        assertTrue(c >= 0.93 && c <= 0.97, "coverage at 3 rounds x 3 forks: " + c);
    }

    @Test
    void theIntervalCoversTheTruthNineteenTimesInTwentyAtEightRoundsOfOneFork() {
        double c = coverage(8, 1, 5, TYPICAL, "t");
        assertTrue(c >= 0.93 && c <= 0.97, "coverage at 8 rounds x 1 fork: " + c);
    }

    @Test
    void theIntervalCoversWhereIterationsAreTheLargestNoiseToo() {
        double c = coverage(5, 1, 5, new Levels(0.05, 0.005, 0.005, 0.05), "t");
        assertTrue(c >= 0.93 && c <= 0.97, "coverage with iteration noise dominant: " + c);
    }

    @Test
    void theFirstMethodsWithinTrialBootstrapFailsIt() {
        double c = coverage(3, 3, 5, TYPICAL, "within-trial");
        assertTrue(c < 0.80, "the within-trial bootstrap leaves out round and fork noise, so it must under-cover: " + c);
    }

    @Test
    void aPercentileBootstrapOverThreeRoundsUnderCovers() {
        double c = coverage(3, 3, 5, TYPICAL, "round-bootstrap");
        assertTrue(c < 0.90, "resampling 3 rounds cannot be wider than the rounds seen: " + c);
    }
}
