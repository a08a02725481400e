package lab.analysis.fidelity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lab.analysis.JmhSweep;
import lab.analysis.Stats;

/**
 * What one shared-line operation costs here, {@code e(kind, n, gap)}: the extra ns per operation
 * on one line all n threads share over the same operation on a line of the thread's own, with
 * {@code gap} ns of uncontended work between operations, from a cost sweep (JMH, params
 * {@code primitive}, {@code line} = shared or private, and {@code gapNs}) measured in the same run
 * as the fix. Each kind is measured by one primitive run on a shared line and on a line of each
 * thread's own, and a number of operations per benchmark op (an inc+dec pair is two RMWs); the
 * difference is taken within each round and the median over rounds reported. The caller names
 * the primitives: this class knows none.
 *
 * <p>Two sweeps: the benchmark's score (ns per op, gap included), for gaps short enough that the
 * gap's own fork-to-fork spread is small; and, where the run has it, the timed pair
 * ({@code timed}: the operations alone, timed with the clock inside each op, secondary metrics
 * {@value #PAIR_NS} and {@value #PAIRS}), for gaps of microseconds, where the gap's work varies
 * from fork to fork by more than a line transfer costs. At a gap both have, the timed one is used.
 */
public final class LineCost {

    /** How a kind is measured: the primitive (run with line=shared and line=private), operations per benchmark op. */
    public record Probe(String primitive, double opsPerCall) {}

    /** The timed pair's secondary metrics: ns inside the timed operations, and how many. */
    public static final String PAIR_NS = "pairNs";
    public static final String PAIRS = "pairs";

    private final JmhSweep sweep;
    private final JmhSweep timed;
    private final Map<String, Probe> probes;

    private LineCost(JmhSweep sweep, JmhSweep timed, Map<String, Probe> probes) {
        this.sweep = sweep;
        this.timed = timed;
        this.probes = probes;
    }

    /** From the score sweep alone. */
    public static LineCost of(JmhSweep sweep, Map<String, Probe> probes) {
        return of(sweep, null, probes);
    }

    /** From the score sweep and the timed one ({@code timed} may be null or empty). */
    public static LineCost of(JmhSweep sweep, JmhSweep timed, Map<String, Probe> probes) {
        return new LineCost(sweep, timed, new LinkedHashMap<>(probes));
    }

    public boolean isEmpty() {
        return sweep.isEmpty() && (timed == null || timed.isEmpty());
    }

    /**
     * ns per benchmark op of {@code primitive} on {@code line} at {@code gap} and {@code n} threads, by
     * round: the timed pair's where the timed sweep has the point, else the score.
     */
    private Map<Integer, Double> byRound(String primitive, String line, long gap, int n) {
        Map<String, String> k = key(primitive, line, gap);
        Map<Integer, Double> out = new TreeMap<>();
        if (timed != null) {
            for (JmhSweep.Cell c : timed.cells()) {
                var ns = c.result().secondary().get(PAIR_NS);
                var count = c.result().secondary().get(PAIRS);
                if (c.threads() == n && c.matches(k) && ns != null && count != null && count.score() > 0) {
                    out.put(c.round(), ns.score() / count.score());
                }
            }
        }
        return out.isEmpty() ? sweep.scoresByRound(k, n) : out;
    }

    /** Whether the point at {@code gap} comes from the timed pair. */
    public boolean timedAt(long gap) {
        return timed != null && timed.values("gapNs").contains(Long.toString(gap));
    }

    public Map<String, Probe> probes() {
        return probes;
    }

    /** The gaps measured, ascending (ns). */
    public List<Long> gaps() {
        java.util.stream.Stream<String> all = timed == null ? sweep.values("gapNs").stream()
                : java.util.stream.Stream.concat(sweep.values("gapNs").stream(), timed.values("gapNs").stream());
        return all.map(Long::parseLong).sorted().distinct().toList();
    }

    public java.util.SortedSet<Integer> threadCounts() {
        java.util.SortedSet<Integer> t = new java.util.TreeSet<>(sweep.threadCounts());
        if (timed != null) {
            t.addAll(timed.threadCounts());
        }
        return t;
    }

    private static Map<String, String> key(String primitive, String line, long gap) {
        return Map.of("primitive", primitive, "line", line, "gapNs", Long.toString(gap));
    }

    /** ns per operation of the private twin (its uncontended cost), median over rounds; NaN if absent. */
    public double privateNs(String kind, int n, long gap) {
        Probe p = probes.get(kind);
        Map<Integer, Double> v = byRound(p.primitive(), "private", gap, n);
        return v.isEmpty() ? Double.NaN : Stats.median(v.values()) / p.opsPerCall();
    }

    /** e(kind, n, gap): extra ns per operation, median [min–max] over rounds of the within-round difference; null if absent. */
    public Stats.Spread extra(String kind, int n, long gap) {
        Probe p = probes.get(kind);
        if (p == null) {
            return null;
        }
        Map<Integer, Double> priv = byRound(p.primitive(), "private", gap, n);
        Map<Integer, Double> shared = byRound(p.primitive(), "shared", gap, n);
        List<Double> d = new ArrayList<>();
        priv.forEach((round, x) -> {
            Double y = shared.get(round);
            if (y != null) {
                d.add((y - x) / p.opsPerCall());
            }
        });
        return d.isEmpty() ? null : Stats.spread(d);
    }

    /** e at {@code gap} by linear interpolation between the measured gaps (clamped at the ends); NaN if absent. */
    public double extraAt(String kind, int n, double gap) {
        TreeMap<Long, Double> byGap = new TreeMap<>();
        for (long g : gaps()) {
            Stats.Spread e = extra(kind, n, g);
            if (e != null) {
                byGap.put(g, e.median());
            }
        }
        if (byGap.isEmpty()) {
            return Double.NaN;
        }
        var lo = byGap.floorEntry((long) Math.floor(gap));
        var hi = byGap.ceilingEntry((long) Math.ceil(gap));
        if (lo == null) {
            return hi.getValue();
        }
        if (hi == null || hi.getKey().equals(lo.getKey())) {
            return lo.getValue();
        }
        double f = (gap - lo.getKey()) / (hi.getKey() - lo.getKey());
        return lo.getValue() + f * (hi.getValue() - lo.getValue());
    }

    /**
     * The time from one {@code kind} operation of a thread to its next, on a private line, at
     * {@code gap} ns of work between benchmark ops: the private op's own cost plus its share of the
     * gap (a score includes the gap already; a timed pair does not). Where the sweep has no point at
     * {@code gap}, from its shortest gap plus {@code gap}. NaN if absent.
     */
    public double thinkNs(String kind, int n, long gap) {
        Probe p = probes.get(kind);
        if (p == null || gaps().isEmpty()) {
            return Double.NaN;
        }
        if (gaps().contains(gap)) {
            return privateNs(kind, n, gap) + (timedAt(gap) ? gap / p.opsPerCall() : 0);
        }
        long g0 = gaps().getFirst();
        return privateNs(kind, n, g0) + (timedAt(g0) ? g0 / p.opsPerCall() : 0) + Math.max(0, gap - g0) / p.opsPerCall();
    }

    /** Every measured (threads, think time, extra) of {@code kind}, for {@link LineQueue#fit}. */
    public List<LineQueue.Point> queuePoints(String kind) {
        List<LineQueue.Point> out = new ArrayList<>();
        for (int n : threadCounts()) {
            for (long g : gaps()) {
                Stats.Spread e = extra(kind, n, g);
                double think = thinkNs(kind, n, g);
                if (e != null && !Double.isNaN(think)) {
                    out.add(new LineQueue.Point(n, think, e.median()));
                }
            }
        }
        return out;
    }

    /** Total throughput of {@code kind}'s primitive on the shared line at {@code gap} by threads, for {@link Usl#fit}. */
    public List<Usl.Point> uslPoints(String kind, long gap) {
        Probe p = probes.get(kind);
        List<Usl.Point> out = new ArrayList<>();
        for (int n : threadCounts()) {
            Map<Integer, Double> v = byRound(p.primitive(), "shared", gap, n);
            if (!v.isEmpty()) {
                out.add(new Usl.Point(n, n / Stats.median(v.values())));
            }
        }
        return out;
    }
}
