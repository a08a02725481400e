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
 * <p>Fitting: S is the one parameter, chosen by least squares of the relative error over the
 * measured extras; Z is each point's measured gap plus the private operation's cost.
 *
 * @param serviceNs S, ns per transfer of the line
 */
public record LineQueue(double serviceNs) {

    /** Extra ns per operation at {@code n} threads and think time {@code thinkNs}: {@code S·Q(n−1)}. */
    public double extraNs(int n, double thinkNs) {
        return serviceNs * queue(n - 1, thinkNs);
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
            if (error(Math.exp(a), usable) < error(Math.exp(b), usable)) {
                hi = b;
            } else {
                lo = a;
            }
        }
        return new LineQueue(Math.exp((lo + hi) / 2));
    }

    /** Root mean square of the relative error of this model over {@code points} with two threads or more. */
    public double rmsRelativeError(java.util.List<Point> points) {
        java.util.List<Point> usable = points.stream().filter(p -> p.threads() >= 2 && p.extraNs() > 0).toList();
        return usable.isEmpty() ? Double.NaN : Math.sqrt(error(serviceNs, usable) / usable.size());
    }

    private static double error(double s, java.util.List<Point> pts) {
        LineQueue q = new LineQueue(s);
        double sum = 0;
        for (Point p : pts) {
            double rel = (q.extraNs(p.threads(), p.thinkNs()) - p.extraNs()) / p.extraNs();
            sum += rel * rel;
        }
        return sum;
    }
}
