package lab.jobspec.stats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import lab.jobspec.Job;
import lab.jobspec.report.FioGroups;
import lab.jobspec.report.FioJob;
import lab.jobspec.report.FioJson;
import lab.jobspec.report.FioLab;
import lab.jobspec.report.FioOptions;
import lab.jobspec.report.FioReport;

/**
 * Builds a run's {@link FioReport} from its joined clones, the part of fio's
 * {@code __show_run_stats()} the lab keeps: group the clones ({@link FioGroups}), sum each
 * group ({@link GroupStats}), and write one {@code jobs[]} entry per group. Shared by the JVM
 * engine and the native bridge so that both report with one rule.
 */
public final class RunReport {

    private RunReport() {
    }

    /**
     * @param version the report's {@code "fio version"}, e.g. {@code "lab-bridge-0.1.0"}
     * @param wall    the run's start, wall clock
     * @param jobs    the job file's jobs, for {@code global options} and reporting groups
     * @param clones  every clone, job by job, clone by clone (start order)
     * @param started the start barrier's time and each job's start ({@link StartGate#runJobs})
     * @param lab     the {@code "lab"} object of one entry
     */
    public static FioReport build(String version, Instant wall, List<Job> jobs, List<WorkerStats> clones,
                                  StartGate.Started started, Function<GroupStats, FioLab> lab) {
        Map<String, String> global = FioOptions.global(jobs);
        List<FioJob> entries = new ArrayList<>();
        Map<Job, Integer> groupOf = FioGroups.groupOf(jobs);
        Map<Job, Integer> index = new IdentityHashMap<>();
        for (int j = 0; j < jobs.size(); j++) {
            index.put(jobs.get(j), j);
        }
        long t0 = started.t0();
        for (List<WorkerStats> group : FioGroups.group(jobs, clones, WorkerStats::job)) {
            GroupStats g = GroupStats.of(group);
            Job first = g.clones().getFirst().job();
            long startNs = started.jobStart()[index.get(first)];
            FioLab entryLab = lab.apply(g).withWindow((startNs - t0) / 1000, (g.endNs() - t0) / 1000);
            entries.add(g.toFioJob(global, groupOf.get(first), t0, entryLab));
        }
        return new FioReport(version, wall.getEpochSecond(), wall.toEpochMilli(), FioJson.ctime(wall),
                global, entries);
    }
}
