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
 *
 * <p>And, where the fix counts visits rather than operations (a run of operations on one line
 * between two stretches of the I/O's work: {@code lab.engine.count.LineTally}), a third sweep,
 * {@code visits}: the timed pair on a shared and a private line with the I/O's own rhythm between
 * pairs (params {@code gapNs} and {@code userGapNs}: the device's work, then the submitter's), so
 * that one pair is one visit and its extra cost is what a visit costs at that rhythm
 * ({@link #visitExtra}). A visit's first operation finds the line where the other core left it,
 * or here when the other core has not touched it since; how often each happens depends on both
 * gaps, which is why the rhythm is measured rather than one gap.
 */
public final class LineCost {

    /** How a kind is measured: the primitive (run with line=shared and line=private), operations per benchmark op. */
    public record Probe(String primitive, double opsPerCall) {}

    /** The timed pair's secondary metrics: ns inside the timed operations, and how many. */
    public static final String PAIR_NS = "pairNs";
    public static final String PAIRS = "pairs";

    /** The primitive whose pair prices a visit: an RMW pair, inc then dec, on one line. */
    public static final String VISIT_PRIMITIVE = "atomic-refcount";

    private final JmhSweep sweep;
    private final JmhSweep timed;
    private final JmhSweep visits;
    private final Map<String, Probe> probes;

    private LineCost(JmhSweep sweep, JmhSweep timed, JmhSweep visits, Map<String, Probe> probes) {
        this.sweep = sweep;
        this.timed = timed;
        this.visits = visits;
        this.probes = probes;
    }

    /** The same costs from round {@code r}'s cells alone (each figure that round's, no spread). */
    public LineCost inRound(int r) {
        return new LineCost(sweep.round(r), timed == null ? null : timed.round(r), visits == null ? null : visits.round(r), probes);
    }

    /** The round numbers the cost sweeps hold. */
    public java.util.SortedSet<Integer> roundNumbers() {
        java.util.SortedSet<Integer> r = new java.util.TreeSet<>(sweep.roundNumbers());
        if (timed != null) {
            r.addAll(timed.roundNumbers());
        }
        if (visits != null) {
            r.addAll(visits.roundNumbers());
        }
        return r;
    }

    /** From the score sweep alone. */
    public static LineCost of(JmhSweep sweep, Map<String, Probe> probes) {
        return of(sweep, null, probes);
    }

    /** From the score sweep and the timed one ({@code timed} may be null or empty). */
    public static LineCost of(JmhSweep sweep, JmhSweep timed, Map<String, Probe> probes) {
        return of(sweep, timed, null, probes);
    }

    /** From the score sweep, the timed one and the visits' ({@code timed} and {@code visits} may be null or empty). */
    public static LineCost of(JmhSweep sweep, JmhSweep timed, JmhSweep visits, Map<String, Probe> probes) {
        return new LineCost(sweep, timed, visits, new LinkedHashMap<>(probes));
    }

    /** Whether the run measured what a visit costs at its I/O's rhythm. */
    public boolean hasVisits() {
        return visits != null && !visits.isEmpty();
    }

    /** The visits' rhythm, ns: the gap after the first pair and after the second ({@code gapNs}, {@code userGapNs}); null without. */
    public long[] visitRhythm() {
        if (!hasVisits()) {
            return null;
        }
        Map<String, String> p = visits.cells().getFirst().params();
        return new long[] {Long.parseLong(p.getOrDefault("gapNs", "0")), Long.parseLong(p.getOrDefault("userGapNs", "0"))};
    }

    /**
     * The extra ns of one visit to a shared line over the same on a line of the thread's own, at
     * {@code n} threads and the I/O's rhythm: the timed pair, shared less private within each
     * round, median [min–max] over rounds; null if absent.
     */
    public Stats.Spread visitExtra(int n) {
        if (!hasVisits()) {
            return null;
        }
        Map<Integer, Double> priv = timedByRound(visits, Map.of("primitive", VISIT_PRIMITIVE, "line", "private"), n);
        Map<Integer, Double> shared = timedByRound(visits, Map.of("primitive", VISIT_PRIMITIVE, "line", "shared"), n);
        List<Double> d = new ArrayList<>();
        priv.forEach((round, x) -> {
            Double y = shared.get(round);
            if (y != null) {
                d.add(y - x);
            }
        });
        return d.isEmpty() ? null : Stats.spread(d);
    }

    /** ns per timed pair of the cells of {@code s} matching {@code k} at {@code n} threads, by round. */
    private static Map<Integer, Double> timedByRound(JmhSweep s, Map<String, String> k, int n) {
        Map<Integer, Double> out = new TreeMap<>();
        for (JmhSweep.Cell c : s.cells()) {
            var ns = c.result().secondary().get(PAIR_NS);
            var count = c.result().secondary().get(PAIRS);
            if (c.threads() == n && c.matches(k) && ns != null && count != null && count.score() > 0) {
                out.put(c.round(), ns.score() / count.score());
            }
        }
        return out;
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
        Map<Integer, Double> out = timed == null ? Map.of() : timedByRound(timed, k, n);
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
