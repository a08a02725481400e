package lab.analysis.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Rounds nested in boots: the boot is the unit, worked by hand (the mean of the boots' means, t on
 * boots − 1 degrees of freedom, no interval under three boots), and its coverage measured against
 * the rule it replaced (pool the rounds where the boots' mean square is at most the rounds').
 */
class NestedEstimateTest {
    @Test
    void theEstimateIsTheMeanOfTheBootsMeansWithTOnBootsLessOne() {
        // boot means 1, (2 + 4 + 6) / 3 = 4, (3 + 3) / 2 = 3: mean 8 / 3 = 2.666667 (the six rounds' own mean would be 19 / 6);
        // deviations −5/3, 4/3, 1/3: s² = (25 + 16 + 1) / 9 / 2 = 7/3, s = 1.527525 on 2 df;
        // half-width t(2) s / √3 = 4.303 · 1.527525 / 1.732051 = 3.794889
        Map<Integer, List<Double>> byBoot = Map.of(1, List.of(1.0), 2, List.of(2.0, 4.0, 6.0), 3, List.of(3.0, 3.0));
        Estimate e = Estimator.mean(byBoot);
        assertEquals(8.0 / 3, e.value(), 1e-12);
        assertEquals(8.0 / 3 - 3.794889, e.lo(), 1e-6);
        assertEquals(8.0 / 3 + 3.794889, e.hi(), 1e-6);
        assertEquals(6, e.rounds());
        assertEquals(2, e.df());
        assertEquals(3, e.boots());
        assertTrue(e.hasInterval());
    }

    @Test
    void theRoundsSpreadInsideABootDoesNotWidenOrNarrowTheInterval() {
        // boot means 1.9, 2.0, 2.1 in both: s = 0.1 on 2 df, half-width 4.303 · 0.1 / √3 = 0.248434, whatever the rounds do
        Estimate tight = Estimator.mean(Map.of(1, List.of(1.9, 1.9, 1.9), 2, List.of(2.0, 2.0, 2.0), 3, List.of(2.1, 2.1, 2.1)));
        Estimate loose = Estimator.mean(Map.of(1, List.of(0.9, 1.9, 2.9), 2, List.of(3.0, 2.0, 1.0), 3, List.of(1.1, 2.1, 3.1)));
        for (Estimate e : List.of(tight, loose)) {
            assertEquals(2.0, e.value(), 1e-12);
            assertEquals(2.0 - 0.248434, e.lo(), 1e-6);
            assertEquals(2.0 + 0.248434, e.hi(), 1e-6);
        }
        // the nine loose rounds taken as one boot would have had t(8) = 2.306 on their own spread: squares about 2
        // 1.21 + 0.01 + 0.81 + 1 + 0 + 1 + 0.81 + 0.01 + 1.21 = 6.06, s = √(6.06 / 8) = 0.870345; 2.306 · 0.870345 / 3 = 0.669005
        Estimate flat = Estimator.mean(List.of(0.9, 1.9, 2.9, 3.0, 2.0, 1.0, 1.1, 2.1, 3.1));
        assertEquals(2.0 + 0.669005, flat.hi(), 1e-6);
    }

    @Test
    void ratiosAreNestedOnTheirLogs() {
        // log boot means 0, ln 2, 2 ln 2: mean ln 2, so the value is 2; s = ln 2 = 0.693147 on 2 df;
        // half-width 4.303 · 0.693147 / √3 = 1.722012: 2 · exp(∓1.722012) = [0.357412–11.191552]
        Map<Integer, List<Double>> byBoot = Map.of(1, List.of(1.0, 1.0), 2, List.of(2.0, 2.0), 3, List.of(4.0, 4.0));
        Estimate e = Estimator.of(byBoot);
        assertEquals(2.0, e.value(), 1e-12);
        assertEquals(Math.log(2), e.sdLog(), 1e-12);
        assertEquals(0.357412, e.lo(), 1e-6);
        assertEquals(11.191552, e.hi(), 1e-6);
        assertEquals(2, e.df());
        assertEquals(3, e.boots());
        assertFalse(e.excludes(1));
    }

    @Test
    void twoBootsGiveTheValueAndNoInterval() {
        // boot means 1 and 3, rounds tight within each: the mean 2, and no interval on one df, however many rounds
        Map<Integer, List<Double>> byBoot = Map.of(1, List.of(1.0, 1.1, 0.9, 1.0), 2, List.of(3.0, 3.1, 2.9, 3.0));
        Estimate e = Estimator.mean(byBoot);
        assertEquals(2.0, e.value(), 1e-12);
        assertFalse(e.hasInterval());
        assertEquals(8, e.rounds());
        assertEquals(1, e.df());
        assertEquals(2, e.boots());
        assertEquals("2 boots: no interval", e.noInterval());
        assertEquals(Verdict.NO_INTERVAL, Verdict.of(e, 0.05));
        assertNull(e.json().get("ci95"));
        // the same eight rounds taken as independent would have claimed a figure well clear of 0
        Estimate flat = Estimator.mean(List.of(1.0, 1.1, 0.9, 1.0, 3.0, 3.1, 2.9, 3.0));
        assertTrue(flat.lo() > 1, "flat: " + flat.lo());
        // ratios likewise: log boot means 0 and ln 2, value √2, no interval
        Estimate r = Estimator.of(Map.of(1, List.of(1.0, 1.0), 2, List.of(2.0, 2.0)));
        assertEquals(Math.sqrt(2), r.value(), 1e-12);
        assertEquals("2 boots: no interval", r.noInterval());
    }

    @Test
    void oneBootIsTheFlatEstimate() {
        List<Double> v = List.of(1.0, 1.1, 1.21);
        assertEquals(Estimator.of(v), Estimator.of(Map.of(3, v)));
        assertEquals(Estimator.mean(v), Estimator.mean(Map.of(3, v)));
        // a boot with no rounds is no boot
        Map<Integer, List<Double>> withEmpty = new TreeMap<>(Map.of(1, v, 2, List.of()));
        assertEquals(Estimator.of(v), Estimator.of(withEmpty));
        assertEquals(Estimator.mean(v), Estimator.mean(withEmpty));
    }

    // Coverage: the boot as the unit against the rule it replaced, on simulated boots whose truth is known.

    /** Simulated experiments per setting: the 95% rate's standard error is then 0.34% (-Dlab.nested.runs for more). */
    private static final int RUNS = Integer.getInteger("lab.nested.runs", 4000);

    /**
     * The rule the lab used before 2026-12-07, re-implemented here as the reference it is measured
     * against: one-way random effects, MSW the rounds' mean square within boots and MSB the boots'
     * (each boot's mean about the grand mean of the rounds, weighted by its rounds); where MSB &le; MSW
     * every round is a unit (t on N − 1 over all N rounds), else the boot (t on boots − 1 and the
     * grand mean's variance MSB / N). Returns {mean, half-width}.
     */
    static double[] pretestPooling(Map<Integer, List<Double>> byBoot) {
        List<Double> all = new ArrayList<>();
        byBoot.values().forEach(all::addAll);
        int n = all.size();
        int b = byBoot.size();
        double m = all.stream().mapToDouble(Double::doubleValue).sum() / n;
        double ssw = 0;
        double ssb = 0;
        for (List<Double> v : byBoot.values()) {
            double mi = v.stream().mapToDouble(Double::doubleValue).sum() / v.size();
            for (double x : v) {
                ssw += (x - mi) * (x - mi);
            }
            ssb += v.size() * (mi - m) * (mi - m);
        }
        double msb = ssb / (b - 1);
        double msw = ssw / (n - b);
        if (msb <= msw) {
            return new double[] {m, Estimator.t975(n - 1) * Math.sqrt((ssw + ssb) / (n - 1)) / Math.sqrt(n)};
        }
        return new double[] {m, Estimator.t975(b - 1) * Math.sqrt(msb / n)};
    }

    /**
     * One experiment of {@code boots} boots of {@code rounds} rounds, truth 0: a round's figure is
     * the boot's normal offset (sd {@code sdBoot}) plus the round's own (sd {@code sdRound}).
     */
    static Map<Integer, List<Double>> experiment(SplittableRandom rnd, int boots, int rounds, double sdBoot, double sdRound) {
        Map<Integer, List<Double>> out = new TreeMap<>();
        for (int b = 1; b <= boots; b++) {
            double offset = sdBoot * rnd.nextGaussian();
            List<Double> v = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                v.add(offset + sdRound * rnd.nextGaussian());
            }
            out.put(b, v);
        }
        return out;
    }

    /** {rate at which the boot-unit interval covers 0, rate at which the pre-test pooling one does, rate with an interval}. */
    static double[] coverage(int boots, int rounds, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int unit = 0;
        int pooled = 0;
        int withInterval = 0;
        for (int i = 0; i < RUNS; i++) {
            Map<Integer, List<Double>> x = experiment(rnd, boots, rounds, 1.0, 1.0);
            Estimate e = Estimator.mean(x);
            if (e.hasInterval()) {
                withInterval++;
                unit += e.lo() <= 0 && 0 <= e.hi() ? 1 : 0;
            }
            double[] p = pretestPooling(x);
            pooled += Math.abs(p[0]) <= p[1] ? 1 : 0;
        }
        return new double[] {(double) unit / RUNS, (double) pooled / RUNS, (double) withInterval / RUNS};
    }

    /**
     * Equal components (a boot's offset as large as a round's noise): MSB &le; MSW often enough by
     * chance that the pre-test pools the boots' shared offsets as if they were independent rounds.
     * Measured (normal noise, truth 0): with this test's seeds and 4000 runs, 3 boots x 3 rounds
     * covered 95.38% with the boot as the unit and 93.90% by the pre-test pooling, 2 boots x 3
     * rounds 91.33% by the pooling; with 400,000 runs ({@code -Dlab.nested.runs=400000}), 95.01%,
     * 93.92% and 91.35%.
     */
    @Test
    void theBootAsTheUnitCoversNineteenTimesInTwentyWhereThePretestPoolingDidNot() {
        double[] three = coverage(3, 3, 52);
        double[] two = coverage(2, 3, 53);
        String what = String.format(Locale.ROOT, "%d runs each: 3 boots x 3 rounds: boot unit %.4f, pre-test pooling %.4f;"
                + " 2 boots x 3 rounds: pre-test pooling %.4f (boot unit: no interval)", RUNS, three[0], three[1], two[1]);
        System.out.println("NestedEstimateTest coverage, " + what);
        assertEquals(1.0, three[2], "three boots always give an interval: " + what);
        assertEquals(0.0, two[2], "two boots never do: " + what);
        assertTrue(three[0] >= 0.93 && three[0] <= 0.97, "the boot as the unit: " + what);
        // the 91.6% at 2 x 3: 4000 runs put it within about ±1.1% (2.5 standard errors)
        assertTrue(two[1] >= 0.905 && two[1] <= 0.927, "pre-test pooling, 2 boots: " + what);
        assertTrue(three[1] < three[0] - 0.01, "pre-test pooling covers clearly less at 3 x 3: " + what);
        assertTrue(Math.abs(three[0] - 0.95) < Math.abs(three[1] - 0.95), "the boot unit is the nearer to 95%: " + what);
    }
}
