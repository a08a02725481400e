package lab.analysis.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AxisTest {
    @Test
    void niceTicksCoverTheDataInFourToEightSteps() {
        assertEquals(List.of(0.0, 2.0, 4.0, 6.0, 8.0), Axis.linear(0, 7.3).ticks());
        assertEquals(List.of(0.0, 0.2, 0.4, 0.6, 0.8, 1.0), Axis.linear(0, 1).ticks());
        assertEquals(List.of(0.0, 2.5, 5.0, 7.5, 10.0, 12.5, 15.0, 17.5), Axis.linear(0, 16.1).ticks());
        assertEquals(List.of(-50.0, 0.0, 50.0, 100.0, 150.0, 200.0, 250.0), Axis.linear(-12, 230).ticks());
        assertEquals(List.of(1.7, 1.72, 1.74, 1.76, 1.78), Axis.linear(1.7, 1.78).ticks());
        for (double max : new double[] {0.013, 0.9, 1.01, 3, 9.99, 42, 99, 101, 1e6 + 1, 123456}) {
            List<Double> t = Axis.linear(0, max).ticks();
            assertTrue(t.size() >= 4 && t.size() <= 8, max + " -> " + t);
            assertTrue(t.getFirst() <= 0 && t.getLast() >= max, max + " -> " + t);
        }
    }

    @Test
    void labelsHaveTheDecimalsTheStepNeeds() {
        Axis a = Axis.linear(0, 16.1);
        assertEquals("2.5", a.label(2.5));
        assertEquals("10.0", a.label(10));
        assertEquals("6", Axis.linear(0, 7.3).label(6));
        assertEquals("0.04", Axis.linear(0, 0.1).label(0.04));
    }

    @Test
    void fromZeroStretchesToZeroAndSurvivesFlatData() {
        assertEquals(0.0, Axis.linearFromZero(3, 7.3).min());
        assertEquals(0.0, Axis.linearFromZero(-7.3, -3).max());
        assertEquals(List.of(0.0, 0.2, 0.4, 0.6, 0.8, 1.0), Axis.linearFromZero(0, 0).ticks());
        assertTrue(Axis.linear(5, 5).min() < 5 && Axis.linear(5, 5).max() > 5);
    }

    @Test
    void log2AxisHasPowersOfTwoEvenlySpaced() {
        Axis a = Axis.log2(1, 16);
        assertEquals(List.of(1.0, 2.0, 4.0, 8.0, 16.0), a.ticks());
        assertEquals(List.of(2.0, 4.0, 8.0, 16.0, 32.0), Axis.log2(3, 24).ticks());
        assertEquals("0.5", Axis.log2(0.5, 2).label(0.5));
        assertTrue(Axis.log2(1, 1 << 20).ticks().size() <= 12);
        Scale s = a.scale(100, 500);
        assertEquals(100, s.px(1), 1e-9);
        assertEquals(500, s.px(16), 1e-9);
        for (int t = 1; t < 16; t *= 2) {
            assertEquals(100, s.px(2 * t) - s.px(t), 1e-9);
        }
        assertThrows(IllegalArgumentException.class, () -> Axis.log2(0, 8));
    }

    @Test
    void linearScaleMayRunBackwardsAsAYAxisDoes() {
        Scale y = Axis.linear(0, 1).scale(300, 100);
        assertEquals(300, y.px(0), 1e-9);
        assertEquals(100, y.px(1), 1e-9);
        assertEquals(200, y.px(0.5), 1e-9);
    }
}
