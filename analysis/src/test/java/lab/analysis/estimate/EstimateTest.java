package lab.analysis.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class EstimateTest {
    /** An interval over three rounds (df 2), its log spread the one t(2) = 4.303 would have made it from. */
    private static Estimate ci(double value, double lo, double hi) {
        return new Estimate(value, lo, hi, 3, Math.log(hi / lo) / 2 * Math.sqrt(3) / 4.303);
    }

    /** The same ends over two rounds (df 1): ends a caller may hold, which are no interval. */
    private static Estimate twoRounds(double value, double lo, double hi) {
        return new Estimate(value, lo, hi, 2, Math.log(hi / lo) / 2 * Math.sqrt(2) / 12.706);
    }

    @Test
    void theEstimateIsTheGeometricMeanWithTOverTheLogs() {
        Estimate e = Estimator.of(List.of(1.0, 1.1, 1.21));
        assertEquals(1.1, e.value(), 1e-12);
        double sd = Math.log(1.1);
        assertEquals(Math.exp(Math.log(1.1) - 4.303 * sd / Math.sqrt(3)), e.lo(), 1e-9);
        assertEquals(Math.exp(Math.log(1.1) + 4.303 * sd / Math.sqrt(3)), e.hi(), 1e-9);
        assertEquals(3, e.rounds());
        assertEquals(2, e.df());
        assertEquals(1, e.boots());
        assertTrue(e.hasInterval());
        assertNull(e.noInterval());
    }

    @Test
    void oneRoundHasNoIntervalAndSaysSo() {
        Estimate e = Estimator.of(List.of(1.3));
        assertFalse(e.hasInterval());
        assertFalse(e.excludes(1));
        assertEquals("1 round: no interval", e.noInterval());
        assertEquals(Verdict.NO_INTERVAL, Verdict.of(e, 0.05));
        assertEquals("1 round: no interval", Verdict.words(e, 0.05));
        assertEquals(-1, e.steinRounds(Stein.halfWidth(0.05)));
        assertEquals("1.30", e.format(2));
    }

    @Test
    void twoRoundsGiveTheValueAndNoInterval() {
        // logs 0 and ln 1.21 = 0.190620: mean 0.095310 = ln 1.1, sd 0.190620 / √2 = 0.134789; t(1) = 12.706 is never used
        Estimate e = Estimator.of(List.of(1.0, 1.21));
        assertEquals(1.1, e.value(), 1e-12);
        assertEquals(0.134789, e.sdLog(), 1e-6);
        assertEquals(2, e.rounds());
        assertEquals(1, e.df());
        assertTrue(Double.isNaN(e.lo()) && Double.isNaN(e.hi()), e.toString());
        assertFalse(e.hasInterval());
        assertEquals("2 rounds: no interval", e.noInterval());
        assertTrue(Double.isNaN(e.reach()) && Double.isNaN(e.halfWidth()));
        assertEquals(-1, e.steinRounds(Stein.halfWidth(0.02)), "t(1) makes Stein's count meaningless");
        assertEquals("1.10", e.format(2));
        assertEquals(Verdict.NO_INTERVAL, Verdict.of(e, 0.02));
        assertEquals("1.10x, 2 rounds: no interval", Verdict.brief(e, 0.02));
        // the arithmetic mean likewise: (1 + 3) / 2 = 2, no interval
        Estimate m = Estimator.mean(List.of(1.0, 3.0));
        assertEquals(2.0, m.value(), 1e-12);
        assertFalse(m.hasInterval());
        assertEquals("2 rounds: no interval", m.noInterval());
    }

    @Test
    void endsOverTwoRoundsAreNoInterval() {
        // ends a caller holds (an old summary.json, a hand-made figure) count only on two degrees of freedom
        Estimate e = twoRounds(1.04, 1.03, 1.05);
        assertFalse(e.hasInterval());
        assertFalse(e.excludes(1));
        assertFalse(e.within(0.05));
        assertFalse(e.beyond(0.02));
        assertEquals("1.04", e.format(2));
    }

    @Test
    void excludesWithinAndBeyondReadTheEnds() {
        Estimate small = ci(1.008, 1.001, 1.015);
        assertTrue(small.excludes(1));
        assertFalse(small.excludes(1.01));
        assertTrue(small.within(0.02));
        assertFalse(small.within(0.01));
        assertFalse(small.beyond(0.02));
        // reach 0.015 (hi's side), half-width √(1.015 / 1.001) − 1 = 0.006968
        assertEquals(0.015, small.reach(), 1e-12);
        assertEquals(0.006968, small.halfWidth(), 1e-6);
        Estimate below = ci(0.96, 0.95, 0.97);
        assertTrue(below.beyond(0.02) && below.beyond(0.03));
        assertFalse(below.beyond(0.04));
        assertEquals(0.05, below.reach(), 1e-12);
        // the ends count as inside: exactly representable ends at ±25%
        assertTrue(ci(1, 0.75, 1.25).within(0.25));
        assertTrue(ci(1.375, 1.25, 1.5).beyond(0.25));
        assertTrue(ci(0.625, 0.5, 0.75).beyond(0.25));
        assertFalse(ci(1, 0.75, 1.25).beyond(0.25));
    }

    @Test
    void steinsRoundsAreTheTableTOnTheFiguresOwnSpread() {
        // logs −0.03, 0, +0.03: mean 0, s = √((0.0009 + 0 + 0.0009) / 2) = 0.03 on 2 df; at ±2% h = ln(1.02) / 2 = 0.0099013;
        // t(2) s / h = 4.303 · 0.03 / 0.0099013 = 13.0377, squared 169.98: ⌈·⌉ = 170 rounds in all
        Estimate e = Estimator.of(List.of(Math.exp(-0.03), 1.0, Math.exp(0.03)));
        assertEquals(0.03, e.sdLog(), 1e-12);
        assertEquals(170, e.steinRounds(Stein.halfWidth(0.02)));
        // at ±3%, h = ln(1.03) / 2 = 0.0147794: (4.303 · 0.03 / 0.0147794)² = 8.7345² = 76.29: 77
        assertEquals(77, e.steinRounds(Stein.halfWidth(0.03)));
        // its interval: exp(±4.303 · 0.03 / √3) = exp(±0.074530) = [0.928179–1.077378]
        assertEquals(0.928179, e.lo(), 1e-6);
        assertEquals(1.077378, e.hi(), 1e-6);
        // a Stein count never asks for fewer rounds than were run: a spread of 0.001 needs ⌈(4.303 · 0.001 / 0.0099013)²⌉ = ⌈0.19⌉ = 1
        assertEquals(3, Estimator.of(List.of(Math.exp(-0.001), 1.0, Math.exp(0.001))).steinRounds(Stein.halfWidth(0.02)));
    }

    @Test
    void roundsAfterAPilotTakeThePilotsSpreadOnItsDegreesOfFreedom() {
        // pilot rounds 1-3 at logs −0.03, 0, +0.03 (s0 = 0.03, 2 df); rounds 4, 5 at logs 0.01, 0.04. Mean of all five logs
        // 0.05 / 5 = 0.01; half-width 4.303 · 0.03 / √5 = 0.12909 / 2.236068 = 0.057731: exp(0.01 ± 0.057731) = [0.953390–1.070077]
        Map<Integer, Double> r = new TreeMap<>(Map.of(1, Math.exp(-0.03), 2, 1.0, 3, Math.exp(0.03), 4, Math.exp(0.01), 5, Math.exp(0.04)));
        Estimate e = Estimator.of(r, Set.of(1, 2, 3));
        assertEquals(Math.exp(0.01), e.value(), 1e-12);
        assertEquals(0.953390, e.lo(), 1e-6);
        assertEquals(1.070077, e.hi(), 1e-6);
        assertEquals(5, e.rounds());
        assertEquals(2, e.df());
        assertEquals(0.03, e.sdLog(), 1e-12);
        // Stein's count from the pilot is the pilot's: 170 at ±2%, as above, whatever rounds came after
        assertEquals(170, e.steinRounds(Stein.halfWidth(0.02)));
    }

    @Test
    void theJsonOfRoundsCarriesTheIntervalAndNoDfOrBoots() {
        Estimate e = Estimator.of(List.of(0.95, 1.02, 1.07, 0.99));
        Map<String, Object> j = e.json();
        assertEquals(List.of("value", "ci95", "rounds"), List.copyOf(j.keySet()), "df is rounds − 1, one boot: neither written");
        assertTrue(j.get("ci95") instanceof List<?> l && l.size() == 2);
        assertEquals(4, j.get("rounds"));
        Estimate back = Estimate.fromJson(j);
        assertEquals(e.value(), back.value(), 1e-6);
        assertEquals(e.lo(), back.lo(), 1e-6);
        assertEquals(e.hi(), back.hi(), 1e-6);
        assertEquals(3, back.df());
        assertEquals(1, back.boots());
        assertEquals(e.sdLog(), back.sdLog(), 1e-5);
        assertEquals(e.steinRounds(Stein.halfWidth(0.02)), back.steinRounds(Stein.halfWidth(0.02)));
        Map<String, Object> two = Estimator.of(List.of(1.0, 1.21)).json();
        assertNull(two.get("ci95"));
        assertFalse(two.containsKey("df") || two.containsKey("boots"), two.toString());
        assertEquals("2 rounds: no interval", Estimate.fromJson(two).noInterval());
        assertNull(Estimate.fromJson(Map.of("value", 1.0)), "no rounds: not an estimate");
        assertNull(Estimate.fromJson("1.04"));
    }

    @Test
    void theJsonOfAPilotsFigureWritesItsDegreesOfFreedom() {
        Map<Integer, Double> r = new TreeMap<>(Map.of(1, Math.exp(-0.03), 2, 1.0, 3, Math.exp(0.03), 4, Math.exp(0.01), 5, Math.exp(0.04)));
        Estimate e = Estimator.of(r, Set.of(1, 2, 3));
        Map<String, Object> j = e.json();
        assertEquals(2, j.get("df"), "5 rounds, 2 df: written");
        assertFalse(j.containsKey("boots"));
        Estimate back = Estimate.fromJson(j);
        assertEquals(2, back.df());
        assertEquals(5, back.rounds());
        // s from the ends: ln(1.070077 / 0.953390) / 2 · √5 / 4.303 = 0.03, on the pilot's t, over all five rounds
        assertEquals(0.03, back.sdLog(), 1e-5);
        assertEquals(170, back.steinRounds(Stein.halfWidth(0.02)));
    }

    @Test
    void theJsonOfBootsWritesThemAndTheirDegreesOfFreedom() {
        // boots' mean logs 0.01, 0.05, 0.09: mean 0.05, s = √((0.0016 + 0 + 0.0016) / 2) = 0.04 on 2 df;
        // half-width 4.303 · 0.04 / √3 = 0.17212 / 1.732051 = 0.099373: exp(0.05 ± 0.099373) = [0.951826–1.161107]
        Map<Integer, List<Double>> byBoot = Map.of(1, List.of(1.0, Math.exp(0.02)), 2, List.of(Math.exp(0.04), Math.exp(0.06)),
                3, List.of(Math.exp(0.08), Math.exp(0.10)));
        Estimate e = Estimator.of(byBoot);
        assertEquals(0.951826, e.lo(), 1e-6);
        assertEquals(1.161107, e.hi(), 1e-6);
        Map<String, Object> j = e.json();
        assertEquals(6, j.get("rounds"));
        assertEquals(2, j.get("df"));
        assertEquals(3, j.get("boots"));
        Estimate back = Estimate.fromJson(j);
        assertEquals(3, back.boots());
        assertEquals(2, back.df());
        assertEquals(0.04, back.sdLog(), 1e-5, "s per boot: the ends over √3 boots, not √6 rounds");
        assertEquals(-1, back.steinRounds(Stein.halfWidth(0.02)), "a boot, not a round, is what would be added");
        // two boots: no interval, and the json says so
        Map<String, Object> two = Estimator.of(Map.of(1, List.of(1.0, 1.1), 2, List.of(1.2, 1.3))).json();
        assertNull(two.get("ci95"));
        assertEquals(2, two.get("boots"));
        assertEquals(1, two.get("df"));
        assertEquals("2 boots: no interval", Estimate.fromJson(two).noInterval());
    }

    @Test
    void aRatioPairsRoundsAndIgnoresUnpairedOnes() {
        Estimate e = Estimator.ratio(Map.of(1, 110.0, 2, 121.0, 3, 50.0), Map.of(1, 100.0, 2, 110.0));
        assertEquals(2, e.rounds());
        assertEquals(1.1, e.value(), 1e-12);
        assertFalse(e.hasInterval(), "two paired rounds");
        assertNull(Estimator.ratio(Map.of(1, 1.0), Map.of(2, 1.0)));
    }

    @Test
    void tQuantilesMatchTheTable() {
        assertEquals(12.706, Estimator.t975(1), 1e-9);
        assertEquals(4.303, Estimator.t975(2), 1e-9);
        assertEquals(3.182, Estimator.t975(3), 1e-9);
        assertEquals(2.776, Estimator.t975(4), 1e-9);
        assertEquals(2.042, Estimator.t975(30), 1e-9);
        assertEquals(2.000, Estimator.t975(60), 0.002);
        assertEquals(1.980, Estimator.t975(120), 0.002);
    }

    // Verdicts, in Verdict's order: each case is one a wrong order gets wrong.

    @Test
    void aFailedControlBeatsEverything() {
        Estimate control = ci(1.005, 1.001, 1.009);
        Estimate effect = ci(1.04, 1.03, 1.05);
        assertTrue(Verdict.controlFailed(control));
        assertEquals(Verdict.CONTROL_FAILED, Verdict.of(effect, control, 0.02), "an effect under a failed A/A");
        assertEquals(Verdict.CONTROL_FAILED, Verdict.of(Estimator.of(List.of(1.0, 1.21)), control, 0.02), "no interval, failed A/A");
        assertEquals(Verdict.CONTROL_FAILED, Verdict.of(ci(1.0, 0.99, 1.01), control, 0.02), "no effect, failed A/A");
        assertEquals("the A/A control failed (1.005 [1.001–1.009]): this figure is not evidence", Verdict.words(effect, control, 0.02));
        assertEquals("A/A failed: not evidence", Verdict.shortWords(effect, control, 0.02));
        assertEquals("1.04 [1.03–1.05]x, A/A failed: not evidence", Verdict.brief(effect, control, 0.02));
        // a control that holds 1, or has no interval, fails nothing
        assertEquals(Verdict.EFFECT, Verdict.of(effect, ci(1.0, 0.99, 1.01), 0.02));
        assertFalse(Verdict.controlFailed(twoRounds(1.005, 1.001, 1.009)));
        assertEquals(Verdict.EFFECT, Verdict.of(effect, twoRounds(1.005, 1.001, 1.009), 0.02));
        assertFalse(Verdict.controlFailed(null));
    }

    @Test
    void noIntervalComesBeforeTheEnds() {
        Estimate e = twoRounds(1.04, 1.03, 1.05);
        assertEquals(Verdict.NO_INTERVAL, Verdict.of(e, 0.02), "ends beyond ±2% on one df are no effect");
        assertEquals("2 rounds: no interval", Verdict.words(e, 0.02));
        assertEquals("2 rounds: no interval", Verdict.shortWords(e, null, 0.02));
    }

    @Test
    void anIntervalWhollyBeyondTheMarginIsAnEffect() {
        Estimate up = ci(1.04, 1.03, 1.05);
        assertEquals(Verdict.EFFECT, Verdict.of(up, 0.02));
        assertEquals("an effect of at least +2% (+4.0%, +3.0% to +5.0%)", Verdict.words(up, 0.02));
        assertEquals("1.04 [1.03–1.05]x, effect ≥ +2%", Verdict.brief(up, 0.02));
        Estimate down = ci(0.96, 0.95, 0.97);
        assertEquals(Verdict.EFFECT, Verdict.of(down, 0.02));
        assertEquals("an effect of at least -2% (-4.0%, -5.0% to -3.0%)", Verdict.words(down, 0.02));
        assertEquals("effect ≥ -2%", Verdict.shortWords(down, null, 0.02));
        // the same interval at ±5% straddles nothing and holds no 1: inside the margin, a small change
        assertEquals(Verdict.SMALL_CHANGE, Verdict.of(up, 0.05));
    }

    @Test
    void anIntervalThatLeavesOutOneInsideTheMarginIsASmallChangeNotAnEffect() {
        Estimate e = ci(1.008, 1.001, 1.015);
        assertEquals(Verdict.SMALL_CHANGE, Verdict.of(e, 0.02));
        assertEquals("a change smaller than ±2% (+0.8%, +0.1% to +1.5%)", Verdict.words(e, 0.02));
        assertEquals("change < ±2%", Verdict.shortWords(e, null, 0.02));
        assertEquals(Verdict.SMALL_CHANGE, Verdict.of(ci(0.992, 0.985, 0.999), 0.02));
    }

    @Test
    void anIntervalHoldingOneInsideTheMarginIsNoEffect() {
        Estimate e = ci(1.0, 0.99, 1.01);
        assertEquals(Verdict.NO_EFFECT, Verdict.of(e, 0.02));
        assertEquals("no effect larger than ±2%", Verdict.words(e, 0.02));
        assertEquals("no effect > ±2%", Verdict.shortWords(e, null, 0.02));
        // 1.0 exactly at an end still holds 1
        assertEquals(Verdict.NO_EFFECT, Verdict.of(ci(1.005, 1.0, 1.01), 0.02));
    }

    @Test
    void anIntervalHoldingOneAndReachingPastTheMarginIsInconclusiveAndSaysSteinsCount() {
        // [0.98–1.06] over 3 rounds: its spread ln(1.06 / 0.98) / 2 · √3 / 4.303 = 0.015793 on 2 df; at ±5% h = 0.024395,
        // (4.303 · 0.015793 / 0.024395)² = 3 · (0.039236 / 0.024395)² = 7.76: 8 rounds in all, 5 more, for ±(√1.05 − 1) = ±2.5%
        Estimate e = ci(1.02, 0.98, 1.06);
        assertEquals(Verdict.INCONCLUSIVE, Verdict.of(e, 0.05));
        assertEquals(8, e.steinRounds(Stein.halfWidth(0.05)));
        assertEquals("inconclusive at ±5%: the interval holds 1 and reaches +6.0%; Stein's rule on its spread (2 df) asks 5 more rounds"
                + " for ±2.5%", Verdict.words(e, 0.05));
        assertEquals("inconclusive at ±5%", Verdict.shortWords(e, null, 0.05));
        // the same ends on one df: no interval, so no Stein count either
        assertEquals("2 rounds: no interval", Verdict.words(twoRounds(1.02, 0.98, 1.06), 0.05));
        // the same ends over three boots: inconclusive, but a count of rounds would not be what is missing
        Estimate boots = new Estimate(1.02, 0.98, 1.06, 9, e.sdLog(), 2, 3);
        assertEquals(Verdict.INCONCLUSIVE, Verdict.of(boots, 0.05));
        assertEquals("inconclusive at ±5%: the interval holds 1 and reaches +6.0%", Verdict.words(boots, 0.05));
        // the far end below 1 is the one said
        String below = Verdict.words(ci(0.99, 0.93, 1.01), 0.05);
        assertTrue(below.startsWith("inconclusive at ±5%: the interval holds 1 and reaches -7.0%; "), below);
    }

    @Test
    void aChangeStraddlingTheMarginIsInconclusiveWithoutACount() {
        Estimate e = ci(1.05, 1.03, 1.07);
        assertEquals(Verdict.INCONCLUSIVE, Verdict.of(e, 0.05));
        assertEquals("inconclusive at ±5%: a change (the interval leaves out 1) whose size straddles +5%", Verdict.words(e, 0.05));
    }

    @Test
    void theVerdictsCodesAndWhichOnesDecide() {
        assertEquals(List.of("effect", "small-change", "no-effect", "inconclusive", "control-failed", "no-interval"),
                java.util.Arrays.stream(Verdict.values()).map(v -> v.code).toList());
        assertEquals(Set.of(Verdict.EFFECT, Verdict.SMALL_CHANGE, Verdict.NO_EFFECT),
                java.util.Arrays.stream(Verdict.values()).filter(Verdict::decided).collect(java.util.stream.Collectors.toSet()));
        assertEquals(0.05, Verdict.target(true));
        assertEquals(0.02, Verdict.target(false));
        assertEquals("±2.5%", Verdict.pct(0.025));
        Map<String, Object> j = Verdict.json(ci(1.008, 1.001, 1.015), null, 0.02);
        assertEquals("small-change", j.get("verdict"));
        assertEquals("a change smaller than ±2% (+0.8%, +0.1% to +1.5%)", j.get("verdict_text"));
        Map<String, Object> none = Verdict.json(null, null, 0.02);
        assertTrue(none.containsKey("verdict") && none.get("verdict") == null && none.get("verdict_text") == null, none.toString());
        assertEquals("—", Verdict.brief(null, 0.02));
    }
}
