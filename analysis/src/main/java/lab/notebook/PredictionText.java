package lab.notebook;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import lab.analysis.estimate.Estimate;
import lab.analysis.fidelity.Prediction;
import lab.analysis.fidelity.Prediction.Pair;

/**
 * What the notebook says of a fix's {@link Prediction}: the table of measured against predicted
 * ratios, what the seed implies one shared-line operation costs beside what one costs here, and
 * the queue fits. Renders the prediction's figures; computes none of its own.
 */
public final class PredictionText {
    private PredictionText() {}

    /**
     * The prediction table at {@code n} threads: per pair, the calibrated measurement (the
     * estimator, with its interval), the prediction, and the verdict; then the costs it used.
     */
    public static String table(Prediction p, List<Pair> pairs, int n) {
        StringBuilder b = new StringBuilder("| comparison, " + n + (n == 1 ? " thread" : " threads")
                + " | measured, calibrated | predicted | |\n|---|---:|---:|---|\n");
        for (Pair q : pairs) {
            Estimate m = p.measured(q.base(), q.cand(), n);
            Double pr = p.predict(q.base(), q.cand(), n);
            Estimate over = p.predictOverRounds(q.base(), q.cand(), n);
            String cell = m == null ? "n/a" : m.format(3) + "x" + (m.hasInterval() && !m.excludes(1) ? " (holds 1)" : "");
            b.append("| ").append(q.label()).append(" | ").append(cell).append(" | ")
                    .append(pr == null ? "n/a" : Fmt.f(pr, 3) + "x").append(over != null && over.hasInterval() ? " (" + over.format(3)
                            + "x over rounds)" : "").append(" | ").append(Prediction.verdict(pr, over, m)).append(" |\n");
        }
        b.append("\nWith, per I/O: ");
        List<String> parts = new ArrayList<>();
        Set<String> variants = new LinkedHashSet<>();
        pairs.forEach(q -> {
            variants.add(q.base());
            variants.add(q.cand());
        });
        for (String v : variants) {
            Map<String, Double> ops = p.ops(v, n);
            parts.add("`" + v + "` " + Fmt.f(p.oneThread(v), 1) + " ns at 1 thread (the base and the raw model's"
                    + (p.commonBase() == null || p.commonBase().equals(v) ? "" : " `" + p.commonBase() + "`'s") + "), " + (ops == null || ops.isEmpty() ? "no shared-line op"
                    : ops.entrySet().stream().map(e -> Fmt.f(e.getValue(), 3) + " " + e.getKey()).collect(Collectors.joining(" + "))));
        }
        b.append(String.join("; ", parts)).append(". Extra ns per shared-line ").append(p.pricedPerVisit(pairs) ? "visit or operation" : "operation")
                .append(" at ").append(n).append(" threads over 1, ").append(where(p)).append(": ");
        Set<String> kinds = new TreeSet<>();
        variants.forEach(v -> {
            Map<String, Double> ops = p.ops(v, n);
            if (ops != null) {
                kinds.addAll(ops.keySet());
            }
        });
        b.append(kinds.isEmpty() ? "none needed" : kinds.stream().map(k -> k + " " + Fmt.f(p.extra(k, n), 1))
                .collect(Collectors.joining(", "))).append(".\n\n");
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
    public static Map<String, Object> report(Prediction p, StringBuilder b, List<Pair> pairs, String base, String cand, int n,
                                      double seedRatio, Integer seedThreads, String seedWhere, Headline head) {
        b.append(table(p, pairs, n));
        Double predicted = p.predict(base, cand, n);
        Estimate overRounds = p.predictOverRounds(base, cand, n);
        head.predictedOverRounds(overRounds);
        String kind = p.differingKind(base, cand, n);
        double implied = p.implied(seedRatio, base, cand, n);
        double measured = kind == null ? Double.NaN : p.extra(kind, n);
        head.predicted(predicted).implied(Prediction.finite(implied), Prediction.finite(measured));
        Estimate impliedOver = p.overRounds(q -> q.implied(seedRatio, base, cand, n), true);
        Estimate measuredOver = kind == null ? null : p.overRounds(q -> q.extra(kind, n), true);
        head.impliedOverRounds(impliedOver, measuredOver);
        double[] bi = head.baseInterval();
        Double atLo = bi == null ? null : p.predict(base, cand, n, bi[0]);
        Double atHi = bi == null ? null : p.predict(base, cand, n, bi[1]);
        head.predictedRange(atLo == null || atHi == null ? null : new double[] {Math.min(atLo, atHi), Math.max(atLo, atHi)});
        boolean visits = p.byVisits(base);
        String unit = visits ? "visit to a shared line" : "shared-line operation";
        b.append("What the seed implies: for `").append(cand).append("` to gain ").append(Fmt.ratio(seedRatio)).append(" over `")
                .append(base).append("` on top of this calibrated I/O (").append(Fmt.f(p.oneThread(base), 0))
                .append(" ns at one thread; the seed gives no CPU per I/O of its own, so the base is the one measured here), one ")
                .append(unit).append(" would have to cost ").append(Double.isFinite(implied) ? Fmt.f(implied, 1) + " ns" : "n/a (the counts do not differ)")
                .append(" more than a private one. Here, at ").append(n).append(n == 1 ? " thread" : " threads")
                .append(visits ? " and the I/O's rhythm" : " and a gap of " + p.gapNs() + " ns").append(", ").append(kind == null ? "no operation is counted" : "a `" + kind + "` costs " + Fmt.f(measured, 1) + " ns more")
                .append(impliedOver == null && measuredOver == null ? "" : " (made within each round instead: implied "
                        + Fmt.est(impliedOver, 1) + ", measured " + Fmt.est(measuredOver, 1) + " ns, means over rounds with their 95% intervals)")
                .append(". ").append(seedWhere).append(" This run has no cost sweep from a machine with more cores to set beside these.\n\n");
        b.append(fits(p, kind == null || kind.equals(Prediction.VISIT) ? "rmw" : kind, seedThreads));
        Map<String, Object> pj = new LinkedHashMap<>();
        pj.put("threads", n);
        pj.put("gap_ns", p.gapNs());
        pj.put("priced_per", visits ? "visit" : "operation");
        pj.put("visit_rhythm_ns", p.costs() == null || p.costs().visitRhythm() == null ? null : java.util.Arrays.stream(p.costs().visitRhythm()).boxed().toList());
        pj.put("base", base);
        pj.put("candidate", cand);
        pj.put("predicted", predicted);
        pj.put("predicted_over_rounds", Parts.json(overRounds));
        pj.put("measured", Parts.json(p.measured(base, cand, n)));
        pj.put("kind", kind);
        pj.put("implied_op_ns", Prediction.finite(implied));
        pj.put("implied_op_ns_over_rounds", Parts.json(impliedOver));
        pj.put("measured_op_ns_over_rounds", Parts.json(measuredOver));
        pj.put("measured_op_ns", Prediction.finite(measured));
        Double extrapolated = p.extrapolated(kind, seedThreads);
        pj.put("extrapolated_op_ns", extrapolated);
        pj.put("extrapolated_threads", extrapolated == null ? null : seedThreads);
        return pj;
    }

    /**
     * The shared line of {@code kind} fitted as a closed queue ({@link lab.analysis.fidelity.LineQueue}),
     * alone and with a transfer term, over every measured thread count and gap, and by Gunther's USL
     * over the thread counts back to back; which fits, and, with the better fit, the extra cost per
     * operation at {@code seedThreads} (labelled as an extrapolation), or why there is none.
     */
    public static String fits(Prediction p, String kind, Integer seedThreads) {
        if (p.oneGap()) {
            return "No fits of the line: this run's cost sweep measured one gap, the calibrated base (" + p.costs().gaps().getFirst()
                    + " ns), what the prediction above reads, as a quick run does; a full run (without `--quick`) measures gaps of 0,"
                    + " ~100 ns and ~1 µs as well, fits the line over them and extrapolates to the seed's threads.\n\n";
        }
        Prediction.Fits f = p.fits(kind);
        if (f == null) {
            return "";
        }
        var q = f.queue();
        var qm = f.withMiss();
        var usl = f.usl();
        StringBuilder b = new StringBuilder("Fits of the `" + kind + "` line over every measured thread count and gap (" + f.points()
                + " points with an extra cost): ");
        if (q == null) {
            b.append("none (no measured extra cost with two threads or more).");
        } else {
            double e1 = f.errQueue();
            double e2 = f.errMiss();
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
                    .append(" threads at this gap: ").append(Fmt.f(p.extrapolated(kind, seedThreads), 1)).append(" ns per operation.");
        } else if (seedThreads == null) {
            b.append(" The seed names no thread count to extrapolate to.");
        }
        return b.append("\n\n").toString();
    }
    /** Where the costs were measured, in words: "at a gap of G ns", or the visits' rhythm as well. */
    private static String where(Prediction p) {
        long[] r = p.costs() == null ? null : p.costs().visitRhythm();
        return r == null ? "at a gap of " + p.gapNs() + " ns" : "a visit at the I/O's rhythm (" + r[0] + " ns of work after one pair, "
                + r[1] + " after the next), an operation at a gap of " + p.gapNs() + " ns";
    }

}
