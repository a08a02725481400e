package lab.engine.count;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a contention run counted ({@link Contention}), per I/O: the I/O of a fix's benchmark on
 * {@code threads} threads at once, every one of them counting in its own rows. Sits in a
 * {@link SharedLineCounts} ({@code counts.json}) beside the operations per I/O of the
 * single-threaded count run.
 *
 * <p>JSON-able as it is: {@code locksPerIo} is site -> side ({@code mutex}, {@code read},
 * {@code write}) -> {@code lockAcquired}, {@code lockContended}, {@code lockWaitNs}, each per I/O;
 * {@code handoffsPerIo} is line -> handoffs per I/O. Sites and lines that counted nothing are left
 * out.
 *
 * @param threads       threads doing I/O at once
 * @param ios           I/Os counted, all threads together
 * @param locksPerIo    site -> side -> metric -> per I/O
 * @param handoffsPerIo line -> handoffs per I/O
 */
public record ContentionCounts(int threads, long ios, Map<String, Map<String, Map<String, Double>>> locksPerIo,
                               Map<String, Double> handoffsPerIo) {
    /** The metric names, as a JMH secondary metric would have them. */
    public static final String ACQUIRED = "lockAcquired";
    public static final String CONTENDED = "lockContended";
    public static final String WAIT_NS = "lockWaitNs";
    public static final String HANDOFFS = "lineHandoffs";

    public ContentionCounts {
        Map<String, Map<String, Map<String, Double>>> l = new LinkedHashMap<>();
        new TreeMap<>(locksPerIo).forEach((site, sides) -> {
            Map<String, Map<String, Double>> s = new LinkedHashMap<>();
            new TreeMap<>(sides).forEach((side, m) -> s.put(side, Collections.unmodifiableMap(new LinkedHashMap<>(m))));
            l.put(site, Collections.unmodifiableMap(s));
        });
        locksPerIo = Collections.unmodifiableMap(l);
        handoffsPerIo = Collections.unmodifiableMap(new LinkedHashMap<>(new TreeMap<>(handoffsPerIo)));
    }

    /**
     * The counts between two readings of one {@link Contention} ({@link Contention#locks()},
     * {@link Contention#handoffs()}), over {@code ios} I/Os on {@code threads} threads.
     */
    public static ContentionCounts between(Map<String, Map<String, Contention.LockCounts>> locksBefore, Map<String, Long> handoffsBefore,
                                           Contention after, int threads, long ios) {
        if (ios < 1) {
            throw new IllegalArgumentException("per " + ios);
        }
        Map<String, Map<String, Map<String, Double>>> locks = new TreeMap<>();
        after.locks().forEach((site, sides) -> sides.forEach((side, n) -> {
            Contention.LockCounts d = n.minus(locksBefore.getOrDefault(site, Map.of()).getOrDefault(side, new Contention.LockCounts(0, 0, 0)));
            if (d.acquired() != 0) {
                Map<String, Double> m = new LinkedHashMap<>();
                m.put(ACQUIRED, (double) d.acquired() / ios);
                m.put(CONTENDED, (double) d.contended() / ios);
                m.put(WAIT_NS, (double) d.waitNs() / ios);
                locks.computeIfAbsent(site, s -> new TreeMap<>()).put(side, m);
            }
        }));
        Map<String, Double> handoffs = new TreeMap<>();
        after.handoffs().forEach((line, n) -> {
            long d = n - handoffsBefore.getOrDefault(line, 0L);
            if (d != 0) {
                handoffs.put(line, (double) d / ios);
            }
        });
        return new ContentionCounts(threads, ios, locks, handoffs);
    }

    /** Lock acquisitions per I/O, every site and side. */
    public double lockAcquired() {
        return sum(ACQUIRED);
    }

    /** Contended acquisitions per I/O, every site and side. */
    public double lockContended() {
        return sum(CONTENDED);
    }

    /** Wait in contended acquisitions per I/O, ns, every site and side. */
    public double lockWaitNs() {
        return sum(WAIT_NS);
    }

    /** Line handoffs per I/O, every line. */
    public double lineHandoffs() {
        return handoffsPerIo.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The four metrics by name ({@link #ACQUIRED}, {@link #CONTENDED}, {@link #WAIT_NS}, {@link #HANDOFFS}). */
    public Map<String, Double> totals() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(ACQUIRED, lockAcquired());
        m.put(CONTENDED, lockContended());
        m.put(WAIT_NS, lockWaitNs());
        m.put(HANDOFFS, lineHandoffs());
        return Collections.unmodifiableMap(m);
    }

    private double sum(String metric) {
        return locksPerIo.values().stream().flatMap(s -> s.values().stream()).mapToDouble(m -> m.getOrDefault(metric, 0.0)).sum();
    }
}
