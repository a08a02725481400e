package lab.notebook;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import lab.analysis.JmhSweep;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.fidelity.LineCost;
import lab.analysis.fidelity.LineCounts;
import lab.analysis.fidelity.NoiseFloor;
import lab.analysis.fidelity.RoundRatio;
import lab.analysis.fidelity.SharedLineModel;

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
public record Prediction(JmhSweep calibrated, JmhSweep raw, Function<String, Map<String, String>> key,
                         Function<String, LineCounts.Entry> counts, LineCost costs, long gapNs, int hz, String commonBase) {

    /** The pseudo-kind visits are priced under. */
    public static final String VISIT = "visit";

    /** Whether {@code e} is priced per visit: it counts visits and the run measured one. */
    private boolean byVisits(LineCounts.Entry e) {
        return e != null && e.visitsPerIo() != null && costs != null && costs.hasVisits();
    }

    /** Whether the prediction prices visits (every variant it was asked about counts them). */
    public boolean byVisits(String variant) {
        return byVisits(counts.apply(variant));
    }

    /** ns per op of {@code variant} at {@code n} threads, calibrated: the median over rounds; NaN if absent. */
    public double ns(String variant, int n) {
        Map<Integer, Double> v = calibrated.scoresByRound(key.apply(variant), n);
        return v.isEmpty() ? Double.NaN : Stats.median(v.values());
    }

    /**
     * The one-thread time the prediction starts from: the base plus the raw model's one-thread ns
     * (of {@link #commonBase} where there is one); NaN if absent.
     */
    public double oneThread(String variant) {
        return oneThread(variant, gapNs);
    }

    /** {@link #oneThread(String)} at another base, {@code baseNs}. */
    double oneThread(String variant, double baseNs) {
        Map<Integer, Double> v = raw.scoresByRound(key.apply(commonBase == null ? variant : commonBase), 1);
        return v.isEmpty() ? Double.NaN : baseNs + Stats.median(v.values());
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

    /** Where the costs were measured, in words: "at a gap of G ns", or the visits' rhythm as well. */
    private String where() {
        long[] r = costs == null ? null : costs.visitRhythm();
        return r == null ? "at a gap of " + gapNs + " ns" : "a visit at the I/O's rhythm (" + r[0] + " ns of work after one pair, "
                + r[1] + " after the next), an operation at a gap of " + gapNs + " ns";
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

    /** The calibrated measurement of the same ratio, the run's estimator. */
    public Estimate measured(String base, String cand, int n) {
        return RoundRatio.of(calibrated, key.apply(base), key.apply(cand), n);
    }

    /**
     * Whether the prediction agrees with the measurement, and if not which term is missing: inside
     * the measurement's 95% interval it agrees; below it the measured gain is larger than the
     * counted operations explain (a cost the counts miss, or c underpriced at this gap); above it
     * the counted operations cost less in the run than c says (c overpriced, or operations that
     * contend less than a shared line). With one round there is no interval to judge by.
     */
    public static String verdict(Double predicted, Estimate measured) {
        if (predicted == null || measured == null) {
            return "n/a";
        }
        if (!measured.hasInterval()) {
            return "one round: no interval to judge by";
        }
        if (predicted >= measured.lo() && predicted <= measured.hi()) {
            return "agrees";
        }
        return predicted < measured.lo()
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

    private boolean pricedPerVisit(java.util.List<Pair> pairs) {
        return !pairs.isEmpty() && byVisits(pairs.getFirst().base());
    }

    /** One comparison the notebook predicts: base and candidate variant, a label. */
    public record Pair(String base, String cand, String label) {}

    /**
     * The prediction table at {@code n} threads: per pair, the calibrated measurement (the
     * estimator, with its interval), the prediction, and the verdict; then the costs it used.
     */
    public String table(java.util.List<Pair> pairs, int n) {
        StringBuilder b = new StringBuilder("| comparison, " + n + (n == 1 ? " thread" : " threads")
                + " | measured, calibrated | predicted | |\n|---|---:|---:|---|\n");
        for (Pair p : pairs) {
            Estimate m = measured(p.base(), p.cand(), n);
            Double pr = predict(p.base(), p.cand(), n);
            String cell = m == null ? "n/a" : m.format(3) + "x" + (m.hasInterval() && !m.excludes(1) ? " (holds 1)" : "");
            b.append("| ").append(p.label()).append(" | ").append(cell).append(" | ")
                    .append(pr == null ? "n/a" : Fmt.f(pr, 3) + "x").append(" | ").append(verdict(pr, m)).append(" |\n");
        }
        b.append("\nWith, per I/O: ");
        java.util.List<String> parts = new java.util.ArrayList<>();
        java.util.Set<String> variants = new java.util.LinkedHashSet<>();
        pairs.forEach(p -> {
            variants.add(p.base());
            variants.add(p.cand());
        });
        for (String v : variants) {
            Map<String, Double> ops = ops(v, n);
            parts.add("`" + v + "` " + Fmt.f(oneThread(v), 1) + " ns at 1 thread (the base and the raw model's"
                    + (commonBase == null || commonBase.equals(v) ? "" : " `" + commonBase + "`'s") + "), " + (ops == null || ops.isEmpty() ? "no shared-line op"
                    : ops.entrySet().stream().map(e -> Fmt.f(e.getValue(), 3) + " " + e.getKey()).collect(java.util.stream.Collectors.joining(" + "))));
        }
        b.append(String.join("; ", parts)).append(". Extra ns per shared-line ").append(pricedPerVisit(pairs) ? "visit or operation" : "operation")
                .append(" at ").append(n).append(" threads over 1, ").append(where()).append(": ");
        java.util.Set<String> kinds = new java.util.TreeSet<>();
        variants.forEach(v -> {
            Map<String, Double> ops = ops(v, n);
            if (ops != null) {
                kinds.addAll(ops.keySet());
            }
        });
        b.append(kinds.isEmpty() ? "none needed" : kinds.stream().map(k -> k + " " + Fmt.f(extra(k, n), 1))
                .collect(java.util.stream.Collectors.joining(", "))).append(".\n\n");
        return b.toString();
    }

    /**
     * What the notebook says of a fix's prediction at {@code n} threads, appended to {@code b}: the
     * prediction table of {@code pairs}; what the seed's {@code seedRatio} between {@code base} and
     * {@code cand} implies one shared-line operation costs, beside what one costs here at this gap
     * and, with the queue's fit, at the seed's thread count; the fits. Fills {@code head}'s
     * predicted and implied figures; returns the summary's {@code prediction} map.
     *
     * @param seedWhere the seed's machine in words, for the sentence that weighs the two costs
     */
    public Map<String, Object> report(StringBuilder b, java.util.List<Pair> pairs, String base, String cand, int n,
                                      double seedRatio, Integer seedThreads, String seedWhere, Headline head) {
        b.append(table(pairs, n));
        Double predicted = predict(base, cand, n);
        String kind = differingKind(base, cand, n);
        double implied = implied(seedRatio, base, cand, n);
        double measured = kind == null ? Double.NaN : extra(kind, n);
        head.predicted(predicted).implied(finite(implied), finite(measured));
        double[] bi = head.baseInterval();
        Double atLo = bi == null ? null : predict(base, cand, n, bi[0]);
        Double atHi = bi == null ? null : predict(base, cand, n, bi[1]);
        head.predictedRange(atLo == null || atHi == null ? null : new double[] {Math.min(atLo, atHi), Math.max(atLo, atHi)});
        boolean visits = byVisits(base);
        String unit = visits ? "visit to a shared line" : "shared-line operation";
        b.append("What the seed implies: for `").append(cand).append("` to gain ").append(Fmt.ratio(seedRatio)).append(" over `")
                .append(base).append("` on top of this calibrated I/O (").append(Fmt.f(oneThread(base), 0))
                .append(" ns at one thread; the seed gives no CPU per I/O of its own, so the base is the one measured here), one ")
                .append(unit).append(" would have to cost ").append(Double.isFinite(implied) ? Fmt.f(implied, 1) + " ns" : "n/a (the counts do not differ)")
                .append(" more than a private one. Here, at ").append(n).append(n == 1 ? " thread" : " threads")
                .append(visits ? " and the I/O's rhythm" : " and a gap of " + gapNs + " ns").append(", ").append(kind == null ? "no operation is counted" : "a `" + kind + "` costs " + Fmt.f(measured, 1) + " ns more")
                .append(". ").append(seedWhere).append(" This run has no cost sweep from a machine with more cores to set beside these.\n\n");
        b.append(fits(kind == null || kind.equals(VISIT) ? "rmw" : kind, seedThreads));
        Map<String, Object> pj = new java.util.LinkedHashMap<>();
        pj.put("threads", n);
        pj.put("gap_ns", gapNs);
        pj.put("priced_per", visits ? "visit" : "operation");
        pj.put("visit_rhythm_ns", costs == null || costs.visitRhythm() == null ? null : java.util.Arrays.stream(costs.visitRhythm()).boxed().toList());
        pj.put("base", base);
        pj.put("candidate", cand);
        pj.put("predicted", predicted);
        pj.put("measured", Parts.json(measured(base, cand, n)));
        pj.put("kind", kind);
        pj.put("implied_op_ns", finite(implied));
        pj.put("measured_op_ns", finite(measured));
        Double extrapolated = extrapolated(kind, seedThreads);
        pj.put("extrapolated_op_ns", extrapolated);
        pj.put("extrapolated_threads", extrapolated == null ? null : seedThreads);
        return pj;
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /**
     * The better of the two fits of {@code kind}'s line over every measured thread count and gap
     * (the lower relative rms error): the closed queue alone, or with the transfer term; null without points.
     */
    public lab.analysis.fidelity.LineQueue bestFit(String kind) {
        if (kind == null || costs == null || costs.isEmpty() || !costs.probes().containsKey(kind)) {
            return null;
        }
        var pts = costs.queuePoints(kind);
        var q = lab.analysis.fidelity.LineQueue.fit(pts);
        var qm = lab.analysis.fidelity.LineQueue.fitWithTransfer(pts);
        if (q == null || qm == null) {
            return q;
        }
        return qm.rmsRelativeError(pts) < q.rmsRelativeError(pts) ? qm : q;
    }

    /** The best fit's extra ns per {@code kind} operation at {@code threads}, at this gap; null without a fit. */
    public Double extrapolated(String kind, Integer threads) {
        var q = bestFit(kind);
        return q == null || threads == null ? null : q.extraNs(threads, costs.thinkNs(kind, 1, gapNs));
    }

    /**
     * The shared line of {@code kind} fitted as a closed queue ({@link lab.analysis.fidelity.LineQueue}),
     * alone and with a transfer term, over every measured thread count and gap, and by Gunther's USL
     * over the thread counts back to back; which fits, and, with the better fit, the extra cost per
     * operation at {@code seedThreads} (labelled as an extrapolation), or why there is none.
     */
    public String fits(String kind, Integer seedThreads) {
        if (costs == null || costs.isEmpty() || !costs.probes().containsKey(kind)) {
            return "";
        }
        var pts = costs.queuePoints(kind);
        var q = lab.analysis.fidelity.LineQueue.fit(pts);
        var qm = lab.analysis.fidelity.LineQueue.fitWithTransfer(pts);
        var usl = lab.analysis.fidelity.Usl.fit(costs.uslPoints(kind, 0));
        long n = pts.stream().filter(p -> p.threads() >= 2 && p.extraNs() > 0).count();
        StringBuilder b = new StringBuilder("Fits of the `" + kind + "` line over every measured thread count and gap (" + n
                + " points with an extra cost): ");
        if (q == null) {
            b.append("none (no measured extra cost with two threads or more).");
        } else {
            double e1 = q.rmsRelativeError(pts);
            double e2 = qm.rmsRelativeError(pts);
            b.append("a closed queue alone (the line held S per operation) S = ").append(Fmt.f(q.serviceNs(), 1))
                    .append(" ns, relative rms error ").append(Fmt.f(100 * e1, 0)).append("%; the queue with a coherence miss M paid")
                    .append(" whenever another core wrote the line last, S = ").append(Fmt.f(qm.serviceNs(), 1)).append(" ns and M = ")
                    .append(Fmt.f(qm.transferNs(), 1)).append(" ns, error ").append(Fmt.f(100 * e2, 0)).append("%: ");
            double best = Math.min(e1, e2);
            b.append(best > 0.3 ? "neither fits these points well (the better is used below)" : e2 < e1 ? "the queue with the miss fits"
                    : "the queue alone fits").append('.');
        }
        if (usl != null) {
            b.append(" Gunther's USL over the thread counts, back to back: σ = ").append(Fmt.f(usl.sigma(), 3)).append(", κ = ")
                    .append(Fmt.f(usl.kappa(), 4)).append(usl.points() <= 2 ? " (two thread counts: κ cannot be told from σ, and the law"
                            + " extrapolates a straight line)" : "").append('.');
        }
        if (seedThreads != null && q != null) {
            b.append(" Extrapolated with the better fit (an extrapolation, not a measurement) to the seed's ").append(seedThreads)
                    .append(" threads at this gap: ").append(Fmt.f(extrapolated(kind, seedThreads), 1)).append(" ns per operation.");
        } else if (seedThreads == null) {
            b.append(" The seed names no thread count to extrapolate to.");
        }
        return b.append("\n\n").toString();
    }
}
