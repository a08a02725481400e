package lab.analysis.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rounds nested in boots: the boot is a level of the estimate, worked by hand. */
class NestedEstimateTest {
    @Test
    void bootsThatAgreeAreRoundsAsInOneBoot() {
        // boot means 2 and 2: MSB = 0 <= MSW, so t over all six rounds, as if one boot
        Map<Integer, List<Double>> byBoot = Map.of(1, List.of(1.0, 2.0, 3.0), 2, List.of(2.0, 3.0, 1.0));
        Estimate e = Estimator.mean(byBoot);
        double sd = Math.sqrt(4.0 / 5);
        assertEquals(2.0, e.value(), 1e-12);
        assertEquals(2.0 - 2.571 * sd / Math.sqrt(6), e.lo(), 1e-9);
        assertEquals(2.0 + 2.571 * sd / Math.sqrt(6), e.hi(), 1e-9);
        assertEquals(6, e.rounds());
        Estimate flat = Estimator.mean(List.of(1.0, 2.0, 3.0, 2.0, 3.0, 1.0));
        assertEquals(flat.lo(), e.lo(), 1e-12);
        assertEquals(flat.hi(), e.hi(), 1e-12);
    }

    @Test
    void bootsThatDisagreeMakeTheBootTheUnit() {
        // boot means 1 and 3, rounds tight within each: SSB = 4·1 + 4·1 = 8 on 1 df, MSW = 0.04/6;
        // the grand mean's variance is MSB/N = 8/8 = 1, t(1) = 12.706: [2 − 12.706, 2 + 12.706]
        Map<Integer, List<Double>> byBoot = Map.of(1, List.of(1.0, 1.1, 0.9, 1.0), 2, List.of(3.0, 3.1, 2.9, 3.0));
        Estimate e = Estimator.mean(byBoot);
        assertEquals(2.0, e.value(), 1e-12);
        assertEquals(2.0 - 12.706, e.lo(), 1e-9);
        assertEquals(2.0 + 12.706, e.hi(), 1e-9);
        assertTrue(e.lo() < 0, "two boots that disagree resolve nothing");
        // the same eight rounds taken as independent would have claimed a figure well clear of 0
        Estimate flat = Estimator.mean(List.of(1.0, 1.1, 0.9, 1.0, 3.0, 3.1, 2.9, 3.0));
        assertTrue(flat.lo() > 1, "flat: " + flat.lo());
    }

    @Test
    void ratiosAreNestedOnTheirLogs() {
        // log-values: boot 1 at log 1.0, boot 2 at log 2.0 (each exact): MSW = 0 < MSB = 2·2·(log 2/2)^2
        double l2 = Math.log(2);
        Map<Integer, List<Double>> byBoot = Map.of(1, List.of(1.0, 1.0), 2, List.of(2.0, 2.0));
        Estimate e = Estimator.of(byBoot);
        double m = l2 / 2;
        double msb = 2 * (m * m) + 2 * (m * m);
        assertEquals(Math.sqrt(2), e.value(), 1e-12);
        assertEquals(Math.exp(m - 12.706 * Math.sqrt(msb / 4)), e.lo(), 1e-9);
        assertEquals(Math.exp(m + 12.706 * Math.sqrt(msb / 4)), e.hi(), 1e-9);
        assertFalse(e.excludes(1));
    }

    @Test
    void oneBootIsTheFlatEstimate() {
        List<Double> v = List.of(1.0, 1.1, 1.21);
        assertEquals(Estimator.of(v), Estimator.of(Map.of(3, v)));
        assertEquals(Estimator.mean(v), Estimator.mean(Map.of(3, v)));
    }
}
