package lab.analysis.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Two hosts' estimates of one figure set against each other ({@link RatioOfRatios}): the
 * interval worked by hand, the cases without one, the A/A gate, and its coverage on independent
 * normal log rounds.
 */
class RatioOfRatiosTest {
    /** A as summary.json writes it: 1.10 [1.00–1.21], 4 rounds (df 3, t 3.182). */
    static final Estimate A = Estimate.fromJson(Map.of("value", 1.10, "ci95", List.of(1.00, 1.21), "rounds", 4));
    /** B: 1.00 [0.90–1.111111], 6 rounds (df 5, t 2.571). */
    static final Estimate B = Estimate.fromJson(Map.of("value", 1.00, "ci95", List.of(0.90, 1.111111), "rounds", 6));

    /**
     * By hand: A's log half-width ln(1.21 / 1.00) / 2 = 0.095310, over t(3) = 3.182: se_A =
     * 0.029953; B's ln(1.111111 / 0.90) / 2 = 0.105360, over t(5) = 2.571: se_B = 0.040980.
     * se = √(0.029953² + 0.040980²) = 0.050760; ν = se⁴ / (se_A⁴ / 3 + se_B⁴ / 5) = 7.976, so
     * t(7) = 2.365 and the log half-width 2.365 × 0.050760 = 0.120047; D = ln 1.10 − ln 1.00 =
     * 0.095310, so A / B = 1.10 [exp(−0.024737)–exp(0.215357)] = 1.10 [0.9756–1.2403]: it holds 1.
     * Without B's term it would be A's own [1.00–1.21]; without A's, [0.99–1.22].
     */
    @Test
    void theIntervalIsTheHandWorkedOne() {
        RatioOfRatios r = RatioOfRatios.of(A, "a", B, "b");
        assertEquals(0.029953, RatioOfRatios.seLog(A), 1e-6);
        assertEquals(0.040980, RatioOfRatios.seLog(B), 1e-6);
        assertEquals(0.050760, r.seLog(), 1e-6);
        assertEquals(7.976, r.dfWelch(), 1e-3);
        assertEquals(7, r.ratio().df());
        assertEquals(1.10, r.ratio().value(), 1e-9);
        assertEquals(0.9756, r.ratio().lo(), 1e-4);
        assertEquals(1.2403, r.ratio().hi(), 1e-4);
        assertTrue(r.holdsOne());
        assertNull(r.why());
        assertEquals("1.10 [0.98–1.24]", r.ratio().format(2));
        // B over A is the same interval inverted
        RatioOfRatios back = RatioOfRatios.of(B, "b", A, "a");
        assertEquals(1 / 1.2403, back.ratio().lo(), 1e-4);
        assertEquals(1 / 0.9756, back.ratio().hi(), 1e-4);
    }

    @Test
    void welchsDegreesOfFreedomLieBetweenTheSmallerSideAndTheSum() {
        assertEquals(6.0, RatioOfRatios.welchDf(0.1, 3, 0.1, 3), 1e-12);
        assertEquals(3.0, RatioOfRatios.welchDf(1.0, 3, 1e-6, 30), 1e-6);
        assertEquals(30.0, RatioOfRatios.welchDf(1e-6, 3, 1.0, 30), 1e-6);
        assertEquals(8.0, RatioOfRatios.welchDf(0, 3, 0, 5), 1e-12);
    }

    @Test
    void noIntervalWhereEitherSideHasNoneAndSaysWhich() {
        Estimate two = Estimate.fromJson(Map.of("value", 0.9, "ci95", List.of(0.5, 1.6), "rounds", 2));
        RatioOfRatios r = RatioOfRatios.of(A, "host-a", two, "host-b");
        assertFalse(r.ratio().hasInterval());
        assertEquals(1.10 / 0.9, r.ratio().value(), 1e-9);
        assertEquals("host-b: 2 rounds: no interval", r.why());
        assertEquals(Verdict.NO_INTERVAL, r.verdict(null, null, 0.05));
        assertFalse(r.holdsOne());
        Map<String, Object> j = r.json(null, null, 0.05);
        assertNull(j.get("ci95"));
        assertEquals(List.of(4, 2), j.get("rounds"));
        assertEquals("no-interval", j.get("verdict"));
        assertNull(RatioOfRatios.of(A, "a", null, "b"));
    }

    @Test
    void eitherSidesFailedControlFailsTheRatio() {
        RatioOfRatios r = RatioOfRatios.of(A, "a", B, "b");
        Estimate ok = Estimate.fromJson(Map.of("value", 1.0, "ci95", List.of(0.99, 1.01), "rounds", 4));
        Estimate failed = Estimate.fromJson(Map.of("value", 1.02, "ci95", List.of(1.01, 1.03), "rounds", 4));
        assertEquals(Verdict.INCONCLUSIVE, r.verdict(ok, ok, 0.05));
        assertEquals(Verdict.CONTROL_FAILED, r.verdict(failed, ok, 0.05));
        assertEquals(Verdict.CONTROL_FAILED, r.verdict(null, failed, 0.05));
    }

    @Test
    void itIsAnEstimateAndCannotBeMadeWhileAPageRenders() {
        assertThrows(IllegalStateException.class, () -> EstimationStage.rendering(() -> RatioOfRatios.of(A, "a", B, "b")));
    }

    /**
     * Coverage: host A's rounds and host B's, independent normal logs about the same truth, each
     * estimated by {@link Estimator#of} as a run is, then set against each other; the interval
     * holds the true ratio 1 in 95% ± 1.5% of 20,000 pairs per case, and with three rounds a side
     * (Welch's rule is conservative there) in 95-98.5%.
     */
    @Test
    void itCovers95PercentOnIndependentNormalLogs() {
        SplittableRandom rnd = new SplittableRandom(53);
        double[][] cases = {{4, 0.01, 8, 0.03}, {5, 0.005, 5, 0.02}, {8, 0.02, 8, 0.02}, {3, 0.03, 20, 0.01}};
        for (double[] c : cases) {
            double cov = coverage(rnd, (int) c[0], c[1], (int) c[2], c[3], 20_000);
            assertTrue(Math.abs(cov - 0.95) <= 0.015, "coverage " + cov + " for " + java.util.Arrays.toString(c));
        }
        double small = coverage(rnd, 3, 0.02, 3, 0.02, 20_000);
        assertTrue(small >= 0.95 && small <= 0.985, "coverage with 3 and 3 rounds: " + small);
    }

    private static double coverage(SplittableRandom rnd, int na, double sa, int nb, double sb, int pairs) {
        int hit = 0;
        for (int i = 0; i < pairs; i++) {
            RatioOfRatios r = RatioOfRatios.of(Estimator.of(rounds(rnd, na, sa)), "a", Estimator.of(rounds(rnd, nb, sb)), "b");
            if (r.ratio().lo() <= 1 && 1 <= r.ratio().hi()) {
                hit++;
            }
        }
        return hit / (double) pairs;
    }

    private static List<Double> rounds(SplittableRandom rnd, int n, double sd) {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Math.exp(sd * gauss(rnd)));
        }
        return out;
    }

    private static double gauss(SplittableRandom rnd) {
        return Math.sqrt(-2 * Math.log(1 - rnd.nextDouble())) * Math.cos(2 * Math.PI * rnd.nextDouble());
    }
}
