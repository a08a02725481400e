package lab.engine.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SrcuTest {
    private static GracePeriodChecks.Section sectionOf(Srcu srcu) {
        return new GracePeriodChecks.Section() {
            @Override
            public int enter(int cpu) {
                return srcu.readLock(cpu);
            }

            @Override
            public void exit(int cpu, int idx) {
                srcu.readUnlock(cpu, idx);
            }
        };
    }

    @Test
    void synchronizeWaitsForAReaderThatEnteredBefore() throws Exception {
        Srcu srcu = new Srcu(2);
        GracePeriodChecks.synchronizeWaitsForAReaderInside(sectionOf(srcu), srcu::synchronize);
    }

    @Test
    void synchronizeDoesNotWaitForReadersThatCameLater() {
        Srcu srcu = new Srcu(2);
        srcu.synchronize();
        int idx = srcu.readLock(0);
        srcu.readUnlock(1, idx); // unlock may land on another slot
        srcu.synchronize();
        assertEquals(2, srcu.completed());
    }

    @Test
    void noReaderSeesAFreedObject() throws Exception {
        Srcu srcu = new Srcu(4);
        GracePeriodChecks.noReaderSeesAFreedObject(sectionOf(srcu), srcu::synchronize);
        assertTrue(srcu.completed() >= 300);
    }
}
