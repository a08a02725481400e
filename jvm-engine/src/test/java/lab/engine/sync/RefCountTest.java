package lab.engine.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RefCountTest {
    @Test
    void concurrentGetPutThenKillReleasesExactlyOnce() throws Exception {
        AtomicInteger released = new AtomicInteger();
        RefCount ref = new RefCount(released::incrementAndGet);
        Workers.run(4, cpu -> {
            for (int i = 0; i < 100_000; i++) {
                ref.get(cpu);
                ref.put(cpu);
            }
        });
        assertEquals(1, ref.read());
        assertEquals(0, released.get());
        ref.kill();
        assertEquals(1, released.get());
        assertEquals(0, ref.read());
    }

    @Test
    void tryGetRefusesAZeroCount() {
        AtomicInteger released = new AtomicInteger();
        RefCount ref = new RefCount(released::incrementAndGet);
        assertTrue(ref.tryGet(0));
        ref.put(0);
        ref.kill();
        assertFalse(ref.tryGet(0));
        assertFalse(ref.tryGetLive(0));
        assertEquals(1, released.get());
    }

    @Test
    void underflowIsReported() {
        RefCount ref = new RefCount(() -> { });
        ref.kill();
        assertThrows(IllegalStateException.class, () -> ref.put(0));
    }

    @Test
    void lastOfManyConcurrentPutsReleases() throws Exception {
        AtomicInteger released = new AtomicInteger();
        RefCount ref = new RefCount(4, released::incrementAndGet);
        Workers.run(4, ref::put);
        assertEquals(1, released.get());
    }
}
