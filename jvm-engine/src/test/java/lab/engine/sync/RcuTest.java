package lab.engine.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Rcu's grace periods; each test fails, not hangs, within 120 s (a thread of its own). */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RcuTest {
    @Test
    void synchronizeWithEveryoneOfflineReturns() {
        Rcu rcu = new Rcu(4);
        rcu.synchronize();
        rcu.synchronize();
        assertEquals(2, rcu.completed());
    }

    @Test
    void synchronizeWaitsForAnOnlineReaderToPassAQuiescentState() throws Exception {
        Rcu rcu = new Rcu(2);
        GracePeriodChecks.Section onlineUntilQuiescent = new GracePeriodChecks.Section() {
            @Override
            public int enter(int cpu) {
                rcu.online(cpu);
                return 0;
            }

            @Override
            public void exit(int cpu, int token) {
                rcu.quiescent(cpu);
                rcu.offline(cpu);
            }
        };
        GracePeriodChecks.synchronizeWaitsForAReaderInside(onlineUntilQuiescent, rcu::synchronize);
    }

    @Test
    void callbackRunsOnlyAfterEveryReaderQuiesced() throws Exception {
        Rcu rcu = new Rcu(2);
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger ranWhileInside = new AtomicInteger(-1);
        Thread reader = Workers.start("reader", () -> {
            rcu.online(0);
            inside.countDown();
            GracePeriodChecks.awaitQuietly(leave);
            ranWhileInside.set(ran.get());
            rcu.quiescent(0);
            rcu.offline(0);
        });
        Workers.await(inside);
        rcu.callRcu(ran::incrementAndGet);
        leave.countDown();
        reader.join();
        rcu.barrier();
        assertEquals(0, ranWhileInside.get(), "callback ran before the reader's quiescent state");
        assertEquals(1, ran.get());
    }

    @Test
    void noReaderSeesAFreedObject() throws Exception {
        Rcu rcu = new Rcu(4);
        GracePeriodChecks.Section readThenQuiesce = new GracePeriodChecks.Section() {
            @Override
            public void start(int cpu) {
                rcu.online(cpu);
            }

            @Override
            public int enter(int cpu) {
                return rcu.readLock(cpu);
            }

            @Override
            public void exit(int cpu, int token) {
                rcu.readUnlock(cpu, token);
                rcu.quiescent(cpu);
            }

            @Override
            public void stop(int cpu) {
                rcu.offline(cpu);
            }
        };
        GracePeriodChecks.noReaderSeesAFreedObject(readThenQuiesce, rcu::synchronize);
        assertTrue(rcu.completed() >= 300);
    }

    /** A section of a caller that never went online: readLock leaves the extended quiescent state. */
    private static GracePeriodChecks.Section idleCaller(Rcu rcu) {
        return new GracePeriodChecks.Section() {
            @Override
            public int enter(int cpu) {
                return rcu.readLock(cpu);
            }

            @Override
            public void exit(int cpu, int token) {
                rcu.readUnlock(cpu, token);
            }
        };
    }

    @Test
    void synchronizeWaitsForASectionOfAnOfflineCaller() throws Exception {
        Rcu rcu = new Rcu(2);
        GracePeriodChecks.synchronizeWaitsForAReaderInside(idleCaller(rcu), rcu::synchronize);
        assertFalse(rcu.isOnline(1), "the section's end took the slot offline again");
    }

    @Test
    void noOfflineCallerSeesAFreedObject() throws Exception {
        Rcu rcu = new Rcu(4);
        GracePeriodChecks.noReaderSeesAFreedObject(idleCaller(rcu), rcu::synchronize);
    }

    @Test
    void nestedSectionsOfAnOfflineCallerEndWithTheOutermost() {
        Rcu rcu = new Rcu(1);
        int outer = rcu.readLock(0);
        int inner = rcu.readLock(0);
        rcu.readUnlock(0, inner);
        assertTrue(rcu.isOnline(0), "still inside the outer section");
        rcu.readUnlock(0, outer);
        assertFalse(rcu.isOnline(0));
        rcu.synchronize(); // nobody inside: returns
    }

    @Test
    void anOnlineWorkersSectionsAreMarkersOnly() {
        Rcu rcu = new Rcu(1);
        rcu.quiescent(0);
        assertFalse(rcu.isOnline(0), "a quiescent state does not bring an offline slot online");
        rcu.online(0);
        int token = rcu.readLock(0);
        rcu.readUnlock(0, token);
        assertTrue(rcu.isOnline(0), "an online worker's sections leave it online");
        rcu.quiescent(0);
        rcu.offline(0);
        assertFalse(rcu.isOnline(0));
    }
}
