package lab.analysis.scale;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import lab.analysis.estimate.Estimator;
import lab.analysis.fidelity.LineQueue;

/**
 * A fix's before/after ratio carried to n threads on a machine's cost profile: the model's counted
 * shared-line operations per I/O (one thread, by line and kind: {@code counts.json}) priced by the
 * profile's queue for each line at n threads, over the calibrated time per I/O.
 *
 * <p>Throughput after over before at n: {@code (T + X_before(n)) / (T + X_after(n))}, one T for both
 * variants (the calibration's kernel ns per I/O: the base plus the model's own one-thread ns), and
 * {@code X(n) = Σ_lines m_L · e_L(n)}, where a line L gets {@code m_L} operations per I/O from each
 * thread (its kinds' counts summed; per-tick operations at the I/O rate n/T), and {@code e_L(n)} is
 * the extra ns one of them costs on the line's queue ({@link LineQueue#extraNs}) with S and M the
 * count-weighted mean of its kinds' figures on the profile ({@link CostProfile#line}: remote figures
 * mixed in by socket), and the think time between a thread's operations on it {@code T / m_L}:
 * the I/O's work spread evenly between them.
 *
 * <p>Where it simplifies, each said where it is printed: the operations of a line are spread evenly
 * through the I/O (bursts queue more); lines are independent queues; a lock's hold time is the
 * line's service time alone (the profile's mutex has an empty critical section: work done under a
 * lock, as dm-bufio's btree lookup is, is not in S); waiting past the line (sleeping, wake-up) is
 * left out; T is this lab's calibrated I/O, not the other machine's.
 *
 * <p>The interval: {@value #DRAWS} draws of every figure at once, each from its interval (a fit's by
 * Student's t on its degrees of freedom, a published range and the calibration's as a normal whose
 * 95% range it is, split at the value where the range is not centred on it), the same draw for
 * both variants; the 2.5% and 97.5% points of the ratio. Fixed seed and StrictMath: the same
 * interval every time. The counts are exact (a count run of 100000 I/Os): they add none.
 */
public final class AtScale {
    private AtScale() {}

    public static final int DRAWS = 4000;
    private static final long SEED = 54;

    /** A variant's shared-line operations: per I/O and per clock tick, by line then kind. */
    public record Ops(Map<String, Map<String, Double>> perIo, Map<String, Map<String, Double>> perTick) {}

    /**
     * One contrast: throughput of {@code after} over {@code before}, the time per I/O {@code t}
     * (with its interval), and the ticks per second of per-tick work (0: none).
     */
    public record Contrast(Ops before, Ops after, CostProfile.Figure t, int hz) {}

    /** A predicted ratio and its 95% interval. */
    public record Ratio(int threads, double value, double lo, double hi) {
        public boolean holds(double x) {
            return x >= lo && x <= hi;
        }
    }

    /** The predicted ratio at {@code n} threads on {@code p}, with its interval over the figures' draws. */
    public static Ratio predict(CostProfile p, Contrast c, int n) {
        double value = ratio(p, c, n, CostProfile.FigureDraw.VALUE);
        double[] draws = new double[DRAWS];
        SplittableRandom rnd = new SplittableRandom(SEED);
        for (int i = 0; i < DRAWS; i++) {
            draws[i] = ratio(p, c, n, new Draw(rnd.split()));
        }
        Arrays.sort(draws);
        return new Ratio(n, value, draws[(int) Math.floor(0.025 * (DRAWS - 1))], draws[(int) Math.ceil(0.975 * (DRAWS - 1))]);
    }

    /** The ratio with every figure read by {@code d}. */
    public static double ratio(CostProfile p, Contrast c, int n, CostProfile.FigureDraw d) {
        double t = d.of("t", c.t());
        return (t + extraPerIo(p, c.before(), n, t, c.hz(), d)) / (t + extraPerIo(p, c.after(), n, t, c.hz(), d));
    }

    /** The extra ns per I/O {@code ops} cost at {@code n} threads on {@code p}, over one thread. */
    public static double extraPerIo(CostProfile p, Ops ops, int n, double t, int hz, CostProfile.FigureDraw d) {
        double sum = 0;
        for (Map.Entry<String, Map<String, Double>> line : lines(ops, n, t, hz).entrySet()) {
            sum += lineExtra(p, line.getValue(), n, t, d);
        }
        return sum;
    }

    /** Each line's operations per I/O by kind at {@code n} threads: per I/O, plus per tick at the I/O rate n / t. */
    public static Map<String, Map<String, Double>> lines(Ops ops, int n, double t, int hz) {
        Map<String, Map<String, Double>> out = new TreeMap<>();
        ops.perIo().forEach((line, kinds) -> kinds.forEach((k, v) -> out.computeIfAbsent(line, x -> new TreeMap<>()).merge(k, v, Double::sum)));
        if (hz > 0) {
            double ioPerSecond = n * 1e9 / t;
            ops.perTick().forEach((line, kinds) -> kinds.forEach((k, v) -> out.computeIfAbsent(line, x -> new TreeMap<>())
                    .merge(k, v * hz / ioPerSecond, Double::sum)));
        }
        return out;
    }

    /** The extra ns per I/O of one line with {@code kinds} operations per I/O: m · e(n) on its queue. */
    public static double lineExtra(CostProfile p, Map<String, Double> kinds, int n, double t, CostProfile.FigureDraw d) {
        double m = 0;
        double s = 0;
        double x = 0;
        for (var k : kinds.entrySet()) {
            if (!p.kinds().containsKey(k.getKey())) {
                throw new IllegalArgumentException("the profile '" + p.name() + "' has no kind " + k.getKey());
            }
            double[] sm = p.line(k.getKey(), n, d);
            m += k.getValue();
            s += k.getValue() * sm[0];
            x += k.getValue() * sm[1];
        }
        if (m <= 0 || n < 2) {
            return 0;
        }
        return m * new LineQueue(s / m, x / m).extraNs(n, t / m);
    }

    /** The kinds {@code ops} use, every line. */
    public static java.util.Set<String> kinds(Ops ops) {
        java.util.Set<String> out = new TreeSet<>();
        ops.perIo().values().forEach(k -> out.addAll(k.keySet()));
        ops.perTick().values().forEach(k -> out.addAll(k.keySet()));
        return out;
    }

    /** One draw of every figure: each named figure drawn once, so both variants see the same machine. */
    private static final class Draw implements CostProfile.FigureDraw {
        private final SplittableRandom rnd;
        private final Map<String, Double> drawn = new HashMap<>();

        Draw(SplittableRandom rnd) {
            this.rnd = rnd;
        }

        @Override
        public double of(String name, CostProfile.Figure f) {
            return drawn.computeIfAbsent(name, k -> sample(f));
        }

        private double sample(CostProfile.Figure f) {
            if (!f.hasInterval()) {
                return f.value();
            }
            double z = f.df() >= 1 ? studentT(f.df()) : gaussian();
            double q = f.df() >= 1 ? Estimator.t975(f.df()) : 1.959964;
            double half = z < 0 ? f.value() - f.lo() : f.hi() - f.value();
            return Math.max(0, f.value() + z * half / q);
        }

        private double gaussian() {
            double u = 1 - rnd.nextDouble();
            double v = rnd.nextDouble();
            return StrictMath.sqrt(-2 * StrictMath.log(u)) * StrictMath.cos(2 * StrictMath.PI * v);
        }

        private double studentT(int df) {
            double chi = 0;
            for (int i = 0; i < df; i++) {
                double g = gaussian();
                chi += g * g;
            }
            return gaussian() / StrictMath.sqrt(chi / df);
        }
    }

    /** Every n the curves are drawn at: 1, 2, 4, 8, 12, 16, 24, 32, 48, 64. */
    public static final List<Integer> CURVE = List.of(1, 2, 4, 8, 12, 16, 24, 32, 48, 64);

    /** {@link #CURVE} with {@code extra} thread counts added, sorted, once each. */
    public static List<Integer> curve(Integer... extra) {
        TreeSet<Integer> n = new TreeSet<>(CURVE);
        for (Integer e : extra) {
            if (e != null && e >= 1) {
                n.add(e);
            }
        }
        return new ArrayList<>(n);
    }
}
