package lab.engine.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MutexTest {
    private long counter; // guarded by the mutex under test

    @Test
    void excludesEightThreadsOnFewCores() throws Exception {
        Mutex m = new Mutex();
        Workers.run(8, cpu -> {
            for (int i = 0; i < 50_000; i++) {
                m.lock();
                try {
                    counter++;
                } finally {
                    m.unlock();
                }
            }
        });
        assertEquals(8 * 50_000, counter);
        assertFalse(m.isLocked());
    }

    @Test
    void tryLockFailsWhileHeldAndLockWaitsForUnlock() throws Exception {
        Mutex m = new Mutex();
        m.lock();
        assertTrue(m.isHeldByCurrentThread());
        CountDownLatch tried = new CountDownLatch(1);
        CountDownLatch got = new CountDownLatch(1);
        boolean[] tryResult = new boolean[1];
        Thread t = Workers.start("locker", () -> {
            tryResult[0] = m.tryLock();
            tried.countDown();
            m.lock();
            got.countDown();
            m.unlock();
        });
        Workers.await(tried);
        assertFalse(tryResult[0]);
        assertFalse(got.await(50, TimeUnit.MILLISECONDS), "lock() returned while another thread held the mutex");
        m.unlock();
        Workers.await(got);
        t.join();
        assertTrue(m.tryLock());
        m.unlock();
    }

    @Test
    void unlockByNonOwnerIsRefused() throws Exception {
        Mutex m = new Mutex();
        m.lock();
        Throwable[] thrown = new Throwable[1];
        Thread t = Workers.start("intruder", () -> {
            try {
                m.unlock();
            } catch (Throwable e) {
                thrown[0] = e;
            }
        });
        t.join();
        assertTrue(thrown[0] instanceof IllegalMonitorStateException);
        assertTrue(m.isLocked());
        m.unlock();
        assertThrows(IllegalMonitorStateException.class, m::unlock);
    }
}
