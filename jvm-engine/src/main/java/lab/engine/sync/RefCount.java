package lab.engine.sync;

import java.lang.invoke.VarHandle;

/*
 * One shared atomic reference count: the kernel's refcount_t / atomic_t.
 *
 * Every get and every put is a locked read-modify-write on one cache line, so
 * on N CPUs the line bounces between them on every operation: the cost the
 * per-cpu variants (PercpuRef) exist to avoid, and the baseline of the
 * atomic-vs-percpu switches.
 *
 * Ordering follows refcount_dec_and_test(): a put is a fetch-sub with release
 * semantics, so that all of the putter's accesses to the object happen before
 * the count drops; the put that reads 1 (and so takes the count to 0) issues
 * an acquire fence before calling release, pairing with the release of every
 * earlier put, so the release callback sees every holder's accesses. A get
 * needs no ordering (the caller already holds a reference, or uses tryGet).
 *
 * The count is a long on its own padded line. Dropping below zero is a bug in
 * the caller and is reported, as refcount_t warns on underflow.
 */

/**
 * A shared atomic reference count with a release callback at zero.
 */
public final class RefCount implements Ref {
    /** Guarded by atomic operations only. */
    private final PaddedLong count;
    private final Runnable release;

    /** A count holding the initial reference. */
    public RefCount(Runnable release) {
        this(1, release);
    }

    public RefCount(long initial, Runnable release) {
        if (initial < 0) {
            throw new IllegalArgumentException("negative count: " + initial);
        }
        this.count = new PaddedLong(initial);
        this.release = release;
    }

    /** refcount_inc: one locked xadd on the shared line. */
    @Override
    public void get(int cpu) {
        count.getAndAdd(1);
    }

    /** refcount_inc_not_zero: a CAS loop that refuses to revive a dead count. */
    @Override
    public boolean tryGet(int cpu) {
        for (long c = count.getOpaque(); c != 0; c = count.getOpaque()) {
            if (count.compareAndSet(c, c + 1)) {
                return true;
            }
        }
        return false;
    }

    /** A plain atomic count has no dead state apart from zero. */
    @Override
    public boolean tryGetLive(int cpu) {
        return tryGet(cpu);
    }

    /** refcount_dec_and_test: release fetch-sub; the last put runs the release callback. */
    @Override
    public void put(int cpu) {
        long old = count.getAndAddRelease(-1); // [release] pairs with the acquire fence below, in the last put
        if (old == 1) {
            VarHandle.acquireFence(); // smp_acquire__after_ctrl_dep
            release.run();
        } else if (old <= 0) {
            throw new IllegalStateException("refcount underflow: " + (old - 1));
        }
    }

    /** Drops the initial reference. */
    @Override
    public void kill() {
        put(0);
    }

    /** The current count (atomic_read); a snapshot, stale as soon as it returns. */
    public long read() {
        return count.getOpaque();
    }

    @Override
    public String toString() {
        return "RefCount[" + read() + "]";
    }
}
