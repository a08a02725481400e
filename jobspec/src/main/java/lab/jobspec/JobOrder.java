package lab.jobspec;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * When each job of a file may start and which reporting group it is in, from fio 3.33's
 * {@code stonewall} (alias {@code wait_for_previous}), {@code new_group} and {@code wait_for}.
 * Shared by the JVM engine and the native bridge ({@link lab.jobspec.stats.StartGate},
 * {@link lab.jobspec.report.FioGroups}).
 *
 * <h2>Start rules (fio's {@code run_threads()})</h2>
 * fio walks the jobs in file order and starts each it may; a {@code stonewall} job stops the walk
 * while any job is still starting or running, so it and every job after it wait until every job
 * before it has finished; a {@code wait_for} job is skipped while its waitee runs. Here that is
 * one set per job of the jobs whose end it waits for ({@link #waitsFor}): the jobs before the
 * last {@code stonewall} job at or before it, and its waitee. A job starts the moment the last of
 * them ends (fio notices within its polling loop, tens of milliseconds); the jobs of one wave
 * start together, their clones warmed up beforehand.
 *
 * <h2>Groups (fio's {@code add_job()})</h2>
 * Group ids start at 0; a job with {@code stonewall} or {@code new_group} opens the next group,
 * unless no job is in the current one yet (a first job's {@code stonewall} is group 0). A job's
 * clones are in its group ({@code numjobs} clears both options on the clones only).
 *
 * <p>{@code wait_for} must name exactly one earlier job, not itself ({@link JobFileParser}
 * refuses otherwise, as fio: "waitee job ... unknown", "multiple waitees"). The lab also refuses
 * a waitee's name used again by a later job, where fio would wait for both at run time.
 */
public final class JobOrder {

    private JobOrder() {
    }

    /** Each job's reporting group ({@code groupid} in fio's JSON), in job order. */
    public static int[] groupIds(List<Job> jobs) {
        int[] ids = new int[jobs.size()];
        int group = 0;
        boolean anyInGroup = false;
        for (int j = 0; j < ids.length; j++) {
            Job.Order o = jobs.get(j).order();
            if ((o.stonewall() || o.newGroup()) && anyInGroup) {
                group++;
            }
            ids[j] = group;
            anyInGroup = true;
        }
        return ids;
    }

    /**
     * For each job, in job order, the indexes of the jobs whose end it waits for before it starts;
     * empty for a job that starts at once.
     *
     * @throws IllegalArgumentException a {@code wait_for} names no earlier job
     */
    public static List<BitSet> waitsFor(List<Job> jobs) {
        List<BitSet> waits = new ArrayList<>();
        int fence = 0; // jobs before the last stonewall seen
        for (int j = 0; j < jobs.size(); j++) {
            Job.Order o = jobs.get(j).order();
            if (o.stonewall()) {
                fence = j;
            }
            BitSet w = new BitSet();
            w.set(0, fence);
            if (o.waitFor() != null) {
                w.set(waitee(jobs, j));
            }
            waits.add(w);
        }
        return waits;
    }

    /** The index of the job {@code jobs[j]} waits for: the earlier job of that name. */
    static int waitee(List<Job> jobs, int j) {
        String name = jobs.get(j).order().waitFor();
        for (int i = 0; i < j; i++) {
            if (jobs.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("job '" + jobs.get(j).name() + "': waitee job " + name + " unknown");
    }
}
