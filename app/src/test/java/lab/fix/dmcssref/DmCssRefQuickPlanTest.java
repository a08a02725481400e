package lab.fix.dmcssref;

import static lab.fix.dmcssref.DmCssRef.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import lab.fix.CostSweep;
import lab.fix.Counting;
import org.junit.jupiter.api.Test;

/**
 * dm-css-ref's quick plan (issue 33), per thread count: the raw table and the injected experiment
 * at depths 0 and 5 (every variant and the A/A copy), the calibrated table as in a full run, and
 * the cost sweep at the calibrated gap alone with the visit's pair.
 */
class DmCssRefQuickPlanTest {
    private static final long BASE = 5941;

    @Test
    void aQuickRunsTablesAreDepthsZeroAndTheSeedsAFullRunsEveryDepth() {
        assertEquals(List.of(0, 5), DmCssRefPairing.depths(true));
        assertEquals(List.of(0, 1, 2, 3, 4, 5), DmCssRefPairing.depths(false));
    }

    @Test
    void aQuickRunMeasures23CellsPerThreadCountWhereItMeasured59() {
        int variants = VARIANTS.size() + 1; // and the A/A copy
        var kinds = Counting.kinds(DmCssRefPairing.counts(true, true));
        assertEquals(List.of("cas", "rmw"), List.copyOf(kinds));
        int quick = variants * DmCssRefPairing.depths(true).size() + DmCssRefPairing.depths(true).size() + variants
                + CostSweep.cells(kinds, BASE, true, true);
        int full = variants * DmCssRefPairing.depths(false).size() + DmCssRefPairing.depths(false).size() + variants
                + CostSweep.cells(kinds, BASE, true, false);
        assertEquals(10 + 2 + 5 + 6, quick);
        assertEquals(30 + 6 + 5 + 18, full);
    }
}
