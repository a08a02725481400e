package lab.analysis.fidelity;

import java.util.List;

/**
 * Gunther's Universal Scalability Law over a thread sweep at one gap: relative capacity
 * {@code C(n) = n / (1 + σ(n−1) + κ·n(n−1))}, σ the contention (serial share), κ the coherency
 * cost. Fitted by least squares on {@code n/C(n) − 1 = σ(n−1) + κ·n(n−1)}, which is linear in σ
 * and κ; with two thread counts only κ is 0 and σ is exact, so the law then extrapolates a
 * straight line and says nothing about coherency.
 *
 * @param sigma  contention
 * @param kappa  coherency
 * @param points how many thread counts it was fitted to
 */
public record Usl(double sigma, double kappa, int points) {

    /** One measured point: threads and the total throughput there (any unit, the same for all). */
    public record Point(int threads, double throughput) {}

    /** The fit over {@code points} (one must be at 1 thread); null without it or with fewer than two. */
    public static Usl fit(List<Point> points) {
        Point one = points.stream().filter(p -> p.threads() == 1).findFirst().orElse(null);
        List<Point> rest = points.stream().filter(p -> p.threads() > 1).toList();
        if (one == null || rest.isEmpty()) {
            return null;
        }
        // y = n·X(1)/X(n) − 1 = σ·a + κ·b, a = n−1, b = n(n−1)
        double saa = 0, sab = 0, sbb = 0, say = 0, sby = 0;
        for (Point p : rest) {
            double n = p.threads();
            double y = n * one.throughput() / p.throughput() - 1;
            double a = n - 1;
            double b = n * (n - 1);
            saa += a * a;
            sab += a * b;
            sbb += b * b;
            say += a * y;
            sby += b * y;
        }
        if (rest.size() == 1) {
            return new Usl(say / saa, 0, 2);
        }
        double det = saa * sbb - sab * sab;
        return new Usl((say * sbb - sby * sab) / det, (saa * sby - sab * say) / det, rest.size() + 1);
    }

    /** Relative capacity at {@code n} threads: total throughput over one thread's. */
    public double capacity(int n) {
        return n / (1 + sigma * (n - 1) + kappa * n * (n - 1.0));
    }
}
