package lab.analysis.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CrossoverTest {
    @Test
    void crossingIsInterpolated() {
        // rwsem - srcu: +5, +3, -7, -16 -> changes sign in [2, 4], at 2 + 3 / (3 + 7) * 2 = 2.6
        Crossover c = Crossover.find("rwsem", Map.of(1, 10.0, 2, 10.0, 4, 12.0, 8, 14.0),
                                     "srcu", Map.of(1, 5.0, 2, 7.0, 4, 19.0, 8, 30.0));
        assertEquals(new Crossover.Crossing("srcu", "rwsem", 2, 4, 2.6, false), round(c));
        assertEquals("srcu passes rwsem between 2 and 4 threads (≈2.6)", c.sentence());
    }

    @Test
    void noCrossing() {
        Crossover c = Crossover.find("rwsem", Map.of(1, 1.0, 4, 2.0, 16, 3.0),
                                     "srcu", Map.of(1, 2.0, 4, 5.0, 16, 9.0));
        assertEquals(new Crossover.NoCrossing("srcu", "rwsem", 1, 16, false), c);
        assertEquals("no crossover from 1 to 16 threads: srcu above rwsem throughout", c.sentence());
    }

    @Test
    void touchingIsNotCrossing() {
        Crossover c = Crossover.find("a", Map.of(1, 10.0, 2, 5.0, 4, 10.0), "b", Map.of(1, 5.0, 2, 5.0, 4, 5.0));
        assertEquals(new Crossover.NoCrossing("a", "b", 1, 4, true), c);
        assertEquals("no crossover from 1 to 4 threads: a at or above b throughout", c.sentence());
    }

    @Test
    void crossingThroughAnEqualPoint() {
        Crossover c = Crossover.find("a", Map.of(1, 10.0, 2, 5.0, 4, 0.0), "b", Map.of(1, 5.0, 2, 5.0, 4, 5.0));
        assertEquals(new Crossover.Crossing("b", "a", 1, 4, 2, true), c);
        assertEquals("b passes a between 1 and 4 threads (equal at 2)", c.sentence());
    }

    @Test
    void equalThroughout() {
        Crossover c = Crossover.find("a", Map.of(1, 3.0, 2, 3.0), "b", Map.of(1, 3.0, 2, 3.0));
        assertEquals(new Crossover.NoCrossing("a", "b", 1, 2, true), c);
    }

    @Test
    void thresholdFirstExceeded() {
        // rwsem / srcu - 1: +1%, +5%, +9%, +14%
        var srcu = Map.of(1, 100.0, 2, 100.0, 4, 100.0, 8, 100.0);
        var rwsem = Map.of(1, 101.0, 2, 105.0, 4, 109.0, 8, 114.0);
        Crossover.Threshold t = Crossover.threshold("srcu", srcu, "rwsem", rwsem, 0.10);
        assertEquals(true, t.exceeded());
        assertEquals(8, t.x());
        assertEquals(0.14, t.excess(), 1e-12);
        assertEquals("rwsem first exceeds srcu by more than 10% at 8 threads (+14.0%)", t.sentence());

        Crossover.Threshold within = Crossover.threshold("srcu", srcu, "rwsem", rwsem, 0.20);
        assertEquals(false, within.exceeded());
        assertEquals(8, within.x());
        assertEquals("rwsem stays within 20% of srcu from 1 to 8 threads (at most +14.0%, at 8 threads)",
            within.sentence());
        assertEquals("rwsem first exceeds srcu by more than 0.5% at 1 thread (+1.0%)",
            Crossover.threshold("srcu", srcu, "rwsem", rwsem, 0.005).sentence());
    }

    @Test
    void seriesMustShareThreadCounts() {
        assertThrows(IllegalArgumentException.class,
            () -> Crossover.find("a", Map.of(1, 1.0, 2, 1.0), "b", Map.of(1, 1.0, 4, 1.0)));
        assertThrows(IllegalArgumentException.class,
            () -> Crossover.threshold("a", Map.of(1, 0.0), "b", Map.of(1, 1.0), 0.1));
    }

    /** The interpolated crossing rounded to 1e-9, so the record compares exactly. */
    static Crossover round(Crossover c) {
        return c instanceof Crossover.Crossing(var p, var q, var lo, var hi, var at, var exact)
            ? new Crossover.Crossing(p, q, lo, hi, Math.round(at * 1e9) / 1e9, exact) : c;
    }
}
