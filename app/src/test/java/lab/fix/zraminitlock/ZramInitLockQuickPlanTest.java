package lab.fix.zraminitlock;

import static lab.fix.zraminitlock.ZramInitLock.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import lab.engine.load.DataPattern;
import lab.fix.CostSweep;
import lab.fix.Counting;
import org.junit.jupiter.api.Test;

/**
 * zram-init-lock's quick plan (issue 33): the guard table at the headline's rw mode and pattern
 * alone, every guard and the A/A copy, over the threads asked for (the seed's 4 workers added only
 * on a machine with 4 cores); the seed point as in a full run; the cost sweep at the calibrated gap.
 */
class ZramInitLockQuickPlanTest {
    @Test
    void aQuickRunOnTwoCoresKeepsTheThreadsAskedForAndAddsTheSeedsWorkersOnlyWhereTheyFit() {
        assertEquals(List.of(1, 2), ZramInitLockPairing.sweep(List.of(1, 2), true, 2));
        assertEquals(List.of(1, 2, 4), ZramInitLockPairing.sweep(List.of(1, 2), true, 4));
        assertEquals(List.of(1, 2, 4), ZramInitLockPairing.sweep(List.of(1, 2), false, 2));
        assertEquals(List.of(1, 2, 3, 4, 8), ZramInitLockPairing.sweep(List.of(1, 2, 3, 8), false, 8));
    }

    @Test
    void aQuickRunsGuardTableIsTheHeadlinesCellsAFullRunsEveryRwAndPattern() {
        assertEquals(List.of("randrw"), ZramInitLockPairing.tableRws(true));
        assertEquals(List.of("zero"), ZramInitLockPairing.tablePatterns(true));
        assertEquals(RWS, ZramInitLockPairing.tableRws(false));
        assertEquals(DataPattern.ids(), ZramInitLockPairing.tablePatterns(false));
        // the headline's thread count on 2 cores is 2, which the quick sweep has
        assertEquals(2, ZramInitLockPairing.headlineThreads(ZramInitLockPairing.sweep(List.of(1, 2), true, 2), 2));
    }

    @Test
    void aQuickDemoOnTwoCoresMeasures34CellsWhereItMeasured150() {
        int guards = GUARDS.size() + 1; // and the A/A copy
        var kinds = Counting.kinds(ZramInitLockPairing.counts());
        long base = 5000;
        int seedPoint = 3 * 2; // rwsem, srcu, the copy x base 0 and calibrated, at 1 and 2 threads
        int quick = ZramInitLockPairing.sweep(List.of(1, 2), true, 2).size() * guards * ZramInitLockPairing.tableRws(true).size()
                * ZramInitLockPairing.tablePatterns(true).size() + 2 * seedPoint + 2 * CostSweep.cells(kinds, base, false, true);
        // before: 3 rw x zero and compressible50 at 1, 2 and 4 threads; the cost sweep at 0, 100, 1000 ns and the base
        int before = 3 * guards * 3 * 2 + 2 * seedPoint + 2 * CostSweep.cells(kinds, base, false, false);
        assertEquals(10 + 12 + 12, quick);
        assertEquals(90 + 12 + 48, before);
    }
}
