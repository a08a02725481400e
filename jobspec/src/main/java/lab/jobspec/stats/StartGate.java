package lab.jobspec.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * Starts a run's clones together, as fio's {@code run_threads()} does once every thread has set
 * itself up: each clone gets a platform thread, warms up on it (buffers, rings: whatever must be
 * made by the thread that will use it), then waits at one barrier, whose last arrival takes the
 * common start time {@code t0}, so that every clone's {@code ramp_time} and {@code runtime}
 * windows line up.
 *
 * <p>A clone that fails while warming up breaks the barrier: the others leave it at once
 * without having done any I/O, and {@link #runAll} throws with {@link CloneFailedException#beforeStart}
 * true. A clone that fails after the start does not stop the others.
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

    private StartGate() {
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
        Throwable[] failure = new Throwable[clones.size()];
        boolean[] started = new boolean[clones.size()];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clones.size(); i++) {
            Clone c = clones.get(i);
            int slot = i;
            threads.add(Thread.ofPlatform().name(c.threadName()).unstarted(() -> {
                try {
                    c.warmUp();
                    gate.await();           // barrier action's write of t0 happens-before await's return
                    started[slot] = true;
                    c.run(t0[0]);
                } catch (Throwable e) {
                    failure[slot] = e;
                    gate.reset();           // wakes the others with BrokenBarrierException
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
            if (f != null && !(f instanceof BrokenBarrierException)) {
                throw new CloneFailedException(clones.get(i).threadName(), !started[i], f);
            }
        }
        return t0[0];
    }
}
