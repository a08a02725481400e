package lab.engine.count;

/*
 * Counting the operations that write a cache line every thread shares, per I/O.
 *
 * The lab predicts a fix's kernel gain as (T_base + sum m_before * c(n)) /
 * (T_base + sum m_after * c(n)): m is how many shared-line operations one
 * I/O does, per site and kind, and c(n) what one costs at n threads. The
 * model states m by doing the operations; this file is how it reports them,
 * so that m comes from the code the benchmark times and not from a table
 * someone keeps beside it.
 *
 * A sink is chosen at construction, as every switch of the engine is: a
 * primitive or device that does shared-line operations takes a SharedLines
 * and a site name, asks it once for one LineCounter per kind it does, keeps
 * them in final fields, and calls add() beside each operation. The default
 * is NONE, whose counters do nothing; only the count run (SharedLineCounts'
 * makers in lab.engine.bench) and tests pass a LineTally. Nothing tests a
 * flag per operation.
 *
 * What that costs when off. A JVM that runs only timed code never loads
 * LineTally's counter class, so NONE's is the only loaded subclass of
 * LineCounter there: the JIT binds every add() to it by class-hierarchy
 * analysis and inlines an empty body; what remains is a load of a final
 * field beside the operation's own and a null check. LineCounter is an
 * abstract class, not an interface, for that: a call through an interface
 * keeps a type check of the receiver, which measured 1-3% on the atomic
 * variants (issue 14's JMH A/B, against a build without the add() calls:
 * the same within noise). In a JVM that has loaded both counters, a call
 * site sees one type and is inlined behind a one-compare type guard.
 *
 * What counts:
 *   - an operation that writes a line every thread doing I/O to the device
 *     writes: a partition's hot line, a guard's count, a shared statistic;
 *   - fast paths only: a count run is single-threaded, and the extra
 *     operations a slow path does under contention (a CAS retried, a bias
 *     taken back) are part of what c(kind, n) measures, not of m;
 *   - not: per-cpu slots (written by their owner alone), reads, fences, and
 *     lines that threads meet on only by chance (zram's per-slot locks).
 * Sites are named as the kernel names the field: part.ref, part0.in_flight,
 * zram.init_lock, zs_pool.class.lock.
 */

/**
 * Where a primitive or device reports its shared-line operations; chosen at construction.
 * {@link #NONE} counts nothing and costs nothing; {@link LineTally} counts.
 */
public interface SharedLines {
    /** The default: every counter it gives does nothing. */
    SharedLines NONE = NoLines.INSTANCE;

    /**
     * The counter for {@code kind} operations at {@code site}: call once, at construction, and keep
     * it in a final field. Asking again for the same site and kind gives a counter of the same
     * count.
     */
    LineCounter counter(String site, LineOp kind);

    /**
     * The contention counter of the {@code side} of the lock at {@code site}: call once, at
     * construction. Locks of one site (the striped trees' locks) share its counts. Counts nothing
     * but in a {@link Contention}.
     */
    default LockStat lock(String site, LockStat.Side side) {
        return NoLockStat.INSTANCE;
    }

    /**
     * The handoff tracker of the line held in {@code line} (the object whose words share one cache
     * line: a padded word, an array of a hot line's words), counted under {@code site}'s line
     * ({@link LineTally#lineOf}): asking again with the same object gives the same tracker, so the
     * words of one line share their last writer, while lines that bear one name (each stripe's
     * lock, each partition's hot line) keep theirs apart. Call once, at construction. Counts
     * nothing but in a {@link Contention}.
     */
    default Handoffs handoffs(String site, Object line) {
        return NoHandoffs.INSTANCE;
    }
}

/** {@link SharedLines#NONE}: one counter that does nothing, for every site. */
enum NoLines implements SharedLines {
    INSTANCE;

    @Override
    public LineCounter counter(String site, LineOp kind) {
        return NoCounter.INSTANCE;
    }

    @Override
    public String toString() {
        return "SharedLines.NONE";
    }
}

/** The counter of {@link SharedLines#NONE}: counts nothing. */
final class NoCounter extends LineCounter {
    static final NoCounter INSTANCE = new NoCounter();

    private NoCounter() {
    }

    @Override
    public void add() {
    }

    @Override
    public String toString() {
        return "no count";
    }
}

/** The lock counter of {@link SharedLines#NONE}: counts nothing. */
final class NoLockStat extends LockStat {
    static final NoLockStat INSTANCE = new NoLockStat();

    private NoLockStat() {
    }

    @Override
    public void acquired() {
    }

    @Override
    public long begin() {
        return 0;
    }

    @Override
    public void end(long begin) {
    }

    @Override
    public String toString() {
        return "no lock count";
    }
}

/** The handoff tracker of {@link SharedLines#NONE}: keeps no last writer, counts nothing. */
final class NoHandoffs extends Handoffs {
    static final NoHandoffs INSTANCE = new NoHandoffs();

    private NoHandoffs() {
    }

    @Override
    public void write() {
    }

    @Override
    public String toString() {
        return "no handoff count";
    }
}
