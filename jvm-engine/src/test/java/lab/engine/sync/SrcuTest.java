package lab.engine.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Srcu's grace periods; each test fails, not hangs, within 120 s (a thread of its own). */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
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

    /**
     * A reader that entered after the flip (the new index) must not hold up the grace period that
     * flipped: reader A enters before synchronize() and stays; synchronize() flips and waits for A;
     * reader B enters after the flip and stays; A leaves (on another slot: an unlock may land on
     * any) and synchronize() returns with B still inside. A synchronize() that waited for every
     * reader, of both sets, never returns here.
     */
    @Test
    void synchronizeDoesNotWaitForReadersThatCameLater() throws Exception {
        Srcu srcu = new Srcu(3);
        int a = srcu.readLock(1);
        CountDownLatch synced = new CountDownLatch(1);
        Workers.start("updater", () -> {
            srcu.synchronize();
            synced.countDown();
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (srcu.completed() == 0) { // the flip: the updater now waits for A's set
            assertTrue(System.nanoTime() < deadline, "no flip within 30 s");
            Thread.onSpinWait();
        }
        int b = srcu.readLock(2);
        assertNotEquals(a, b, "B entered after the flip, on the other set");
        assertFalse(synced.await(50, TimeUnit.MILLISECONDS), "returned while A, from before it, was inside");
        srcu.readUnlock(0, a);
        assertTrue(synced.await(30, TimeUnit.SECONDS), "synchronize() waited for B, which came after it");
        srcu.readUnlock(2, b);
        assertEquals(1, srcu.completed());
    }

    @Test
    void noReaderSeesAFreedObject() throws Exception {
        Srcu srcu = new Srcu(4);
        GracePeriodChecks.noReaderSeesAFreedObject(sectionOf(srcu), srcu::synchronize);
        assertTrue(srcu.completed() >= 300);
    }
}
