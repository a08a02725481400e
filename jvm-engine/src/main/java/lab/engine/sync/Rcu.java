package lab.engine.sync;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/*
 * Quiescent-state-based RCU (QSBR), the flavour of RCU-sched, where a context
 * switch is a quiescent state, and of liburcu-qsbr.
 *
 * Read side. A worker is online from online(cpu) to offline(cpu), and while
 * online it is inside a read-side critical section at every moment except the
 * points where it calls quiescent(cpu), which the engine does between I/Os,
 * where it holds no RCU-protected pointer (as a CPU holds none across a
 * context switch). For an online worker readLock/readUnlock are markers: one
 * load of its own slot, no fence, no store. Under QSBR the section is bounded
 * by quiescent states, not by the markers, and a pointer picked up inside it
 * stays safe until the thread's next quiescent(cpu) or offline(cpu); the
 * caller must not report a quiescent state, nor go on- or offline, inside a
 * section. Model note: rcu_read_lock_sched() also counts the nesting in
 * preempt_count, a per-cpu add; QSBR needs no count, so the model keeps none
 * (and so cannot check for a quiescent state inside a section, as lockdep
 * does).
 *
 * A caller whose slot is offline is in an extended quiescent state, as an
 * idle CPU is, and grace periods do not wait for it. Its readLock therefore
 * leaves that state for the section and returns a token that makes the
 * matching readUnlock re-enter it, as an interrupt on an idle CPU does
 * (ct_irq_enter/ct_irq_exit, the fully ordered atomic on the dynticks
 * counter; RCU_NONIDLE): online and offline, with their orderings [A][F] and
 * [B], once per outermost section (a nested section finds the slot online and
 * is a marker). Correct for anyone, but a full fence per section: workers
 * that read often go online once and report quiescent states instead.
 *
 * State. A global grace-period counter gp (starts at 1, never 0) and, per
 * slot, ctr: 0 while the slot is offline, else the value of gp the owner saw
 * at its latest quiescent state.
 *
 * Grace period. synchronize() (serialised by a mutex) advances gp to a new
 * target and waits until every slot's ctr is 0 or has reached the target:
 * each online worker has then passed a quiescent state that began after the
 * grace period did, so every critical section in progress when synchronize()
 * was called has ended.
 *
 *   quiescent(cpu): g = gp [acquire A]   ctr[cpu] = g [release B]
 *   synchronize():  gp = gp + 1 [fully ordered C]   fullFence [D]
 *                   wait until ctr[cpu] [acquire E] is 0 or >= gp
 *   online(cpu):    ctr[cpu] = gp [acquire A]   fullFence [F]
 *   offline(cpu):   ctr[cpu] = 0 [release B]
 *   readLock(cpu) of an offline slot:    online(cpu), then the section
 *   readUnlock(cpu, token) of it:        the section, then offline(cpu)
 *
 * B pairs with E: all of a worker's accesses before a quiescent state or
 * going offline happen before the updater's code after synchronize(). C pairs
 * with A: a worker that sees the new gp also sees every store the updater made
 * before synchronize() (an unpublished pointer, a percpu_ref's mode bit).
 * F pairs with D (store-buffering): a worker coming online either is seen by
 * the scan, or sees the updater's earlier stores. For a section of an offline
 * caller this is the whole argument: either the scan sees its ctr and waits
 * for the offline store [B] that ends the section (and so sees every store
 * in it, through [E]), or the section sees every store the updater made before
 * synchronize(), such as a percpu_ref's DEAD|ATOMIC mode, and takes the path
 * that does not need the grace period.
 *
 * callRcu(cb) queues cb for one daemon thread, which takes the whole queue,
 * waits one grace period, and runs the batch in order (call_rcu and the
 * RCU softirq). barrier() waits for every callback queued before it.
 *
 * A thread must not call synchronize() or barrier() while its own slot is
 * online: it would wait for itself. Go offline first, as liburcu-qsbr asks.
 */

/**
 * An RCU-like quiescent-state mechanism for {@code nrCpus} worker slots, with
 * {@code synchronize()} and {@code callRcu()}.
 */
public final class Rcu {
    private static final int CTR = 0;
    private static final long OFFLINE = 0;
    /** readLock's token for the outermost section of an offline caller: readUnlock goes offline. */
    private static final int EQS_EXITED = 1;

    private final PercpuSlots slots;
    /** The grace-period counter; written only under gpLock, read by everyone. */
    private final PaddedLong gp = new PaddedLong(1);
    /** Serialises updaters in synchronize(). */
    private final Mutex gpLock = new Mutex();
    /** Callbacks waiting for the daemon's next grace period. */
    private final ConcurrentLinkedQueue<Runnable> callbacks = new ConcurrentLinkedQueue<>();
    /** The callback daemon, started by the first callRcu; guarded by this for its creation. */
    private volatile Thread daemon;

    /** All slots start offline. */
    public Rcu(int nrCpus) {
        this.slots = new PercpuSlots(nrCpus, 1);
    }

    public int nrCpus() {
        return slots.nrCpus();
    }

    /**
     * rcu_read_lock_sched: enters a read-side section on {@code cpu} and returns the token for
     * {@link #readUnlock}. For an online worker a marker only (one load of its own slot, no
     * fence, no store); a caller whose slot is offline leaves its extended quiescent state for
     * the section (online: a full fence). Sections nest. Owner only.
     */
    public int readLock(int cpu) {
        if (slots.getPlain(cpu, CTR) != OFFLINE) {
            return 0; // online, or inside an outer section that brought the slot online
        }
        online(cpu); // ct_irq_enter on an idle CPU: [A] [F]
        return EQS_EXITED;
    }

    /** rcu_read_unlock_sched: leaves the section {@code token} came from; an offline caller goes offline again. */
    public void readUnlock(int cpu, int token) {
        if (token != 0) {
            offline(cpu); // ct_irq_exit back to idle: [B] after the section's accesses
        }
    }

    /**
     * Reports that the owner of {@code cpu} holds no RCU-protected reference now (never inside a
     * read-side section). Nothing for an offline slot, already in an extended quiescent state.
     * Owner only.
     */
    public void quiescent(int cpu) {
        long c = slots.getPlain(cpu, CTR);
        if (c == OFFLINE) {
            return;
        }
        long g = gp.getAcquire(); // [A] pairs with [C] in synchronize()
        if (c != g) {
            slots.setRelease(cpu, CTR, g); // [B] pairs with [E] in waitForSlot()
        }
    }

    /** Brings {@code cpu} online: from now on grace periods wait for its quiescent states. Owner only, outside sections. */
    public void online(int cpu) {
        slots.setOpaque(cpu, CTR, gp.getAcquire()); // [A] pairs with [C]
        VarHandle.fullFence(); // [F] pairs with [D] in synchronize()
    }

    /** Takes {@code cpu} offline: an extended quiescent state. Owner only, outside sections. */
    public void offline(int cpu) {
        slots.setRelease(cpu, CTR, OFFLINE); // [B] pairs with [E] in waitForSlot()
    }

    /** Whether {@code cpu} is online now (a snapshot). */
    public boolean isOnline(int cpu) {
        return slots.getOpaque(cpu, CTR) != OFFLINE;
    }

    /** Completed grace periods since construction. */
    public long completed() {
        return gp.getAcquire() - 1;
    }

    /**
     * synchronize_rcu: waits until every slot that was online when it began has
     * passed a quiescent state or gone offline. The caller must not be online.
     */
    public void synchronize() {
        gpLock.lock();
        try {
            long target = gp.getAndAdd(1) + 1; // [C] pairs with [A]
            VarHandle.fullFence(); // [D] pairs with [F] in online()
            for (int cpu = 0; cpu < slots.nrCpus(); cpu++) {
                waitForSlot(cpu, target);
            }
        } finally {
            gpLock.unlock();
        }
    }

    private void waitForSlot(int cpu, long target) {
        int round = 0;
        for (;;) {
            long c = slots.getAcquire(cpu, CTR); // [E] pairs with [B]
            if (c == OFFLINE || c >= target) {
                return;
            }
            round = Backoff.pause(round);
        }
    }

    /** call_rcu: runs {@code callback} on the RCU daemon after a grace period. */
    public void callRcu(Runnable callback) {
        callbacks.add(callback);
        LockSupport.unpark(daemon());
    }

    /** rcu_barrier: waits until every callback queued before this call has run. Caller must not be online. */
    public void barrier() {
        CountDownLatch done = new CountDownLatch(1);
        callRcu(done::countDown);
        boolean interrupted = false;
        for (;;) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private Thread daemon() {
        Thread t = daemon;
        if (t == null) {
            synchronized (this) {
                t = daemon;
                if (t == null) {
                    t = Thread.ofPlatform().daemon().name("rcu-gp").unstarted(this::runCallbacks);
                    daemon = t;
                    t.start();
                }
            }
        }
        return t;
    }

    /** The daemon: take the queue, wait a grace period, run the batch; sleep when idle. */
    private void runCallbacks() {
        List<Runnable> batch = new ArrayList<>();
        for (;;) {
            for (Runnable cb; (cb = callbacks.poll()) != null; ) {
                batch.add(cb);
            }
            if (batch.isEmpty()) {
                LockSupport.park(this);
                continue;
            }
            synchronize();
            for (Runnable cb : batch) {
                runOne(cb);
            }
            batch.clear();
        }
    }

    private static void runOne(Runnable cb) {
        try {
            cb.run();
        } catch (Throwable e) {
            Thread t = Thread.currentThread();
            t.getUncaughtExceptionHandler().uncaughtException(t, e);
        }
    }

    @Override
    public String toString() {
        return "Rcu[nrCpus=" + slots.nrCpus() + ", completed=" + completed() + "]";
    }
}
