package lab.fix.thinbufiolock;

import static lab.fix.thinbufiolock.ThinBufioLock.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import lab.fix.CostSweep;
import lab.fix.Counting;
import org.junit.jupiter.api.Test;

/**
 * thin-bufio-lock's quick plan (issue 33), per thread count: the raw table with the whole btree
 * cached alone (the headline's cache; every variant and the A/A copy), dm-linear and the
 * calibrated table as before, the cost sweep at the calibrated gap alone with the visit's pair.
 */
class ThinBufioLockQuickPlanTest {
    @Test
    void aQuickRunsRawTableIsTheWholeTreeCachedAFullRunsBothCaches() {
        assertEquals(List.of("whole"), ThinBufioLockPairing.caches(true));
        assertEquals(List.of("whole", "small"), ThinBufioLockPairing.caches(false));
    }

    @Test
    void aQuickRunMeasures21CellsPerThreadCountWhereItMeasured50() {
        int variants = VARIANTS.size() + 1;
        var kinds = Counting.kinds(ThinBufioLockPairing.counts(true, true));
        int quick = variants * ThinBufioLockPairing.caches(true).size() + 1 + variants + CostSweep.cells(kinds, 8000, true, true);
        int full = variants * ThinBufioLockPairing.caches(false).size() + 1 + variants + CostSweep.cells(kinds, 8000, true, false);
        assertEquals(5 + 1 + 5 + 10, quick);
        assertEquals(10 + 1 + 5 + 34, full);
    }
}
