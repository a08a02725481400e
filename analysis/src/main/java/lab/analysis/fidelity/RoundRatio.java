package lab.analysis.fidelity;

import java.util.List;
import java.util.Map;
import lab.analysis.JmhSweep;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.EstimationStage;
import lab.analysis.estimate.Estimator;

/**
 * The lab's one estimator of a comparison: the ratio is taken within each round (both variants
 * measured in the same round, in a random balanced order, so drift between rounds does not enter
 * it), and the run reports the geometric mean of the per-round ratios with its 95% interval over
 * rounds ({@link Estimator}). Every ratio a notebook prints, in its headline, tables, LKP blocks
 * and summary.json, is this one; {@link #DESCRIPTION} says so once per notebook.
 */
public final class RoundRatio {
    private RoundRatio() {}

    public static final String DESCRIPTION = "Estimator, everywhere in this notebook: a ratio is taken within each round "
            + "(the two variants measured in the same round, interleaved; throughput of the "
            + "candidate over the base's, i.e. the base's ns per op over the candidate's), and reported as the geometric mean of "
            + "the per-round ratios with its 95% confidence interval, `value [lo–hi]`: Student's t over the rounds' log ratios, "
            + "each round's ratio carrying the noise of its forks and iterations; under three rounds, the value and no interval."
            + " Rounds added to a headline by the sequential design (Stein's two-stage procedure) take their interval from the"
            + " pilot's rounds. The verdict is the interval's own against the run's margin M (±5% quick, ±2% full): an effect"
            + " of at least M where it lies beyond ±M, a change smaller than M where it leaves out 1 inside ±M, no effect larger"
            + " than M where it holds 1 inside ±M, else inconclusive. The A/A control (the base against a copy of itself,"
            + " interleaved like the rest) is the method's self-test: where its interval leaves out 1 the figures it controls"
            + " get no verdict.";

    /** Candidate throughput over base throughput in each round that has both: score(base) / score(candidate). */
    public static List<Double> values(JmhSweep s, Map<String, String> base, Map<String, String> cand, int threads) {
        EstimationStage.check("RoundRatio.values");
        return s.perRound(base, cand, threads, (b, c) -> b / c);
    }

    /** {@link #values} as an estimate with its interval; null when no round has both. */
    public static Estimate of(JmhSweep s, Map<String, String> base, Map<String, String> cand, int threads) {
        EstimationStage.check("RoundRatio.of");
        return Estimator.ratio(s.scoresByRound(base, threads), s.scoresByRound(cand, threads));
    }
}
