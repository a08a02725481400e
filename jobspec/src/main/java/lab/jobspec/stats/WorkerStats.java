package lab.jobspec.stats;

import lab.jobspec.Job;

/**
 * What one clone (one of a job's {@code numjobs} workers) measured, fio's {@code struct
 * thread_stat} of one {@code thread_data}: the three directions' {@link DirStat}s, I/O errors, and
 * the clone's runtime and CPU use after {@code ramp_time}.
 *
 * <p>Threading: written by the clone's own thread only; read by whoever joined that thread
 * ({@code Thread.join()} is the happens-before edge). {@link #dir}, {@link #error} and
 * {@link #rampDone} allocate nothing.
 */
public final class WorkerStats {

    private final Job job;
    private final DirStat read = new DirStat();
    private final DirStat write = new DirStat();
    private final DirStat trim = new DirStat();

    private int cpu;
    private long errors;
    private int error;
    private long endNs;
    private long runtimeNs;
    private long usrNs;
    private long sysNs;
    private long ctx;
    /** {@code latency_target}'s depth at the end; null without one. */
    private Integer latencyDepth;
    private long minf;
    private long majf;

    /** @param cpu the per-cpu slot (engine) or the CPU the clone started on (bridge) */
    public WorkerStats(Job job, int cpu) {
        this.job = job;
        this.cpu = cpu;
    }

    public Job job() {
        return job;
    }

    /** The statistics of reads ({@code isRead}) or writes. */
    public DirStat dir(boolean isRead) {
        return isRead ? read : write;
    }

    /** The statistics of trims. */
    public DirStat trim() {
        return trim;
    }

    /**
     * One I/O that failed with {@code errno}; the first one becomes the clone's {@code error}
     * (fio reports its {@code first_error} there also when {@code continue_on_error} went on).
     */
    public void error(int errno) {
        errors++;
        if (error == 0) {
            error = errno;
        }
    }

    /** {@code ramp_time} is over: both directions start over. */
    public void rampDone() {
        read.reset();
        write.reset();
        trim.reset();
    }

    /** The depth {@code latency_target}'s search settled on ({@link LatencyTarget}), at the clone's end. */
    public void latencyDepth(int depth) {
        this.latencyDepth = depth;
    }

    /** {@link #latencyDepth(int)}'s depth; null for a job without {@code latency_target}. */
    public Integer latencyDepth() {
        return latencyDepth;
    }

    /** Where the clone ran, when it is only known once the clone's thread runs. */
    public void cpu(int cpu) {
        this.cpu = cpu;
    }

    /**
     * The clone is done.
     *
     * @param endNs     {@code System.nanoTime()} at its end
     * @param runtimeNs time since {@code ramp_time} ended; 0 if it never ended
     * @param usrNs     user CPU time of the clone's thread over {@code runtimeNs}
     * @param sysNs     system CPU time likewise (may be sampled apart from {@code usrNs} and dip
     *                  below 0 for one clone; groups clamp the sum)
     * @param ctx       context switches of the thread, voluntary and not
     * @param minf      minor page faults of the thread, 0 where unknown
     * @param majf      major page faults of the thread, 0 where unknown
     */
    public void finish(long endNs, long runtimeNs, long usrNs, long sysNs, long ctx, long minf, long majf) {
        this.endNs = endNs;
        this.runtimeNs = runtimeNs;
        this.usrNs = usrNs;
        this.sysNs = sysNs;
        this.ctx = ctx;
        this.minf = minf;
        this.majf = majf;
    }

    public int cpu() {
        return cpu;
    }

    public long errors() {
        return errors;
    }

    /** errno of the first failed I/O, 0 when none. */
    public int firstError() {
        return error;
    }

    long endNs() {
        return endNs;
    }

    long runtimeNs() {
        return runtimeNs;
    }

    long usrNs() {
        return usrNs;
    }

    long sysNs() {
        return sysNs;
    }

    long ctx() {
        return ctx;
    }

    long minf() {
        return minf;
    }

    long majf() {
        return majf;
    }
}
