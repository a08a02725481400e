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
 * {@code primitive} and {@code gapNs}) measured in the same run as the fix. Each kind is measured
 * by a pair of primitives, one on a shared line and its private-line twin, and a number of
 * operations per benchmark op (an inc+dec pair is two RMWs); the difference is taken within each
 * round and the median over rounds reported. The caller names the pairs: this class knows no
 * primitive.
 */
public final class LineCost {

    /** How a kind is measured: the shared-line primitive, its private twin, operations per benchmark op. */
    public record Probe(String shared, String privateTwin, double opsPerCall) {}

    private final JmhSweep sweep;
    private final Map<String, Probe> probes;

    private LineCost(JmhSweep sweep, Map<String, Probe> probes) {
        this.sweep = sweep;
        this.probes = probes;
    }

    public static LineCost of(JmhSweep sweep, Map<String, Probe> probes) {
        return new LineCost(sweep, new LinkedHashMap<>(probes));
    }

    public boolean isEmpty() {
        return sweep.isEmpty();
    }

    public Map<String, Probe> probes() {
        return probes;
    }

    /** The gaps measured, ascending (ns). */
    public List<Long> gaps() {
        return sweep.values("gapNs").stream().map(Long::parseLong).sorted().distinct().toList();
    }

    public java.util.SortedSet<Integer> threadCounts() {
        return sweep.threadCounts();
    }

    private static Map<String, String> key(String primitive, long gap) {
        return Map.of("primitive", primitive, "gapNs", Long.toString(gap));
    }

    /** ns per operation of the private twin (its uncontended cost), median over rounds; NaN if absent. */
    public double privateNs(String kind, int n, long gap) {
        Probe p = probes.get(kind);
        Map<Integer, Double> v = sweep.scoresByRound(key(p.privateTwin(), gap), n);
        return v.isEmpty() ? Double.NaN : Stats.median(v.values()) / p.opsPerCall();
    }

    /** e(kind, n, gap): extra ns per operation, median [min–max] over rounds of the within-round difference; null if absent. */
    public Stats.Spread extra(String kind, int n, long gap) {
        Probe p = probes.get(kind);
        if (p == null) {
            return null;
        }
        List<Double> d = sweep.perRound(key(p.privateTwin(), gap), key(p.shared(), gap), n,
                (priv, shared) -> (shared - priv) / p.opsPerCall());
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

    /** Every measured (threads, think time, extra) of {@code kind}, for {@link LineQueue#fit}. */
    public List<LineQueue.Point> queuePoints(String kind) {
        List<LineQueue.Point> out = new ArrayList<>();
        for (int n : sweep.threadCounts()) {
            for (long g : gaps()) {
                Stats.Spread e = extra(kind, n, g);
                double priv = privateNs(kind, n, g);
                if (e != null && !Double.isNaN(priv)) {
                    out.add(new LineQueue.Point(n, g + priv, e.median()));
                }
            }
        }
        return out;
    }

    /** Total throughput of the shared primitive of {@code kind} at {@code gap} by threads, for {@link Usl#fit}. */
    public List<Usl.Point> uslPoints(String kind, long gap) {
        Probe p = probes.get(kind);
        List<Usl.Point> out = new ArrayList<>();
        for (int n : sweep.threadCounts()) {
            Map<Integer, Double> v = sweep.scoresByRound(key(p.shared(), gap), n);
            if (!v.isEmpty()) {
                out.add(new Usl.Point(n, n / Stats.median(v.values())));
            }
        }
        return out;
    }
}
