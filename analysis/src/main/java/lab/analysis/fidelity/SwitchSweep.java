package lab.analysis.fidelity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.parse.LabAb;
import lab.analysis.parse.LabAb.Trial;

/**
 * A fix's "before" behind a runtime switch of the lab kernel, measured A/B per round over counts
 * N (the switch's shared operations per site): per N, the after/before ratio in the notebook's
 * estimator (per round, then the geometric mean with its 95% interval over rounds), the A/A (the
 * after value against itself) estimated the same way (rounds nested in the guest's boots where it
 * booted more than once: {@link Estimator#of(Map)}), each variant's CPU per I/O and their difference Δ(N); across N, the
 * least-squares slope of Δ over the shared operations added per I/O, and what it implies for the
 * seed's single operation (N = 1) if an I/O's time is its CPU. The operations per I/O at each N
 * are the switch's counter's ({@code opsDelta / ios} of the before's trial: K·N where the switch
 * works as stated); the stated K (lab-ab.txt's {@code ops_per_io}) stands in only where a trial
 * has no count.
 *
 * <p>For a throughput metric the ratio is metric(after) / metric(before) of the same round; for
 * a share (a ratio already: writer a over writer b) the ratio is the after's share itself, and
 * the before's beside it.
 */
public final class SwitchSweep {
    /** One round of one count, in boot {@code boot}: the trial of each variant, null where the round lacks it. */
    public record Round(int round, int boot, Trial before, Trial after, Trial aa, Trial stock) {}

    /**
     * One count N. {@code ratio}: after/before (a share: the after's share); {@code before},
     * {@code after}: the variants' metric; {@code aa}: aa/after per round; {@code floor}: the
     * A/A as a {@link NoiseFloor} (its interval over rounds, nested in boots);
     * {@code nsBefore}, {@code nsAfter}: median CPU ns per I/O; {@code delta}: before − after per
     * round; {@code opsBefore}, {@code opsAfter}: the switch's counter per I/O and per unit of N.
     * Any of them null where the rounds lack the trials.
     */
    public record Count(int n, Estimate ratio, Stats.Spread before, Stats.Spread after, Estimate aa, NoiseFloor floor,
                        Double nsBefore, Double nsAfter, Stats.Spread delta, Stats.Spread opsBefore, Stats.Spread opsAfter,
                        List<Round> rounds) {}

    /**
     * The slope of Δ(N) over the added shared operations per I/O, {@code x} the switch's counter
     * per I/O at N ({@link #opsPerIo}; without a count K·N, and N where no K is stated either):
     * {@code line.b()} ns per added operation,
     * {@code line.a()} the intercept (0 in principle: at N = 0 both sides run the same code;
     * what it is here is the fit's offset, not the operation's cost); {@code k} the operations per
     * I/O per unit of N it used ({@link #k}); {@code delta1} = b·x(1), the
     * seed's single operation's cost derived from the slope, and {@code ratio1} =
     * (nsAfter(1) + delta1) / nsAfter(1), the after/before throughput ratio it implies for a
     * CPU-bound I/O (null without a count of 1, and null where
     * the slope is not {@code resolved}); {@code perRound}: the slope fitted to each round's Δ
     * alone, median [min–max]; {@code resolved}: every round's slope above 0 (the line fitted to
     * the medians could be noise otherwise: nothing is derived from it then).
     */
    public record Slope(Stats.Line line, List<double[]> points, Double k, Stats.Spread perRound, boolean resolved,
                        Double delta1, Double ratio1) {}

    private final boolean share;
    private final Double k;
    private final List<Count> counts;
    /** The figures across the counts, made with the sweep ({@link #of}) so that a page that prints them estimates nothing. */
    private final Slope slope;
    private final Estimate slopeEstimate;
    private final Estimate beforeSlope;
    private final Estimate afterSlope;

    private SwitchSweep(boolean share, Double k, List<Count> counts) {
        this.share = share;
        this.k = k;
        this.counts = counts;
        this.slope = estimateSlope();
        this.slopeEstimate = estimateSlopeOverRounds();
        this.beforeSlope = estimateSideSlope(true);
        this.afterSlope = estimateSideSlope(false);
    }

    /**
     * The sweep of {@code ab}: {@code share} for a metric that is itself a ratio; {@code k} the
     * switch's operations per I/O at N = 1 as the run states it (null: not stated), used only where
     * the counter did not count.
     */
    public static SwitchSweep of(LabAb ab, boolean share, Double k) {
        Map<Integer, Map<Integer, Map<String, Trial>>> byCount = new TreeMap<>();
        for (Trial t : ab.trials()) {
            byCount.computeIfAbsent(t.count(), c -> new TreeMap<>()).computeIfAbsent(t.round(), r -> new TreeMap<>()).put(t.variant(), t);
        }
        List<Count> counts = new ArrayList<>();
        byCount.forEach((n, rounds) -> counts.add(count(n, rounds, share)));
        return new SwitchSweep(share, k, List.copyOf(counts));
    }

    private static Count count(int n, Map<Integer, Map<String, Trial>> byRound, boolean share) {
        List<Round> rounds = new ArrayList<>();
        Map<Integer, List<Double>> ratio = new TreeMap<>();
        List<Double> before = new ArrayList<>();
        List<Double> after = new ArrayList<>();
        Map<Integer, List<Double>> aa = new TreeMap<>();
        List<Double> nsB = new ArrayList<>();
        List<Double> nsA = new ArrayList<>();
        List<Double> delta = new ArrayList<>();
        List<Double> opsB = new ArrayList<>();
        List<Double> opsA = new ArrayList<>();
        byRound.forEach((r, v) -> {
            int boot = v.values().iterator().next().boot();
            Round x = new Round(r, boot, v.get(LabAb.BEFORE), v.get(LabAb.AFTER), v.get(LabAb.AA), v.get(LabAb.DEFAULT));
            rounds.add(x);
            if (x.before() != null) {
                before.add(x.before().metric());
                cpu(nsB, x.before());
                finite(opsB, x.before().opsPerIoPerCount());
            }
            if (x.after() != null) {
                after.add(x.after().metric());
                cpu(nsA, x.after());
                finite(opsA, x.after().opsPerIoPerCount());
                if (share) {
                    ratio.computeIfAbsent(boot, b -> new ArrayList<>()).add(x.after().metric());
                }
            }
            if (x.before() != null && x.after() != null) {
                if (!share && x.before().metric() > 0) {
                    ratio.computeIfAbsent(boot, b -> new ArrayList<>()).add(x.after().metric() / x.before().metric());
                }
                if (x.before().nsPerIo() > 0 && x.after().nsPerIo() > 0) {
                    delta.add(x.before().nsPerIo() - x.after().nsPerIo());
                }
            }
            if (x.after() != null && x.aa() != null && x.after().metric() > 0) {
                aa.computeIfAbsent(boot, b -> new ArrayList<>()).add(x.aa().metric() / x.after().metric());
            }
        });
        Estimate aaEstimate = Estimator.of(aa);
        return new Count(n, Estimator.of(ratio), spread(before), spread(after), aaEstimate,
                NoiseFloor.of(aaEstimate), median(nsB), median(nsA), spread(delta),
                spread(opsB), spread(opsA), List.copyOf(rounds));
    }

    /** A trial's CPU per I/O, where it has one (0: the trial's CPU was not measured, as for a share's writers). */
    private static void cpu(List<Double> to, Trial t) {
        if (t.nsPerIo() > 0) {
            to.add(t.nsPerIo());
        }
    }

    private static void finite(List<Double> to, double v) {
        if (!Double.isNaN(v)) {
            to.add(v);
        }
    }

    private static Stats.Spread spread(List<Double> v) {
        return v.isEmpty() ? null : Stats.spread(v);
    }

    private static Double median(List<Double> v) {
        return v.isEmpty() ? null : Stats.median(v);
    }

    /** Whether the metric is a share (writer a over writer b) rather than a throughput. */
    public boolean share() {
        return share;
    }

    /** Every count, ascending. */
    public List<Count> counts() {
        return counts;
    }

    /** The headline's count: N = 1, else the smallest there is; null for no trials. */
    public Count headline() {
        return counts.isEmpty() ? null : counts.getFirst();
    }

    /**
     * The switch's operations per I/O per unit of N: the counter's at the before (median over its
     * trials at the smallest N with a count), else the stated K; null where neither is had.
     */
    public Double k() {
        Double counted = countedK();
        return counted != null ? counted : k;
    }

    /** The K the run states (lab-ab.txt's {@code ops_per_io}); null where it states none. */
    public Double statedK() {
        return k;
    }

    /** The counter's K ({@link #k}); null where no before trial counted. */
    public Double countedK() {
        for (Count c : counts) {
            if (c.opsBefore() != null && c.opsBefore().median() > 0) {
                return c.opsBefore().median();
            }
        }
        return null;
    }

    /** The shared operations per I/O at count {@code c}: the counter's at the before, else K·N (N without K). */
    private double opsPerIo(Count c) {
        return c.opsBefore() != null && c.opsBefore().median() > 0 ? c.opsBefore().median() * c.n() : (k == null ? 1 : k) * c.n();
    }

    /** The shared operations per I/O of one round's before trial at count {@code c}: its own count, else {@link #opsPerIo(Count)}. */
    private double opsPerIo(Count c, Trial before) {
        double x = before.opsPerIoPerCount();
        return !Double.isNaN(x) && x > 0 ? x * c.n() : opsPerIo(c);
    }

    /** The slope of Δ over the operations per I/O across the counts with a Δ; null with fewer than two of them. */
    public Slope slope() {
        return slope;
    }

    private Slope estimateSlope() {
        List<double[]> pts = new ArrayList<>();
        for (Count c : counts) {
            if (c.delta() != null) {
                pts.add(new double[] {opsPerIo(c), c.delta().median()});
            }
        }
        Stats.Line line = Stats.line(pts);
        if (line == null) {
            return null;
        }
        Stats.Spread perRound = perRoundSlopes();
        boolean resolved = line.b() > 0 && perRound != null && perRound.min() > 0;
        Count one = counts.stream().filter(c -> c.n() == 1 && c.nsAfter() != null).findFirst().orElse(null);
        Double d1 = one == null || !resolved ? null : line.b() * opsPerIo(one);
        Double r1 = d1 == null ? null : (one.nsAfter() + d1) / one.nsAfter(); // after/before: the before's ns over the after's
        return new Slope(line, List.copyOf(pts), k(), perRound, resolved, d1, r1);
    }

    /**
     * The slope as the estimation stage gives a signed figure: fitted to each round's own Δ over its
     * own operations per I/O, the mean over rounds with its 95% interval, rounds nested in boots
     * ({@link Estimator#mean(Map)});
     * null where no round has two counts. The model's amplified slope is estimated the same way.
     */
    public Estimate slopeEstimate() {
        return slopeEstimate;
    }

    private Estimate estimateSlopeOverRounds() {
        Map<Integer, List<Double>> b = roundSlopesByBoot();
        return b.isEmpty() ? null : Estimator.mean(b);
    }

    /** The boots the sweep's rounds ran in (one: a run that booted once). */
    public java.util.SortedSet<Integer> boots() {
        java.util.SortedSet<Integer> b = new java.util.TreeSet<>();
        counts.forEach(c -> c.rounds().forEach(r -> b.add(r.boot())));
        return b;
    }

    /** The slope fitted to each round's own Δ over its own operations per I/O (rounds with two counts or more); null for none. */
    private Stats.Spread perRoundSlopes() {
        return spread(roundSlopes());
    }

    private List<Double> roundSlopes() {
        List<Double> all = new ArrayList<>();
        roundSlopesByBoot().values().forEach(all::addAll);
        return all;
    }

    /**
     * One side's own slope: the before's (or the after's) ns per I/O over the before's operations
     * per I/O, fitted per round and estimated over rounds as {@link #slopeEstimate()} is; for a
     * switch whose after repeats an operation of its own with N (zram-init-lock's srcu sections),
     * where the Δ's slope is a difference of the two. Null where no round has two counts.
     */
    public Estimate sideSlopeEstimate(boolean before) {
        return before ? beforeSlope : afterSlope;
    }

    private Estimate estimateSideSlope(boolean before) {
        Map<Integer, List<Double>> b = roundSlopesByBoot(r -> (before ? r.before() : r.after()).nsPerIo());
        return b.isEmpty() ? null : Estimator.mean(b);
    }

    /** {@link #roundSlopes}, each under its round's boot. */
    private Map<Integer, List<Double>> roundSlopesByBoot() {
        return roundSlopesByBoot(r -> r.before().nsPerIo() - r.after().nsPerIo());
    }

    /** The slope of {@code y} over each round's operations per I/O, each under its round's boot. */
    private Map<Integer, List<Double>> roundSlopesByBoot(java.util.function.ToDoubleFunction<Round> y) {
        Map<Integer, List<double[]>> byRound = new TreeMap<>();
        Map<Integer, Integer> bootOf = new TreeMap<>();
        for (Count c : counts) {
            for (Round r : c.rounds()) {
                if (r.before() != null && r.after() != null && r.before().nsPerIo() > 0 && r.after().nsPerIo() > 0) {
                    byRound.computeIfAbsent(r.round(), x -> new ArrayList<>())
                            .add(new double[] {opsPerIo(c, r.before()), y.applyAsDouble(r)});
                    bootOf.put(r.round(), r.boot());
                }
            }
        }
        Map<Integer, List<Double>> b = new TreeMap<>();
        byRound.forEach((round, pts) -> {
            Stats.Line l = pts.size() < 2 ? null : Stats.line(pts);
            if (l != null) {
                b.computeIfAbsent(bootOf.get(round), x -> new ArrayList<>()).add(l.b());
            }
        });
        return b;
    }
}
