package lab.engine.count;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link SharedLines} that counts: one atomic count per site and kind. For the count run and
 * tests only: each {@code add} is an atomic increment of its own, far dearer than the operation it
 * counts. Thread-safe (an RCU callback may count on its daemon), though a count run is
 * single-threaded.
 *
 * <p>It also counts visits: a visit is a run of operations on one line ({@link #lineOf}) with no
 * {@link #boundary} between them, which the count run marks where the I/O spends its uncontended
 * work (the device's submit, the submitter's own loop; {@code CpuWork.marking}). On two cores a
 * line's cost is paid per visit, not per operation: the first operation of a visit finds the line
 * where the other core left it, the rest find it here. {@link #visits} is empty until a boundary
 * has been marked: without boundaries there are no visits to tell apart.
 */
public final class LineTally implements SharedLines {
    /** site -> kind -> count; entries are added at construction of what counts, under this. */
    private final Map<String, Map<LineOp, Cell>> cells = new TreeMap<>();
    /** line -> its visits; lines are added with their first site's counter. */
    private final Map<String, Line> lines = new TreeMap<>();
    /** Boundaries marked so far; a visit is an operation on a line whose last one came before the latest. */
    private long epoch;

    @Override
    public synchronized LineCounter counter(String site, LineOp kind) {
        if (site == null || site.isBlank()) {
            throw new IllegalArgumentException("a shared-line site needs a name");
        }
        Line line = lines.computeIfAbsent(lineOf(site), l -> new Line());
        return cells.computeIfAbsent(site, s -> new TreeMap<>()).computeIfAbsent(kind, k -> new Cell(line));
    }

    /**
     * The line a site is on: the site up to its last dot ({@code part0.ref}, {@code part0.in_flight}
     * and {@code part0.stamp} are words of one hot line, {@code part0}); a site without a dot is a
     * line of its own. SharedLines names sites LINE.FIELD for this.
     */
    public static String lineOf(String site) {
        int dot = site.lastIndexOf('.');
        return dot > 0 ? site.substring(0, dot) : site;
    }

    /** Marks uncontended work between operations: the next operation on any line starts a new visit. */
    public synchronized void boundary() {
        epoch++;
    }

    /** Sets every count to zero (after warm-up); the counters stay valid. */
    public synchronized void reset() {
        cells.values().forEach(m -> m.values().forEach(c -> c.n.set(0)));
        lines.values().forEach(l -> l.visits = 0);
    }

    /** Visits by line now, lines sorted, zeros left out; empty while no boundary has been marked. */
    public synchronized Map<String, Long> visits() {
        Map<String, Long> out = new LinkedHashMap<>();
        if (epoch > 0) {
            lines.forEach((name, l) -> {
                if (l.visits != 0) {
                    out.put(name, l.visits);
                }
            });
        }
        return Collections.unmodifiableMap(out);
    }

    /** Whether a boundary has been marked: whether {@link #visits} means anything. */
    public synchronized boolean marksVisits() {
        return epoch > 0;
    }

    /** The counts now, site -> kind id -> operations, sites and kinds sorted, zeros left out. */
    public synchronized Map<String, Map<String, Long>> snapshot() {
        Map<String, Map<String, Long>> out = new LinkedHashMap<>();
        cells.forEach((site, kinds) -> {
            Map<String, Long> byKind = new LinkedHashMap<>();
            kinds.forEach((kind, cell) -> {
                long n = cell.n.get();
                if (n != 0) {
                    byKind.put(kind.id(), n);
                }
            });
            if (!byKind.isEmpty()) {
                out.put(site, Collections.unmodifiableMap(byKind));
            }
        });
        return Collections.unmodifiableMap(out);
    }

    /** Every site that asked for a counter, sorted (whether or not it counted anything). */
    public synchronized Set<String> sites() {
        return Collections.unmodifiableSet(new TreeSet<>(cells.keySet()));
    }

    /** The total of every count. */
    public synchronized long total() {
        return cells.values().stream().flatMap(m -> m.values().stream()).mapToLong(c -> c.n.get()).sum();
    }

    @Override
    public String toString() {
        return "LineTally" + snapshot();
    }

    /** One line's visits, and the epoch of its last operation (-1: none yet). */
    private static final class Line {
        long visits;
        long lastEpoch = -1;
    }

    /** One site's count of one kind, on its line. */
    private final class Cell extends LineCounter {
        final AtomicLong n = new AtomicLong();
        final Line line;

        Cell(Line line) {
            this.line = line;
        }

        @Override
        public void add() {
            n.incrementAndGet();
            synchronized (LineTally.this) {
                if (line.lastEpoch != epoch) {
                    line.visits++;
                    line.lastEpoch = epoch;
                }
            }
        }
    }
}
