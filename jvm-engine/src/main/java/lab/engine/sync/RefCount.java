package lab.engine.sync;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import lab.engine.count.Handoffs;
import lab.engine.count.LineCounter;
import lab.engine.count.LineOp;
import lab.engine.count.SharedLines;

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
 * Where the count lives. By default on a line pair of its own: one word of a
 * long[] with PercpuSlots.PAD_LONGS longs (128 bytes, the adjacent-line
 * prefetcher's pair, see PaddedLong) on each side. Or embedded, as an atomic_t
 * is a field of a larger struct and shares its line: one word of a caller's
 * long[] (v4.2's hd_struct.ref, beside the partition's stamp and in_flight[],
 * is the lab's case: Partition's hot line). An embedded count pays for its
 * neighbours' traffic and they for its: that sharing is what the model counts.
 * Either way every operation is the same VarHandle access on one array word.
 *
 * Dropping below zero is a bug in the caller and is reported, as refcount_t
 * warns on underflow.
 *
 * Counting (lab.engine.count): every get and put is one rmw on the count's
 * line, every attempt of tryGet's CAS loop one cas, reported to the
 * SharedLines given at construction under the caller's site name (NONE by
 * default: nothing).
 */

/**
 * A shared atomic reference count with a release callback at zero.
 */
public final class RefCount implements Ref {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    /** The array that holds the count at {@link #at}: the count's own, or the embedding struct's. */
    private final long[] words;
    /** Index of the count in {@link #words}. Guarded by atomic operations only. */
    private final int at;
    private final Runnable release;
    /** get and put: lock xadd on the count's line. */
    private final LineCounter rmw;
    /** Each compare-and-set of tryGet. */
    private final LineCounter cas;
    /** The count's line changing hands: shared with the other words of {@code words}' line. */
    private final Handoffs line;

    /** A count holding the initial reference. */
    public RefCount(Runnable release) {
        this(1, release);
    }

    /** A count of {@code initial} on a line pair of its own. */
    public RefCount(long initial, Runnable release) {
        this(initial, release, SharedLines.NONE, "refcount");
    }

    /** A count of {@code initial} on a line pair of its own, reporting to {@code lines} as {@code site}. */
    public RefCount(long initial, Runnable release, SharedLines lines, String site) {
        this(new long[2 * PercpuSlots.PAD_LONGS + 1], PercpuSlots.PAD_LONGS, initial, release, lines, site);
    }

    /**
     * A count of {@code initial} embedded at {@code words[at]}, sharing that word's line with
     * whatever the owner of {@code words} keeps beside it. The owner must not access
     * {@code words[at]} itself (only through this count), and must keep it where the sharing it
     * means to model happens; this constructor publishes the initial value with a release store.
     */
    public RefCount(long[] words, int at, long initial, Runnable release) {
        this(words, at, initial, release, SharedLines.NONE, "refcount");
    }

    /**
     * {@link #RefCount(long[], int, long, Runnable)} reporting its operations to {@code lines} as
     * site {@code site} (a count run's {@link lab.engine.count.LineTally}).
     */
    public RefCount(long[] words, int at, long initial, Runnable release, SharedLines lines, String site) {
        if (initial < 0) {
            throw new IllegalArgumentException("negative count: " + initial);
        }
        Objects.checkIndex(at, words.length);
        this.words = words;
        this.at = at;
        this.release = release;
        this.rmw = lines.counter(site, LineOp.RMW);
        this.cas = lines.counter(site, LineOp.CAS);
        this.line = lines.handoffs(site, words);
        LONGS.setRelease(words, at, initial); // published with the object, as PaddedLong's constructor does
    }

    /** refcount_inc: one locked xadd on the shared line. */
    @Override
    public void get(int cpu) {
        rmw.add();
        line.write();
        LONGS.getAndAdd(words, at, 1L);
    }

    /** refcount_inc_not_zero: a CAS loop that refuses to revive a dead count. */
    @Override
    public boolean tryGet(int cpu) {
        for (long c = (long) LONGS.getOpaque(words, at); c != 0; c = (long) LONGS.getOpaque(words, at)) {
            cas.add();
            line.write();
            if (LONGS.compareAndSet(words, at, c, c + 1)) {
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
        rmw.add();
        line.write();
        long old = (long) LONGS.getAndAddRelease(words, at, -1L); // [release] pairs with the acquire fence below, in the last put
        if (old == 1) {
            VarHandle.acquireFence(); // smp_acquire__after_ctrl_dep
            release.run();
        } else if (old <= 0) {
            throw new IllegalStateException("refcount underflow: " + (old - 1));
        }
    }

    /**
     * The dm-css-ref seed's probe, {@code cmpxchg(&refcnt, refcnt, refcnt)}: a compare-and-set
     * of the count with its own value, which changes nothing but takes the line exclusive as
     * every locked instruction does. Counted as one cas.
     */
    public void cmpxchgNoop() {
        cas.add();
        line.write();
        long c = (long) LONGS.getOpaque(words, at);
        LONGS.compareAndSet(words, at, c, c);
    }

    /** Drops the initial reference. */
    @Override
    public void kill() {
        put(0);
    }

    /** The current count (atomic_read); a snapshot, stale as soon as it returns. */
    public long read() {
        return (long) LONGS.getOpaque(words, at);
    }

    /** Whether the count has reached zero (its release has run or is running); fully ordered read. */
    @Override
    public boolean isZero() {
        return (long) LONGS.getVolatile(words, at) == 0;
    }

    @Override
    public String toString() {
        return "RefCount[" + read() + "]";
    }
}
