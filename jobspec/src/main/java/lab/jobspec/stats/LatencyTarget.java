package lab.jobspec.stats;

import lab.jobspec.Job;

/**
 * fio 3.33's latency-target mode ({@code io_u.c}: {@code lat_target_init()},
 * {@code lat_target_check()}, {@code lat_target_success()}, {@code __lat_target_failed()};
 * {@code queue_full()}): a clone with {@code latency_target} searches for the deepest queue at
 * which {@code latency_percentile} of its I/Os complete within the target, one
 * {@code latency_window} per depth tried.
 *
 * <p>It starts at depth 1, with 1 and {@code iodepth} as the low and high bounds. At the end of
 * each window ({@link #check}, after every reap): if enough of the window's I/Os met the target,
 * the depth that passed becomes the low bound and the next is the midpoint to the high bound, or
 * twice the depth while no depth has failed (capped at {@code iodepth}; three passes in a row
 * one below the high bound raise it by one); otherwise the depth that failed becomes the high
 * bound and the next is the midpoint to the low one, what is in flight drained first. With
 * {@code latency_percentile=100} a single I/O over the target fails its depth at once
 * ({@link #completed}), and one at depth 1 ends the clone with ETIMEDOUT. When a pass leaves the
 * depth unchanged the search is over: unless {@code latency_run}, the clone drains, its
 * statistics start over, and it runs one more window at that depth, then ends. The loops cap
 * what they keep in flight at {@link #depth()}.
 *
 * <p>Owner-only (the clone's thread); no allocation.
 */
public final class LatencyTarget {

    private final long targetNs;
    private final long windowNs;
    private final double percentile;
    private final boolean run;
    private final int iodepth;
    private final boolean active;

    private int qd;
    private int low;
    private int high;
    private int stable;
    private boolean endRun;
    private boolean done;
    private boolean quiesce;
    private boolean reset;
    private long windowStart;
    private long windowIos;
    private long failed;
    private long ios;

    public LatencyTarget(Job job) {
        Job.Latency l = job.pace().latency();
        this.targetNs = l.targetNs();
        this.windowNs = l.windowNs();
        this.percentile = l.percentile();
        this.run = l.run();
        this.iodepth = job.queueDepth();
        this.active = targetNs > 0;
        this.qd = iodepth;
    }

    /** Whether the job has a {@code latency_target}. */
    public boolean active() {
        return active;
    }

    /** fio's {@code lat_target_init()}, at the start of the clone's I/O. */
    public void start(long now) {
        if (!active) {
            return;
        }
        qd = 1;
        low = 1;
        high = iodepth;
        newCycle(now);
    }

    /** How many I/Os the clone may keep in flight now ({@code latency_qd}; {@code iodepth} without a target). */
    public int depth() {
        return qd;
    }

    /**
     * One completion whose latency was {@code latNs}. True when the clone must end with
     * ETIMEDOUT: an I/O over the target at depth 1 with {@code latency_percentile=100}.
     */
    public boolean completed(long latNs, long now) {
        if (!active) {
            return false;
        }
        ios++;
        if (latNs <= targetNs) {
            return false;
        }
        if (percentile == 100.0) {
            return failed(now);
        }
        failed++;
        return false;
    }

    /**
     * fio's {@code lat_target_check()}: at the end of a window, judge its depth. As fio's
     * {@code do_io()}, only once an I/O has completed; a window with none fails (fio's share is
     * then 0/0, which no percentile meets).
     */
    public void check(long now) {
        if (!active || done || ios == 0 || now - windowStart < windowNs) {
            return;
        }
        long n = ios - windowIos;
        double success = n == 0 ? Double.NaN : 100.0 * (n - failed) / n;
        if (success >= percentile) {
            success(now);
        } else {
            failed(now);
        }
    }

    /** fio's {@code __lat_target_failed()}: a lower depth, what is in flight drained; true at depth 1 (give up). */
    private boolean failed(long now) {
        if (qd == 1) {
            return true;
        }
        high = qd;
        if (qd == low) {
            low--;
        }
        qd = (qd + low) / 2;
        stable = 0;
        quiesce = true;
        newCycle(now);
        return false;
    }

    /** fio's {@code lat_target_success()}. */
    private void success(long now) {
        int was = qd;
        low = qd;
        if (qd + 1 == high && ++stable >= 3) {
            high++;
            stable = 0;
        }
        qd = high != iodepth ? (qd + high) / 2 : qd * 2;
        qd = Math.min(qd, iodepth);
        if (!run && qd == was) {
            if (endRun) {
                done = true;
            } else {
                quiesce = true;
                endRun = true;
                reset = true; // fio's reset_all_stats(): the final window's figures only
            }
        }
        newCycle(now);
    }

    private void newCycle(long now) {
        windowStart = now;
        windowIos = ios;
        failed = 0;
    }

    /** True once after the depth dropped or the final window begins: drain what is in flight now. */
    public boolean takeQuiesce() {
        boolean q = quiesce;
        quiesce = false;
        return q;
    }

    /** True once when the final window begins: the clone's statistics start over. */
    public boolean takeReset() {
        boolean r = reset;
        reset = false;
        return r;
    }

    /** The search and its final window are over: the clone issues no more. */
    public boolean done() {
        return done;
    }
}
