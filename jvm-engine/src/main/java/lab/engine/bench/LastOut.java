package lab.engine.bench;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The workers of one trial's shared stack, so that the last one to leave frees it.
 *
 * <p>Why not JMH's own {@code @TearDown(Level.Trial)} on the {@code Scope.Benchmark} state: JMH
 * runs that teardown in whichever worker takes its mutex first, and the others poll the mutex,
 * sleeping 1 ms and then 1024 ms (the generated code's backoff is {@code Math.max(1024, 2 * b)},
 * JMH 1.37). Freeing a stack takes more than 1 ms (closing a shared {@code Arena} is a handshake
 * with every thread; PartAcct also stops its jiffies clock), so every multi-threaded trial of
 * DmCssRef, PartAcct and ThinBufioLock ended with a worker asleep for a second: measured on this
 * host, the last of 3 x 200 ms iterations took 1.22-1.24 s at 2 threads instead of 0.20 s. No
 * score changes (the iterations are over by then); a quick run spends that second on about a
 * hundred trials. Here each worker leaves in its own {@code @TearDown(Level.Trial)}, the last one
 * frees the stack, and JMH joins them as it joins any iteration.
 *
 * <p>{@link #release} frees the stack at most once, so the count runs and tests that tear a stack
 * down by hand after its workers stay as they were.
 */
final class LastOut {
    /** Workers online in the trial. */
    private final AtomicInteger online = new AtomicInteger();
    private final AtomicBoolean released = new AtomicBoolean();
    /** Frees the stack: its devices, biosets, clocks. */
    private final Runnable free;

    LastOut(Runnable free) {
        this.free = free;
    }

    /** A worker joins the trial (its trial setup). */
    void enter() {
        online.incrementAndGet();
    }

    /** A worker leaves the trial (its trial teardown, after it went offline); the last one frees the stack. */
    void leave() {
        if (online.decrementAndGet() == 0) {
            release();
        }
    }

    /** Frees the stack now, unless it was freed already. */
    void release() {
        if (released.compareAndSet(false, true)) {
            free.run();
        }
    }
}
