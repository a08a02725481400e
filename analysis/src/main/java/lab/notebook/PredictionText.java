package lab.notebook;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import lab.analysis.estimate.Estimate;
import lab.analysis.fidelity.Prediction;
import lab.analysis.fidelity.Prediction.Pair;

/**
 * What the notebook says of a fix's {@link Prediction}: the table of measured against predicted
 * ratios, what the seed implies one shared-line operation costs beside what one costs here, and
 * the queue fits. {@link #estimate} makes every figure of it in the estimation stage (the
 * prediction over rounds, the costs, the fits) into a {@link Report}; {@link #report} prints the
 * report and computes nothing.
 */
public final class PredictionText {
    private PredictionText() {}

    /** One comparison of the table: its pair, the calibrated measurement, the prediction and the prediction over rounds. */
    public record Row(Pair pair, Estimate measured, Double predicted, Estimate overRounds) {}

    /** One variant of the table's pairs: its one-thread time and its shared-line operations per I/O by kind (null: no count). */
    public record Variant(String name, double oneThread, Map<String, Double> ops) {}

    /**
     * Every figure the notebook prints of a prediction at {@code n} threads: the table's rows and
     * variants, the extra cost of each kind they use ({@code extras}); for the headline's pair
     * ({@code base}, {@code cand}) the prediction, over rounds and at the ends of the base's
     * interval ({@code atLo}, {@code atHi}: null without one), the kind that differs most, what
     * the seed's ratio implies one operation costs and what one costs here (each also made within
     * each round), the fits of the line and the extrapolation to the seed's threads.
     */
    public record Report(Prediction p, List<Row> rows, List<Variant> variants, Map<String, Double> extras, boolean perVisit, int n,
                         String base, String cand, double seedRatio, Integer seedThreads, String seedWhere, Double predicted,
                         Estimate overRounds, Estimate measured, String kind, double implied, double measuredOp, Estimate impliedOver,
                         Estimate measuredOver, Double atLo, Double atHi, boolean visits, double oneThreadBase, Double extrapolated,
                         String fitKind, Prediction.Fits fits, Double fitExtrapolated) {}

    /**
     * The estimation stage of a prediction at {@code n} threads: the table of {@code pairs}; what the
     * seed's {@code seedRatio} between {@code base} and {@code cand} implies one shared-line
     * operation costs, beside what one costs here at this gap and, with the queue's fit, at the
     * seed's thread count ({@code seedThreads}); the prediction at the ends of the calibration's
     * base interval {@code baseInterval} (null: none).
     *
     * @param seedWhere the seed's machine in words, for the sentence that weighs the two costs
     */
    public static Report estimate(Prediction p, List<Pair> pairs, String base, String cand, int n, double seedRatio, Integer seedThreads,
                                  String seedWhere, double[] baseInterval) {
        List<Row> rows = new ArrayList<>();
        for (Pair q : pairs) {
            rows.add(new Row(q, p.measured(q.base(), q.cand(), n), p.predict(q.base(), q.cand(), n), p.predictOverRounds(q.base(), q.cand(), n)));
        }
        Set<String> names = new LinkedHashSet<>();
        pairs.forEach(q -> {
            names.add(q.base());
            names.add(q.cand());
        });
        List<Variant> variants = new ArrayList<>();
        Map<String, Double> extras = new TreeMap<>();
        for (String v : names) {
            Map<String, Double> ops = p.ops(v, n);
            variants.add(new Variant(v, p.oneThread(v), ops));
            if (ops != null) {
                ops.keySet().forEach(k -> extras.put(k, p.extra(k, n)));
            }
        }
        String kind = p.differingKind(base, cand, n);
        Estimate impliedOver = p.overRounds(q -> q.implied(seedRatio, base, cand, n), true);
        Estimate measuredOver = kind == null ? null : p.overRounds(q -> q.extra(kind, n), true);
        String fitKind = kind == null || kind.equals(Prediction.VISIT) ? "rmw" : kind;
        Prediction.Fits fits = p.oneGap() ? null : p.fits(fitKind);
        return new Report(p, List.copyOf(rows), List.copyOf(variants), extras, p.pricedPerVisit(pairs), n, base, cand, seedRatio,
                seedThreads, seedWhere, p.predict(base, cand, n), p.predictOverRounds(base, cand, n), p.measured(base, cand, n), kind,
                p.implied(seedRatio, base, cand, n), kind == null ? Double.NaN : p.extra(kind, n), impliedOver, measuredOver,
                baseInterval == null ? null : p.predict(base, cand, n, baseInterval[0]),
                baseInterval == null ? null : p.predict(base, cand, n, baseInterval[1]), p.byVisits(base), p.oneThread(base),
                p.extrapolated(kind, seedThreads), fitKind, fits,
                fits != null && fits.queue() != null && seedThreads != null ? p.extrapolated(fitKind, seedThreads) : null);
    }

    /**
     * The prediction table at {@code r}'s threads: per pair, the calibrated measurement (the
     * estimator, with its interval), the prediction, and the verdict; then the costs it used.
     */
    public static String table(Report r) {
        int n = r.n();
        StringBuilder b = new StringBuilder("| comparison, " + n + (n == 1 ? " thread" : " threads")
                + " | measured, calibrated | predicted | |\n|---|---:|---:|---|\n");
        for (Row q : r.rows()) {
            Estimate m = q.measured();
            Double pr = q.predicted();
            Estimate over = q.overRounds();
            String cell = m == null ? "n/a" : m.format(3) + "x" + (m.hasInterval() && !m.excludes(1) ? " (holds 1)" : "");
            b.append("| ").append(q.pair().label()).append(" | ").append(cell).append(" | ")
                    .append(pr == null ? "n/a" : Fmt.f(pr, 3) + "x").append(over != null && over.hasInterval() ? " (" + over.format(3)
                            + "x over rounds)" : "").append(" | ").append(Prediction.verdict(pr, over, m)).append(" |\n");
        }
        b.append("\nWith, per I/O: ");
        List<String> parts = new ArrayList<>();
        Prediction p = r.p();
        for (Variant v : r.variants()) {
            Map<String, Double> ops = v.ops();
            parts.add("`" + v.name() + "` " + Fmt.f(v.oneThread(), 1) + " ns at 1 thread (the base and the raw model's"
                    + (p.commonBase() == null || p.commonBase().equals(v.name()) ? "" : " `" + p.commonBase() + "`'s") + "), " + (ops == null || ops.isEmpty() ? "no shared-line op"
                    : ops.entrySet().stream().map(e -> Fmt.f(e.getValue(), 3) + " " + e.getKey()).collect(Collectors.joining(" + "))));
        }
        b.append(String.join("; ", parts)).append(". Extra ns per shared-line ").append(r.perVisit() ? "visit or operation" : "operation")
                .append(" at ").append(n).append(" threads over 1, ").append(where(p)).append(": ");
        b.append(r.extras().isEmpty() ? "none needed" : r.extras().entrySet().stream().map(e -> e.getKey() + " " + Fmt.f(e.getValue(), 1))
                .collect(Collectors.joining(", "))).append(".\n\n");
        return b.toString();
    }

    /**
     * What the notebook says of a fix's prediction, appended to {@code b}: the prediction table;
     * what the seed implies one shared-line operation costs, beside what one costs here at this gap
     * and, with the queue's fit, at the seed's thread count; the fits. Fills {@code head}'s
     * predicted and implied figures; returns the summary's {@code prediction} map.
     */
    public static Map<String, Object> report(Report r, StringBuilder b, Headline head) {
        Prediction p = r.p();
        int n = r.n();
        b.append(table(r));
        Double predicted = r.predicted();
        Estimate overRounds = r.overRounds();
        head.predictedOverRounds(overRounds);
        String kind = r.kind();
        double implied = r.implied();
        double measured = r.measuredOp();
        head.predicted(predicted).implied(Prediction.finite(implied), Prediction.finite(measured));
        Estimate impliedOver = r.impliedOver();
        Estimate measuredOver = r.measuredOver();
        head.impliedOverRounds(impliedOver, measuredOver);
        Double atLo = r.atLo();
        Double atHi = r.atHi();
        head.predictedRange(atLo == null || atHi == null ? null : new double[] {Math.min(atLo, atHi), Math.max(atLo, atHi)});
        boolean visits = r.visits();
        String unit = visits ? "visit to a shared line" : "shared-line operation";
        b.append("What the seed implies: for `").append(r.cand()).append("` to gain ").append(Fmt.ratio(r.seedRatio())).append(" over `")
                .append(r.base()).append("` on top of this calibrated I/O (").append(Fmt.f(r.oneThreadBase(), 0))
                .append(" ns at one thread; the seed gives no CPU per I/O of its own, so the base is the one measured here), one ")
                .append(unit).append(" would have to cost ").append(Double.isFinite(implied) ? Fmt.f(implied, 1) + " ns" : "n/a (the counts do not differ)")
                .append(" more than a private one. Here, at ").append(n).append(n == 1 ? " thread" : " threads")
                .append(visits ? " and the I/O's rhythm" : " and a gap of " + p.gapNs() + " ns").append(", ").append(kind == null ? "no operation is counted" : "a `" + kind + "` costs " + Fmt.f(measured, 1) + " ns more")
                .append(impliedOver == null && measuredOver == null ? "" : " (made within each round instead: implied "
                        + Fmt.est(impliedOver, 1) + ", measured " + Fmt.est(measuredOver, 1) + " ns, means over rounds with their 95% intervals)")
                .append(". ").append(r.seedWhere()).append(" This run has no cost sweep from a machine with more cores to set beside these.\n\n");
        b.append(fits(r));
        Map<String, Object> pj = new LinkedHashMap<>();
        pj.put("threads", n);
        pj.put("gap_ns", p.gapNs());
        pj.put("priced_per", visits ? "visit" : "operation");
        pj.put("visit_rhythm_ns", p.costs() == null || p.costs().visitRhythm() == null ? null : java.util.Arrays.stream(p.costs().visitRhythm()).boxed().toList());
        pj.put("base", r.base());
        pj.put("candidate", r.cand());
        pj.put("predicted", predicted);
        pj.put("predicted_over_rounds", Parts.json(overRounds));
        pj.put("measured", Parts.json(r.measured()));
        pj.put("kind", kind);
        pj.put("implied_op_ns", Prediction.finite(implied));
        pj.put("implied_op_ns_over_rounds", Parts.json(impliedOver));
        pj.put("measured_op_ns_over_rounds", Parts.json(measuredOver));
        pj.put("measured_op_ns", Prediction.finite(measured));
        Double extrapolated = r.extrapolated();
        pj.put("extrapolated_op_ns", extrapolated);
        pj.put("extrapolated_threads", extrapolated == null ? null : r.seedThreads());
        return pj;
    }

    /**
     * The shared line of {@code kind} fitted as a closed queue ({@link lab.analysis.fidelity.LineQueue}),
     * alone and with a transfer term, over every measured thread count and gap, and by Gunther's USL
     * over the thread counts back to back; which fits, and, with the better fit, the extra cost per
     * operation at {@code seedThreads} (labelled as an extrapolation), or why there is none.
     */
    static String fits(Report r) {
        Prediction p = r.p();
        String kind = r.fitKind();
        Integer seedThreads = r.seedThreads();
        if (p.oneGap()) {
            return "No fits of the line: this run's cost sweep measured one gap, the calibrated base (" + p.costs().gaps().getFirst()
                    + " ns), what the prediction above reads, as a quick run does; a full run (without `--quick`) measures gaps of 0,"
                    + " ~100 ns and ~1 µs as well, fits the line over them and extrapolates to the seed's threads.\n\n";
        }
        Prediction.Fits f = r.fits();
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
                    .append(" threads at this gap: ").append(Fmt.f(r.fitExtrapolated(), 1)).append(" ns per operation.");
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
