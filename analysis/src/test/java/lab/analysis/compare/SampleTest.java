package lab.analysis.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SampleTest {
    static final double EPS = 1e-9;

    @Test
    void momentsOfOneToFour() {
        Sample s = Sample.of(4, 1, 3, 2);
        assertEquals(List.of(1.0, 2.0, 3.0, 4.0), s.values());
        assertEquals(4, s.n());
        assertEquals(2.5, s.mean(), EPS);
        assertEquals(Math.sqrt(5.0 / 3), s.stddev(), EPS);             // 1.2909944...
        assertEquals(1.2909944487, s.stddev(), 1e-10);
        assertEquals(51.639777949, s.stddevPct(), 1e-8);
        assertEquals(1, s.min());
        assertEquals(4, s.max());
        assertEquals(2.5, s.median(), EPS);
        assertEquals(3, Sample.of(5, 1, 3).median());
    }

    @Test
    void confidenceIntervalUsesStudentsT() {
        // half-width = t(0.975, 3) * s / sqrt(4) = 3.182 * 1.2909944487 / 2 = 2.0539721679
        Interval ci = Sample.of(1, 2, 3, 4).ci95();
        assertEquals(2.5 - 2.0539721679, ci.low(), 1e-9);
        assertEquals(2.5 + 2.0539721679, ci.high(), 1e-9);
    }

    @Test
    void tTableRowsAndTail() {
        assertEquals(12.706, Sample.t975(1));
        assertEquals(3.182, Sample.t975(3));
        assertEquals(2.042, Sample.t975(30));
        assertEquals(2.042, Sample.t975(39));   // conservative: the row below
        assertEquals(2.021, Sample.t975(40));
        assertEquals(2.000, Sample.t975(119));
        assertEquals(1.980, Sample.t975(120));
        assertEquals(1.960, Sample.t975(121));
        assertThrows(IllegalArgumentException.class, () -> Sample.t975(0));
    }

    @Test
    void singleRun() {
        Sample s = Sample.of(7);
        assertEquals(0, s.stddev());
        assertEquals(0, s.stddevPct());
        assertEquals(7, s.median());
        assertNull(s.ci95());
    }

    @Test
    void zeroMeanHasNoRelativeSpread() {
        assertTrue(Double.isNaN(Sample.of(-1, 1).stddevPct()));
    }

    @Test
    void rejectsEmptyAndNonFinite() {
        assertThrows(IllegalArgumentException.class, () -> Sample.of());
        assertThrows(IllegalArgumentException.class, () -> Sample.of(1, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Sample.of(Double.POSITIVE_INFINITY));
    }

    @Test
    void intervalsTouchingOverlap() {
        assertTrue(new Interval(1, 2).overlaps(new Interval(2, 3)));
        assertTrue(!new Interval(1, 2).overlaps(new Interval(2.5, 3)));
        assertThrows(IllegalArgumentException.class, () -> new Interval(2, 1));
    }
}
