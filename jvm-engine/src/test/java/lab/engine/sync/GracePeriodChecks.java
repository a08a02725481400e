package lab.engine.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** The two checks every grace-period mechanism (Rcu, Srcu) must pass, written once. */
final class GracePeriodChecks {
    /** A read-side section of one mechanism; {@code enter} returns a token for {@code exit}. */
    interface Section {
        default void start(int cpu) {
        }

        int enter(int cpu);

        void exit(int cpu, int token);

        default void stop(int cpu) {
        }
    }

    private GracePeriodChecks() {
    }

    /** synchronize() must not return while a reader that entered before it is still inside. */
    static void synchronizeWaitsForAReaderInside(Section section, Runnable synchronize) throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        Thread reader = Workers.start("reader", () -> {
            section.start(1);
            int token = section.enter(1);
            inside.countDown();
            awaitQuietly(leave);
            section.exit(1, token);
            section.stop(1);
        });
        Workers.await(inside);
        CountDownLatch synced = new CountDownLatch(1);
        Workers.start("updater", () -> {
            synchronize.run();
            synced.countDown();
        });
        assertFalse(synced.await(100, TimeUnit.MILLISECONDS), "grace period ended while a reader was inside");
        leave.countDown();
        Workers.await(synced);
        reader.join();
    }

    /** The classic use: unpublish, synchronize, then "free"; no reader may see a freed object. */
    static void noReaderSeesAFreedObject(Section section, Runnable synchronize) throws Exception {
        final class Box {
            volatile boolean freed;
        }
        AtomicReference<Box> current = new AtomicReference<>(new Box());
        AtomicInteger useAfterFree = new AtomicInteger();
        Workers.run(4, cpu -> {
            if (cpu == 0) {
                for (int i = 0; i < 300; i++) {
                    Box old = current.getAndSet(new Box());
                    synchronize.run();
                    old.freed = true;
                }
                return;
            }
            section.start(cpu);
            for (int i = 0; i < 200_000; i++) {
                int token = section.enter(cpu);
                if (current.getAcquire().freed) {
                    useAfterFree.incrementAndGet();
                }
                section.exit(cpu, token);
            }
            section.stop(cpu);
        });
        assertEquals(0, useAfterFree.get());
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            Workers.await(latch);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
