package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import lab.analysis.estimate.AdaptiveLog;
import lab.analysis.estimate.Estimator;
import org.junit.jupiter.api.Test;

/** When the headline's adaptive rounds stop: the interval narrow enough, the round limit, the budget; and not before three rounds. */
class AdaptiveTest {
    @Test
    void anIntervalWithinTheTargetStopsTheRoundsWhereverItLies() {
        assertEquals(AdaptiveLog.REACHED, Adaptive.stop(Estimator.of(List.of(1.10, 1.11, 1.12)), 0.05, 4, 24, 10, 240),
                "±2.3% around 1.11: narrow enough, though it leaves out 1");
        assertEquals(AdaptiveLog.REACHED, Adaptive.stop(Estimator.of(List.of(0.999, 1.0, 1.001)), 0.05, 4, 24, 10, 240),
                "an interval inside ±5%");
        assertNull(Adaptive.stop(Estimator.of(List.of(0.95, 1.06, 1.01)), 0.05, 4, 24, 10, 240), "±13%: wider than the target");
        assertNull(Adaptive.stop(Estimator.of(List.of(1.20, 1.35, 1.50)), 0.05, 4, 24, 10, 240),
                "an effect, but ±28% wide: not stopped on where it lies (no optional stopping)");
        assertNull(Adaptive.stop(Estimator.of(List.of(1.10, 1.11)), 0.05, 3, 24, 10, 240), "two rounds are too few to stop on");
        assertNull(Adaptive.stop(null, 0.05, 2, 24, 0, 240), "no estimate yet");
    }

    @Test
    void theLimitAndTheBudgetStopAnUnsettledInterval() {
        assertEquals(AdaptiveLog.LIMIT, Adaptive.stop(Estimator.of(List.of(0.95, 1.06, 1.01)), 0.05, 25, 24, 10, 240));
        assertEquals(AdaptiveLog.BUDGET, Adaptive.stop(Estimator.of(List.of(0.95, 1.06, 1.01)), 0.05, 5, 24, 240, 240));
    }
}
