package lab.engine.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import lab.engine.count.Contention;
import lab.engine.count.ContentionCounts;

/**
 * The loop of a contention run (the *Counts classes' {@code contention} methods): the benchmark's
 * own I/O on {@code threads} threads at once, its stack built with a {@link Contention} as the
 * sink, as the count run builds it with a LineTally. Each thread sets its worker up on itself, does
 * {@value CountRun#WARMUP} I/Os of warm-up, meets the others, does {@code iosPerThread} counted
 * I/Os, meets them again, and tears its worker down; the counts are read at the two meetings (a
 * barrier's action, once every thread has stopped counting), so they are exactly the counted I/Os'.
 * Every I/O must have completed OK.
 *
 * <p>A run apart from the timed one, as the count run is: a timed run's stack has
 * {@code SharedLines.NONE}, whose counters are empty. Under the counting sink each counted
 * operation adds a thread-local lookup and owner-only stores to the thread's own padded rows, and
 * a contended acquisition two clock reads: the counts are the model's, the timing of a contention
 * run is not a result.
 */
final class ContentionRun {
    /** One worker of the run, made on its own thread. */
    interface Worker {
        /** One I/O of the benchmark. */
        void io();

        /** I/Os completed OK so far. */
        long completed();

        /** Its trial teardown. */
        void close();

        /** A worker of {@code io}, counted by {@code completed}, torn down by {@code close}. */
        static Worker of(Runnable io, java.util.function.LongSupplier completed, Runnable close) {
            return new Worker() {
                @Override
                public void io() {
                    io.run();
                }

                @Override
                public long completed() {
                    return completed.getAsLong();
                }

                @Override
                public void close() {
                    close.run();
                }
            };
        }
    }

    private ContentionRun() {
    }

    /**
     * Runs {@code threads} workers from {@code workers} (called once on each thread) and returns the
     * counts per I/O; then, whatever happened, {@code tearDown} (the stack's).
     */
    static ContentionCounts run(Contention c, int threads, long iosPerThread, Supplier<Worker> workers, Runnable tearDown) {
        try {
            return run(c, threads, iosPerThread, workers);
        } finally {
            tearDown.run();
        }
    }

    private static ContentionCounts run(Contention c, int threads, long iosPerThread, Supplier<Worker> workers) {
        if (threads < 1 || iosPerThread < 1) {
            throw new IllegalArgumentException("threads " + threads + ", ios " + iosPerThread);
        }
        AtomicReference<Map<String, Map<String, Contention.LockCounts>>> locks = new AtomicReference<>();
        AtomicReference<Map<String, Long>> handoffs = new AtomicReference<>();
        AtomicReference<ContentionCounts> out = new AtomicReference<>();
        long ios = threads * iosPerThread;
        CyclicBarrier start = new CyclicBarrier(threads, () -> {
            locks.set(c.locks());
            handoffs.set(c.handoffs());
        });
        CyclicBarrier stop = new CyclicBarrier(threads, () -> out.set(ContentionCounts.between(locks.get(), handoffs.get(), c, threads, ios)));
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            ts.add(Thread.ofPlatform().name("contention-" + t).start(() -> {
                Worker w = workers.get();
                try {
                    for (int i = 0; i < CountRun.WARMUP; i++) {
                        w.io();
                    }
                    start.await();
                    for (long i = 0; i < iosPerThread; i++) {
                        w.io();
                    }
                    stop.await();
                    if (w.completed() != CountRun.WARMUP + iosPerThread) {
                        throw new IllegalStateException("contention run: " + w.completed() + " of " + (CountRun.WARMUP + iosPerThread)
                                + " I/Os completed OK");
                    }
                } catch (Throwable e) {
                    failed.compareAndSet(null, e);
                    start.reset();
                    stop.reset();
                } finally {
                    w.close();
                }
            }));
        }
        for (Thread t : ts) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("contention run interrupted", e);
            }
        }
        if (failed.get() != null) {
            throw new IllegalStateException("contention run failed: " + failed.get(), failed.get());
        }
        return out.get();
    }
}
