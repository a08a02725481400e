package lab.jobspec.stats;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import lab.jobspec.Job;
import lab.jobspec.JobOrder;

/**
 * Starts a run's clones together, as fio's {@code run_threads()} does once every thread has set
 * itself up: each clone gets a platform thread, warms up on it (buffers, rings: whatever must be
 * made by the thread that will use it), then waits at one barrier, whose last arrival takes the
 * common start time {@code t0}, so that every clone's {@code ramp_time} and {@code runtime}
 * windows line up.
 *
 * <p>A clone that fails while warming up still arrives at the barrier; once all have arrived,
 * none runs: the others leave without having done any I/O, and {@link #runAll} throws with {@link CloneFailedException#beforeStart}
 * true. A clone that fails after the start does not stop the others.
 *
 * <p>Job ordering ({@link #runJobs}): every clone of every job warms up and meets at the barrier
 * as above (so a set-up failure anywhere still means no I/O at all), then a job that waits
 * ({@code stonewall}, {@code wait_for}: {@link JobOrder#waitsFor}) holds its clones until the last
 * clone of the jobs it waits for has left its {@link Clone#run}, failed or not; that moment is the
 * job's start, given to each of its clones as {@code t0}. fio instead forks a waiting job's
 * threads only when it starts them, and notices the end within its polling loop.
 */
public final class StartGate {

    /** One clone's two phases, each called once on the clone's own thread. */
    public interface Clone {
        /** The thread's name, e.g. {@code "lab-randread.0"}. */
        String threadName();

        /** Set-up before the barrier: allocation, buffers, rings. Nothing may be submitted yet. */
        void warmUp() throws Exception;

        /** The job, from the start time {@code t0} ({@code System.nanoTime()}). */
        void run(long t0) throws Exception;

        /** Called on the clone's thread when it leaves, whatever happened: release what warm-up took. */
        default void release() {
        }
    }

    /** A clone failed; its cause says why. */
    public static final class CloneFailedException extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean beforeStart;

        CloneFailedException(String clone, boolean beforeStart, Throwable cause) {
            super(clone + (beforeStart ? " failed to set up: " : " failed: ") + cause.getMessage(), cause);
            this.beforeStart = beforeStart;
        }

        /** True when the clone failed in {@link Clone#warmUp}: no clone has done any I/O. */
        public boolean beforeStart() {
            return beforeStart;
        }
    }

    /**
     * When a run's jobs started.
     *
     * @param t0       the start barrier's {@code System.nanoTime()}: the run's start
     * @param jobStart each job's start, in job order: {@code t0}, or the end of the last job it
     *                 waited for
     */
    public record Started(long t0, long[] jobStart) {
    }

    /** One waiting job's gate: opens when the last clone it waits for is done. */
    private static final class JobGate {
        final AtomicInteger remaining;
        final CountDownLatch open = new CountDownLatch(1);
        volatile long startNs;

        JobGate(int clones) {
            remaining = new AtomicInteger(clones);
        }

        void cloneDone() {
            if (remaining.decrementAndGet() == 0) {
                startNs = System.nanoTime();
                open.countDown();           // startNs's write happens-before await's return
            }
        }
    }

    private StartGate() {
    }

    /**
     * Runs every clone of {@code jobs} with fio's job ordering (see the class comment) and waits
     * for all of them.
     *
     * @param clones job by job, {@code numjobs} clones each, in {@code jobs}' order
     * @throws CloneFailedException the first clone (in list order) that failed
     */
    public static Started runJobs(List<Job> jobs, List<? extends Clone> clones) throws CloneFailedException {
        int[] jobOf = new int[clones.size()];
        int c = 0;
        for (int j = 0; j < jobs.size(); j++) {
            for (int k = 0; k < jobs.get(j).numjobs(); k++, c++) {
                if (c == jobOf.length) {
                    throw new IllegalArgumentException("fewer clones than the jobs' numjobs");
                }
                jobOf[c] = j;
            }
        }
        if (c != jobOf.length) {
            throw new IllegalArgumentException("more clones than the jobs' numjobs");
        }
        List<BitSet> waits = JobOrder.waitsFor(jobs);
        JobGate[] gates = new JobGate[jobs.size()];
        List<List<JobGate>> dependents = new ArrayList<>();
        jobs.forEach(j -> dependents.add(new ArrayList<>()));
        Map<BitSet, JobGate> byWaits = new HashMap<>(); // jobs that wait for the same jobs share a gate: one start
        for (int j = 0; j < gates.length; j++) {
            BitSet w = waits.get(j);
            if (!w.isEmpty()) {
                gates[j] = byWaits.computeIfAbsent(w, k -> {
                    JobGate g = new JobGate(k.stream().map(i -> jobs.get(i).numjobs()).sum());
                    k.stream().forEach(i -> dependents.get(i).add(g));
                    return g;
                });
            }
        }
        List<Clone> gated = new ArrayList<>();
        for (int i = 0; i < jobOf.length; i++) {
            gated.add(new Gated(clones.get(i), gates[jobOf[i]], dependents.get(jobOf[i])));
        }
        long t0 = runAll(gated);
        long[] starts = new long[jobs.size()];
        for (int j = 0; j < starts.length; j++) {
            starts[j] = gates[j] == null ? t0 : gates[j].startNs;
        }
        return new Started(t0, starts);
    }

    /** A clone that waits at its job's gate after the barrier and, once done, counts down its dependents'. */
    private record Gated(Clone inner, JobGate gate, List<JobGate> dependents) implements Clone {
        @Override
        public String threadName() {
            return inner.threadName();
        }

        @Override
        public void warmUp() throws Exception {
            inner.warmUp();
        }

        @Override
        public void run(long t0) throws Exception {
            try {
                long start = t0;
                if (gate != null) {
                    gate.open.await();
                    start = gate.startNs;
                }
                inner.run(start);
            } finally {
                dependents.forEach(JobGate::cloneDone);
            }
        }

        @Override
        public void release() {
            inner.release();
        }
    }

    /**
     * Runs every clone and waits for all of them.
     *
     * @return {@code t0}, the start barrier's time
     * @throws CloneFailedException the first clone (in list order) that failed
     */
    public static long runAll(List<? extends Clone> clones) throws CloneFailedException {
        long[] t0 = new long[1];
        CyclicBarrier gate = new CyclicBarrier(clones.size(), () -> t0[0] = System.nanoTime());
        AtomicBoolean setupFailed = new AtomicBoolean();
        Throwable[] failure = new Throwable[clones.size()];
        boolean[] started = new boolean[clones.size()];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clones.size(); i++) {
            Clone c = clones.get(i);
            int slot = i;
            threads.add(Thread.ofPlatform().name(c.threadName()).unstarted(() -> {
                try {
                    try {
                        c.warmUp();
                    } catch (Throwable e) {
                        failure[slot] = e;
                        setupFailed.set(true);
                    }
                    // every clone arrives, failed or not, so the barrier always trips: a failure
                    // before another's arrival cannot leave it waiting on a reset barrier
                    gate.await();           // barrier action's write of t0 happens-before await's return
                    if (setupFailed.get()) {
                        return;             // some clone could not set up: none runs
                    }
                    started[slot] = true;
                    c.run(t0[0]);
                } catch (Throwable e) {
                    failure[slot] = e;
                } finally {
                    c.release();
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            try {
                t.join();                   // join: every write of the clone happens-before the read here
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while jobs run", e);
            }
        }
        for (int i = 0; i < failure.length; i++) {
            Throwable f = failure[i];
            if (f != null) {
                throw new CloneFailedException(clones.get(i).threadName(), !started[i], f);
            }
        }
        return t0[0];
    }
}
