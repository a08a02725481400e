package lab.jobspec.report;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import lab.jobspec.Job;
import lab.jobspec.JobOrder;

/**
 * fio's rule for which clones share one {@code jobs[]} entry (fio stat.c,
 * {@code __show_run_stats}): walking the clones in start order, a clone opens a new entry unless
 * it has {@code group_reporting} set and is in the same reporting group as the entry before it.
 * Reporting groups are fio's ({@link JobOrder#groupIds}: {@code stonewall} and {@code new_group}
 * open the next): with {@code group_reporting} in {@code [global]} each group is one entry, as in fio.
 */
public final class FioGroups {

    private FioGroups() {
    }

    /**
     * Splits {@code clones} (in start order: job by job, clone by clone) into report entries.
     *
     * @param jobs  the file's jobs, in order: their reporting groups
     * @param jobOf the job a clone was made from (one of {@code jobs}, the same instance)
     * @return the entries, each a non-empty list of clones in their original order
     */
    public static <T> List<List<T>> group(List<Job> jobs, List<T> clones, Function<? super T, Job> jobOf) {
        Map<Job, Integer> groupOf = groupOf(jobs);
        List<List<T>> entries = new ArrayList<>();
        List<T> current = null;
        int currentGroup = -1;
        for (T clone : clones) {
            Job job = jobOf.apply(clone);
            int group = groupOf.get(job);
            if (current == null || !job.groupReporting() || group != currentGroup) {
                current = new ArrayList<>();
                entries.add(current);
                currentGroup = group;
            }
            current.add(clone);
        }
        return entries;
    }

    /** Each of {@code jobs} (by identity) to its reporting group. */
    public static Map<Job, Integer> groupOf(List<Job> jobs) {
        int[] ids = JobOrder.groupIds(jobs);
        Map<Job, Integer> m = new IdentityHashMap<>();
        for (int j = 0; j < ids.length; j++) {
            m.put(jobs.get(j), ids[j]);
        }
        return m;
    }
}
