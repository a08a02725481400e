package lab.engine.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Test helper: run one body per worker slot on real threads, start them together, join with a deadline. */
public final class Workers {
    static final long TIMEOUT_S = 60;

    public interface Body {
        void run(int cpu) throws Exception;
    }

    private Workers() {
    }

    /** Runs {@code body(cpu)} for cpu 0..n-1 on n threads; rethrows the first failure; fails on timeout. */
    public static void run(int n, Body body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int cpu = i;
            threads.add(Thread.ofPlatform().name("worker-" + cpu).start(() -> {
                try {
                    start.await();
                    body.run(cpu);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        start.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                throw new AssertionError(t.getName() + " still running after " + TIMEOUT_S + " s (hang?)");
            }
        }
        if (failure.get() != null) {
            throw new AssertionError("worker failed", failure.get());
        }
    }

    /** Starts {@code body} on its own thread, for tests that block one party on purpose. */
    static Thread start(String name, Runnable body) {
        return Thread.ofPlatform().daemon().name(name).start(body);
    }

    /** Awaits a latch that must open, failing the test instead of hanging. */
    static void await(CountDownLatch latch) throws InterruptedException {
        if (!latch.await(TIMEOUT_S, TimeUnit.SECONDS)) {
            throw new AssertionError("latch not opened within " + TIMEOUT_S + " s");
        }
    }
}
