package lab.engine.load;

import lab.jobspec.report.FioDirStats;
import lab.jobspec.report.FioLatency;
import lab.jobspec.report.FioPercentiles;
import org.HdrHistogram.Histogram;

/**
 * One direction's statistics of one worker, the per-{@code ddir} part of fio's {@code struct
 * thread_stat}: bytes and I/Os done, {@code slat}/{@code clat}/{@code lat} moments, and a
 * completion-latency histogram for the percentiles.
 *
 * <p>Latencies, in ns: {@code slat} = building the bio (allocation, data pattern) to
 * {@code submitBio}; {@code clat} = {@code submitBio} to {@code endIo}; {@code lat} = both.
 * The histogram covers 0 .. {@link #HIGHEST} ns with three significant digits (fio's own
 * buckets are coarser); longer latencies count as {@link #HIGHEST}. Owner-only; {@link #add}
 * allocates nothing.
 */
final class DirStat {

    /** Largest latency the histogram resolves: 60 s. */
    static final long HIGHEST = 60_000_000_000L;

    private final Histogram clatHist = new Histogram(1, HIGHEST, 3);
    private final IoStat slat = new IoStat();
    private final IoStat clat = new IoStat();
    private final IoStat lat = new IoStat();
    private long ioBytes;
    private long totalIos;

    /** One completed I/O of {@code bytes}. */
    void add(long slatNs, long clatNs, long latNs, int bytes) {
        clatHist.recordValue(Math.min(clatNs, HIGHEST));
        slat.add(slatNs);
        clat.add(clatNs);
        lat.add(latNs);
        ioBytes += bytes;
        totalIos++;
    }

    /** Forgets everything ({@code ramp_time} ended). */
    void reset() {
        clatHist.reset();
        slat.reset();
        clat.reset();
        lat.reset();
        ioBytes = 0;
        totalIos = 0;
    }

    /** Adds another worker's statistics ({@code sum_thread_stats()}, for {@code group_reporting}). */
    void merge(DirStat o) {
        clatHist.add(o.clatHist);
        slat.merge(o.slat);
        clat.merge(o.clat);
        lat.merge(o.lat);
        ioBytes += o.ioBytes;
        totalIos += o.totalIos;
    }

    long ioBytes() {
        return ioBytes;
    }

    long totalIos() {
        return totalIos;
    }

    /** The fio JSON block of this direction, over a runtime of {@code runtimeMs}. */
    FioDirStats toFio(long runtimeMs) {
        if (totalIos == 0) {
            return FioDirStats.none();
        }
        FioLatency c = new FioLatency(clat.min(), clat.max(), clat.mean(), clat.stddev(), clat.n(),
                FioPercentiles.of(clatHist::getValueAtPercentile));
        return FioDirStats.of(ioBytes, totalIos, runtimeMs, moments(slat), c, moments(lat));
    }

    private static FioLatency moments(IoStat s) {
        return new FioLatency(s.min(), s.max(), s.mean(), s.stddev(), s.n(), null);
    }
}
