package lab.analysis.scale;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.fidelity.LineCost;
import lab.analysis.fidelity.LineQueue;

/**
 * A measured profile's kinds, fitted: each kind's closed queue with the transfer term
 * ({@link LineQueue}, fitted on the logs: {@link #fitLogs}) within each round of the profile's sweep, over every
 * thread count and gap that round measured, and S and M each reported as the mean over rounds
 * with its Student-t interval (the lab's estimator for a figure that is not a ratio,
 * {@link Estimator#mean}): the interval carries the round-to-round noise of the fit itself. A
 * round with no extra cost at any point (a per-cpu kind, whose "shared" object keeps a slot per
 * thread) fits S = M = 0, and a round with one such point M alone ({@link #transferAlone}). The relative rms error is the all-rounds fit's over the rounds' median points.
 *
 * <p>The fit minimises the squared error of the logarithms ({@link #fitLogs}), not the relative error
 * {@link LineQueue#fitWithTransfer} minimises for the fixes' sections: with a few percent of noise on
 * each point a relative fit reads S low (on {@code ProfileFitTest}'s points with 5% noise, five
 * rounds: 41.39 [40.93–41.86] ns for a true 42; at 2%, 41.80 [41.60–41.99]), a bias an interval over
 * rounds does not hold; the logs' fit holds the truth there.
 */
public final class ProfileFit {
    private ProfileFit() {}

    /** Each kind of {@code costs}' probes fitted, in the probes' order. */
    public static Map<String, CostProfile.KindCost> of(LineCost costs) {
        Map<String, CostProfile.KindCost> out = new LinkedHashMap<>();
        for (String kind : costs.probes().keySet()) {
            out.put(kind, fit(costs, kind));
        }
        return out;
    }

    private static CostProfile.KindCost fit(LineCost costs, String kind) {
        List<Double> s = new ArrayList<>();
        List<Double> m = new ArrayList<>();
        for (int r : costs.roundNumbers()) {
            LineQueue q = fitOrZero(costs.inRound(r).queuePoints(kind));
            s.add(q.serviceNs());
            m.add(q.transferNs());
        }
        List<LineQueue.Point> all = costs.queuePoints(kind);
        LineQueue pooled = fitOrZero(all);
        long usable = all.stream().filter(p -> p.threads() >= 2 && p.extraNs() > 0).count();
        return new CostProfile.KindCost(figure(s), figure(m), null, null, (int) usable,
                usable == 0 ? Double.NaN : pooled.rmsRelativeError(all));
    }

    /** The queue with transfer that fits {@code points}, or S = M = 0 where no point costs anything extra. */
    static LineQueue fitOrZero(List<LineQueue.Point> points) {
        LineQueue q = fitLogs(points);
        return q == null ? new LineQueue(0, 0) : q;
    }

    /**
     * S and M (each at least 0) minimising the squared difference of the logs of the model's and the
     * measured extra over the points with two threads or more and an extra cost: golden sections, S
     * over 0.1 ns..100 µs on a log scale, M for each S over 0..twice the largest extra; null for no points.
     */
    static LineQueue fitLogs(List<LineQueue.Point> points) {
        List<LineQueue.Point> pts = points.stream().filter(p -> p.threads() >= 2 && p.extraNs() > 0).toList();
        if (pts.isEmpty()) {
            return null;
        }
        if (pts.size() < 2) {
            return transferAlone(pts);
        }
        double mMax = 2 * pts.stream().mapToDouble(LineQueue.Point::extraNs).max().orElse(0);
        double[] s = golden(StrictMath.log(0.1), StrictMath.log(100_000), ls -> logError(bestM(StrictMath.exp(ls), pts, mMax), pts));
        return bestM(StrictMath.exp(s[0]), pts, mMax);
    }

    /**
     * One point cannot tell S from M (any pair on a curve fits it exactly, and where a search stops
     * on that curve is the arithmetic's, not the data's): the transfer alone, S = 0, M the one that
     * fits the logs (the geometric mean of each point's extra·n/(n−1)).
     */
    private static LineQueue transferAlone(List<LineQueue.Point> pts) {
        double sum = 0;
        for (LineQueue.Point p : pts) {
            sum += StrictMath.log(p.extraNs() * p.threads() / (p.threads() - 1.0));
        }
        return new LineQueue(0, StrictMath.exp(sum / pts.size()));
    }

    private static LineQueue bestM(double s, List<LineQueue.Point> pts, double mMax) {
        double[] m = golden(0, mMax, x -> logError(new LineQueue(s, x), pts));
        LineQueue q = new LineQueue(s, m[0]);
        LineQueue none = new LineQueue(s, 0);
        return logError(none, pts) <= logError(q, pts) ? none : q;
    }

    private static double logError(LineQueue q, List<LineQueue.Point> pts) {
        double sum = 0;
        for (LineQueue.Point p : pts) {
            double d = StrictMath.log(q.extraNs(p.threads(), p.thinkNs())) - StrictMath.log(p.extraNs());
            sum += Double.isFinite(d) ? d * d : 1e6;
        }
        return sum;
    }

    /** The x in [lo, hi] minimising f (golden section, 100 steps), as {x, f(x)}. */
    private static double[] golden(double lo, double hi, java.util.function.DoubleUnaryOperator f) {
        double g = (StrictMath.sqrt(5) - 1) / 2;
        for (int i = 0; i < 100; i++) {
            double a = hi - g * (hi - lo);
            double b = lo + g * (hi - lo);
            if (f.applyAsDouble(a) < f.applyAsDouble(b)) {
                hi = b;
            } else {
                lo = a;
            }
        }
        double x = (lo + hi) / 2;
        return new double[] {x, f.applyAsDouble(x)};
    }

    /** The mean over rounds and its t interval (at least 0), or the one value where there are fewer than three rounds. */
    static CostProfile.Figure figure(List<Double> perRound) {
        Estimate e = Estimator.mean(perRound);
        if (e == null) {
            return CostProfile.Figure.exact(0);
        }
        if (!e.hasInterval()) {
            return CostProfile.Figure.exact(Math.max(0, e.value()));
        }
        return new CostProfile.Figure(Math.max(0, e.value()), Math.max(0, e.lo()), Math.max(0, e.hi()), e.df());
    }
}
