package lab.jobspec.stats;

import java.util.ArrayList;
import java.util.List;
import lab.jobspec.Job;
import lab.jobspec.JobOrder;

/**
 * fio 3.33's {@code exitall} and {@code exit_what} ({@code libfio.c}: {@code fio_terminate_threads()}):
 * fio reads {@code exitall} as a switch for the whole run ({@code exitall_on_terminate}), so once
 * any job of the file sets it, every clone that ends stops others: with its job's
 * {@code exit_what=group} (the default) every clone of its reporting group, {@code stonewall}
 * every clone running now (of any group), {@code all} every clone of the run, those not started
 * yet included. A stopped clone issues nothing more and reaps what it has in flight, without an
 * error, as fio's {@code td->terminate}; one stopped before it starts issues nothing.
 *
 * <p>One per run, shared by every clone; the flags are volatile.
 */
public final class Exits {
    private static final int PENDING = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;

    /** The run of no job: {@link #alone()}'s. */
    private static final Exits NONE = new Exits(List.of());

    private final boolean exitall;
    private final int[] groups;
    private final List<Member> members = new ArrayList<>();

    /** The run of {@code jobs}, in file order. */
    public Exits(List<Job> jobs) {
        this.exitall = jobs.stream().anyMatch(j -> j.order().exitall());
        this.groups = JobOrder.groupIds(jobs);
    }

    /** A clone of no run (a benchmark's, a test's): nothing stops it, and its end stops nothing. */
    public static Member alone() {
        return new Member(NONE, -1, Job.ExitWhat.GROUP);
    }

    /** Registers a clone of job {@code jobIndex} (in file order); call before any clone starts. */
    public synchronized Member member(Job job, int jobIndex) {
        Member m = new Member(this, groups[jobIndex], job.order().exitWhat());
        members.add(m);
        return m;
    }

    private synchronized void terminate(Member from) {
        for (Member m : members) {
            boolean hit = switch (from.what) {
                case GROUP -> m.group == from.group;
                case STONEWALL -> m.state >= RUNNING;
                case ALL -> true;
            };
            if (hit && m != from) {
                m.terminated = true;
            }
        }
    }

    /** One clone: whether it has been stopped, and its start and end. */
    public static final class Member {
        private final Exits exits;
        private final int group;
        private final Job.ExitWhat what;
        private volatile int state = PENDING;
        private volatile boolean terminated;

        private Member(Exits exits, int group, Job.ExitWhat what) {
            this.exits = exits;
            this.group = group;
            this.what = what;
        }

        /** The clone starts issuing. */
        public void started() {
            state = RUNNING;
        }

        /** Whether another clone's end has stopped this one. */
        public boolean terminated() {
            return terminated;
        }

        /** The clone has ended: under {@code exitall} it stops the others its {@code exit_what} names. */
        public void finished() {
            state = DONE;
            if (exits.exitall) {
                exits.terminate(this);
            }
        }
    }
}
