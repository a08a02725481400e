package lab.analysis.fidelity;

import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The fidelity arithmetic: a fix's effect predicted from what one I/O does on shared lines, and
 * the cost per shared-line operation a published figure implies.
 *
 * <p>Prediction at n threads, throughput after the fix over before: {@code (T_before +
 * Σ m_before·e(n)) / (T_after + Σ m_after·e(n))}, where {@code T} is each variant's own ns per I/O
 * at one thread (uncontended: its shared-line operations cost what private ones do there),
 * {@code m} the shared-line operations per I/O by kind, and {@code e(n)} the extra ns one such
 * operation costs at n threads over one thread, at the gap between operations the calibrated I/O
 * leaves ({@link LineCost}).
 *
 * <p>Implied cost: the same equation solved for one {@code c} from a published ratio
 * {@code R = (T + m_before·c) / (T + m_after·c)}: {@code c = T·(R − 1) / (m_before − R·m_after)}.
 */
public final class SharedLineModel {
    private SharedLineModel() {}

    /** Σ over kinds of {@code m(kind) · e(kind)}. */
    public static double extra(Map<String, Double> opsByKind, ToDoubleFunction<String> extraNsPerOp) {
        double sum = 0;
        for (var e : opsByKind.entrySet()) {
            if (e.getValue() != 0) {
                sum += e.getValue() * extraNsPerOp.applyAsDouble(e.getKey());
            }
        }
        return sum;
    }

    /** Predicted throughput after over before: {@code (T_before + extra_before) / (T_after + extra_after)}. */
    public static double predict(double tBefore, Map<String, Double> mBefore, double tAfter, Map<String, Double> mAfter,
                                 ToDoubleFunction<String> extraNsPerOp) {
        return (tBefore + extra(mBefore, extraNsPerOp)) / (tAfter + extra(mAfter, extraNsPerOp));
    }

    /**
     * The ns one shared-line operation must cost for {@code ratio = (tBase + mBefore·c) / (tBase + mAfter·c)};
     * NaN when the counts do not differ in the right direction (no such c).
     */
    public static double impliedCost(double ratio, double tBase, double mBefore, double mAfter) {
        double den = mBefore - ratio * mAfter;
        double c = tBase * (ratio - 1) / den;
        return den == 0 || !(c >= 0) || Double.isInfinite(c) ? Double.NaN : c;
    }
}
