package lab.engine.load;

import java.util.List;
import java.util.Objects;
import lab.engine.blkcg.CssForward;
import lab.jobspec.Inject;
import lab.jobspec.Job;

/**
 * What a run puts between the jobs and the engine device, as the command line names it: a stack
 * of {@code dmLinear} dm-linear layers ({@code --dm-linear N}, 0: none), how bios carry their
 * cgroup down it ({@code --css ID}, {@link CssForward}), and the contention points to inject
 * ({@code --inject}; null: the job file's {@code inject} key).
 */
public record StackSpec(int dmLinear, CssForward css, List<Inject> inject) {
    /** The disk alone, today's per-cpu css, the job file's injections. */
    public static final StackSpec PLAIN = new StackSpec(0, CssForward.PERCPU, null);

    public StackSpec {
        Objects.requireNonNull(css, "css");
        if (dmLinear < 0 || dmLinear > 64) {
            throw new IllegalArgumentException("--dm-linear " + dmLinear + " is out of range [0, 64]");
        }
        inject = inject == null ? null : List.copyOf(inject);
    }

    /**
     * The injections of a run of {@code jobs}: the command line's, else the jobs' (which must agree:
     * one device serves the file).
     *
     * @throws IllegalArgumentException when the jobs differ, or a point needs a dm layer the run has not
     */
    public List<Inject> injections(List<Job> jobs) {
        List<Inject> out = inject;
        if (out == null) {
            out = jobs.isEmpty() ? List.of() : jobs.getFirst().inject();
            for (Job j : jobs) {
                if (!j.inject().equals(out)) {
                    throw new IllegalArgumentException(j.source() + ":" + j.line() + ": key 'inject': job '" + j.name()
                            + "' injects " + Inject.format(j.inject()) + ", an earlier job " + Inject.format(out)
                            + "; one engine device serves the file, so every job must inject the same");
                }
            }
        }
        if (dmLinear == 0) {
            for (Inject i : out) {
                if (i.stage().perLayer()) {
                    throw new IllegalArgumentException("inject " + i + ": stage " + i.stage().id()
                            + " lies inside a dm layer, and this run has none (--dm-linear N)");
                }
            }
        }
        return out;
    }
}
