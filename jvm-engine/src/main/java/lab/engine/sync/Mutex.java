package lab.engine.sync;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import lab.engine.count.LineCounter;
import lab.engine.count.LineOp;
import lab.engine.count.LockStat;
import lab.engine.count.SharedLines;

/*
 * A sleeping mutex after kernel/locking/mutex.c.
 *
 * One owner word says everything the fast paths need: 0 when unlocked, else
 * the owner's thread id shifted left by two, with FLAG_WAITERS in bit 0 (the
 * kernel keeps the owner's task_struct pointer there, with MUTEX_FLAG_WAITERS
 * in its low bits). lock() is one CAS 0 -> owner; unlock() is one CAS
 * owner -> 0, which fails only when FLAG_WAITERS is set and sends the unlocker
 * to wake a sleeper.
 *
 * Slow path, as __mutex_lock_common: first an optimistic spin on the owner
 * word (the kernel spins while the owner runs on another CPU; a JVM cannot see
 * that, so the spin is bounded), then the wait list. A waiter
 *   1. adds itself to the wait list,
 *   2. sets FLAG_WAITERS with a CAS on the word it has just read as locked,
 *   3. re-reads the word and takes the lock if it is free, else parks.
 * The unlocker clears the word (and the flag) in one CAS and unparks the head
 * of the list. Because a waiter is on the list before its flag can be seen,
 * and re-checks the word after setting the flag, an unlock either sees the
 * flag and wakes the head, or happens before the flag CAS, which then fails
 * and makes the waiter retry: no wake-up is lost. The woken head owns the
 * duty of the flag: if it gets the lock while others still wait, it sets the
 * flag again; if a lock-stealer beat it, it sets it again before sleeping.
 *
 * Not fair (a spinner may steal from the woken head, as in the kernel before
 * handoff), not recursive, and the unlocker must be the owner.
 *
 * Ordering: the CAS that takes the lock is the acquire; the CAS in unlock is
 * the release that pairs with it.
 *
 * Counting (lab.engine.count): each lock taken (lock, or a successful
 * trylock) is one mutex, the pair it begins with its unlock. Fast paths only:
 * spinning, flag CASes and wake-ups under contention are part of c(mutex, n).
 *
 * Contention (lab.engine.count.LockStat, side mutex): an acquisition that
 * found the lock taken is one whose fast-path CAS failed, and its wait runs
 * from there to the CAS that took it. That is where the kernel fires them:
 * mutex_lock's __mutex_trylock_fast fails, __mutex_lock_slowpath enters
 * __mutex_lock_common, and trace_contention_begin(LCB_F_SPIN) fires before
 * its trylock and the optimistic spin, so a lock taken by spinning counts as
 * contended in both (the model's bounded spin is the kernel's spin on a
 * running owner). The kernel fires contention_begin a second time when the
 * spin fails and it queues; the model counts one contention per
 * acquisition, its wait from the first. mutex_trylock fires nothing: a
 * successful tryLock is an uncontended acquisition, a failed one nothing.
 */

/**
 * A mutex: owner word with a CAS fast path, bounded optimistic spin, then a
 * FIFO wait list of parked threads.
 */
public final class Mutex {
    private static final long FLAG_WAITERS = 1;
    private static final int OWNER_SHIFT = 2;
    /** Optimistic-spin rounds before joining the wait list. */
    private static final int SPIN_ROUNDS = 200;

    /** 0 or (owner thread id << 2) | flags; changed only by CAS. */
    private final PaddedLong owner = new PaddedLong(0);
    /** Threads sleeping in lock(); the head is woken by unlock(). */
    private final Queue<Thread> waiters = new ConcurrentLinkedQueue<>();
    /** lock + unlock pairs. */
    private final LineCounter pairs;
    /** Acquisitions, contended ones and their wait. */
    private final LockStat stat;

    /** An unlocked mutex that reports nothing. */
    public Mutex() {
        this(SharedLines.NONE, "mutex");
    }

    /** An unlocked mutex reporting each lock + unlock pair to {@code lines} as {@code site}. */
    public Mutex(SharedLines lines, String site) {
        this.pairs = lines.counter(site, LineOp.MUTEX);
        this.stat = lines.lock(site, LockStat.Side.MUTEX);
    }

    private static long ownerTag() {
        return Thread.currentThread().threadId() << OWNER_SHIFT;
    }

    /** mutex_lock: may sleep; not interruptible (an interrupt is kept for the caller). */
    public void lock() {
        pairs.add();
        long me = ownerTag();
        if (owner.compareAndSet(0, me)) { // [acquire] pairs with the release CAS in unlock()
            stat.acquired();
            return;
        }
        long begin = stat.begin(); // trace_contention_begin
        if (!spinForOwner(me)) {
            lockSlow(me);
        }
        stat.end(begin); // trace_contention_end
    }

    /** mutex_trylock: takes the lock only if it is free now. */
    public boolean tryLock() {
        long me = ownerTag();
        long c = owner.getOpaque();
        if ((c & ~FLAG_WAITERS) == 0 && owner.compareAndSet(c, c | me)) {
            pairs.add();
            stat.acquired();
            return true;
        }
        return false;
    }

    /** mutex_unlock: the caller must own the lock. */
    public void unlock() {
        long me = ownerTag();
        if (owner.compareAndSet(me, 0)) { // [release] pairs with the acquire CAS in lock()
            return;
        }
        unlockSlow(me);
    }

    /** Whether some thread holds the lock now (a snapshot, for assertions). */
    public boolean isLocked() {
        return (owner.getOpaque() & ~FLAG_WAITERS) != 0;
    }

    /** Whether the calling thread holds the lock. */
    public boolean isHeldByCurrentThread() {
        return (owner.getOpaque() & ~FLAG_WAITERS) == ownerTag();
    }

    private boolean spinForOwner(long me) {
        for (int round = 0; round < SPIN_ROUNDS; round++) {
            long c = owner.getOpaque();
            if (c == 0 && owner.compareAndSet(0, me)) {
                return true;
            }
            if ((c & FLAG_WAITERS) != 0) {
                return false; // sleepers queued: join them rather than spin past them
            }
            Thread.onSpinWait();
        }
        return false;
    }

    private void lockSlow(long me) {
        Thread self = Thread.currentThread();
        boolean interrupted = false;
        waiters.add(self);
        try {
            for (;;) {
                long c = owner.getVolatile();
                if ((c & ~FLAG_WAITERS) == 0) {
                    if (owner.compareAndSet(c, c | me)) { // [acquire], keeps the flag for the others
                        break;
                    }
                } else if ((c & FLAG_WAITERS) != 0 || owner.compareAndSet(c, c | FLAG_WAITERS)) {
                    LockSupport.park(this);
                    interrupted |= Thread.interrupted();
                }
            }
        } finally {
            waiters.remove(self);
        }
        if (!waiters.isEmpty()) {
            owner.getAndBitwiseOr(FLAG_WAITERS); // the woken head re-arms the flag for those still asleep
        }
        if (interrupted) {
            self.interrupt();
        }
    }

    private void unlockSlow(long me) {
        for (;;) {
            long c = owner.getVolatile();
            if ((c & ~FLAG_WAITERS) != me) {
                throw new IllegalMonitorStateException("mutex unlocked by a thread that does not own it");
            }
            if (owner.compareAndSet(c, 0)) { // [release] pairs with the acquire CAS in lock()/lockSlow()
                if ((c & FLAG_WAITERS) != 0) {
                    wakeHead();
                }
                return;
            }
        }
    }

    private void wakeHead() {
        Thread head = waiters.peek();
        if (head != null) {
            LockSupport.unpark(head);
        }
    }

    @Override
    public String toString() {
        long c = owner.getOpaque();
        return c == 0 ? "Mutex[unlocked]" : "Mutex[owner tid " + (c >>> OWNER_SHIFT) + ((c & FLAG_WAITERS) != 0 ? ", waiters]" : "]");
    }
}
