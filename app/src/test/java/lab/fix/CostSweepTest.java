package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The cost sweep's plan: the gaps a full and a quick run measure, and the JMH cells of one round and thread count. */
class CostSweepTest {
    @Test
    void aFullRunMeasuresEveryGapAndTheBase() {
        assertEquals(List.of(0L, 100L, 1000L, 5941L), CostSweep.gaps(5941, false));
        assertEquals(List.of(0L, 100L, 1000L), CostSweep.gaps(1000, false));
        assertEquals(List.of(0L, 100L, 1000L), CostSweep.gaps(0, false));
    }

    @Test
    void aQuickRunMeasuresTheCalibratedBaseAloneOrGapZero() {
        // the prediction prices each operation at the calibrated gap: the one gap it reads
        assertEquals(List.of(5941L), CostSweep.gaps(5941, true));
        assertEquals(List.of(0L), CostSweep.gaps(0, true), "a calibration with no room for a base: its prediction reads gap 0");
    }

    @Test
    void cellsAreEachPrimitiveSharedAndPrivateAtEachGapAndTheVisitsPair() {
        // rmw and store are both priced by atomic-refcount: two primitives
        Set<String> kinds = Set.of("rmw", "cas", "store");
        assertEquals(2 * 2 * 4 + 2, CostSweep.cells(kinds, 5941, true, false));
        assertEquals(2 * 2 + 2, CostSweep.cells(kinds, 5941, true, true));
        assertEquals(2 * 2, CostSweep.cells(kinds, 0, false, true));
        assertEquals(2 * 2 * 3, CostSweep.cells(kinds, 0, false, false));
    }
}
