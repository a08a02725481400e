package lab.engine.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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

    /** Frees the updater makes; readers run for as long as it frees. */
    static final int FREES = 300;
    /** How long a reader holds the object it read, in Thread.onSpinWait()s: the window a broken grace period frees into. */
    static final int HOLD_SPINS = 200;

    /**
     * The classic use: unpublish, synchronize, then "free"; no reader may see a freed object. Each
     * reader takes the current object inside its section, holds it a while, and only then looks
     * whether it was freed; the readers run until the updater's last free, and the updater frees
     * again only after the readers have been through a few more sections, so they overlap every
     * free. A synchronize() that does not wait (a no-op) frees objects readers still hold.
     */
    static void noReaderSeesAFreedObject(Section section, Runnable synchronize) throws Exception {
        final class Box {
            volatile boolean freed;
        }
        AtomicReference<Box> current = new AtomicReference<>(new Box());
        AtomicInteger useAfterFree = new AtomicInteger();
        AtomicLong sections = new AtomicLong();
        AtomicBoolean done = new AtomicBoolean();
        Workers.run(4, cpu -> {
            if (cpu == 0) {
                try {
                    for (int i = 0; i < FREES; i++) {
                        long seen = sections.get();
                        while (sections.get() < seen + 3) {
                            Thread.onSpinWait(); // the readers are reading now
                        }
                        Box old = current.getAndSet(new Box());
                        synchronize.run();
                        old.freed = true;
                    }
                } finally {
                    done.set(true);
                }
                return;
            }
            section.start(cpu);
            while (!done.get()) {
                int token = section.enter(cpu);
                Box b = current.getAcquire();
                for (int k = 0; k < HOLD_SPINS; k++) {
                    Thread.onSpinWait();
                }
                if (b.freed) {
                    useAfterFree.incrementAndGet();
                }
                section.exit(cpu, token);
                sections.incrementAndGet();
            }
            section.stop(cpu);
        });
        assertEquals(0, useAfterFree.get(), "readers saw freed objects");
        assertTrue(sections.get() >= 3L * FREES, "the readers overlapped every free");
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            Workers.await(latch);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
