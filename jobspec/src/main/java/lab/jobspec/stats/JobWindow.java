package lab.jobspec.stats;

import lab.jobspec.IoSequence;
import lab.jobspec.Job;

/**
 * When a clone may issue, with fio's meaning of {@code ramp_time}, {@code runtime},
 * {@code time_based}, {@code size}, {@code io_size} and {@code number_ios}: statistics start when
 * {@code ramp_time} has passed since the start barrier; issuing stops {@code runtime} after that,
 * or, unless {@code time_based} (with a {@code runtime}), when the {@link IoSequence} says the job
 * is done (a pass of {@code size}, or {@code io_size} bytes over as many passes, or
 * {@code number_ios} I/Os, whichever comes first). A {@code time_based} job wraps instead. Shared
 * by the engine's and the bridge's clone loops. Owner-only; no allocation.
 */
public final class JobWindow {

    private final long rampEnd;
    private final long end;
    private final boolean hasEnd;
    private boolean ramped;

    /** @param t0 the start barrier's {@code System.nanoTime()} */
    public JobWindow(Job job, long t0) {
        this.rampEnd = t0 + job.rampTimeNs();
        this.hasEnd = job.runtimeNs() > 0;
        this.end = rampEnd + job.runtimeNs();
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

    /** Nanoseconds from {@code now} to the end of {@code runtime}: a pause need not last longer; {@link Long#MAX_VALUE} without one. */
    public long untilEnd(long now) {
        return hasEnd ? Math.max(0, end - now) : Long.MAX_VALUE;
    }

    /**
     * Whether {@code seq} may give another I/O: false once the job has done what {@code size},
     * {@code io_size} and {@code number_ios} ask (never for a {@code time_based} job, whose
     * sequence wraps); a new pass starts here when {@code io_size} asks for more.
     */
    public boolean nextInPass(IoSequence seq) {
        return seq.hasNext();
    }
}
