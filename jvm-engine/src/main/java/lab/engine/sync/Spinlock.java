package lab.engine.sync;

import lab.engine.count.LineCounter;
import lab.engine.count.LineOp;
import lab.engine.count.SharedLines;

/*
 * A spinlock, spinlock_t (the queued spinlock's uncontended paths,
 * kernel/locking/qspinlock.c): one word, 0 unlocked, 1 locked.
 *
 * lock() is one CAS 0 -> 1 (the kernel's atomic_try_cmpxchg_acquire); a
 * loser reads the word until it looks free and tries again
 * (test-and-test-and-set: the kernel queues its spinners on per-CPU MCS nodes
 * so that each spins on its own line). A waiter never sleeps, as a kernel
 * spinner does not; but a JVM thread holding the lock can be descheduled,
 * which a CPU with preemption off is not, so every SPINS_PER_YIELD rounds the
 * waiter yields its core, to a holder that may be waiting for it. (Backoff's
 * growing sleeps, right for a sleeping lock, made a waiter oversleep a
 * holder's 50 ns by up to a millisecond.) unlock() is a release store of 0
 * (smp_store_release).
 *
 * Ordering: the CAS that takes the lock is the acquire; unlock's release store
 * pairs with it.
 *
 * Counting: each lock taken is one mutex (a lock + unlock pair on one line;
 * LineOp.MUTEX prices spinlocks and mutexes alike).
 */

/** A spinlock: CAS to take, release store to give back, test-and-test-and-set waiting. */
public final class Spinlock {
    /** Spins between two yields of a waiter. */
    static final int SPINS_PER_YIELD = 128;

    private final PaddedLong word = new PaddedLong(0);
    private final LineCounter pairs;

    /** An unlocked spinlock that reports nothing. */
    public Spinlock() {
        this(SharedLines.NONE, "spinlock");
    }

    /** An unlocked spinlock reporting each lock + unlock pair to {@code lines} as {@code site}. */
    public Spinlock(SharedLines lines, String site) {
        this.pairs = lines.counter(site, LineOp.MUTEX);
    }

    /** {@code spin_lock}. */
    public void lock() {
        pairs.add();
        if (!word.compareAndSet(0, 1)) { // [acquire] pairs with the release in unlock()
            lockSlow();
        }
    }

    /** {@code spin_unlock}: the caller must hold the lock. */
    public void unlock() {
        if (word.getOpaque() == 0) {
            throw new IllegalStateException("spin_unlock of an unlocked spinlock");
        }
        word.setRelease(0); // [release] pairs with the acquire CAS of the next lock()
    }

    /** Whether some thread holds the lock now (a snapshot, for assertions). */
    public boolean isLocked() {
        return word.getOpaque() != 0;
    }

    private void lockSlow() {
        for (int round = 1;; round++) {
            if (word.getOpaque() == 0 && word.compareAndSet(0, 1)) { // [acquire]
                return;
            }
            if (round % SPINS_PER_YIELD == 0) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
