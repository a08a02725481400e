package lab.engine.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RwsemTest {
    // guarded by the rwsem under test: written in pairs by writers, checked by readers
    private long a;
    private long b;

    @Test
    void noReaderSeesAHalfWrittenPair() throws Exception {
        Rwsem sem = new Rwsem();
        AtomicLong torn = new AtomicLong();
        Workers.run(8, cpu -> {
            for (int i = 0; i < 20_000; i++) {
                if (cpu < 2) {
                    sem.downWrite();
                    a++;
                    b++;
                    sem.upWrite();
                } else {
                    sem.downRead();
                    if (a != b) {
                        torn.incrementAndGet();
                    }
                    sem.upRead();
                }
            }
        });
        assertEquals(0, torn.get());
        assertEquals(2 * 20_000, a);
        assertEquals(a, b);
        assertEquals(0, sem.readerCount());
        assertFalse(sem.isWriteLocked());
    }

    @Test
    void readersShareAndExcludeWriters() throws Exception {
        Rwsem sem = new Rwsem();
        sem.downRead();
        boolean[] results = new boolean[2];
        Thread t = Workers.start("reader", () -> {
            results[0] = sem.tryDownRead();
            results[1] = sem.tryDownWrite();
            if (results[0]) {
                sem.upRead();
            }
        });
        t.join();
        assertTrue(results[0], "a second reader must share the lock");
        assertFalse(results[1], "a writer must not enter while a reader holds the lock");
        sem.upRead();
        assertTrue(sem.tryDownWrite());
        assertFalse(sem.tryDownRead());
        sem.upWrite();
    }

    @Test
    void writerWaitsForReaderThenGetsIn() throws Exception {
        Rwsem sem = new Rwsem();
        sem.downRead();
        CountDownLatch written = new CountDownLatch(1);
        Thread t = Workers.start("writer", () -> {
            sem.downWrite();
            written.countDown();
            sem.upWrite();
        });
        assertFalse(written.await(50, TimeUnit.MILLISECONDS), "writer entered while a reader held the lock");
        awaitReadersHeldOff(sem);
        sem.upRead();
        Workers.await(written);
        t.join();
    }

    /** Once the writer has announced itself, tryDownRead must fail; until then it may still succeed. */
    private static void awaitReadersHeldOff(Rwsem sem) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Workers.TIMEOUT_S);
        while (sem.tryDownRead()) {
            sem.upRead();
            if (System.nanoTime() > deadline) {
                throw new AssertionError("a waiting writer never held off new readers");
            }
            Thread.yield();
        }
    }

    @Test
    void writerIsNotStarvedByAStreamOfReaders() throws Exception {
        Rwsem sem = new Rwsem();
        AtomicBoolean stop = new AtomicBoolean();
        Thread[] readers = new Thread[6];
        for (int i = 0; i < readers.length; i++) {
            readers[i] = Workers.start("reader-" + i, () -> {
                while (!stop.get()) {
                    sem.downRead();
                    Thread.onSpinWait();
                    sem.upRead();
                }
            });
        }
        CountDownLatch written = new CountDownLatch(1);
        Workers.start("writer", () -> {
            for (int i = 0; i < 100; i++) {
                sem.downWrite();
                sem.upWrite();
            }
            written.countDown();
        });
        try {
            Workers.await(written);
        } finally {
            stop.set(true);
        }
        for (Thread r : readers) {
            r.join();
        }
    }
}
