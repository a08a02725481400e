package lab.fix.dmblkcgclone;

import static lab.fix.dmblkcgclone.DmBlkcgClone.*;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.fidelity.NoiseFloor;
import lab.engine.bench.DmBlkcgClone.Config;
import lab.engine.bench.DmBlkcgClone.Result;
import lab.engine.bench.DmBlkcgClone.Sample;
import lab.fix.dmblkcgclone.DmBlkcgClone.Weights;

/**
 * One set of the model's rounds (raw or calibrated: {@code model-rK.json} or
 * {@code calibrated-rK.json}), looked up by point (stack, path, weights) and variant: the a/b ratio
 * per round in the notebook's estimator (each measurement's window; the rounds' geometric mean and 95% interval),
 * the convergence times, where the disk charged the bytes and what that predicts ({@link Charges}),
 * and the A/A floor of a point from its 500:500 {@code transfer} measurements' sub-windows.
 */
final class ModelRuns {
    /** A measurement's point, the variant aside. */
    record Point(String stack, String path, Weights weights) {
        static Point of(Config c) {
            return new Point(c.stack(), c.path(), new Weights(c.weightA(), c.weightB()));
        }

        /** The matrix's order: stacks, paths, then weights, as the unit lists them. */
        static final Comparator<Point> ORDER = Comparator.comparingInt((Point p) -> index(STACKS, p.stack()))
                .thenComparingInt(p -> index(PATHS, p.path())).thenComparingInt(p -> index(WEIGHTS, p.weights()))
                .thenComparingInt(p -> p.weights().a()).thenComparingInt(p -> p.weights().b());

        private static <T> int index(List<T> l, T x) {
            int i = l.indexOf(x);
            return i < 0 ? l.size() : i;
        }
    }

    /** round -> the round's results. */
    private final Map<Integer, List<Result>> rounds;

    /**
     * One variant's figures at one point, made once when the runs are read: a/b's estimate, the
     * convergence time and the total MiB/s (median [min–max] over rounds), and the charges' shares
     * (medians over rounds; the prediction where every round's says the same).
     */
    record Figures(Estimate ratio, Stats.Spread convergeMs, Stats.Spread totalMibPerSec, Charges charged) {}

    private final Map<String, Figures> figures = new TreeMap<>();
    private final Map<String, NoiseFloor> floors = new TreeMap<>();

    ModelRuns(Map<Integer, List<Result>> rounds) {
        this.rounds = new TreeMap<>(rounds);
        for (Point p : points()) {
            for (String v : rounds.values().stream().flatMap(List::stream).map(r -> r.config().variant()).distinct().toList()) {
                Map<Integer, Result> by = byRound(v, p);
                if (by.isEmpty()) {
                    continue;
                }
                List<Charges> cs = by.values().stream().map(Charges::of).toList();
                List<Double> each = cs.stream().map(Charges::predicted).distinct().toList();
                Charges med = new Charges(estimateMedian(cs, Charges::a), estimateMedian(cs, Charges::b), estimateMedian(cs, Charges::root),
                        estimateMedian(cs, Charges::tagged), estimateMedian(cs, Charges::ownA), estimateMedian(cs, Charges::ownB), each.size() == 1 ? each.getFirst() : null);
                figures.put(v + "@" + p, new Figures(Estimator.of(by.values().stream().map(Result::ratio).filter(x -> x > 0 && Double.isFinite(x)).toList()),
                        estimateSpread(by, r -> r.convergeMs() < 0 ? Double.NaN : r.convergeMs()), estimateSpread(by, r -> r.mibPerSec(r.bytesA() + r.bytesB())), med));
            }
            floors.put(p.stack() + "/" + p.path(), estimateFloor(p.stack(), p.path()));
        }
    }

    private Figures figures(String variant, Point p) {
        return figures.get(variant + "@" + p);
    }

    boolean isEmpty() {
        return rounds.values().stream().allMatch(List::isEmpty);
    }

    int rounds() {
        return rounds.size();
    }

    /** Every point measured, in the matrix's order. */
    List<Point> points() {
        TreeSet<Point> s = new TreeSet<>(Point.ORDER);
        rounds.values().forEach(l -> l.forEach(r -> s.add(Point.of(r.config()))));
        return List.copyOf(s);
    }

    /** The disk bandwidths (MiB/s) the measurements ran at. */
    List<Double> bandwidths() {
        return rounds.values().stream().flatMap(List::stream).map(r -> r.config().mibPerSec()).distinct().sorted().toList();
    }

    /** The first measurement's config: the timing every measurement of the set shares. */
    Config anyConfig() {
        return rounds.values().stream().flatMap(List::stream).map(Result::config).findFirst().orElseThrow();
    }

    /** round -> {@code variant}'s measurement at {@code p}. */
    Map<Integer, Result> byRound(String variant, Point p) {
        Map<Integer, Result> out = new TreeMap<>();
        rounds.forEach((round, l) -> l.stream().filter(r -> r.config().variant().equals(variant) && Point.of(r.config()).equals(p))
                .findFirst().ifPresent(r -> out.put(round, r)));
        return out;
    }

    private static Stats.Spread estimateSpread(Map<Integer, Result> by, ToDoubleFunction<Result> f) {
        List<Double> v = new ArrayList<>();
        for (Result r : by.values()) {
            double x = f.applyAsDouble(r);
            if (Double.isFinite(x)) {
                v.add(x);
            }
        }
        return v.isEmpty() ? null : Stats.spread(v);
    }

    /** Writer a's bandwidth over writer b's in each round's window, estimated over rounds; null where none. */
    Estimate ratio(String variant, Point p) {
        Figures f = figures(variant, p);
        return f == null ? null : f.ratio();
    }

    /** The convergence time (ms from the start) of the rounds that converged; null where none did. */
    Stats.Spread convergeMs(String variant, Point p) {
        Figures f = figures(variant, p);
        return f == null ? null : f.convergeMs();
    }

    /** Both writers' MiB/s together in each round's window. */
    Stats.Spread totalMibPerSec(String variant, Point p) {
        Figures f = figures(variant, p);
        return f == null ? null : f.totalMibPerSec();
    }

    /** Failed I/Os over every round of the set. */
    long errors() {
        return rounds.values().stream().flatMap(List::stream).mapToLong(Result::errors).sum();
    }

    /** Each round's charges of {@code variant} at {@code p}. */
    List<Charges> charges(String variant, Point p) {
        return byRound(variant, p).values().stream().map(Charges::of).toList();
    }

    /** The charges' prediction where every round's says the same, else null (none, or mixed). */
    Double predicted(String variant, Point p) {
        Figures f = figures(variant, p);
        return f == null ? null : f.charged().predicted();
    }

    /** The charges' shares of {@code variant} at {@code p}, each the median over rounds (NaN: none); null where not measured. */
    Charges charged(String variant, Point p) {
        Figures f = figures(variant, p);
        return f == null ? null : f.charged();
    }

    /** Median over rounds of one share of the charges; NaN for none. */
    private static double estimateMedian(List<Charges> cs, ToDoubleFunction<Charges> f) {
        List<Double> v = cs.stream().map(f::applyAsDouble).filter(Double::isFinite).toList();
        return v.isEmpty() ? Double.NaN : Stats.median(v);
    }

    /**
     * The A/A floor at {@code stack} and {@code path}: the {@code transfer} measurement at equal
     * weights, its window cut into {@link DmBlkcgClone#SUBWINDOW_MS} spans, writer a's bytes in each
     * span the base's iterations and writer b's its copy's, one round a trial pair; null where the run
     * has no such measurement or a window shorter than two spans.
     */
    NoiseFloor floor(String stack, String path) {
        return floors.get(stack + "/" + path);
    }

    private NoiseFloor estimateFloor(String stack, String path) {
        List<double[]> a = new ArrayList<>();
        List<double[]> b = new ArrayList<>();
        for (Result r : byRound(TRANSFER, new Point(stack, path, EQUAL)).values()) {
            List<long[]> spans = spans(r);
            if (spans.size() >= 2) {
                a.add(spans.stream().mapToDouble(s -> s[0]).toArray());
                b.add(spans.stream().mapToDouble(s -> s[1]).toArray());
            }
        }
        return a.isEmpty() ? null : NoiseFloor.ofIterations(a, b);
    }

    /**
     * The bytes each writer wrote in each {@link DmBlkcgClone#SUBWINDOW_MS} span of {@code r}'s
     * window ({@code {a, b}}), from its timeline: the spans start at the first sample at or after the
     * ramp's end and end at the first sample at or after each span's end.
     */
    static List<long[]> spans(Result r) {
        List<Sample> t = r.timeline();
        long start = r.config().rampMs();
        long end = start + r.config().runMs();
        List<long[]> out = new ArrayList<>();
        Sample from = at(t, start);
        for (long s = start + SUBWINDOW_MS; s <= end && from != null; s += SUBWINDOW_MS) {
            Sample to = at(t, s);
            if (to == null || to == from) {
                break;
            }
            out.add(new long[] {to.bytesA() - from.bytesA(), to.bytesB() - from.bytesB()});
            from = to;
        }
        return out;
    }

    /** The first sample at or after {@code ms}; null where none. */
    private static Sample at(List<Sample> t, long ms) {
        return t.stream().filter(s -> s.atMs() >= ms).findFirst().orElse(null);
    }

    /** The cumulative a/b ratio over {@code r}'s timeline: {@code {ms, ratio}} wherever b has written. */
    static List<double[]> cumulativeRatio(Result r) {
        return r.timeline().stream().filter(s -> s.bytesB() > 0).map(s -> new double[] {s.atMs(), (double) s.bytesA() / s.bytesB()})
                .toList();
    }
}
