package lab.analysis.fidelity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lab.analysis.JmhSweep;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.EstimationStage;
import lab.analysis.estimate.Estimator;

/**
 * The run's A/A control, the method's self-test: the base variant against a copy of itself
 * ({@code ID~aa}), measured in every round exactly like the other variants, estimated as every
 * ratio is ({@link RoundRatio}: per-round ratios, their geometric mean and 95% interval over
 * rounds). Its interval should hold 1; where it does not, the run has drift or a position effect
 * the balanced order did not cancel, and the first screen says so. Its reach (the interval's
 * farther end from 1) is what the notebook still calls the run's noise floor, for orientation;
 * verdicts come from each ratio's own interval, never from this floor.
 *
 * <p>The interval is over rounds, so round-to-round and JVM-to-JVM noise are in it: a floor from
 * the iterations inside each trial (the lab's first method) left them out and was several times
 * too narrow ({@code EstimatorCoverageTest}).
 *
 * @param floor  the A/A interval's reach from 1, e.g. 0.031 for ±3.1% (NaN without an interval: under three rounds)
 * @param aa     the A/A's own estimate
 * @param rounds rounds that had both trials
 */
public record NoiseFloor(double floor, Estimate aa, int rounds) {

    /** The A/A of {@code base} against {@code control} at {@code threads}; null when no round has both. */
    public static NoiseFloor of(JmhSweep s, Map<String, String> base, Map<String, String> control, int threads) {
        return of(RoundRatio.of(s, base, control, threads));
    }

    /** The A/A from its estimate; null for none. */
    public static NoiseFloor of(Estimate aa) {
        EstimationStage.check("NoiseFloor.of");
        return aa == null ? null : new NoiseFloor(aa.reach(), aa, aa.rounds());
    }

    /**
     * The A/A from each round's iterations of the base ({@code a}) and of its copy ({@code b}),
     * for a control that is no JMH sweep's (an experiment's sub-windows, say): each round's ratio
     * is the ratio of the means; null for no round.
     */
    public static NoiseFloor ofIterations(List<double[]> a, List<double[]> b) {
        EstimationStage.check("NoiseFloor.ofIterations");
        if (a.size() != b.size()) {
            throw new IllegalArgumentException("rounds of the base " + a.size() + " and of its copy " + b.size() + " differ");
        }
        List<Double> perRound = new ArrayList<>();
        for (int r = 0; r < a.size(); r++) {
            if (a.get(r).length == 0 || b.get(r).length == 0) {
                throw new IllegalArgumentException("round " + (r + 1) + " has no iterations");
            }
            perRound.add(mean(a.get(r)) / mean(b.get(r)));
        }
        return of(Estimator.of(perRound));
    }

    private static double mean(double[] xs) {
        return java.util.Arrays.stream(xs).average().orElseThrow();
    }

    /** Whether the A/A's interval leaves out 1: the run's self-test failed (drift or position bias). */
    public boolean failed() {
        return aa.excludes(1);
    }

    /** {@code ±X.X%}, or {@code n/a (2 rounds: no interval)}. */
    public String format() {
        return Double.isFinite(floor) ? String.format(Locale.ROOT, "±%.1f%%", 100 * floor) : "n/a (" + aa.noInterval() + ")";
    }
}
