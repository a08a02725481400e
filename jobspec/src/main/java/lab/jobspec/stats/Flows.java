package lab.jobspec.stats;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import lab.jobspec.Job;

/**
 * fio 3.33's flow control ({@code flow.c}): the clones of the jobs that share a {@code flow_id}
 * keep their I/O counts in the ratio of their {@code flow} weights. Each flow has one counter of
 * the I/Os its members have issued (starting at 1) and the sum of its members' weights; a clone
 * may issue its next I/O only while its own count over the flow's is at most its weight over the
 * flow's ({@link Member#ahead()}), and then both counts go up. A clone joins when it starts
 * ({@code flow_init_job()}) and, when it ends, takes its count and weight back out
 * ({@code flow_exit_job()}), so the others are not held to a clone that is gone.
 *
 * <p>One per run, shared by the clones of every job; the counters are atomics, as fio's (the
 * flow's lives in fio's shared memory).
 */
public final class Flows {

    /** One {@code flow_id}'s counter and weight (fio's {@code struct fio_flow}). */
    private static final class Flow {
        final AtomicLong counter = new AtomicLong(1);
        final AtomicLong totalWeight = new AtomicLong();
    }

    private final Map<Long, Flow> byId = new HashMap<>();

    /** The flows of {@code jobs}: one per {@code flow_id} that a job with a {@code flow} weight names. */
    public Flows(List<Job> jobs) {
        for (Job j : jobs) {
            if (j.pace().flow() > 0) {
                byId.computeIfAbsent(j.pace().flowId(), id -> new Flow());
            }
        }
    }

    /** Clone membership of {@code job}'s flow, or null when the job sets no {@code flow}. */
    public Member member(Job job) {
        return job.pace().flow() == 0 ? null : new Member(byId.get(job.pace().flowId()), job.pace().flow());
    }

    /** One clone in its flow; owner-only but for the flow's atomics. */
    public static final class Member {
        private final Flow flow;
        private final long weight;
        private long own;
        private boolean joined;

        private Member(Flow flow, long weight) {
            this.flow = flow;
            this.weight = weight;
        }

        /** The clone starts: its weight joins the flow's. */
        public void join() {
            if (!joined) {
                joined = true;
                flow.totalWeight.addAndGet(weight);
            }
        }

        /**
         * fio's {@code flow_threshold_exceeded()}: true when this clone is ahead of its share (it
         * must not issue now); otherwise its next I/O is counted, in the flow's and its own count.
         */
        public boolean ahead() {
            double counterRatio = (double) own / flow.counter.get();
            double weightRatio = (double) weight / flow.totalWeight.get();
            if (counterRatio > weightRatio) {
                return true;
            }
            flow.counter.incrementAndGet();
            own++;
            return false;
        }

        /** The clone ends: its count and weight leave the flow. */
        public void leave() {
            if (joined) {
                joined = false;
                flow.counter.addAndGet(-own);
                flow.totalWeight.addAndGet(-weight);
            }
        }
    }
}
