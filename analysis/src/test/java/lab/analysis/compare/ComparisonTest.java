package lab.analysis.compare;

import static lab.analysis.compare.Comparison.Significance.NOT_SIGNIFICANT;
import static lab.analysis.compare.Comparison.Significance.SIGNIFICANT;
import static lab.analysis.compare.Comparison.Significance.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ComparisonTest {
    // CIs: base 100 ± 3.182 * 0.8165 / 2 = [98.70, 101.30]; candidate [108.70, 111.30].
    static final Comparison SEPARATED =
        new Comparison("ops", Sample.of(100, 101, 99, 100), Sample.of(110, 111, 109, 110), true);
    // CIs: base 100 ± 4.303 * 10 / sqrt(3) = [75.2, 124.8]; candidate [80.2, 129.8].
    static final Comparison OVERLAPPING =
        new Comparison("ops", Sample.of(90, 100, 110), Sample.of(95, 105, 115), true);

    @Test
    void changeAndRatio() {
        assertEquals(10.0, SEPARATED.pctChange(), 1e-9);
        assertEquals(1.1, SEPARATED.ratio(), 1e-12);
        Comparison slower = new Comparison("ns/op", Sample.of(200, 200), Sample.of(150, 150), false);
        assertEquals(-25.0, slower.pctChange(), 1e-12);
        assertEquals(0.75, slower.ratio(), 1e-12);
    }

    @Test
    void betterFollowsTheMetricsDirection() {
        assertTrue(SEPARATED.better());
        assertFalse(new Comparison("ns/op", SEPARATED.base(), SEPARATED.candidate(), false).better());
        assertTrue(new Comparison("ns/op", Sample.of(200), Sample.of(150), false).better());
        assertFalse(new Comparison("ops", Sample.of(5), Sample.of(5), true).better());
    }

    @Test
    void significanceByNonOverlappingIntervals() {
        assertEquals(SIGNIFICANT, SEPARATED.significance());
        assertEquals(NOT_SIGNIFICANT, OVERLAPPING.significance());
        // zero spread: point intervals, significant as soon as the means differ
        assertEquals(SIGNIFICANT, new Comparison("x", Sample.of(5, 5), Sample.of(6, 6), true).significance());
        assertEquals(NOT_SIGNIFICANT, new Comparison("x", Sample.of(5, 5), Sample.of(5, 5), true).significance());
    }

    @Test
    void singleRunIsUnknown() {
        Comparison c = new Comparison("ops", Sample.of(100), Sample.of(110, 111, 109), true);
        assertEquals(UNKNOWN, c.significance());
        assertNull(c.ratioCi());
        assertEquals(UNKNOWN, new Comparison("ops", Sample.of(100, 101), Sample.of(200), true).significance());
    }

    @Test
    void bootstrapIsDeterministicAndOrderFree() {
        Interval first = SEPARATED.ratioCi();
        assertEquals(first, SEPARATED.ratioCi());
        Comparison shuffled =
            new Comparison("ops", Sample.of(99, 100, 101, 100), Sample.of(111, 110, 110, 109), true);
        assertEquals(first, shuffled.ratioCi());
    }

    @Test
    void bootstrapCoversTheRatioOfMeans() {
        for (Comparison c : new Comparison[] {SEPARATED, OVERLAPPING}) {
            Interval ci = c.ratioCi();
            assertTrue(ci.contains(c.ratio()), c + " -> " + ci);
            assertTrue(ci.low() < ci.high());
        }
        // every resampled ratio lies within [109/101, 111/99]
        Interval ci = SEPARATED.ratioCi();
        assertTrue(ci.low() >= 109.0 / 101 && ci.high() <= 111.0 / 99, ci.toString());
        // the overlapping pair's interval straddles 1: no clear change
        assertTrue(OVERLAPPING.ratioCi().contains(1.0));
    }
}
