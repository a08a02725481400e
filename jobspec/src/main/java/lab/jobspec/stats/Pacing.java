package lab.jobspec.stats;

import java.util.concurrent.locks.LockSupport;
import lab.jobspec.Job;
import lab.jobspec.SplitMix;

/**
 * When a clone may issue its next I/O, beyond {@code iodepth}: fio 3.33's rate control
 * ({@code backend.c}: {@code usec_for_io()}, {@code __check_min_rate()}; {@code io_u.c}:
 * {@code rate_ddir()}), think time ({@code handle_thinktime()}) and start delay, for
 * {@link Job.Pace}. Shared by the engine's and the bridge's clone loops, which ask it before each
 * I/O and tell it of each I/O issued and completed.
 *
 * <h2>Rate</h2>
 * A direction's rate is {@code rate} bytes per second, or {@code rate_iops} times its smallest
 * block size. After each I/O the direction's next start is the time its issued bytes take at that
 * rate from the epoch ({@code linear}), or the last start plus an exponential gap of the same mean
 * ({@code rate_process=poisson}); an I/O may not start before it. The epoch is the clone's start,
 * and again the end of {@code ramp_time}, where fio resets its counters ({@code reset_io_counters()}).
 * {@code io_submit_mode=inline} (fio's default) drains what is in flight before a pause; offload
 * does not. The lab paces each I/O by its own direction; fio may instead issue the other
 * direction when this one is ahead of its rate ({@code rate_ddir()}), so for a job that reads and
 * writes the two rates hold only as far as {@code rwmixread} allows them.
 *
 * <h2>Minimum rate</h2>
 * {@code rate_min} ({@code rate_iops_min}): after 2 s, each {@code rate_cycle} a direction that has
 * completed I/O must have done at least that much per second since the last check, or the job
 * stops with EIO ({@link #belowMinimum}).
 *
 * <h2>Think time</h2>
 * After every {@code thinktime_blocks} I/Os completed (or issued, {@code thinktime_blocks_type=issue})
 * and, with {@code thinktime_iotime}, once that much time has passed since the last pause: drain
 * what is in flight, spin {@code thinktime_spin}, sleep the rest of {@code thinktime}. With
 * {@code rate_ignore_thinktime}, the rate's bytes are moved on by what the pause would have issued
 * less one block, so the rate does not catch up after it.
 *
 * <p>Owner-only (the clone's thread); no allocation per I/O.
 */
public final class Pacing {
    /** What a clone's loop does before its next I/O ({@link #before}, {@link #flowBlocked}); the engine's and the bridge's alike. */
    public enum Step {
        /** Issue now. */
        GO,
        /** Reap everything in flight, then ask again. */
        DRAIN,
        /** Reap what completes (one at least), then ask again. */
        REAP,
        /** The think time itself ({@link #think}), then ask again. */
        THINK,
        /** Sleep {@link #pauseNs()}, then ask again. */
        SLEEP,
        /** Nothing to wait for: spin once and ask again. */
        SPIN
    }

    private static final long NS_PER_US = 1_000L;
    private static final long SETTLE_NS = 2_000_000_000L;

    private final Job.Pace p;
    private final boolean rated;
    private final boolean thinks;
    /** Whether anything here counts I/Os: else issued() and completed() return at once (the engine's benchmarks run this loop). */
    private final boolean counts;
    private final long[] bps = new long[2];
    private final long[] minBs = new long[2];
    private final SplitMix[] poisson = new SplitMix[2];
    private final long startDelayNs;

    private long epoch;
    private long start;
    private final long[] issueBytes = new long[2];
    private final long[] nextUs = new long[2];
    private final long[] lastUs = new long[2];

    /** The last {@link Step#SLEEP}'s length. */
    private long pauseNs;

    private long thinkCounter;
    private long lastThinkBlocks;
    private long lastThinktime;

    private final long[] doneBytes = new long[2];
    private final long[] doneIos = new long[2];
    private final long[] lastCheckBytes = new long[2];
    private final long[] lastCheckIos = new long[2];
    private final long[] lastCheckTime = new long[2];

    /** The pacing of clone {@code jobIndex} of {@code job}. */
    public Pacing(Job job, int jobIndex) {
        this.p = job.pace();
        this.rated = p.rated();
        this.thinks = p.thinktimeNs() > 0;
        this.counts = rated || thinks || p.hasMinimum();
        for (int d = 0; d < 2; d++) {
            boolean read = d == 1;
            minBs[d] = job.blockSizes(read).min();
            bps[d] = p.rate().of(read) > 0 ? p.rate().of(read) : p.rateIops().of(read) * minBs[d];
        }
        poisson[1] = SplitMix.of(job, jobIndex, SplitMix.STREAM_POISSON_READ);
        poisson[0] = SplitMix.of(job, jobIndex, SplitMix.STREAM_POISSON_WRITE);
        long span = p.startDelayMaxNs() - p.startDelayNs();
        startDelayNs = p.startDelayNs() + (span == 0 ? 0
                : (long) (span * SplitMix.of(job, jobIndex, SplitMix.STREAM_START_DELAY).nextDouble()));
    }

    private static int dir(boolean read) {
        return read ? 1 : 0;
    }

    /** Whether the clone must ask before each I/O and issue one at a time: a rate or a think time. */
    public boolean paces() {
        return rated || thinks;
    }

    /** Whether the clone must check {@link #belowMinimum} after its completions. */
    public boolean hasMinimum() {
        return p.hasMinimum();
    }

    /** {@code startdelay}: how long the clone waits before its window opens (a range's pick made once). */
    public long startDelayNs() {
        return startDelayNs;
    }

    /** The clone's window opens at {@code now}: the rate's epoch and the minimum rate's settle period start. */
    public void start(long now) {
        epoch = now;
        start = now;
        lastThinktime = now;
    }

    /** {@code ramp_time} ended at {@code now}: fio's {@code reset_all_stats()} starts the rate over. */
    public void rampDone(long now) {
        epoch = now;
        start = now;
        for (int d = 0; d < 2; d++) {
            issueBytes[d] = 0;
            nextUs[d] = 0;
            lastUs[d] = 0;
            doneBytes[d] = 0;
            doneIos[d] = 0;
            lastCheckBytes[d] = 0;
            lastCheckIos[d] = 0;
        }
    }

    /** Nanoseconds until an I/O of direction {@code read} may start; 0 when it may now (fio's {@code rate_ddir()}). */
    private long rateWaitNs(boolean read, long now) {
        int d = dir(read);
        if (bps[d] == 0) {
            return 0;
        }
        long nowUs = (now - epoch) / NS_PER_US;
        return nextUs[d] <= nowUs ? 0 : (nextUs[d] - nowUs) * NS_PER_US;
    }

    /**
     * Before the next I/O, of direction {@code read}, of a pacing clone with {@code inflight} in
     * flight and {@code untilEnd} ns of its run left: a think time that is due DRAINs what is in
     * flight, then THINKs (fio's {@code io_u_quiesce()} and {@code handle_thinktime()}); the
     * rate's wait DRAINs first with {@code io_submit_mode=inline}, with offload REAPs what completes
     * meanwhile, and SLEEPs once nothing is in flight (fio's {@code rate_ddir()}); else GO.
     */
    public Step before(long now, boolean read, int inflight, long untilEnd) {
        if (thinkDue(now)) {
            return inflight > 0 ? Step.DRAIN : Step.THINK;
        }
        long wait = rateWaitNs(read, now);
        if (wait == 0) {
            return Step.GO;
        }
        if (inflight > 0) {
            return p.offload() ? Step.REAP : Step.DRAIN;
        }
        pauseNs = Math.min(wait, untilEnd);
        return Step.SLEEP;
    }

    /**
     * A clone ahead of its share of its flow ({@link Flows}): with {@code flow_sleep}, DRAIN what
     * is in flight, then SLEEP it; without, REAP one if any is in flight, else SPIN. (fio retries
     * at once without reaping; reaping keeps completions' times true and changes no count.)
     */
    public Step flowBlocked(int inflight) {
        long sleep = p.flowSleepNs();
        if (inflight > 0) {
            return sleep > 0 ? Step.DRAIN : Step.REAP;
        }
        if (sleep > 0) {
            pauseNs = sleep;
            return Step.SLEEP;
        }
        return Step.SPIN;
    }

    /** How long the last {@link Step#SLEEP} sleeps. */
    public long pauseNs() {
        return pauseNs;
    }

    /** An I/O of {@code len} bytes was issued. */
    public void issued(boolean read, int len) {
        if (!counts) {
            return;
        }
        int d = dir(read);
        if (p.thinktimeIssue()) {
            thinkCounter++;
        }
        if (bps[d] == 0) {
            return;
        }
        issueBytes[d] += len;
        nextUs[d] = usecForIo(d);
    }

    /** fio's {@code usec_for_io()}: microseconds from the epoch at which the next I/O may start. */
    private long usecForIo(int d) {
        if (p.poisson()) {
            long iops = Math.max(1, bps[d] / minBs[d]);
            double u = 1.0 - poisson[d].nextDouble(); // (0, 1]
            lastUs[d] += (long) ((1_000_000 / iops) * -Math.log(u));
            return lastUs[d];
        }
        long secs = issueBytes[d] / bps[d];
        long rem = issueBytes[d] % bps[d];
        return rem * 1_000_000 / bps[d] + secs * 1_000_000;
    }

    /** An I/O of {@code len} bytes completed (successfully). */
    public void completed(boolean read, int len) {
        if (!counts) {
            return;
        }
        int d = dir(read);
        if (!p.thinktimeIssue()) {
            thinkCounter++;
        }
        doneBytes[d] += len;
        doneIos[d]++;
    }

    /** Whether a think time is due now: the clone then drains what is in flight and calls {@link #think}. */
    private boolean thinkDue(long now) {
        if (!thinks) {
            return false;
        }
        if (p.thinktimeIotimeNs() > 0) {
            if (now - lastThinktime >= p.thinktimeIotimeNs() + p.thinktimeNs()) {
                return true;
            }
            if (!p.thinktimeBlocksSet()) {
                return false;
            }
        }
        return thinkCounter >= lastThinkBlocks + p.thinktimeBlocks();
    }

    /**
     * The think time itself (fio's {@code handle_thinktime()} after {@code io_u_quiesce()}): spin
     * {@code thinktime_spin}, sleep the rest, no longer than {@code limitNs}; returns when done.
     *
     * @param read the direction of the I/O the clone issues next (for {@code rate_ignore_thinktime})
     */
    public void think(long now, long limitNs, boolean read) {
        long spin = Math.min(p.thinktimeSpinNs(), limitNs);
        spinNs(spin);
        long rest = Math.min(p.thinktimeNs() - spin, limitNs - spin);
        if (rest > 0) {
            sleepNs(rest);
        }
        long after = System.nanoTime();
        long totalUs = (after - now) / NS_PER_US;
        int d = dir(read);
        if (totalUs > 0 && bps[d] > 0 && p.rateIgnoreThinktime()) {
            long missed = bps[d] * totalUs / 1_000_000;
            long usPerOp = minBs[d] * 1_000_000 / bps[d];
            long over = usPerOp <= totalUs ? minBs[d] : (usPerOp - totalUs) / usPerOp * -minBs[d];
            issueBytes[d] += missed - over;
            lastUs[d] += totalUs;
        }
        lastThinkBlocks = thinkCounter;
        lastThinktime = after;
    }

    /**
     * fio's {@code check_min_rate()} at {@code now}: a message naming what was missed when a
     * direction fell below {@code rate_min}/{@code rate_iops_min} over the last {@code rate_cycle},
     * else null. Not before 2 s; each direction's first check only sets its mark.
     */
    public String belowMinimum(long now) {
        for (int d = 0; d < 2; d++) {
            boolean read = d == 1;
            long minBytes = p.rateMin().of(read);
            long minIops = p.rateIopsMin().of(read);
            if (doneBytes[d] == 0 || (minBytes == 0 && minIops == 0) || now - start < SETTLE_NS) {
                continue;
            }
            if (lastCheckBytes[d] != 0 || lastCheckIos[d] != 0) {
                long spentMs = (now - lastCheckTime[d]) / 1_000_000;
                if (spentMs < p.rateCycleNs() / 1_000_000 || spentMs == 0) {
                    continue;
                }
                String what = read ? "read" : "write";
                if (minBytes > 0) {
                    long rate = (doneBytes[d] - lastCheckBytes[d]) * 1000 / spentMs;
                    if (rate < minBytes) {
                        return what + " rate_min=" + minBytes + "B/s not met, got " + rate + "B/s";
                    }
                } else {
                    long iops = (doneIos[d] - lastCheckIos[d]) * 1000 / spentMs;
                    if (iops < minIops) {
                        return what + " rate_iops_min=" + minIops + " not met, got " + iops + " IOPS";
                    }
                }
            }
            lastCheckBytes[d] = doneBytes[d];
            lastCheckIos[d] = doneIos[d];
            lastCheckTime[d] = now;
        }
        return null;
    }

    /** Sleeps {@code ns} (at least), through spurious wake-ups. */
    public static void sleepNs(long ns) {
        long end = System.nanoTime() + ns;
        for (long left = ns; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** Spins for {@code ns}, as fio's {@code usec_spin()}. */
    static void spinNs(long ns) {
        long end = System.nanoTime() + ns;
        while (end - System.nanoTime() > 0) {
            Thread.onSpinWait();
        }
    }
}
