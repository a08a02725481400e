package lab.fix.partacct;

import static lab.fix.partacct.PartAcct.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import lab.fix.CostSweep;
import lab.fix.Counting;
import org.junit.jupiter.api.Test;

/**
 * part-acct's quick plan (issue 33), per thread count: the raw table with bios to the whole disk
 * alone (the headline's target; every variant and the A/A copy), the calibrated table as before,
 * the crossover grid at the most threads only, the cost sweep at the calibrated gap alone with the
 * visit's pair.
 */
class PartAcctQuickPlanTest {
    @Test
    void aQuickRunsRawTableIsTheWholeDiskAFullRunsBothTargets() {
        assertEquals(List.of("disk"), PartAcctPairing.targets(true));
        assertEquals(List.of("disk", "part"), PartAcctPairing.targets(false));
    }

    @Test
    void aQuickRunsGridRunsAtTheMostThreadsAFullRunsAtEach() {
        assertEquals(List.of(false, true), List.of(PartAcctPairing.gridAt(true, 1, 2), PartAcctPairing.gridAt(true, 2, 2)));
        assertEquals(List.of(true, true), List.of(PartAcctPairing.gridAt(false, 1, 2), PartAcctPairing.gridAt(false, 2, 2)));
    }

    @Test
    void aQuickRunMeasures26CellsPerThreadCountWhereItMeasured44() {
        int variants = VARIANTS.size() + 1;
        var kinds = Counting.kinds(PartAcctPairing.counts(true));
        int grid = 2 * PartAcctPairing.gridHz(true).length * PartAcctPairing.gridSlots(true).length;
        int quick = variants * PartAcctPairing.targets(true).size() + variants + grid + CostSweep.cells(kinds, 2400, true, true);
        int full = variants * PartAcctPairing.targets(false).size() + variants + grid + CostSweep.cells(kinds, 2400, true, false);
        assertEquals(6 + 6 + 8 + 6, quick);
        assertEquals(12 + 6 + 8 + 18, full);
    }
}
