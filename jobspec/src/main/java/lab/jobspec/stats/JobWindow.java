package lab.jobspec.stats;

import lab.jobspec.IoSequence;
import lab.jobspec.Job;

/**
 * When a clone may issue, with fio's meaning of {@code ramp_time}, {@code runtime},
 * {@code time_based} and {@code size}: statistics start when {@code ramp_time} has passed since
 * the start barrier; issuing stops {@code runtime} after that, or, unless {@code time_based}
 * (with a {@code runtime}), once one pass of {@code size} has been issued. A {@code time_based}
 * job wraps into a new pass instead. Shared by the engine's and the bridge's clone loops.
 * Owner-only; no allocation.
 */
public final class JobWindow {

    private final long rampEnd;
    private final long end;
    private final boolean hasEnd;
    private final boolean timeBased;
    private boolean ramped;

    /** @param t0 the start barrier's {@code System.nanoTime()} */
    public JobWindow(Job job, long t0) {
        this.rampEnd = t0 + job.rampTimeNs();
        this.hasEnd = job.runtimeNs() > 0;
        this.end = rampEnd + job.runtimeNs();
        this.timeBased = job.timeBased() && hasEnd;
    }

    /** True once, at the first call at or after the end of {@code ramp_time}: reset the statistics then. */
    public boolean rampEnds(long now) {
        if (!ramped && now - rampEnd >= 0) {
            ramped = true;
            return true;
        }
        return false;
    }

    /** Whether {@code runtime} is over. */
    public boolean over(long now) {
        return hasEnd && now - end >= 0;
    }

    /**
     * Whether {@code seq} may give another I/O: false when its pass of {@code size} is done and
     * the job is not {@code time_based}; a {@code time_based} job starts a new pass.
     */
    public boolean nextInPass(IoSequence seq) {
        if (seq.passDone()) {
            if (!timeBased) {
                return false;
            }
            seq.resetPass();
        }
        return true;
    }
}
