package lab.engine.count;

/**
 * The contention of one lock site, as the kernel's {@code lock:contention_begin} and
 * {@code lock:contention_end} tracepoints see it ({@code perf lock contention}): a lock calls
 * {@link #acquired()} when its fast path took it, and, when the fast path found it taken,
 * {@link #begin()} there and {@link #end(long)} once it owns the lock. Fetched once, at
 * construction ({@link SharedLines#lock}), and kept in a final field; in the timed run it is
 * {@link SharedLines#NONE}'s, whose methods are empty (see SharedLines on what that costs).
 */
public abstract class LockStat {
    /** Which side of a lock a site counts. */
    public enum Side {
        /** A mutex (or any exclusive-only lock). */
        MUTEX("mutex"),
        /** An rw_semaphore's (or SRCU's) read side. */
        READ("read"),
        /** An rw_semaphore's write side. */
        WRITE("write");

        private final String id;

        Side(String id) {
            this.id = id;
        }

        /** The name counts are reported under. */
        public String id() {
            return id;
        }
    }

    /** Only this package makes them: {@link SharedLines#NONE}'s and {@link Contention}'s. */
    LockStat() {
    }

    /** One acquisition that took the fast path: not contended. */
    public abstract void acquired();

    /**
     * contention_begin: the acquisition found the lock taken and leaves its fast path. Returns the
     * time to hand to {@link #end} (0 where nothing counts).
     */
    public abstract long begin();

    /** contention_end: the acquisition that began contending at {@code begin} owns the lock now. */
    public abstract void end(long begin);
}
