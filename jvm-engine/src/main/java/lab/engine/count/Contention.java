package lab.engine.count;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/*
 * Counting contention the way the kernel's lock tracepoints and perf c2c see
 * it, in a run with many threads.
 *
 * LineTally counts operations in a single-threaded run, with an atomic per
 * count: run on n threads it would add a shared line to every operation it
 * counts, and the contention it measured would be its own. Here every count
 * is per thread: each thread that counts at a site gets a row of its own, a
 * long[] it allocated itself with 128 bytes of padding on each side (the
 * adjacent-line prefetcher, as PaddedLong), written only by that thread with
 * opaque stores and summed over the rows on read (opaque loads). Reading
 * while threads count gives a sum that is stale but never torn; a reader
 * that wants exact totals reads after the counting threads have stopped and
 * it has synchronised with them (a join, a latch).
 *
 * Locks: per site and side, acquisitions (fast or not), contended
 * acquisitions (those that called begin), and the nanoseconds from begin to
 * end (System.nanoTime, read only on the contended path).
 *
 * Handoffs: a tracker keeps its line's last writer (a thread id, 0 for none)
 * in a word of its own; a write that finds its own id there does nothing
 * more, one that finds another's swaps its own in (getAndSet, so that the
 * trackers' updates are one total order) and counts one handoff when the id
 * it replaced was another thread's. The tracker's word is written once per
 * handoff, when the line itself changes hands: counting adds a write to a
 * line only where the model already bounces one. The order counted is the
 * order of the trackers' swaps; it is the order of the line's own operations
 * whenever two writers do not race between the two (a scripted schedule
 * always; under a race the swaps may pair the other way round).
 *
 * Operations are not counted here (counter() gives the no-op counter): the
 * single-threaded count run (LineTally) counts them.
 */

/**
 * A {@link SharedLines} that counts lock contention ({@link LockStat}) and line handoffs
 * ({@link Handoffs}), per thread and summed on read. Thread-safe.
 */
public final class Contention implements SharedLines {
    /** Padding of a row on each side, in longs: 128 bytes. */
    static final int PAD = 16;
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private final Map<String, Lock> locks = new TreeMap<>();
    /** The object a line is held in -> its tracker ({@link #handoffs}). */
    private final Map<Object, Tracker> trackers = new IdentityHashMap<>();
    /** line -> the rows of its handoff counts, all its trackers' together. */
    private final Map<String, Rows> lineRows = new TreeMap<>();

    @Override
    public LineCounter counter(String site, LineOp kind) {
        return NoCounter.INSTANCE;
    }

    @Override
    public synchronized LockStat lock(String site, LockStat.Side side) {
        return locks.computeIfAbsent(key(site) + "/" + side.id(), k -> new Lock());
    }

    @Override
    public synchronized Handoffs handoffs(String site, Object line) {
        Objects.requireNonNull(line, "line");
        Rows rows = lineRows.computeIfAbsent(LineTally.lineOf(key(site)), l -> new Rows(1));
        return trackers.computeIfAbsent(line, l -> new Tracker(rows));
    }

    private static String key(String site) {
        if (site == null || site.isBlank()) {
            throw new IllegalArgumentException("a counted site needs a name");
        }
        return site;
    }

    /** One lock side's counts: acquisitions, contended ones, and their wait in ns. */
    public record LockCounts(long acquired, long contended, long waitNs) {
        /** This less {@code before}: what was counted in between. */
        public LockCounts minus(LockCounts before) {
            return new LockCounts(acquired - before.acquired, contended - before.contended, waitNs - before.waitNs);
        }
    }

    /**
     * The lock counts now: site -> side ({@link LockStat.Side#id()}) -> counts, sorted; every site
     * and side that asked for a counter, whether or not it counted anything.
     */
    public synchronized Map<String, Map<String, LockCounts>> locks() {
        Map<String, Map<String, LockCounts>> out = new TreeMap<>();
        locks.forEach((k, l) -> {
            int slash = k.lastIndexOf('/');
            out.computeIfAbsent(k.substring(0, slash), s -> new TreeMap<>()).put(k.substring(slash + 1), l.counts());
        });
        out.replaceAll((s, m) -> Collections.unmodifiableMap(m));
        return Collections.unmodifiableMap(out);
    }

    /** The handoffs now: line -> handoffs, sorted; every line a tracker was asked for. */
    public synchronized Map<String, Long> handoffs() {
        Map<String, Long> out = new TreeMap<>();
        lineRows.forEach((line, rows) -> out.put(line, rows.sum(0)));
        return Collections.unmodifiableMap(out);
    }

    @Override
    public String toString() {
        return "Contention" + locks() + handoffs();
    }

    /** Per-thread rows of {@code fields} counts each; a row is written by its thread alone. */
    private static final class Rows {
        private final int fields;
        private final List<long[]> all = new CopyOnWriteArrayList<>();
        private final ThreadLocal<long[]> mine;

        Rows(int fields) {
            this.fields = fields;
            this.mine = ThreadLocal.withInitial(() -> {
                long[] row = new long[PAD + fields + PAD];
                all.add(row);
                return row;
            });
        }

        /** The calling thread's row. */
        long[] row() {
            return mine.get();
        }

        /** Adds {@code delta} to {@code field} of the caller's own {@code row}: a plain load, an opaque store (owner-only). */
        static void add(long[] row, int field, long delta) {
            LONGS.setOpaque(row, PAD + field, (long) LONGS.get(row, PAD + field) + delta);
        }

        long sum(int field) {
            long n = 0;
            for (long[] row : all) {
                n += (long) LONGS.getOpaque(row, PAD + field);
            }
            return n;
        }
    }

    /** A lock side's counter: fields acquired, contended, wait ns. */
    private static final class Lock extends LockStat {
        private static final int ACQUIRED = 0;
        private static final int CONTENDED = 1;
        private static final int WAIT_NS = 2;
        private final Rows rows = new Rows(3);

        @Override
        public void acquired() {
            Rows.add(rows.row(), ACQUIRED, 1);
        }

        @Override
        public long begin() {
            return System.nanoTime();
        }

        @Override
        public void end(long begin) {
            long waited = System.nanoTime() - begin;
            long[] row = rows.row();
            Rows.add(row, ACQUIRED, 1);
            Rows.add(row, CONTENDED, 1);
            Rows.add(row, WAIT_NS, Math.max(1, waited)); // a wait is never nothing, even on a coarse clock
        }

        LockCounts counts() {
            return new LockCounts(rows.sum(ACQUIRED), rows.sum(CONTENDED), rows.sum(WAIT_NS));
        }
    }

    /** A line's last writer and the rows its handoffs are counted in. */
    private static final class Tracker extends Handoffs {
        private static final VarHandle LAST;

        static {
            try {
                LAST = MethodHandles.lookup().findVarHandle(Tracker.class, "last", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Rows rows;
        /** The last writer's thread id, 0 before the first write; through {@link #LAST}. */
        @SuppressWarnings("unused")
        private long last;

        Tracker(Rows rows) {
            this.rows = rows;
        }

        @Override
        public void write() {
            long me = Thread.currentThread().threadId();
            if ((long) LAST.getOpaque(this) == me) {
                return;
            }
            long prev = (long) LAST.getAndSet(this, me);
            if (prev != 0 && prev != me) {
                Rows.add(rows.row(), 0, 1);
            }
        }
    }
}
