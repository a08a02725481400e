package lab.jobspec.stats;

import lab.jobspec.report.FioDirStats;
import lab.jobspec.report.FioLatency;
import lab.jobspec.report.FioPercentiles;
import org.HdrHistogram.Histogram;

/**
 * One direction's statistics of one worker, the per-{@code ddir} part of fio's {@code struct
 * thread_stat}: bytes and I/Os done, {@code slat}/{@code clat}/{@code lat} moments, short I/Os,
 * and a completion-latency histogram for the percentiles.
 *
 * <p>Latencies, in ns: {@code slat} = preparing the I/O (op, offset, data pattern) to its
 * submission; {@code clat} = submission to completion; {@code lat} = both. The histogram covers
 * 0 .. {@link #HIGHEST} ns with three significant digits (fio's own buckets are coarser); longer
 * latencies count as {@link #HIGHEST}. Owner-only; {@link #add} allocates nothing.
 */
public final class DirStat {

    /** Largest latency the histogram resolves: 60 s. */
    public static final long HIGHEST = 60_000_000_000L;

    private final Histogram clatHist = new Histogram(1, HIGHEST, 3);
    private final IoStat slat = new IoStat();
    private final IoStat clat = new IoStat();
    private final IoStat lat = new IoStat();
    private long ioBytes;
    private long totalIos;
    private long shortIos;

    /** One completed I/O that moved {@code bytes}. */
    public void add(long slatNs, long clatNs, long latNs, int bytes) {
        clatHist.recordValue(Math.min(clatNs, HIGHEST));
        slat.add(slatNs);
        clat.add(clatNs);
        lat.add(latNs);
        ioBytes += bytes;
        totalIos++;
    }

    /** One I/O that moved fewer bytes than asked (fio's {@code short_ios}); also {@link #add} it. */
    public void addShort() {
        shortIos++;
    }

    /** Forgets everything ({@code ramp_time} ended). */
    public void reset() {
        clatHist.reset();
        slat.reset();
        clat.reset();
        lat.reset();
        ioBytes = 0;
        totalIos = 0;
        shortIos = 0;
    }

    /** Adds another worker's statistics ({@code sum_thread_stats()}, for {@code group_reporting}). */
    public void merge(DirStat o) {
        clatHist.add(o.clatHist);
        slat.merge(o.slat);
        clat.merge(o.clat);
        lat.merge(o.lat);
        ioBytes += o.ioBytes;
        totalIos += o.totalIos;
        shortIos += o.shortIos;
    }

    public long ioBytes() {
        return ioBytes;
    }

    public long totalIos() {
        return totalIos;
    }

    public long shortIos() {
        return shortIos;
    }

    /** The fio JSON block of this direction, over a runtime of {@code runtimeMs}. */
    public FioDirStats toFio(long runtimeMs) {
        if (totalIos == 0) {
            return FioDirStats.none();
        }
        FioLatency c = new FioLatency(clat.min(), clat.max(), clat.mean(), clat.stddev(), clat.n(),
                FioPercentiles.of(clatHist::getValueAtPercentile));
        FioDirStats d = FioDirStats.of(ioBytes, totalIos, runtimeMs, moments(slat), c, moments(lat));
        return shortIos == 0 ? d : new FioDirStats(d.ioBytes(), d.ioKbytes(), d.bwBytes(), d.bw(), d.iops(),
                d.runtime(), d.totalIos(), shortIos, d.dropIos(), d.slatNs(), d.clatNs(), d.latNs());
    }

    private static FioLatency moments(IoStat s) {
        return new FioLatency(s.min(), s.max(), s.mean(), s.stddev(), s.n(), null);
    }
}
