package lab.engine.thin;

import lab.engine.count.SharedLines;
import lab.engine.sync.Spinlock;

/**
 * {@code struct dm_deferred_set} (drivers/md/dm-bio-prison-v1.c): dm-thin's {@code all_io_ds},
 * which counts every I/O in flight to the pool so that a discard or a snapshot can wait for
 * them. {@code dm_deferred_entry_inc} at map and {@code dm_deferred_entry_dec} at end_io each
 * take its one spinlock: two lock pairs per I/O on one line, in every variant. The model keeps
 * only the count of the current entry (no list of deferred work).
 */
public final class DeferredSet {
    static final String SITE = "thin.all_io_ds";
    private final Spinlock lock;
    private long count;

    public DeferredSet(SharedLines lines) {
        lock = new Spinlock(lines, SITE);
    }

    /** {@code dm_deferred_entry_inc}. */
    public void inc() {
        lock.lock();
        try {
            count++;
        } finally {
            lock.unlock();
        }
    }

    /** {@code dm_deferred_entry_dec}. */
    public void dec() {
        lock.lock();
        try {
            if (count <= 0) {
                throw new IllegalStateException("all_io_ds: dec without inc");
            }
            count--;
        } finally {
            lock.unlock();
        }
    }

    /** I/Os in flight (a snapshot). */
    public long inFlight() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }
}
