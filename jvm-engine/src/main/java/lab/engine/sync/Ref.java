package lab.engine.sync;

/**
 * A reference count as the engine's callers see it, so that a fix swaps a
 * shared atomic ({@link RefCount}) for a per-cpu one ({@link PercpuRef}) in one
 * place. The object starts with one reference, the initial one, owned by
 * whoever created it; {@link #kill()} drops it, and the release callback runs
 * exactly once, when the count reaches zero.
 *
 * <p>{@code cpu} is the caller's per-cpu slot; implementations without per-cpu
 * state ignore it.
 */
public interface Ref {
    /** Takes a reference; the caller must already hold one, or know the object is live. */
    void get(int cpu);

    /** Takes a reference unless the count has reached zero (inc-not-zero). */
    boolean tryGet(int cpu);

    /** Takes a reference unless the object has been killed. */
    boolean tryGetLive(int cpu);

    /** Drops a reference; the put that reaches zero runs the release callback. */
    void put(int cpu);

    /** Marks the object dead and drops the initial reference. Call once. */
    void kill();

    /**
     * Whether the count is exactly zero (refcount_read() == 0, percpu_ref_is_zero): false while
     * a per-cpu ref has not yet been folded. Off the fast path: for teardown and tests.
     */
    boolean isZero();
}
