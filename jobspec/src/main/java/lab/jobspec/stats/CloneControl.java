package lab.jobspec.stats;

import java.util.ArrayList;
import java.util.List;
import lab.jobspec.Job;

/**
 * What other clones of a run have to do with one clone's issuing: its {@code flow}
 * ({@link Flows}), {@code exitall} ({@link Exits}) and steady state ({@link SteadyState}). One per
 * clone, made for the whole run at once ({@link #forRun}); the engine's and the bridge's clone
 * loops call it at their start, each turn, each completion and their end.
 */
public final class CloneControl {
    private final Flows.Member flow;
    private final Exits.Member exit;
    private final SteadyState steady;

    private CloneControl(Flows.Member flow, Exits.Member exit, SteadyState steady) {
        this.flow = flow;
        this.exit = exit;
        this.steady = steady;
    }

    /** Every clone's control, in run order (jobs in file order, each job's clones in order). */
    public static List<CloneControl> forRun(List<Job> jobs) {
        Flows flows = new Flows(jobs);
        Exits exits = new Exits(jobs);
        List<SteadyState> steady = SteadyState.forClones(jobs);
        List<CloneControl> out = new ArrayList<>();
        for (int j = 0; j < jobs.size(); j++) {
            Job job = jobs.get(j);
            for (int c = 0; c < job.numjobs(); c++) {
                out.add(new CloneControl(flows.member(job), exits.member(job, j), steady.get(out.size())));
            }
        }
        return out;
    }

    /** A clone of no run (a benchmark's, a test's): no flow, nothing stops it, no steady state. */
    public static CloneControl alone() {
        return new CloneControl(null, Exits.alone(), null);
    }

    /** The clone's window opens at {@code now}. */
    public void start(long now) {
        exit.started();
        if (flow != null) {
            flow.join();
        }
        if (steady != null) {
            steady.start(now);
        }
    }

    /** Whether the clone must stop issuing: another clone's end ({@code exitall}) or steady state attained. */
    public boolean stopped(long now) {
        if (steady != null) {
            steady.tick(now);
            if (steady.attained()) {
                return true;
            }
        }
        return exit.terminated();
    }

    /** Whether the clone issues one I/O at a time: it is in a flow. */
    public boolean inFlow() {
        return flow != null;
    }

    /** In a flow, whether the clone is ahead of its share now; otherwise its next I/O is counted ({@link Flows.Member#ahead()}). */
    public boolean flowAhead() {
        return flow != null && flow.ahead();
    }

    /** An I/O of {@code len} bytes completed. */
    public void completed(int len) {
        if (steady != null) {
            steady.completed(len);
        }
    }

    /** The clone has ended: it leaves its flow and, under {@code exitall}, stops others. */
    public void finished() {
        if (flow != null) {
            flow.leave();
        }
        exit.finished();
    }
}
