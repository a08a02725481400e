package lab.analysis.fidelity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import lab.analysis.JmhSweep;
import lab.analysis.Stats;

/**
 * The smallest effect a run can resolve, from its A/A control: the base variant against a copy
 * of itself ({@code ID~aa}), measured in every round exactly like the other variants. The
 * estimator ({@link RoundRatio}) of the A/A is bootstrapped: each round's two trials have their
 * measured iterations resampled with replacement, the per-round ratio of their means is
 * recomputed, and the median over rounds taken, {@value #RESAMPLES} times with a fixed seed (so
 * a notebook regenerates byte-identically). The floor is the farther of the 2.5th and 97.5th
 * percentiles from 1: an observed ratio closer to 1 than that is within noise at 95%. A
 * systematic A/A offset (an order effect) widens the floor, as it should.
 *
 * <p>The bootstrap sees the iterations of each trial; JVM-to-JVM variance enters only through
 * forks and rounds, which is why more forks, not more iterations, lower a floor that matters.
 *
 * @param floor    relative half-width, e.g. 0.031 for ±3.1%
 * @param aa       the A/A's own estimate, median [min–max] of per-round ratios
 * @param rounds   rounds that had both trials
 */
public record NoiseFloor(double floor, Stats.Spread aa, int rounds) {
    static final int RESAMPLES = 2000;
    private static final long SEED = 0x5EEDF100L;

    /** The floor of {@code base} against {@code control} at {@code threads}; null when no round has both. */
    public static NoiseFloor of(JmhSweep s, Map<String, String> base, Map<String, String> control, int threads) {
        List<double[]> a = new ArrayList<>();
        List<double[]> b = new ArrayList<>();
        Map<Integer, double[]> byRoundA = iterations(s, base, threads);
        Map<Integer, double[]> byRoundB = iterations(s, control, threads);
        byRoundA.forEach((round, xs) -> {
            double[] ys = byRoundB.get(round);
            if (ys != null) {
                a.add(xs);
                b.add(ys);
            }
        });
        if (a.isEmpty()) {
            return null;
        }
        Stats.Spread observed = RoundRatio.of(s, base, control, threads);
        return of(a, b, observed);
    }

    /**
     * The floor from each round's iterations of the base ({@code a}) and of its copy ({@code b}),
     * for a control that is no JMH sweep's (an experiment's sub-windows, say): the A/A's estimate is
     * the per-round ratio of the means of {@code a} over those of {@code b}; null for no round.
     */
    public static NoiseFloor ofIterations(List<double[]> a, List<double[]> b) {
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
        return perRound.isEmpty() ? null : of(a, b, Stats.spread(perRound));
    }

    /** The floor from each round's iterations of the base ({@code a}) and of its copy ({@code b}). */
    static NoiseFloor of(List<double[]> a, List<double[]> b, Stats.Spread observed) {
        SplittableRandom rnd = new SplittableRandom(SEED);
        double[] medians = new double[RESAMPLES];
        List<Double> perRound = new ArrayList<>(a.size());
        for (int i = 0; i < RESAMPLES; i++) {
            perRound.clear();
            for (int r = 0; r < a.size(); r++) {
                perRound.add(resampledMean(a.get(r), rnd) / resampledMean(b.get(r), rnd));
            }
            medians[i] = Stats.median(perRound);
        }
        java.util.Arrays.sort(medians);
        double lo = medians[(int) Math.floor(0.025 * (RESAMPLES - 1))];
        double hi = medians[(int) Math.ceil(0.975 * (RESAMPLES - 1))];
        return new NoiseFloor(Math.max(Math.abs(lo - 1), Math.abs(hi - 1)), observed, a.size());
    }

    private static double mean(double[] xs) {
        return java.util.Arrays.stream(xs).average().orElseThrow();
    }

    private static double resampledMean(double[] xs, SplittableRandom rnd) {
        double sum = 0;
        for (int i = 0; i < xs.length; i++) {
            sum += xs[rnd.nextInt(xs.length)];
        }
        return sum / xs.length;
    }

    private static Map<Integer, double[]> iterations(JmhSweep s, Map<String, String> params, int threads) {
        Map<Integer, double[]> out = new java.util.TreeMap<>();
        for (JmhSweep.Cell c : s.cells()) {
            if (c.threads() == threads && params.entrySet().stream().allMatch(e -> e.getValue().equals(c.params().get(e.getKey())))) {
                List<Double> v = c.result().samples().isEmpty() ? List.of(c.result().score()) : c.result().samples();
                out.put(c.round(), v.stream().mapToDouble(Double::doubleValue).toArray());
            }
        }
        return out;
    }

    /** Whether {@code ratio} lies outside the floor: a difference this run resolves. */
    public boolean resolves(double ratio) {
        return Math.abs(ratio - 1) > floor;
    }

    /** {@code ±X.X%}. */
    public String format() {
        return format(floor);
    }

    /** What a notebook prints for a ratio this floor swallows: {@code within noise (floor ±X.X%)}. */
    public String withinNoise() {
        return withinNoise(floor);
    }

    /** {@link #withinNoise()} for a floor known only as its relative half-width. */
    public static String withinNoise(double floor) {
        return "within noise (floor " + format(floor) + ")";
    }

    private static String format(double floor) {
        return String.format(Locale.ROOT, "±%.1f%%", 100 * floor);
    }
}
