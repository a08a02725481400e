package lab.jobspec.stats;

/**
 * Running moments of a latency, fio's {@code struct io_stat} (stat.h) with {@code
 * add_stat_sample()} (Welford's update) and {@code sum_stat()} (Chan's merge) from stat.c: exact
 * min, max, mean and sample standard deviation without keeping the samples. Owner-only; no
 * allocation.
 */
public final class IoStat {

    private long min = Long.MAX_VALUE;
    private long max;
    private long n;
    private double mean;
    /** Sum of squared differences from the mean ({@code S} in fio). */
    private double s;

    /** {@code add_stat_sample()}. */
    public void add(long value) {
        n++;
        min = Math.min(min, value);
        max = Math.max(max, value);
        double delta = value - mean;
        mean += delta / n;
        s += delta * (value - mean);
    }

    /** {@code sum_stat()}: this becomes the moments of both sample sets. */
    public void merge(IoStat o) {
        if (o.n == 0) {
            return;
        }
        long total = n + o.n;
        double delta = o.mean - mean;
        mean += delta * o.n / total;
        s += o.s + delta * delta * ((double) n * o.n / total);
        n = total;
        min = Math.min(min, o.min);
        max = Math.max(max, o.max);
    }

    public void reset() {
        min = Long.MAX_VALUE;
        max = 0;
        n = 0;
        mean = 0;
        s = 0;
    }

    public long n() {
        return n;
    }

    public long min() {
        return n == 0 ? 0 : min;
    }

    public long max() {
        return max;
    }

    public double mean() {
        return mean;
    }

    /** Sample standard deviation, as fio prints it; 0 for fewer than two samples. */
    public double stddev() {
        return n > 1 ? Math.sqrt(s / (n - 1)) : 0.0;
    }
}
