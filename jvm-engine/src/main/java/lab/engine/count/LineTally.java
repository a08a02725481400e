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
 */
public final class LineTally implements SharedLines {
    /** site -> kind -> count; entries are added at construction of what counts, under this. */
    private final Map<String, Map<LineOp, Cell>> cells = new TreeMap<>();

    @Override
    public synchronized LineCounter counter(String site, LineOp kind) {
        if (site == null || site.isBlank()) {
            throw new IllegalArgumentException("a shared-line site needs a name");
        }
        return cells.computeIfAbsent(site, s -> new TreeMap<>()).computeIfAbsent(kind, k -> new Cell());
    }

    /** Sets every count to zero (after warm-up); the counters stay valid. */
    public synchronized void reset() {
        cells.values().forEach(m -> m.values().forEach(c -> c.n.set(0)));
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

    /** One site's count of one kind. */
    private static final class Cell extends LineCounter {
        final AtomicLong n = new AtomicLong();

        @Override
        public void add() {
            n.incrementAndGet();
        }
    }
}
