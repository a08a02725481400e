package lab.jobspec.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.jobspec.Job;
import lab.jobspec.report.FioDirStats;
import lab.jobspec.report.FioJob;
import lab.jobspec.report.FioLab;
import lab.jobspec.report.FioOptions;

/**
 * The clones of one {@code jobs[]} entry summed as fio's {@code sum_thread_stats()}: one clone,
 * or with {@code group_reporting} a group of them (see {@link lab.jobspec.report.FioGroups}).
 * Rates use the longest clone runtime, {@code job_runtime} and the CPU percentages the summed
 * runtime, as fio. Built after every clone has been joined; immutable after.
 */
public final class GroupStats {

    private final List<WorkerStats> clones;
    private final DirStat read = new DirStat();
    private final DirStat write = new DirStat();
    private final DirStat trim = new DirStat();
    private final List<Integer> cpus = new ArrayList<>();
    private long maxRuntime;
    private long sumRuntime;
    private long usr;
    private long sys;
    private long ctx;
    private long minf;
    private long majf;
    private long errors;
    private int error;
    private long end = Long.MIN_VALUE;

    private GroupStats(List<WorkerStats> clones) {
        this.clones = List.copyOf(clones);
        for (WorkerStats w : clones) {
            read.merge(w.dir(true));
            write.merge(w.dir(false));
            trim.merge(w.trim());
            maxRuntime = Math.max(maxRuntime, w.runtimeNs());
            sumRuntime += w.runtimeNs();
            usr += w.usrNs();
            sys += w.sysNs();
            ctx += w.ctx();
            minf += w.minf();
            majf += w.majf();
            errors += w.errors();
            error = error != 0 ? error : w.firstError();
            end = Math.max(end, w.endNs());
            cpus.add(w.cpu());
        }
    }

    /** Sums a non-empty group of joined clones. */
    public static GroupStats of(List<WorkerStats> clones) {
        if (clones.isEmpty()) {
            throw new IllegalArgumentException("a report entry sums at least one clone");
        }
        return new GroupStats(clones);
    }

    public List<WorkerStats> clones() {
        return clones;
    }

    /** The CPU (or per-cpu slot) of each clone, in clone order. */
    public List<Integer> cpus() {
        return List.copyOf(cpus);
    }

    /** {@code System.nanoTime()} at the end of the group's last clone. */
    long endNs() {
        return end;
    }

    /** I/Os that completed with an error, over all clones. */
    public long errors() {
        return errors;
    }

    /**
     * The fio {@code jobs[]} entry.
     *
     * @param global  the file's {@code global options} (see {@link FioOptions#global})
     * @param groupid the entry's reporting group ({@link lab.jobspec.JobOrder#groupIds})
     * @param t0     the common start ({@code System.nanoTime()} at the start barrier)
     * @param lab    the entry's {@code "lab"} object
     */
    public FioJob toFioJob(Map<String, String> global, int groupid, long t0, FioLab lab) {
        long runtimeMs = Math.max(1, maxRuntime / 1_000_000);
        Job first = clones.getFirst().job();
        long elapsedNs = Math.max(0, end - t0);
        FioDirStats r = read.toFio(runtimeMs);
        FioDirStats w = write.toFio(runtimeMs);
        return new FioJob(first.name(), groupid, error, (elapsedNs + 999_999_999) / 1_000_000_000,
                FioOptions.jobOnly(first, global), r, w, trim.toFio(runtimeMs),
                sumRuntime / 1_000_000,
                FioJob.cpuPercent(usr, sumRuntime), FioJob.cpuPercent(Math.max(0, sys), sumRuntime),
                ctx, majf, minf, lab, clones.getFirst().latencyDepth());
    }
}
