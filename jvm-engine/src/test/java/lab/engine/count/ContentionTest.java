package lab.engine.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import lab.engine.count.Contention.LockCounts;
import lab.engine.sync.Mutex;
import lab.engine.sync.RefCount;
import lab.engine.sync.Rwsem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Exact counts on scripted two-thread schedules: each step runs on its thread (A or B) and the
 * next starts only when it has returned, or, for a lock B must find taken, once B is seen parked
 * in the lock's slow path (its thread state; Mutex parks, Rwsem's Backoff parks after its spins
 * and yields). The counts asserted follow from the schedule alone.
 */
class ContentionTest {
    private final Thread[] threads = new Thread[2];
    private final ExecutorService a = one(0);
    private final ExecutorService b = one(1);

    private ExecutorService one(int i) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, i == 0 ? "A" : "B");
            t.setDaemon(true);
            threads[i] = t;
            return t;
        });
    }

    @AfterEach
    void stop() {
        a.shutdownNow();
        b.shutdownNow();
    }

    private static void on(ExecutorService t, Runnable step) throws Exception {
        t.submit(step).get(10, TimeUnit.SECONDS);
    }

    /** Starts {@code step} on B and returns once B is parked inside it (it found the lock taken). */
    private Future<?> blockedOnB(Runnable step) throws Exception {
        Future<?> f = b.submit(step);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (;;) {
            Thread.State s = threads[1] == null ? Thread.State.NEW : threads[1].getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                return f;
            }
            if (f.isDone()) {
                f.get();
                fail("B's lock returned at once: it did not find the lock taken");
            }
            if (System.nanoTime() > deadline) {
                fail("B never parked in the lock's slow path");
            }
            Thread.onSpinWait();
        }
    }

    private static LockCounts counts(Contention c, String site, String side) {
        return c.locks().getOrDefault(site, Map.of()).getOrDefault(side, new LockCounts(0, 0, 0));
    }

    /** A takes, B tries and is seen parked, A releases, B gets it and releases. */
    private void aHoldsBWaits(Runnable aTake, Runnable bTake, Runnable aRelease, Runnable bRelease) throws Exception {
        on(a, aTake);
        Future<?> f = blockedOnB(bTake);
        on(a, aRelease);
        f.get(10, TimeUnit.SECONDS);
        on(b, bRelease);
    }

    /** Asserts that {@code n} is {@code acquired} acquisitions of which one contended, with a wait. */
    private static void oneContended(LockCounts n, long acquired) {
        assertEquals(acquired, n.acquired(), "acquisitions: " + n);
        assertEquals(1, n.contended(), "contended acquisitions: " + n);
        assertTrue(n.waitNs() > 0, "B's wait: " + n);
    }

    @Test
    void mutexTakenByAFoundTakenByB() throws Exception {
        Contention c = new Contention();
        Mutex m = new Mutex(c, "m");
        aHoldsBWaits(m::lock, m::lock, m::unlock, m::unlock);
        oneContended(counts(c, "m", "mutex"), 2);
    }

    @Test
    void mutexAloneOnEachThreadIsNotContended() throws Exception {
        Contention c = new Contention();
        Mutex m = new Mutex(c, "m");
        on(a, () -> { m.lock(); m.unlock(); });
        on(b, () -> { m.lock(); m.unlock(); });
        on(b, () -> { if (m.tryLock()) { m.unlock(); } });
        assertEquals(new LockCounts(3, 0, 0), counts(c, "m", "mutex"));
    }

    /** A holds one side of an rwsem, B takes the other and must wait: the holder's side uncontended, the waiter's contended. */
    private void rwsemWaits(boolean writerHolds) throws Exception {
        Contention c = new Contention();
        Rwsem s = new Rwsem(c, "s");
        if (writerHolds) {
            aHoldsBWaits(s::downWrite, s::downRead, s::upWrite, s::upRead);
        } else {
            aHoldsBWaits(s::downRead, s::downWrite, s::upRead, s::upWrite);
        }
        assertEquals(new LockCounts(1, 0, 0), counts(c, "s", writerHolds ? "write" : "read"), "the holder's side");
        oneContended(counts(c, "s", writerHolds ? "read" : "write"), 1);
    }

    @Test
    void readerFindsWriterHolding() throws Exception {
        rwsemWaits(true);
    }

    @Test
    void writerFindsReaderHolding() throws Exception {
        rwsemWaits(false);
    }

    @Test
    void twoReadersAloneDoNotContend() throws Exception {
        Contention c = new Contention();
        Rwsem s = new Rwsem(c, "s");
        on(a, s::downRead);
        on(b, s::downRead); // returns while A still holds its read lock
        on(a, s::upRead);
        on(b, s::upRead);
        on(b, () -> { if (s.tryDownRead()) { s.upRead(); } });
        assertEquals(new LockCounts(3, 0, 0), counts(c, "s", "read"));
        assertEquals(new LockCounts(0, 0, 0), counts(c, "s", "write"));
    }

    @Test
    void writesAABBAOnALineAreTwoHandoffs() throws Exception {
        Contention c = new Contention();
        RefCount r = new RefCount(1, () -> {}, c, "css.refcnt");
        on(a, () -> r.get(0));
        on(a, () -> r.get(0));
        on(b, () -> r.put(0));
        on(b, () -> r.get(0));
        on(a, () -> r.put(0));
        assertEquals(Map.of("css", 2L), c.handoffs());
    }

    @Test
    void rwsemCountWordHandsOffAsItsWritersChange() throws Exception {
        Contention c = new Contention();
        Rwsem s = new Rwsem(c, "init_lock");
        on(a, s::downRead);  // A
        on(a, s::upRead);    // A
        on(b, s::downRead);  // B: 1
        on(b, s::upRead);    // B
        on(a, s::downWrite); // A: 2
        assertEquals(Map.of("init_lock", 2L), c.handoffs());
    }

    @Test
    void oneThreadAloneHandsNothingOff() throws Exception {
        Contention c = new Contention();
        RefCount r = new RefCount(1, () -> {}, c, "css.refcnt");
        on(b, () -> { for (int i = 0; i < 5; i++) { r.get(0); r.put(0); } });
        assertEquals(Map.of("css", 0L), c.handoffs());
    }

    @Test
    void linesOfOneNameKeepTheirLastWritersApart() throws Exception {
        Contention c = new Contention();
        RefCount x = new RefCount(1, () -> {}, c, "tree.lock");
        RefCount y = new RefCount(1, () -> {}, c, "tree.lock");
        on(a, () -> x.get(0));
        on(b, () -> y.get(0)); // another line: no handoff
        on(b, () -> x.get(0)); // x: A -> B
        assertEquals(Map.of("tree", 1L), c.handoffs());
    }

    @Test
    void countingOffCountsNothing() throws Exception {
        Contention c = new Contention();
        Mutex m = new Mutex(); // SharedLines.NONE
        Rwsem s = new Rwsem();
        aHoldsBWaits(m::lock, m::lock, m::unlock, m::unlock);
        on(a, s::downRead);
        on(a, s::upRead);
        assertEquals(Map.of(), c.locks());
        assertEquals(Map.of(), c.handoffs());
        assertEquals(0, SharedLines.NONE.lock("m", LockStat.Side.MUTEX).begin(), "NONE reads no clock");
        LineTally tally = new LineTally(); // the single-threaded count run counts operations, not contention
        Mutex counted = new Mutex(tally, "m");
        counted.lock();
        counted.unlock();
        assertEquals(Map.of("m", Map.of("mutex", 1L)), tally.snapshot());
    }

    @Test
    void everySideAskedForIsReportedEvenAtZero() {
        Contention c = new Contention();
        new Rwsem(c, "s");
        assertEquals(Map.of("s", Map.of("read", new LockCounts(0, 0, 0), "write", new LockCounts(0, 0, 0))), c.locks());
        assertEquals(Map.of("s", 0L), c.handoffs());
    }
}
