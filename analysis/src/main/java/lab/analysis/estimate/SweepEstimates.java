package lab.analysis.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleBinaryOperator;
import lab.analysis.JmhSweep;
import lab.analysis.Stats;
import lab.analysis.compare.LkpTable;
import lab.analysis.compare.Sample;
import lab.analysis.fidelity.NoiseFloor;

/**
 * The estimation stage of one JMH sweep: every figure a page shows of the model is asked of this
 * object, which makes it once, by {@link Estimator}'s rule, from the sweep's rounds, and hands the
 * same {@link Estimate} to every page and to summary.json that asks again. Pages hold this, never
 * the {@link JmhSweep} it reads, so no page can estimate a figure a second way (the test
 * {@code PagesComputeNothingTest} holds them to it).
 *
 * <p>Figures: a cell's ns per op per thread and total throughput (geometric mean over rounds),
 * the ratio of two cells within each round, the A/A, a per-round slope over a param, a per-round
 * figure across two sweeps (the same rounds), each cell's fork-to-fork CV and B/op, and the
 * iterations an LKP row lists. Each is made on first asking and kept: a page that asks for all
 * pairs of a large table does not pay for pairs no page shows.
 */
public final class SweepEstimates {
    private record Key(String what, Map<String, String> a, Map<String, String> b, int threads, Object extra) {}

    private final JmhSweep sweep;
    /** The sequential design's pilot rounds where the sweep's rounds came from one ({@link Stein}); empty: none. */
    private final java.util.Set<Integer> pilot;
    private final Map<Key, Object> made = new ConcurrentHashMap<>();

    private SweepEstimates(JmhSweep sweep, java.util.Set<Integer> pilot) {
        this.sweep = sweep;
        this.pilot = pilot;
    }

    public static SweepEstimates of(JmhSweep sweep) {
        return new SweepEstimates(sweep, java.util.Set.of());
    }

    /**
     * The estimates of the sweep {@code PREFIX-rR[-tT].json} in {@code dir} ({@link JmhSweep#read}):
     * where {@code dir}'s {@code adaptive.json} says the sweep's rounds were added by the sequential
     * design, each figure measured in rounds after its pilot takes its interval from the pilot's
     * rounds ({@link Estimator#of(Map, java.util.Set)}).
     */
    public static SweepEstimates read(java.nio.file.Path dir, String prefix,
                                      java.util.function.Consumer<lab.analysis.MalformedResultException> broken) throws java.io.IOException {
        JmhSweep sweep = JmhSweep.read(dir, prefix, broken);
        java.util.Set<Integer> pilot = java.util.Set.of();
        try {
            AdaptiveLog log = AdaptiveLog.read(dir);
            if (log != null && prefix.equals(log.trial())) {
                pilot = java.util.Set.copyOf(log.pilotRounds(sweep.roundNumbers()));
            }
        } catch (java.io.IOException e) {
            broken.accept(new lab.analysis.MalformedResultException(dir.resolve(AdaptiveLog.FILE), "not readable, so the sweep's"
                    + " added rounds cannot be told from its pilot: " + e.getMessage().lines().findFirst().orElse("")));
        }
        return new SweepEstimates(sweep, pilot);
    }

    /** The pilot rounds of the sequential design the sweep's rounds came from; empty where none. */
    public java.util.Set<Integer> pilot() {
        return pilot;
    }

    public boolean isEmpty() { return sweep.isEmpty(); }

    public SortedSet<Integer> threadCounts() { return sweep.threadCounts(); }

    public int rounds() { return sweep.rounds(); }

    /** The values a param takes, in the order first seen. */
    public List<String> values(String param) { return sweep.values(param); }

    /** The estimates of the cells whose {@code param} is {@code value} ({@link JmhSweep#where}). */
    public SweepEstimates where(String param, String value, String absent) {
        return new SweepEstimates(sweep.where(param, value, absent), pilot);
    }

    /** The estimates of round {@code r} alone (each figure that round's value, no interval). */
    public SweepEstimates round(int r) {
        return new SweepEstimates(sweep.round(r), java.util.Set.of());
    }

    /** The round numbers the sweep holds, ascending. */
    public SortedSet<Integer> roundNumbers() {
        return sweep.roundNumbers();
    }

    /** Whether the sweep measured the cell at {@code threads}. */
    public boolean has(Map<String, String> cell, int threads) {
        return !sweep.scoresByRound(cell, threads).isEmpty();
    }

    @SuppressWarnings("unchecked")
    private <T> T once(Key k, java.util.function.Supplier<T> f) {
        Object v = made.get(k);
        if (v == null && !made.containsKey(k)) {
            v = f.get();
            made.put(k, v == null ? NONE : v);
        }
        return v == NONE ? null : (T) v;
    }

    private static final Object NONE = new Object();

    /** ns per op per thread of the cell at {@code threads}: the geometric mean over rounds; null where not measured. */
    public Estimate ns(Map<String, String> cell, int threads) {
        return once(new Key("ns", cell, null, threads, null), () -> Estimator.of(sweep.scoresByRound(cell, threads), pilot));
    }

    /** Total throughput of the cell, M ops per second over all {@code threads}: per round {@code threads * 1000 / ns}. */
    public Estimate throughput(Map<String, String> cell, int threads) {
        return once(new Key("throughput", cell, null, threads, null), () -> {
            Map<Integer, Double> t = new TreeMap<>();
            sweep.scoresByRound(cell, threads).forEach((r, ns) -> t.put(r, threads * 1e3 / ns));
            return Estimator.of(t, pilot);
        });
    }

    /**
     * Total throughput at {@code threads} over total throughput at one thread, within each round
     * ({@code threads * ns(1) / ns(threads)}): 1 no scaling, {@code threads} perfect scaling; null
     * where no round has both.
     */
    public Estimate scaling(Map<String, String> cell, int threads) {
        return once(new Key("scaling", cell, null, threads, null), () -> {
            Map<Integer, Double> one = sweep.scoresByRound(cell, 1);
            Map<Integer, Double> r = new TreeMap<>();
            sweep.scoresByRound(cell, threads).forEach((round, ns) -> {
                Double base = one.get(round);
                if (base != null) {
                    r.put(round, threads * base / ns);
                }
            });
            return Estimator.of(r, pilot);
        });
    }

    /**
     * ns per op of {@code a} over {@code b} within each round (time a / time b: above 1, {@code a} is
     * slower; the same as {@code b}'s throughput over {@code a}'s); null where no round has both.
     */
    public Estimate ratio(Map<String, String> a, Map<String, String> b, int threads) {
        return once(new Key("ratio", a, b, threads, null), () -> Estimator.ratio(sweep.scoresByRound(a, threads),
                sweep.scoresByRound(b, threads), pilot));
    }

    /** The A/A: {@code base} against its copy {@code control}, as every ratio; null where no round has both. */
    public NoiseFloor aa(Map<String, String> base, Map<String, String> control, int threads) {
        return NoiseFloor.of(ratio(base, control, threads));
    }

    /**
     * {@code f(a's score, b's score)} in each round that has both, a signed figure (a difference in
     * ns, say): the mean over rounds with its interval ({@link Estimator#mean}).
     */
    public Estimate perRound(Map<String, String> a, Map<String, String> b, int threads, String name, DoubleBinaryOperator f) {
        return once(new Key("perRound:" + name, a, b, threads, null), () -> {
            Map<Integer, Double> bs = sweep.scoresByRound(b, threads);
            Map<Integer, Double> r = new TreeMap<>();
            sweep.scoresByRound(a, threads).forEach((round, x) -> {
                Double y = bs.get(round);
                if (y != null) {
                    r.put(round, f.applyAsDouble(x, y));
                }
            });
            return Estimator.mean(r, pilot);
        });
    }

    /**
     * The A/A of {@code base} in this sweep against {@code control} in {@code other} (the control
     * run beside it in the same rounds), as {@link #aa}: base over control per round.
     */
    public NoiseFloor aaAcross(SweepEstimates other, Map<String, String> base, Map<String, String> control, int threads) {
        return NoiseFloor.of(across(other, base, control, threads, "aa", (a, b) -> a / b, false));
    }

    /**
     * {@code f(this sweep's cell, other's cell)} in each round both sweeps measured (two benchmarks
     * run in the same rounds), a positive figure (a ratio): geometric mean and interval.
     */
    public Estimate across(SweepEstimates other, Map<String, String> mine, Map<String, String> theirs, int threads, String name,
                           DoubleBinaryOperator f, boolean signed) {
        return once(new Key("across:" + name, mine, theirs, threads, other), () -> {
            Map<Integer, Double> b = other.sweep.scoresByRound(theirs, threads);
            Map<Integer, Double> r = new TreeMap<>();
            sweep.scoresByRound(mine, threads).forEach((round, a) -> {
                Double x = b.get(round);
                if (x != null) {
                    r.put(round, f.applyAsDouble(a, x));
                }
            });
            java.util.Set<Integer> p = pilot.isEmpty() ? other.pilot : pilot;
            return signed ? Estimator.mean(r, p) : Estimator.of(r, p);
        });
    }

    /**
     * ns per op's least-squares slope over {@code x} (each x's cell), fitted in each round alone,
     * the mean over rounds with its interval; null where no round has two x.
     */
    public Estimate slope(Map<Double, Map<String, String>> cellsByX, int threads) {
        return once(new Key("slope", Map.of(), null, threads, cellsByX), () -> {
            Map<Integer, List<double[]>> byRound = new TreeMap<>();
            cellsByX.forEach((x, cell) -> sweep.scoresByRound(cell, threads)
                    .forEach((r, ns) -> byRound.computeIfAbsent(r, k -> new ArrayList<>()).add(new double[] {x, ns})));
            return meanOfRoundSlopes(byRound, pilot);
        });
    }

    /** Two cells measured against each other at one x: {@code before} and {@code after}. */
    public record Pair(Map<String, String> before, Map<String, String> after) {}

    /**
     * The least-squares slope of the difference ns per op (before less after, within each round)
     * over {@code x}, fitted in each round alone over the x whose pair it measured both cells of,
     * the mean over rounds with its interval; null where no round has two x. A switch's A/B
     * amplified: Δ(N) = ns(before at N) - ns(after at N) over the operations per I/O at N.
     */
    public Estimate deltaSlope(Map<Double, Pair> pairsByX, int threads) {
        return once(new Key("deltaSlope", Map.of(), null, threads, pairsByX), () -> {
            Map<Integer, List<double[]>> byRound = new TreeMap<>();
            pairsByX.forEach((x, p) -> {
                Map<Integer, Double> after = sweep.scoresByRound(p.after(), threads);
                sweep.scoresByRound(p.before(), threads).forEach((r, b) -> {
                    Double a = after.get(r);
                    if (a != null) {
                        byRound.computeIfAbsent(r, k -> new ArrayList<>()).add(new double[] {x, b - a});
                    }
                });
            });
            return meanOfRoundSlopes(byRound, pilot);
        });
    }

    /** Each round's least-squares slope (rounds with two points or more), their mean and interval. */
    private static Estimate meanOfRoundSlopes(Map<Integer, List<double[]>> byRound, java.util.Set<Integer> pilot) {
        Map<Integer, Double> slopes = new TreeMap<>();
        byRound.forEach((r, xy) -> {
            Stats.Line l = xy.size() >= 2 ? Stats.line(xy) : null;
            if (l != null) {
                slopes.put(r, l.b());
            }
        });
        return Estimator.mean(slopes, pilot);
    }

    /** The cell's fork-to-fork CV at {@code threads} ({@link JmhSweep#forkCv}); NaN without two forks or rounds. */
    public double forkCv(Map<String, String> cell, int threads) {
        return once(new Key("forkCv", cell, null, threads, null), () -> sweep.forkCv(cell, threads));
    }

    /** Whether the cell's trials ran two or more forks each. */
    public boolean multiFork(Map<String, String> cell, int threads) {
        return sweep.multiFork(cell, threads);
    }

    /** The cell's B/op (JMH {@code -prof gc}), the median over rounds; NaN where not measured. */
    public double bytesPerOp(Map<String, String> cell, int threads) {
        return once(new Key("bytes", cell, null, threads, null), () -> sweep.bytesPerOp(cell, threads));
    }

    /**
     * One LKP row: the base's and candidate's iterations at {@code threads} (their mean ± stddev)
     * and the change in ns per op from the ratio's estimate, within noise where its interval holds
     * 1; null when a side is missing.
     */
    public LkpTable.Row lkpRow(String metric, Map<String, String> base, Map<String, String> cand, int threads) {
        List<Double> a = sweep.samples(base, threads);
        List<Double> c = sweep.samples(cand, threads);
        Estimate r = ratio(base, cand, threads);
        if (a.isEmpty() || c.isEmpty() || r == null) {
            return null;
        }
        return new LkpTable.Row(metric, new Sample(a), new Sample(c), 100 * (1 / r.value() - 1), r.hasInterval() && !r.excludes(1));
    }
}
