package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import lab.engine.count.ContentionCounts;
import lab.engine.count.SharedLineCounts;
import org.junit.jupiter.api.Test;

/** The contention runs on the fixes' own benchmark code: what they must count whatever the schedule. */
class ContentionRunTest {
    private static double at(ContentionCounts c, String site, String side, String metric) {
        return c.locksPerIo().getOrDefault(site, Map.of()).getOrDefault(side, Map.of()).getOrDefault(metric, 0.0);
    }

    @Test
    void thinMutexAcquisitionsAreTheCountRunsMutexPairs() {
        SharedLineCounts ops = ThinBufioLockCounts.of("mutex", "thin", "whole", 2_000);
        ContentionCounts c = ThinBufioLockCounts.contention("mutex", 0, "thin", "whole", 2, 2_000);
        assertEquals(2, c.threads());
        assertEquals(4_000, c.ios());
        assertEquals(ops.perIo("bufio.lock", "mutex"), at(c, "bufio.lock", "mutex", ContentionCounts.ACQUIRED), 1e-9, c.toString());
        double contended = at(c, "bufio.lock", "mutex", ContentionCounts.CONTENDED);
        assertTrue(contended <= at(c, "bufio.lock", "mutex", ContentionCounts.ACQUIRED), c.toString());
        assertTrue(contended == 0 || at(c, "bufio.lock", "mutex", ContentionCounts.WAIT_NS) > 0, "a contention waits: " + c);
        assertEquals(c.lineHandoffs(), c.totals().get(ContentionCounts.HANDOFFS), 0.0);
    }

    @Test
    void oneThreadNeitherContendsNorHandsOff() {
        ContentionCounts c = ThinBufioLockCounts.contention("rwsem", 0, "thin", "whole", 1, 1_000);
        assertTrue(c.lockAcquired() > 0, c.toString());
        assertEquals(0, c.lockContended(), c.toString());
        assertEquals(0, c.lockWaitNs(), c.toString());
        assertEquals(0, c.lineHandoffs(), c.toString());
    }

    @Test
    void zramReadersAloneNeverContend() {
        ContentionCounts rwsem = ZramCounts.contention("rwsem", 1, "randread", "compressible50", 2, 2_000);
        assertEquals(1.0, at(rwsem, "zram.init_lock", "read", ContentionCounts.ACQUIRED), 1e-9, rwsem.toString());
        assertEquals(0, rwsem.lockContended(), "no writer, no contention: " + rwsem);
        ContentionCounts srcu = ZramCounts.contention("srcu", 1, "randrw", "compressible50", 2, 2_000);
        assertEquals(1.0, at(srcu, "zram.srcu", "read", ContentionCounts.ACQUIRED), 1e-9, srcu.toString());
        assertEquals(0, srcu.lockContended(), srcu.toString());
        assertEquals(Map.of(), srcu.handoffsPerIo(), "SRCU's readers write no shared line: " + srcu);
    }

    @Test
    void sharedAtomicsAreTrackedLines() {
        ContentionCounts css = DmCssRefCounts.contention("atomic", 5, "none", 1, 500);
        assertEquals(Map.of(), css.handoffsPerIo(), "one thread hands nothing off: " + css);
        ContentionCounts part = PartAcctCounts.contention("atomic", 0, "part", 2, 2_000);
        assertEquals(0, part.lockAcquired(), part.toString());
        assertTrue(part.handoffsPerIo().keySet().stream().allMatch(l -> l.equals("part") || l.equals("part0")), part.toString());
    }
}
