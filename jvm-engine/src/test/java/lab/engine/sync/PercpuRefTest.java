package lab.engine.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PercpuRefTest {
    private final AtomicInteger released = new AtomicInteger();

    @Test
    void getsAndPutsOnDifferentSlotsSumAtKill() throws Exception {
        Rcu rcu = new Rcu(4);
        PercpuRef ref = new PercpuRef(rcu, released::incrementAndGet);
        // gets on one slot, puts on another: slots go far from zero, only the sum matters
        Workers.run(4, cpu -> {
            rcu.online(cpu);
            for (int i = 0; i < 50_000; i++) {
                if (cpu % 2 == 0) {
                    ref.get(cpu);
                } else {
                    ref.put(cpu);
                }
                rcu.quiescent(cpu);
            }
            rcu.offline(cpu);
        });
        assertTrue(ref.isPercpu());
        CountDownLatch confirmed = new CountDownLatch(1);
        ref.killAndConfirm(confirmed::countDown);
        assertTrue(ref.isDying());
        assertFalse(ref.tryGetLive(0));
        Workers.await(confirmed);
        rcu.barrier();
        assertEquals(1, released.get());
        assertTrue(ref.isZero());
    }

    @Test
    void releaseWaitsForTheLastHolder() throws Exception {
        Rcu rcu = new Rcu(2);
        PercpuRef ref = new PercpuRef(rcu, released::incrementAndGet);
        rcu.online(1);
        assertTrue(ref.tryGetLive(1));
        rcu.quiescent(1);
        rcu.offline(1);
        ref.kill();
        rcu.barrier();
        assertFalse(ref.isPercpu());
        assertEquals(0, released.get(), "released while a holder still had a reference");
        assertTrue(ref.tryGet(0), "tryGet works on a dying ref while the count is above zero");
        ref.put(0);
        ref.put(1);
        assertEquals(1, released.get());
        assertFalse(ref.tryGet(0));
    }

    @Test
    void killRacingLiveReadersReleasesExactlyOnceAndNeverUnderAHolder() throws Exception {
        for (int round = 0; round < 20; round++) {
            Rcu rcu = new Rcu(3);
            AtomicBoolean gone = new AtomicBoolean();
            AtomicInteger releases = new AtomicInteger();
            AtomicInteger usesAfterRelease = new AtomicInteger();
            PercpuRef ref = new PercpuRef(rcu, () -> {
                gone.set(true);
                releases.incrementAndGet();
            });
            Workers.run(3, cpu -> {
                if (cpu == 2) {
                    Thread.yield();
                    ref.kill();
                    return;
                }
                rcu.online(cpu);
                for (int i = 0; i < 20_000; i++) {
                    if (ref.tryGetLive(cpu)) {
                        if (gone.get()) {
                            usesAfterRelease.incrementAndGet();
                        }
                        ref.put(cpu);
                    }
                    rcu.quiescent(cpu);
                }
                rcu.offline(cpu);
            });
            rcu.barrier();
            assertEquals(0, usesAfterRelease.get());
            assertEquals(1, releases.get());
        }
    }

    @Test
    void resurrectAndReinitReturnToPercpuMode() throws Exception {
        Rcu rcu = new Rcu(2);
        PercpuRef ref = new PercpuRef(rcu, released::incrementAndGet);
        ref.get(0);
        ref.kill();
        ref.resurrect(); // waits for the switch in flight, then back to percpu
        assertTrue(ref.isPercpu());
        assertTrue(ref.tryGetLive(1));
        ref.put(1);
        ref.put(0);
        ref.kill();
        rcu.barrier();
        assertEquals(1, released.get());
        ref.reinit();
        assertTrue(ref.isPercpu());
        ref.kill();
        rcu.barrier();
        assertEquals(2, released.get());
        assertThrows(IllegalStateException.class, ref::kill);
    }
}
