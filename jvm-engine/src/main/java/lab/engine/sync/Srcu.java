package lab.engine.sync;

import java.lang.invoke.VarHandle;

/*
 * Sleepable RCU, after the classic kernel/srcu.c (the per-cpu counter pairs
 * of Linux 3.x-4.x, before Tree SRCU).
 *
 * Readers count themselves in per-cpu counters, in one of two sets chosen by
 * the low bit of `completed`: lock[idx] when they enter, unlock[idx] when they
 * leave. A reader may block, and may leave on another CPU than it entered on
 * (here: with another worker's slot index, as long as it owns that slot), so
 * no single counter means anything; readers of set idx are gone when the sum
 * of unlock[idx] equals the sum of lock[idx].
 *
 *   readLock(cpu):   idx = completed & 1 [opaque]   lock[idx]++   smp_mb() [B]
 *   readUnlock:      smp_mb() [C]   unlock[idx]++
 *   synchronize():   mutex
 *                    wait for set (completed - 1) & 1 to drain  -- stragglers
 *                    smp_mb(); completed++; smp_mb()             -- flip
 *                    wait for set (completed - 1) & 1 to drain  -- the old set
 *   drained(idx):    u = sum unlock[idx]; smp_mb() [A]; l = sum lock[idx];
 *                    return l == u; then smp_mb() [D]
 *
 * B and C keep the critical section inside the counted interval; A pairs with
 * B and C: if the locks counted after A equal the unlocks counted before it,
 * every reader counted in lock[idx] has also passed C, so its critical
 * section is over, and any reader not yet counted entered after A and will
 * see all the updater's stores before synchronize() (through B). D orders
 * the updater's later stores (a free, a reset) after the check.
 *
 * Why the first wait (the "second scan" of __synchronize_srcu): a reader may
 * read idx, be delayed, and increment lock[idx] only after the previous grace
 * period summed that set. That grace period did not have to wait for it, but
 * this one does; it is now on the inactive set, so wait for that set first,
 * then flip, then wait for the set the flip retired.
 *
 * Counters are longs, owner-only, plain load and opaque store; sums are
 * modulo 2^64, so wrapping is harmless.
 */

/**
 * Sleepable RCU with per-cpu lock/unlock counts in two index sets.
 */
public final class Srcu {
    private static final int LOCK = 0;   // fields LOCK + idx
    private static final int UNLOCK = 2; // fields UNLOCK + idx

    private final PercpuSlots slots;
    /** Grace periods started; its low bit is the index new readers use. Written under mutex. */
    private final PaddedLong completed = new PaddedLong(0);
    /** Serialises updaters (sp->mutex). */
    private final Mutex mutex = new Mutex();

    public Srcu(int nrCpus) {
        this.slots = new PercpuSlots(nrCpus, 4);
    }

    public int nrCpus() {
        return slots.nrCpus();
    }

    /** srcu_read_lock: enters a read-side section; returns the index to pass to readUnlock. Owner of cpu only. */
    public int readLock(int cpu) {
        int idx = (int) (completed.getOpaque() & 1);
        slots.addOpaque(cpu, LOCK + idx, 1);
        VarHandle.fullFence(); // [B] pairs with [A] in drained()
        return idx;
    }

    /** srcu_read_unlock: leaves the section entered with {@code idx}; {@code cpu} need not be the entering one. */
    public void readUnlock(int cpu, int idx) {
        VarHandle.fullFence(); // [C] pairs with [A] in drained()
        slots.addOpaque(cpu, UNLOCK + idx, 1);
    }

    /** synchronize_srcu: waits until every read-side section that began before this call has ended. May sleep. */
    public void synchronize() {
        mutex.lock();
        try {
            waitForReaders((int) ((completed.getPlain() - 1) & 1));
            flip();
            waitForReaders((int) ((completed.getPlain() - 1) & 1));
        } finally {
            mutex.unlock();
        }
    }

    /** Grace periods completed (flips), for tests and statistics. */
    public long completed() {
        return completed.getAcquire();
    }

    private void flip() {
        VarHandle.fullFence();
        completed.setRelease(completed.getPlain() + 1); // only updaters write it, under mutex
        VarHandle.fullFence();
    }

    private void waitForReaders(int idx) {
        for (int round = 0; !drained(idx); ) {
            round = Backoff.pause(round);
        }
        VarHandle.fullFence(); // [D]
    }

    /** srcu_readers_active_idx_check: unlocks first, then locks. */
    private boolean drained(int idx) {
        long unlocks = slots.sumOpaque(UNLOCK + idx);
        VarHandle.fullFence(); // [A] pairs with [B] and [C]
        long locks = slots.sumOpaque(LOCK + idx);
        return locks == unlocks;
    }

    @Override
    public String toString() {
        return "Srcu[nrCpus=" + slots.nrCpus() + ", completed=" + completed() + "]";
    }
}
