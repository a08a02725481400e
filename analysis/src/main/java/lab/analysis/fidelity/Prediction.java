package lab.analysis.fidelity;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.estimate.SweepEstimates;

/**
 * A fix's prediction from its counted shared-line operations ({@link LineCounts}), what one such
 * operation costs here at the calibrated gap ({@link LineCost}) and each variant's one-thread
 * time, set beside the calibrated measurement ({@link SharedLineModel} has the equation). A
 * variant's one-thread time is the calibration's base plus the raw model's one-thread ns: the
 * base is the same work in both variants by construction, and the raw model measures what
 * differs between them uncontended (the locked instructions' own cost) to a nanosecond, where
 * the calibrated measurement, microseconds per I/O, carries a percent of noise. Any fix uses it:
 * the fix names its JMH key and count entry per variant.
 *
 * <p>Priced per visit where the run has them (its counts tell visits apart and its cost sweep
 * measured a visit at the I/O's rhythm, {@link LineCost#visitExtra}): on two cores a line costs
 * per visit, its first operation; the rest of a visit's operations find the line here. Then each
 * visit per I/O costs {@link #VISIT}'s extra, and the per-tick operations (a visit each) their
 * kind's. Otherwise per operation, each kind at the calibrated gap.
 *
 * @param calibrated the calibrated sweep (one base): the measurement the prediction is set beside
 * @param raw        the raw sweep ({@code base_ns=0}): the variants' own uncontended cost
 * @param key        a variant's JMH params in both sweeps
 * @param counts     a variant's count entry
 * @param costs      the cost sweep
 * @param gapNs      the calibrated base: added to each one-thread time, and the gap operations are priced at
 * @param hz         ticks per second for per-tick operations; 0 for a model without a clock
 * @param commonBase the variant whose one-thread time T every variant starts from (the
 *                   README's formula has one T): the variants then differ only by their counted
 *                   operations, not by one-thread times taken from different rounds' medians,
 *                   whose differences are noise of the size of the effect
 */
public record Prediction(SweepEstimates calibrated, SweepEstimates raw, Function<String, Map<String, String>> key,
                         Function<String, LineCounts.Entry> counts, LineCost costs, long gapNs, int hz, String commonBase) {

    /** The pseudo-kind visits are priced under. */
    public static final String VISIT = "visit";

    /** Whether {@code e} is priced per visit: it counts visits and the run measured one. */
    private boolean byVisits(LineCounts.Entry e) {
        return e != null && e.visitsPerIo() != null && costs != null && costs.hasVisits();
    }

    /** Whether {@code pairs} are priced per visit (their first base counts visits). */
    public boolean pricedPerVisit(java.util.List<Pair> pairs) {
        return !pairs.isEmpty() && byVisits(pairs.getFirst().base());
    }

    /** Whether the prediction prices visits (every variant it was asked about counts them). */
    public boolean byVisits(String variant) {
        return byVisits(counts.apply(variant));
    }

    /** ns per op of {@code variant} at {@code n} threads, calibrated: the run's estimate; NaN if absent. */
    public double ns(String variant, int n) {
        Estimate e = calibrated.ns(key.apply(variant), n);
        return e == null ? Double.NaN : e.value();
    }

    /**
     * The one-thread time the prediction starts from: the base plus the raw model's one-thread ns
     * (of {@link #commonBase} where there is one); NaN if absent.
     */
    public double oneThread(String variant) {
        return oneThread(variant, gapNs);
    }

    /** {@link #oneThread(String)} at another base, {@code baseNs}. */
    public double oneThread(String variant, double baseNs) {
        Estimate e = raw.ns(key.apply(commonBase == null ? variant : commonBase), 1);
        return e == null ? Double.NaN : baseNs + e.value();
    }

    /**
     * Operations per I/O by kind of {@code variant} at {@code n} threads (its tick work at its
     * measured rate); priced per visit, its visits per I/O under {@link #VISIT} and the tick work by kind.
     */
    public Map<String, Double> ops(String variant, int n) {
        LineCounts.Entry e = counts.apply(variant);
        if (e == null) {
            return null;
        }
        double ns = ns(variant, n);
        if (!byVisits(e)) {
            return hz > 0 && Double.isFinite(ns) ? e.byKindAt(n * 1e9 / ns, hz) : new TreeMap<>(e.perIoByKind());
        }
        Map<String, Double> out = new TreeMap<>();
        if (e.visits() > 0) {
            out.put(VISIT, e.visits());
        }
        if (hz > 0 && Double.isFinite(ns)) {
            e.perTickByKind().forEach((k, v) -> out.merge(k, v * hz / (n * 1e9 / ns), Double::sum));
        }
        return out;
    }

    /**
     * e(kind, n, gap): extra ns per shared-line operation at n threads over one, at the calibrated
     * gap; for {@link #VISIT}, per visit at the I/O's rhythm.
     */
    public double extra(String kind, int n) {
        if (VISIT.equals(kind)) {
            Stats.Spread at = costs.visitExtra(n);
            Stats.Spread one = costs.visitExtra(1);
            return at == null ? Double.NaN : Math.max(0, at.median() - (n == 1 || one == null ? 0 : Math.max(0, one.median())));
        }
        return Math.max(0, costs.extraAt(kind, n, gapNs) - (n == 1 ? 0 : Math.max(0, costs.extraAt(kind, 1, gapNs))));
    }

    /** Predicted throughput of {@code cand} over {@code base} at {@code n}; null when a figure is missing. */
    public Double predict(String base, String cand, int n) {
        return predict(base, cand, n, gapNs);
    }

    /**
     * The prediction with T at another base, {@code baseNs} (the operations still priced at the
     * run's gap): how much of the prediction's uncertainty the calibration's interval carries.
     */
    public Double predict(String base, String cand, int n, double baseNs) {
        double tb = oneThread(base, baseNs);
        double tc = oneThread(cand, baseNs);
        Map<String, Double> mb = ops(base, n);
        Map<String, Double> mc = ops(cand, n);
        if (!Double.isFinite(tb) || !Double.isFinite(tc) || mb == null || mc == null || costs == null || costs.isEmpty()) {
            return null;
        }
        for (String kind : mb.keySet()) {
            if (!Double.isFinite(extra(kind, n))) {
                return null;
            }
        }
        for (String kind : mc.keySet()) {
            if (!Double.isFinite(extra(kind, n))) {
                return null;
            }
        }
        return SharedLineModel.predict(tb, mb, tc, mc, k -> extra(k, n));
    }

    /**
     * The prediction made within each round, from that round's raw one-thread time T and its cost
     * sweep's c (the counts are exact, the base the run's), estimated over the rounds as every
     * figure is: the interval carries T's and c's round-to-round noise (the base's own interval is
     * {@code predict} at its ends); null where no round has both.
     */
    public Estimate predictOverRounds(String base, String cand, int n) {
        return overRounds(p -> {
            Double v = p.predict(base, cand, n);
            return v == null ? Double.NaN : v;
        }, false);
    }

    /**
     * {@code figure} of the prediction made within each round (that round's T and c, the counts
     * and the base the run's), estimated over the rounds: the geometric mean and its interval, or
     * for a figure that may be negative ({@code signed}: an ns cost) the mean and its interval; a
     * round where the figure is not finite (or, unsigned, not positive) is left out; null for none.
     */
    public Estimate overRounds(java.util.function.ToDoubleFunction<Prediction> figure, boolean signed) {
        if (costs == null) {
            return null;
        }
        java.util.List<Double> each = new java.util.ArrayList<>();
        for (int r : raw.roundNumbers()) {
            if (!costs.roundNumbers().contains(r)) {
                continue;
            }
            double v = figure.applyAsDouble(new Prediction(calibrated, raw.round(r), key, counts, costs.inRound(r), gapNs, hz, commonBase));
            if (Double.isFinite(v) && (signed || v > 0)) {
                each.add(v);
            }
        }
        return signed ? Estimator.mean(each) : Estimator.of(each);
    }

    /** The calibrated measurement of the same ratio, the run's estimator. */
    public Estimate measured(String base, String cand, int n) {
        return calibrated.ratio(key.apply(base), key.apply(cand), n);
    }

    /**
     * Whether the prediction agrees with the measurement, and if not which term is missing: inside
     * the measurement's 95% interval it agrees; below it the measured gain is larger than the
     * counted operations explain (a cost the counts miss, or c underpriced at this gap); above it
     * the counted operations cost less in the run than c says (c overpriced, or operations that
     * contend less than a shared line). Under three rounds there is no interval to judge by.
     */
    public static String verdict(Double predicted, Estimate measured) {
        return verdict(predicted, null, measured);
    }

    /**
     * {@link #verdict(Double, Estimate)} judged by both intervals where the prediction has one over
     * rounds ({@link #predictOverRounds}): it agrees where the two overlap; below or above where the
     * prediction's whole interval lies below or above the measurement's.
     */
    public static String verdict(Double predicted, Estimate overRounds, Estimate measured) {
        if (predicted == null || measured == null) {
            return "n/a";
        }
        if (!measured.hasInterval()) {
            return measured.noInterval() + " to judge by";
        }
        double lo = overRounds != null && overRounds.hasInterval() ? Math.min(predicted, overRounds.lo()) : predicted;
        double hi = overRounds != null && overRounds.hasInterval() ? Math.max(predicted, overRounds.hi()) : predicted;
        if (hi >= measured.lo() && lo <= measured.hi()) {
            return "agrees";
        }
        return hi < measured.lo()
                ? "predicts less than measured: a cost the counts miss, or c underpriced at this gap"
                : "predicts more than measured: c overpriced at this gap, or counted operations that contend less than a shared line";
    }

    /**
     * The ns one shared-line operation must cost for the seed's {@code seedRatio} between
     * {@code before} and {@code after}, with {@code before}'s one-thread time ({@link #oneThread})
     * as the base; NaN when the counts do not differ.
     */
    public double implied(double seedRatio, String before, String after, int n) {
        Map<String, Double> mb = ops(before, n);
        Map<String, Double> ma = ops(after, n);
        if (mb == null || ma == null) {
            return Double.NaN;
        }
        double sumB = mb.values().stream().mapToDouble(Double::doubleValue).sum();
        double sumA = ma.values().stream().mapToDouble(Double::doubleValue).sum();
        return SharedLineModel.impliedCost(seedRatio, oneThread(before), sumB, sumA);
    }

    /** The kind whose count per I/O differs most between {@code base} and {@code cand}: what the fix removed; null if none. */
    public String differingKind(String base, String cand, int n) {
        Map<String, Double> mb = ops(base, n);
        Map<String, Double> mc = ops(cand, n);
        if (mb == null || mc == null) {
            return null;
        }
        java.util.Set<String> kinds = new java.util.TreeSet<>(mb.keySet());
        kinds.addAll(mc.keySet());
        return kinds.stream().filter(k -> mb.getOrDefault(k, 0.0) != mc.getOrDefault(k, 0.0))
                .max(java.util.Comparator.comparingDouble(k -> Math.abs(mb.getOrDefault(k, 0.0) - mc.getOrDefault(k, 0.0))))
                .orElse(null);
    }

    /** One comparison the notebook predicts: base and candidate variant, a label. */
    public record Pair(String base, String cand, String label) {}

    /** {@code v}, or null where it is not finite. */
    public static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /**
     * The better of the two fits of {@code kind}'s line over every measured thread count and gap
     * (the lower relative rms error): the closed queue alone, or with the transfer term; null without points.
     */
    public LineQueue bestFit(String kind) {
        Fits f = fits(kind);
        if (f == null || f.queue() == null || f.withMiss() == null) {
            return f == null ? null : f.queue();
        }
        return f.errMiss() < f.errQueue() ? f.withMiss() : f.queue();
    }

    /** The best fit's extra ns per {@code kind} operation at {@code threads}, at this gap; null without a fit. */
    public Double extrapolated(String kind, Integer threads) {
        var q = bestFit(kind);
        return q == null || threads == null ? null : q.extraNs(threads, costs.thinkNs(kind, 1, gapNs));
    }


    /**
     * The fits of {@code kind}'s line over every measured thread count and gap: the closed queue
     * alone and with the transfer term (each with its relative rms error over the points), and
     * Gunther's USL over the thread counts back to back; null where the run has no cost sweep of it,
     * or one of a single gap ({@link #oneGap}).
     */
    public Fits fits(String kind) {
        if (kind == null || costs == null || costs.isEmpty() || !costs.probes().containsKey(kind) || oneGap()) {
            return null;
        }
        var pts = costs.queuePoints(kind);
        LineQueue q = LineQueue.fit(pts);
        LineQueue qm = LineQueue.fitWithTransfer(pts);
        long n = pts.stream().filter(x -> x.threads() >= 2 && x.extraNs() > 0).count();
        return new Fits(q, qm, Usl.fit(costs.uslPoints(kind, 0)), n, q == null ? Double.NaN : q.rmsRelativeError(pts),
                qm == null ? Double.NaN : qm.rmsRelativeError(pts));
    }

    /**
     * Whether the cost sweep measured one gap alone, the calibrated base (a quick run's, which
     * measures what the prediction reads and no more): no fit over gaps, no extrapolation.
     */
    public boolean oneGap() {
        return costs != null && !costs.isEmpty() && costs.gaps().size() < 2;
    }

    /** {@link #fits}: the two queue fits, the USL, the points with an extra cost, and each queue fit's error. */
    public record Fits(LineQueue queue, LineQueue withMiss, Usl usl, long points, double errQueue, double errMiss) {}
}
