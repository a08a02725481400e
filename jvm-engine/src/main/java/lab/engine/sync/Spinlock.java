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
 * so that each spins on its own line; a JVM thread may be descheduled while
 * spinning, which a CPU with interrupts off is not, so the model's waiters
 * back off to yield and sleep, Backoff). unlock() is a release store of 0
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
        int round = 0;
        for (;;) {
            if (word.getOpaque() == 0 && word.compareAndSet(0, 1)) { // [acquire]
                return;
            }
            round = Backoff.pause(round);
        }
    }
}
