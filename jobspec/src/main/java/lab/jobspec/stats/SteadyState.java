package lab.jobspec.stats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import lab.jobspec.Job;
import lab.jobspec.JobOrder;

/**
 * fio 3.33's steady-state detection ({@code steadystate.c}): once a second, the IOPS or bandwidth
 * of the last second is a sample; once {@code ss_dur} samples are in (the first a second after
 * {@code ss_ramp}), the criterion over them is checked each second: the largest deviation from
 * their mean ({@code iops}, {@code bw}) or their least-squares slope ({@code iops_slope},
 * {@code bw_slope}), as a percentage of the mean when the limit has {@code %}. Below the limit, the
 * job has attained steady state and stops, as fio's {@code fio_mark_td_terminate()}. Without
 * {@code group_reporting} each clone is judged alone; with it, the sums of its reporting group's
 * clones, and the whole group stops.
 *
 * <p>Clones add their completions ({@link #completed}, atomics) and call {@link #tick} from their
 * loops; whichever finds a second passed takes the sample.
 */
public final class SteadyState {
    private static final long SECOND = 1_000_000_000L;

    private final Job.Steady s;
    private final AtomicLong ios = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final double[] window;
    private int count;
    private long epoch = Long.MIN_VALUE;
    private volatile long nextTick = Long.MAX_VALUE;
    private long prevTime;
    private long prevIos;
    private long prevBytes;
    private volatile boolean attained;

    private SteadyState(Job.Steady s) {
        this.s = s;
        this.window = new double[s.seconds()];
    }

    /** Each clone's steady-state judge: its own, or its reporting group's with {@code group_reporting}; null without {@code ss_dur}. */
    public static List<SteadyState> forClones(List<Job> jobs) {
        int[] groups = JobOrder.groupIds(jobs);
        Map<Integer, SteadyState> byGroup = new HashMap<>();
        List<SteadyState> out = new ArrayList<>();
        for (int j = 0; j < jobs.size(); j++) {
            Job job = jobs.get(j);
            Job.Steady st = job.pace().steadyState();
            for (int c = 0; c < job.numjobs(); c++) {
                if (st == null) {
                    out.add(null);
                } else if (job.groupReporting()) {
                    out.add(byGroup.computeIfAbsent(groups[j], g -> new SteadyState(st)));
                } else {
                    out.add(new SteadyState(st));
                }
            }
        }
        return out;
    }

    /** A clone starts at {@code now}: the first to start sets the epoch {@code ss_ramp} counts from. */
    public synchronized void start(long now) {
        if (epoch == Long.MIN_VALUE) {
            epoch = now;
            prevTime = now;
            nextTick = now + SECOND;
        }
    }

    /** An I/O of {@code len} bytes completed. */
    public void completed(int len) {
        ios.incrementAndGet();
        bytes.addAndGet(len);
    }

    /** Whether the job (or group) has attained steady state: its clones stop. */
    public boolean attained() {
        return attained;
    }

    /** Takes a sample when a second has passed since the last, and checks the criterion. */
    public void tick(long now) {
        if (now - nextTick < 0 || attained) {
            return;
        }
        synchronized (this) {
            if (now - nextTick < 0 || attained) {
                return;
            }
            nextTick = now + SECOND;
            long spentMs = Math.max(1, (now - prevTime) / 1_000_000);
            long i = ios.get();
            long b = bytes.get();
            double sample = s.bw() ? 1000.0 * (b - prevBytes) / spentMs : 1000.0 * (i - prevIos) / spentMs;
            prevTime = now;
            prevIos = i;
            prevBytes = b;
            if (now - epoch < s.rampNs() + (s.rampNs() > 0 ? SECOND : 0)) {
                return; // fio: samples start a second after ss_ramp
            }
            if (count == window.length) {
                System.arraycopy(window, 1, window, 0, window.length - 1);
                count--;
            }
            window[count++] = sample;
            if (count == window.length && criterion() < s.limit()) {
                attained = true;
            }
        }
    }

    /** The criterion over the full window: deviation or slope, in percent of the mean when asked. */
    private double criterion() {
        int n = window.length;
        double mean = 0;
        for (double v : window) {
            mean += v;
        }
        mean /= n;
        double c;
        if (s.slope()) {
            double sumX = n * (n - 1) / 2.0;
            double sumXx = (n - 1) * n * (2.0 * n - 1) / 6;
            double sumXy = 0;
            for (int x = 0; x < n; x++) {
                sumXy += x * window[x];
            }
            c = Math.abs((sumXy - sumX * mean) / (sumXx - sumX * sumX / n));
        } else {
            c = 0;
            for (double v : window) {
                c = Math.max(c, Math.abs(v - mean));
            }
        }
        return s.percent() ? (mean == 0 ? Double.MAX_VALUE : 100 * c / mean) : c;
    }
}
