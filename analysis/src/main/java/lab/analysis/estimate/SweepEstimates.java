package lab.analysis.estimate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
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
 *
 * <p>Made in the estimation stage only ({@link EstimationStage}): a figure asked for the first time
 * while a page renders throws, naming it, and one made before is read back from the record. Each
 * figure made inside an open stage is added to the stage's record, in the order made, as
 * summary.json's {@code estimates} carry them ({@link #figure}). One thread at a time: the cache
 * keeps the order it was filled in, and a notebook is estimated on one thread.
 */
public final class SweepEstimates {
    private record Key(String what, Map<String, String> a, Map<String, String> b, int threads, Object extra) {
        /** The cells in words, for the stage's message. */
        String cells() {
            return a.isEmpty() ? String.valueOf(extra instanceof Map<?, ?> m ? m.values() : extra)
                    : cell(a) + (b == null ? "" : " over " + cell(b));
        }
    }

    private final JmhSweep sweep;
    /** The sequential design's pilot rounds where the sweep's rounds came from one ({@link Stein}); empty: none. */
    private final java.util.Set<Integer> pilot;
    /**
     * The sweep in summary.json's record: its files' path under raw/ ({@link #name(java.nio.file.Path,
     * String)}), then the params a {@link #where} view fixed.
     */
    private final String name;
    /** Whether its figures go into the stage's record: not a {@link #round} view's, the parts of a figure over rounds. */
    private final boolean recorded;
    private final Map<Key, Object> made = new LinkedHashMap<>();

    private SweepEstimates(JmhSweep sweep, java.util.Set<Integer> pilot, String name, boolean recorded) {
        this.sweep = sweep;
        this.pilot = pilot;
        this.name = name;
        this.recorded = recorded;
    }

    /** The estimates of {@code sweep}, named {@code name} in the stage's record. */
    public static SweepEstimates of(JmhSweep sweep, String name) {
        return new SweepEstimates(sweep, java.util.Set.of(), name, true);
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
        return new SweepEstimates(sweep, pilot, name(dir, prefix), true);
    }

    /**
     * The sweep's name in the record: its files' path under the run's {@code raw/} without the
     * round and threads ({@code dm-css-ref/dmcss}, {@code zram-init-lock/lab-kernel/amp-guest/model-amp}),
     * so that two sweeps of one prefix in two folders are told apart; the prefix alone where
     * {@code dir} is under no {@code raw/}.
     */
    public static String name(java.nio.file.Path dir, String prefix) {
        java.nio.file.Path d = dir.toAbsolutePath().normalize();
        for (java.nio.file.Path p = d; p != null; p = p.getParent()) {
            if (p.getFileName() != null && p.getFileName().toString().equals("raw")) {
                StringBuilder b = new StringBuilder();
                p.relativize(d).forEach(x -> {
                    if (!x.toString().isEmpty()) {
                        b.append(x).append('/');
                    }
                });
                return b + prefix;
            }
        }
        return prefix;
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
        return new SweepEstimates(sweep.where(param, value, absent), pilot, name + "[" + param + "=" + value + "]", recorded);
    }

    /** The estimates of round {@code r} alone (each figure that round's value, no interval). */
    public SweepEstimates round(int r) {
        return new SweepEstimates(sweep.round(r), java.util.Set.of(), name + "[round " + r + "]", false);
    }

    /** The round numbers the sweep holds, ascending. */
    public SortedSet<Integer> roundNumbers() {
        return sweep.roundNumbers();
    }

    /** Whether the sweep measured the cell at {@code threads}. */
    public boolean has(Map<String, String> cell, int threads) {
        return !sweep.scoresByRound(cell, threads).isEmpty();
    }

    /** The sweep's name in summary.json's record. */
    public String name() {
        return name;
    }

    /**
     * The figure of {@code k}: read back where it was made before; else made now, which only the
     * estimation stage may ({@link EstimationStage#check}), and recorded there.
     */
    @SuppressWarnings("unchecked")
    private <T> T once(Key k, java.util.function.Supplier<T> f) {
        Object v = made.get(k);
        if (v == null) {
            EstimationStage.check(k.what() + " of " + k.cells() + " at " + k.threads() + (k.threads() == 1 ? " thread" : " threads")
                    + " in " + name);
            T fresh = f.get();
            v = fresh == null ? NONE : fresh;
            made.put(k, v);
            if (recorded && v != NONE) {
                figure(k, v).ifPresent(EstimationStage::record);
            }
        }
        return v == NONE ? null : (T) v;
    }

    private static final Object NONE = new Object();

    /**
     * One figure as summary.json's {@code estimates} carry it: the sweep, the figure, its cells as
     * {@code param=value} lists, params sorted ({@code a}, and {@code b} for a figure of two), the
     * threads, what else names it ({@code name} of a per-round figure, {@code with} the other sweep
     * of one across two, {@code x} of a slope); then the estimate as {@link Estimate#json} writes
     * it, or a bare {@code value} (a CV, B/op). Empty for what the record holds otherwise (an A/A
     * is its ratio's figure, an LKP row its ratio's and the iterations') and for a value that is
     * not a number.
     */
    private Optional<Map<String, Object>> figure(Key k, Object v) {
        if (!(v instanceof Estimate) && !(v instanceof Double d && Double.isFinite(d))) {
            return Optional.empty();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sweep", name);
        String what = k.what();
        int colon = what.indexOf(':');
        m.put("figure", colon < 0 ? what : what.substring(0, colon));
        if (colon >= 0) {
            m.put("name", what.substring(colon + 1));
        }
        if (!k.a().isEmpty()) {
            m.put("a", cell(k.a()));
        }
        if (k.b() != null) {
            m.put("b", cell(k.b()));
        }
        m.put("threads", k.threads());
        if (k.extra() instanceof SweepEstimates other) {
            m.put("with", other.name);
        } else if (k.extra() instanceof Map<?, ?> byX) {
            List<Object> xs = new ArrayList<>();
            byX.forEach((x, c) -> {
                Map<String, Object> at = new LinkedHashMap<>();
                at.put("x", x);
                if (c instanceof Pair p) {
                    at.put("before", cell(p.before()));
                    at.put("after", cell(p.after()));
                } else {
                    at.put("cell", cell((Map<?, ?>) c));
                }
                xs.add(at);
            });
            m.put("x", xs);
        }
        if (v instanceof Estimate e) {
            m.putAll(e.json());
        } else {
            m.put("value", v);
        }
        return Optional.of(m);
    }

    /** A cell as {@code param=value,...}, params sorted: a {@code Map.of}'s own order differs from JVM to JVM. */
    private static String cell(Map<?, ?> c) {
        StringBuilder b = new StringBuilder();
        new TreeMap<>(c).forEach((p, v) -> b.append(b.isEmpty() ? "" : ",").append(p).append('=').append(v));
        return b.toString();
    }

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
        return once(new Key("aa", base, control, threads, null), () -> NoiseFloor.of(ratio(base, control, threads)));
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
        return once(new Key("aaAcross", base, control, threads, other),
                () -> NoiseFloor.of(across(other, base, control, threads, "aa", (a, b) -> a / b, false)));
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
        return once(new Key("lkp", base, cand, threads, metric), () -> {
            List<Double> a = sweep.samples(base, threads);
            List<Double> c = sweep.samples(cand, threads);
            Estimate r = ratio(base, cand, threads);
            if (a.isEmpty() || c.isEmpty() || r == null) {
                return null;
            }
            return new LkpTable.Row(metric, new Sample(a), new Sample(c), 100 * (1 / r.value() - 1), r.hasInterval() && !r.excludes(1));
        });
    }
}
