package lab.engine.zram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/*
 * struct completion (kernel/sched/completion.c) for one waiter: a done flag and the thread
 * sleeping on it.
 *
 *   waitForCompletion:  waiter = me [volatile]; while (done == 0 [volatile]) park
 *   complete:           done = 1 [volatile]; if (waiter [volatile] != null) unpark(waiter)
 *
 * The waiter publishes itself before it tests the flag and the completer sets the flag before it
 * reads the waiter (a Dekker pair: volatile accesses are sequentially consistent), so either the
 * waiter sees done, or the completer sees the waiter and unparks it; an unpark before the park
 * leaves a permit, so no wake-up is lost. The kernel's complete() takes the wait queue's spinlock
 * instead.
 *
 * One waiter at a time (zram's reset is serialised); complete() may run on any thread. The
 * flag's volatile store also orders everything the completer did before it ahead of the waiter's
 * return, as complete()/wait_for_completion() do.
 */

/** A completion with a single waiter: {@code complete}, {@code wait_for_completion}, {@code reinit_completion}. */
final class Completion {
    private static final VarHandle DONE;
    private static final VarHandle WAITER;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            DONE = l.findVarHandle(Completion.class, "done", int.class);
            WAITER = l.findVarHandle(Completion.class, "waiter", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** 0 until complete(). Accessed only through DONE. */
    private int done;
    /** The thread in waitForCompletion, or null. Accessed only through WAITER. */
    private Thread waiter;

    /** complete(): marks done and wakes the waiter, if any. */
    void complete() {
        DONE.setVolatile(this, 1);
        Thread w = (Thread) WAITER.getVolatile(this);
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /** wait_for_completion(): sleeps until complete(); uninterruptible (an interrupt is kept for the caller). */
    void waitForCompletion() {
        Thread self = Thread.currentThread();
        WAITER.setVolatile(this, self);
        boolean interrupted = false;
        while ((int) DONE.getVolatile(this) == 0) {
            LockSupport.park(this);
            interrupted |= Thread.interrupted();
        }
        WAITER.setRelease(this, (Thread) null);
        if (interrupted) {
            self.interrupt();
        }
    }

    /** reinit_completion(): not done again; no waiter may be waiting. */
    void reinit() {
        DONE.setRelease(this, 0);
    }

    /** completion_done(). */
    boolean isDone() {
        return (int) DONE.getAcquire(this) != 0;
    }
}
