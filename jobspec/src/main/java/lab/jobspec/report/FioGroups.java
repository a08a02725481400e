package lab.jobspec.report;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import lab.jobspec.Job;

/**
 * fio's rule for which clones share one {@code jobs[]} entry (fio stat.c,
 * {@code __show_run_stats}): walking the clones in start order, a clone opens a new entry unless
 * it has {@code group_reporting} set and is in the same reporting group as the entry before it.
 * The lab's job-file subset has no {@code stonewall}/{@code new_group}, so every clone is in
 * group 0: with {@code group_reporting} in {@code [global]} the whole file is one entry, as in fio.
 */
public final class FioGroups {

    private FioGroups() {
    }

    /**
     * Splits {@code clones} (in start order: job by job, clone by clone) into report entries.
     *
     * @param jobOf the job a clone was made from
     * @return the entries, each a non-empty list of clones in their original order
     */
    public static <T> List<List<T>> group(List<T> clones, Function<? super T, Job> jobOf) {
        List<List<T>> entries = new ArrayList<>();
        List<T> current = null;
        for (T clone : clones) {
            if (current == null || !jobOf.apply(clone).groupReporting()) {
                current = new ArrayList<>();
                entries.add(current);
            }
            current.add(clone);
        }
        return entries;
    }
}
