package lab.analysis.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EstimateTest {
    @Test
    void theEstimateIsTheGeometricMeanWithTOverTheLogs() {
        Estimate e = Estimator.of(List.of(1.0, 1.1, 1.21));
        assertEquals(1.1, e.value(), 1e-12);
        double sd = Math.log(1.1);
        assertEquals(Math.exp(Math.log(1.1) - 4.303 * sd / Math.sqrt(3)), e.lo(), 1e-9);
        assertEquals(Math.exp(Math.log(1.1) + 4.303 * sd / Math.sqrt(3)), e.hi(), 1e-9);
        assertEquals(3, e.rounds());
    }

    @Test
    void oneRoundHasNoIntervalAndSaysSo() {
        Estimate e = Estimator.of(List.of(1.3));
        assertFalse(e.hasInterval());
        assertFalse(e.excludes(1));
        assertEquals(Verdict.INCONCLUSIVE, Verdict.of(e, 0.05));
        assertTrue(Verdict.words(e, 0.05).contains("one round"), Verdict.words(e, 0.05));
        assertEquals(-1, e.roundsFor(0.05));
    }

    @Test
    void verdictsComeFromTheIntervalNotTheValue() {
        // 1.057 with one round at 0.995: the interval holds 1, so no effect is claimed
        Estimate wide = Estimator.of(List.of(0.995, 1.08, 1.10));
        assertTrue(wide.value() > 1.05);
        assertFalse(wide.excludes(1));
        assertEquals(Verdict.INCONCLUSIVE, Verdict.of(wide, 0.02));
        // all three rounds above 1 and tight: an effect, though small
        Estimate tight = Estimator.of(List.of(1.010, 1.012, 1.011));
        assertEquals(Verdict.EFFECT, Verdict.of(tight, 0.05));
        // around 1 and tight: no effect larger than the target
        Estimate none = Estimator.of(List.of(0.998, 1.002, 1.001, 0.999));
        assertEquals(Verdict.NO_EFFECT, Verdict.of(none, 0.02));
        assertEquals("no effect larger than ±2%", Verdict.words(none, 0.02));
    }

    @Test
    void roundsForAHalfWidthFollowTheSpread() {
        Estimate e = Estimator.of(List.of(0.97, 1.03, 1.0));
        int n = e.roundsFor(0.02);
        assertTrue(n > 3, "3 rounds at ±3% spread cannot give ±2%: " + n);
        double h = Estimator.t975(n - 1) * e.sdLog() / Math.sqrt(n);
        assertTrue(h <= Math.log1p(0.02), "at " + n + " rounds: " + h);
        double before = Estimator.t975(n - 2) * e.sdLog() / Math.sqrt(n - 1);
        assertTrue(before > Math.log1p(0.02), "one round fewer would do: " + before);
        int more = e.roundsToResolve(0.02) - 3;
        assertTrue(Verdict.words(e, 0.02).equals("inconclusive at ±2%: about " + more + " more round" + (more == 1 ? "" : "s")
                + " would resolve it"), Verdict.words(e, 0.02));
    }

    @Test
    void anIntervalNarrowerThanTheTargetCanStillBeInconclusiveAndSaysWhatWouldSettleIt() {
        // 1.036 with a ±4.8% interval: holds 1, reaches past 1.05; settling it means leaving out 1 (half-width < 3.5%)
        Estimate e = new Estimate(1.036, 0.988, 1.086, 12, Math.log(1.086 / 0.988) / 2 * Math.sqrt(12) / Estimator.t975(11));
        assertTrue(e.halfWidth() < 0.05);
        assertEquals(Verdict.INCONCLUSIVE, Verdict.of(e, 0.05));
        int n = e.roundsToResolve(0.05);
        assertTrue(Estimator.t975(n - 1) * e.sdLog() / Math.sqrt(n) < Math.log(1.036), "at " + n + " rounds the interval leaves out 1");
        assertTrue(Estimator.t975(n - 2) * e.sdLog() / Math.sqrt(n - 1) >= Math.log(1.036), "one round fewer would not");
        assertTrue(n > 12);
    }

    @Test
    void aRatioPairsRoundsAndIgnoresUnpairedOnes() {
        Estimate e = Estimator.ratio(Map.of(1, 110.0, 2, 121.0, 3, 50.0), Map.of(1, 100.0, 2, 110.0));
        assertEquals(2, e.rounds());
        assertEquals(1.1, e.value(), 1e-12);
        assertNull(Estimator.ratio(Map.of(1, 1.0), Map.of(2, 1.0)));
    }

    @Test
    void theJsonRoundTripsAndCarriesTheInterval() {
        Estimate e = Estimator.of(List.of(0.95, 1.02, 1.07, 0.99));
        Map<String, Object> j = e.json();
        assertTrue(j.get("ci95") instanceof List<?> l && l.size() == 2);
        Estimate back = Estimate.fromJson(j);
        assertEquals(e.value(), back.value(), 1e-6);
        assertEquals(e.roundsFor(0.02), back.roundsFor(0.02));
        assertNull(Estimator.of(List.of(1.0)).json().get("ci95"));
    }

    @Test
    void tQuantilesMatchTheTable() {
        assertEquals(12.706, Estimator.t975(1), 1e-9);
        assertEquals(2.042, Estimator.t975(30), 1e-9);
        assertEquals(2.000, Estimator.t975(60), 0.002);
        assertEquals(1.980, Estimator.t975(120), 0.002);
    }
}
