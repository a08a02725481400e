package lab.engine.count;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import lab.engine.sync.Mutex;
import lab.engine.sync.PercpuCounter;
import lab.engine.sync.PercpuRef;
import lab.engine.sync.Rcu;
import lab.engine.sync.RefCount;
import lab.engine.sync.Rwsem;
import org.junit.jupiter.api.Test;

/**
 * Each primitive reports the shared-line operations its kernel counterpart does, by kind, and no
 * more: the expected maps are exact, so an operation added to a fast path fails here.
 */
class PrimitiveCountsTest {

    @Test
    void refcountGetAndPutAreOneRmwEachAndTryGetOneCas() {
        LineTally t = new LineTally();
        RefCount ref = new RefCount(1, () -> { }, t, "ref");
        ref.get(0);   // refcount_inc: lock xadd
        ref.put(0);   // refcount_dec_and_test: lock xadd
        ref.tryGet(0); // refcount_inc_not_zero: one cmpxchg when uncontended
        ref.put(0);
        assertEquals(Map.of("ref", Map.of("rmw", 3L, "cas", 1L)), t.snapshot());
    }

    @Test
    void percpuRefInPercpuModeWritesNoSharedLineAndInAtomicModeTwo() throws Exception {
        LineTally t = new LineTally();
        Rcu rcu = new Rcu(2);
        PercpuRef ref = new PercpuRef(rcu, () -> { }, t, "ref");
        rcu.online(0);
        for (int i = 0; i < 100; i++) {
            ref.get(0);   // percpu_ref_get: this_cpu_inc, the caller's slot
            ref.put(0);   // percpu_ref_put: this_cpu_dec
            ref.tryGetLive(0);
            ref.put(0);
            rcu.quiescent(0);
        }
        assertEquals(Map.of(), t.snapshot(), "percpu mode: no shared write at all");
        rcu.offline(0);
        ref.get(0);       // keeps the ref above zero across the switch
        ref.kill();
        rcu.barrier();    // the switch to atomic mode has run
        t.reset();
        ref.get(0);       // atomic mode: atomic_long_inc
        ref.put(0);       // atomic_long_dec_and_test
        assertEquals(Map.of("ref", Map.of("rmw", 2L)), t.snapshot());
        ref.put(0);
    }

    @Test
    void rwsemReadPairIsOneRwsemReadAndAWriterACasAndAnRmw() {
        LineTally t = new LineTally();
        Rwsem sem = new Rwsem(t, "sem");
        sem.downRead(); // __down_read: lock xadd
        sem.upRead();   // __up_read: lock xadd; the pair is one rwsem-read
        sem.downWrite(); // cmpxchg 0 -> WRITER_LOCKED
        sem.upWrite();   // lock xadd
        assertEquals(Map.of("sem", Map.of("rwsem-read", 1L, "cas", 1L, "rmw", 1L)), t.snapshot());
    }

    @Test
    void mutexPairIsOneMutex() {
        LineTally t = new LineTally();
        Mutex m = new Mutex(t, "lock");
        m.lock();   // cmpxchg 0 -> owner
        m.unlock(); // cmpxchg owner -> 0: the pair is one mutex
        m.tryLock();
        m.unlock();
        assertEquals(Map.of("lock", Map.of("mutex", 2L)), t.snapshot());
    }

    @Test
    void percpuCounterWritesTheSharedCountOnlyWhenItFolds() {
        LineTally t = new LineTally();
        PercpuCounter c = new PercpuCounter(2, 0, 4, t, "fbc");
        c.add(0, 1);
        c.add(0, 1);
        c.add(0, 1); // |delta| 3 < batch 4: own slot only
        assertEquals(Map.of(), t.snapshot());
        c.add(0, 1); // reaches the batch: fbc->lock, fbc->count += delta
        assertEquals(Map.of("fbc", Map.of("mutex", 1L, "store", 1L)), t.snapshot());
    }
}
