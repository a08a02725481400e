package lab.analysis.fidelity;

/**
 * A shared cache line as a closed queue: n threads each spend a think time Z (the gap: their
 * private work between two operations on the line, the operation's own uncontended cost
 * included) and then need the line for a service time S (one transfer of the line between
 * cores). Exact mean-value analysis of this machine-repairman model: {@code Q(0) = 0},
 * {@code R(k) = S·(1 + Q(k−1))}, {@code X(k) = k / (Z + R(k))}, {@code Q(k) = X(k)·R(k)}. The
 * extra time one operation costs at n threads over one thread is {@code R(n) − R(1) = S·Q(n−1)}:
 * nothing at one thread (the line stays in its core's cache), about S when two threads hammer it
 * back to back, and falling as the gap grows, as measured.
 *
 * <p>With a transfer term M (optional, 0 in the pure queue): however long the gap, an operation
 * finds the line last written by another thread's core with probability {@code (n−1)/n} (the n
 * threads touch it at equal rates) and then pays a coherence miss, which no amount of think time
 * removes; the queue alone lets the extra fall to nothing as the gap grows, while measured extras
 * level off at microseconds of gap. Extra = {@code M·(n−1)/n + S·Q(n−1)}.
 *
 * <p>Fitting: least squares of the relative error over the measured extras; Z is each point's
 * measured gap plus the private operation's cost. {@link #fit} fits S alone, {@link #fitWithTransfer}
 * S and M (M in closed form for each S).
 *
 * @param serviceNs  S, ns the line is held per operation (the queue)
 * @param transferNs M, ns of a coherence miss on a line another core wrote (0: the pure queue)
 */
public record LineQueue(double serviceNs, double transferNs) {

    /** The pure queue: no transfer term. */
    public LineQueue(double serviceNs) {
        this(serviceNs, 0);
    }

    /** Extra ns per operation at {@code n} threads and think time {@code thinkNs}: {@code M·(n−1)/n + S·Q(n−1)}. */
    public double extraNs(int n, double thinkNs) {
        return transferNs * (n - 1) / n + serviceNs * queue(n - 1, thinkNs);
    }

    /** Mean number at the line with {@code k} threads, by mean-value analysis. */
    private double queue(int k, double thinkNs) {
        double q = 0;
        for (int i = 1; i <= k; i++) {
            double r = serviceNs * (1 + q);
            q = i / (thinkNs + r) * r;
        }
        return q;
    }

    /** One measured point: threads, think time (gap + private cost), measured extra ns per op. */
    public record Point(int threads, double thinkNs, double extraNs) {}

    /** The S that fits {@code points} best (relative least squares, golden-section over 0.1 ns..100 µs); null for none. */
    public static LineQueue fit(java.util.List<Point> points) {
        return fit(points, false);
    }

    /** The S and M that fit {@code points} best; null for none. */
    public static LineQueue fitWithTransfer(java.util.List<Point> points) {
        return fit(points, true);
    }

    private static LineQueue fit(java.util.List<Point> points, boolean transfer) {
        java.util.List<Point> usable = points.stream().filter(p -> p.threads() >= 2 && p.extraNs() > 0).toList();
        if (usable.isEmpty()) {
            return null;
        }
        double lo = Math.log(0.1);
        double hi = Math.log(100_000);
        double g = (Math.sqrt(5) - 1) / 2;
        for (int i = 0; i < 200; i++) {
            double a = hi - g * (hi - lo);
            double b = lo + g * (hi - lo);
            if (error(best(Math.exp(a), usable, transfer), usable) < error(best(Math.exp(b), usable, transfer), usable)) {
                hi = b;
            } else {
                lo = a;
            }
        }
        return best(Math.exp((lo + hi) / 2), usable, transfer);
    }

    /** With S fixed, the M (at least 0) of least relative squares, or the pure queue. */
    private static LineQueue best(double s, java.util.List<Point> pts, boolean transfer) {
        if (!transfer) {
            return new LineQueue(s);
        }
        LineQueue q = new LineQueue(s);
        double num = 0;
        double den = 0;
        for (Point p : pts) {
            double a = (p.threads() - 1.0) / p.threads() / p.extraNs();
            double r = (p.extraNs() - q.extraNs(p.threads(), p.thinkNs())) / p.extraNs();
            num += a * r;
            den += a * a;
        }
        return new LineQueue(s, den == 0 ? 0 : Math.max(0, num / den));
    }

    /** Root mean square of the relative error of this model over {@code points} with two threads or more. */
    public double rmsRelativeError(java.util.List<Point> points) {
        java.util.List<Point> usable = points.stream().filter(p -> p.threads() >= 2 && p.extraNs() > 0).toList();
        return usable.isEmpty() ? Double.NaN : Math.sqrt(error(this, usable) / usable.size());
    }

    private static double error(LineQueue q, java.util.List<Point> pts) {
        double sum = 0;
        for (Point p : pts) {
            double rel = (q.extraNs(p.threads(), p.thinkNs()) - p.extraNs()) / p.extraNs();
            sum += rel * rel;
        }
        return sum;
    }
}
