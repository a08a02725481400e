package lab.analysis.fidelity;

import java.util.List;
import java.util.Map;
import lab.analysis.JmhSweep;
import lab.analysis.Stats;

/**
 * The lab's one estimator of a comparison: the ratio is taken within each round (both variants
 * measured in the same round, interleaved, so drift between rounds does not enter it), and the
 * run reports the median [min–max] of the per-round ratios. Every ratio a notebook prints, in
 * its headline, tables, LKP blocks and summary.json, is this one; {@link #DESCRIPTION} says so
 * once per notebook.
 */
public final class RoundRatio {
    private RoundRatio() {}

    public static final String DESCRIPTION = "Estimator, everywhere in this notebook: a ratio is taken within each round "
            + "(the two variants measured in the same round, interleaved; throughput of the candidate over the base's, i.e. "
            + "the base's ns per op over the candidate's), and reported as the median [min–max] of the per-round ratios (one "
            + "round: the ratio alone). A difference smaller than the run's noise floor (its A/A control: the base against a "
            + "copy of itself, interleaved like the rest) prints as \"within noise\", never as a finding.";

    /** Candidate throughput over base throughput in each round that has both: score(base) / score(candidate). */
    public static List<Double> values(JmhSweep s, Map<String, String> base, Map<String, String> cand, int threads) {
        return s.perRound(base, cand, threads, (b, c) -> b / c);
    }

    /** {@link #values} as median [min–max]; null when no round has both. */
    public static Stats.Spread of(JmhSweep s, Map<String, String> base, Map<String, String> cand, int threads) {
        List<Double> v = values(s, base, cand, threads);
        return v.isEmpty() ? null : Stats.spread(v);
    }
}
