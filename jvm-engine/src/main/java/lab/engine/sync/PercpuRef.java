package lab.engine.sync;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import lab.engine.count.LineCounter;
import lab.engine.count.LineOp;
import lab.engine.count.SharedLines;

/*
 * Per-cpu reference count, after lib/percpu-refcount.c.
 *
 * A live ref is a set of per-cpu counters. get and put add to and subtract
 * from the caller's own slot with a plain load and an opaque store: no lock
 * prefix, no shared cache line. No slot means anything on its own (one slot
 * may go negative when gets and puts land on different CPUs); only the sum
 * does, and nobody needs the sum until the ref is being shut down, so while
 * in percpu mode a ref cannot detect reaching zero and does not try.
 *
 * Shutdown, kill(): set DEAD and ATOMIC in the mode word, take one extra
 * reference on the shared atomic count (dropped after confirmation), drop the
 * initial reference on it, and queue a callback for after a grace period of
 * the Rcu the ref lives in. Every get/put that still saw percpu mode did so
 * inside an RCU read-side section that the grace period waits out, so by the
 * time the callback runs no one will touch a slot again. The callback sums
 * the slots into the atomic count, calls the confirm callback, and drops the
 * extra reference; from then on the ref is an ordinary atomic refcount, and
 * the put that brings it to zero runs release, exactly once.
 *
 * PERCPU_COUNT_BIAS: while a ref is in percpu mode its atomic count carries
 * the bias 1 << 63 on top of the references it holds itself. Puts that arrive
 * in atomic mode before the slots are folded in can take the atomic count
 * below the true total (their gets may sit in the slots); the bias keeps it
 * far from zero until the fold adds the slot sum and subtracts the bias in one
 * fetch-add. Arithmetic is modulo 2^64, as in the kernel, so the order of the
 * additions does not matter.
 *
 * Mode word, read on every get/put as __ref_is_percpu does: 0 for percpu;
 * ATOMIC and DEAD bits otherwise. Each get/put/tryGet is one read-side
 * section of the ref's Rcu (rcu_read_lock_sched in the kernel), and the mode
 * load and the slot update both sit inside it:
 *
 *   get/put:   readLock   m = mode [acquire]   m == 0 ? slot += d : count += d   readUnlock
 *   kill:      mode = DEAD|ATOMIC [release]   callRcu(fold)
 *   fold:      (after a grace period) sum the slots [opaque]   count += sum - bias
 *
 * The grace period ends only once every section that could have loaded
 * mode == 0 has ended, and the end of each such section happens before the
 * fold: for an online worker through its next quiescent state ([B] paired with
 * [E] in Rcu), for an offline caller through the offline store that closes its
 * section (the same pair); a section that begins later sees DEAD|ATOMIC
 * (through [C]/[A], or [D]/[F] for an offline caller) and updates the atomic
 * count. So the fold reads every slot update that will ever happen, and no
 * slot is written after it until switchToPercpu(), which checks that. The
 * acquire load of mode also pairs with the release store in switchToPercpu(),
 * which zeroes the slots before publishing percpu mode.
 *
 * Callers: get/put/tryGet take the owner's slot index. A worker that uses the
 * ref often goes online in the ref's Rcu and reports quiescent states between
 * uses (no fence per call); any other caller pays a full fence per call (the
 * Rcu's extended-quiescent-state exit), and is just as safe. kill/resurrect
 * are serialised by the caller (one killer). Mode switches are serialised by
 * the ref's monitor and wait for a switch in flight, as percpu_ref_switch_lock
 * and percpu_ref_switch_waitq do. Do not kill or resurrect from an Rcu
 * callback: it would wait for the daemon it runs on.
 *
 * Counting (lab.engine.count): percpu mode writes the caller's own slot and
 * no shared line, so a live ref in steady state reports nothing. In atomic
 * mode each get/put is one rmw on the atomic count and each attempt of
 * tryGet's inc-not-zero one cas; a mode change is one store to the mode word
 * every get/put reads. Reported to the SharedLines given at construction.
 */

/**
 * A per-cpu reference count with kill, confirm, a grace-period switch to atomic
 * mode, and resurrect.
 */
public final class PercpuRef implements Ref {
    private static final int COUNT = 0;
    private static final long ATOMIC = 1;
    private static final long DEAD = 2;
    /** Held by the atomic count in percpu mode; keeps it from reaching zero before the fold. */
    static final long PERCPU_COUNT_BIAS = 1L << 63;

    private static final VarHandle MODE;

    static {
        try {
            MODE = MethodHandles.lookup().findVarHandle(PercpuRef.class, "mode", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Rcu rcu;
    private final PercpuSlots slots;
    /** The atomic count; includes PERCPU_COUNT_BIAS until the fold. */
    private final PaddedLong count;
    private final Runnable release;
    /** Atomic mode: each fetch-add on {@link #count}. */
    private final LineCounter rmw;
    /** Atomic mode: each compare-and-set of inc-not-zero on {@link #count}. */
    private final LineCounter cas;
    /** Each store to {@link #mode}. */
    private final LineCounter modeStore;
    /** 0 (percpu) or ATOMIC|DEAD bits; written under this, read with acquire by everyone. */
    private long mode;
    /** Non-null while a switch to atomic waits for its grace period; guarded by this. */
    private Runnable confirmSwitch;
    /** The slot sum the last fold took, checked when the slots are next zeroed; guarded by this. */
    private long foldedSum;

    /** A live ref in percpu mode holding the initial reference, for the slots of {@code rcu}. */
    public PercpuRef(Rcu rcu, Runnable release) {
        this(rcu, release, SharedLines.NONE, "percpu_ref");
    }

    /** {@link #PercpuRef(Rcu, Runnable)} reporting its shared-line operations to {@code lines} as {@code site}. */
    public PercpuRef(Rcu rcu, Runnable release, SharedLines lines, String site) {
        this.rmw = lines.counter(site, LineOp.RMW);
        this.cas = lines.counter(site, LineOp.CAS);
        this.modeStore = lines.counter(site, LineOp.STORE);
        this.rcu = rcu;
        this.slots = new PercpuSlots(rcu.nrCpus(), 1);
        this.release = release;
        this.count = new PaddedLong(PERCPU_COUNT_BIAS + 1);
        MODE.setRelease(this, 0L);
    }

    private long modeAcquire() {
        return (long) MODE.getAcquire(this); // pairs with the setRelease in switchToPercpu()/kill
    }

    /** percpu_ref_get: the caller holds a reference or knows the ref is live. */
    @Override
    public void get(int cpu) {
        int rcuToken = rcu.readLock(cpu);
        if (modeAcquire() == 0) {
            slots.addOpaque(cpu, COUNT, 1);
        } else {
            rmw.add();
            count.getAndAdd(1);
        }
        rcu.readUnlock(cpu, rcuToken);
    }

    /** percpu_ref_tryget: fails only once the count has reached zero. */
    @Override
    public boolean tryGet(int cpu) {
        int rcuToken = rcu.readLock(cpu);
        boolean ok = true;
        if (modeAcquire() == 0) {
            slots.addOpaque(cpu, COUNT, 1);
        } else {
            ok = incNotZero();
        }
        rcu.readUnlock(cpu, rcuToken);
        return ok;
    }

    /** percpu_ref_tryget_live: fails once the ref has been killed. */
    @Override
    public boolean tryGetLive(int cpu) {
        int rcuToken = rcu.readLock(cpu);
        boolean ok;
        long m = modeAcquire();
        if (m == 0) {
            slots.addOpaque(cpu, COUNT, 1);
            ok = true;
        } else {
            ok = (m & DEAD) == 0 && incNotZero();
        }
        rcu.readUnlock(cpu, rcuToken);
        return ok;
    }

    /** percpu_ref_put: in atomic mode, the put that reaches zero runs release. */
    @Override
    public void put(int cpu) {
        int rcuToken = rcu.readLock(cpu);
        if (modeAcquire() == 0) {
            slots.addOpaque(cpu, COUNT, -1);
        } else {
            putAtomic(1);
        }
        rcu.readUnlock(cpu, rcuToken);
    }

    /** percpu_ref_kill: {@code killAndConfirm(null)}. */
    @Override
    public void kill() {
        killAndConfirm(null);
    }

    /**
     * percpu_ref_kill_and_confirm: marks the ref dead (tryGetLive fails from now
     * on), drops the initial reference, and after a grace period folds the slots
     * into the atomic count and runs {@code confirmKill} (on the Rcu daemon);
     * after that, gets and puts are atomic and the last put runs release.
     */
    public void killAndConfirm(Runnable confirmKill) {
        synchronized (this) {
            if ((mode & DEAD) != 0) {
                throw new IllegalStateException("percpu_ref killed more than once");
            }
            awaitSwitchDone();
            long m = mode;
            modeStore.add();
            MODE.setRelease(this, m | DEAD | ATOMIC); // pairs with modeAcquire() (after the grace period)
            if ((m & ATOMIC) != 0) {
                runConfirm(confirmKill);
            } else {
                startSwitchToAtomic(confirmKill);
            }
        }
        putAtomic(1); // the initial reference; the bias or the switch's own reference keeps it above zero
    }

    /** Whether kill has been called (percpu_ref_is_dying). */
    public synchronized boolean isDying() {
        return (mode & DEAD) != 0;
    }

    /** Whether the ref is in percpu mode now (a snapshot). */
    public boolean isPercpu() {
        return modeAcquire() == 0;
    }

    /** percpu_ref_is_zero: true once the ref is in atomic mode, folded, and at zero. */
    @Override
    public synchronized boolean isZero() {
        return (mode & ATOMIC) != 0 && confirmSwitch == null && count.getVolatile() == 0;
    }

    /**
     * percpu_ref_resurrect: undoes kill (the ref must be dead but its release
     * must not have run): retakes the initial reference and returns to percpu
     * mode once any switch in flight has finished.
     */
    public void resurrect() {
        synchronized (this) {
            if ((mode & DEAD) == 0) {
                throw new IllegalStateException("resurrect of a live percpu_ref");
            }
            awaitSwitchDone();
            rmw.add();
            count.getAndAdd(1); // may take 0 to 1 only in reinit(), which checked for zero
            modeStore.add();
            MODE.setRelease(this, mode & ~DEAD);
            switchToPercpu();
        }
    }

    /** percpu_ref_reinit: re-arms a ref whose count has reached zero (after release ran). */
    public synchronized void reinit() {
        if (!isZero()) {
            throw new IllegalStateException("reinit of a percpu_ref that is not at zero");
        }
        resurrect();
    }

    // -- mode switching; all under this --------------------------------------

    private void startSwitchToAtomic(Runnable confirm) {
        confirmSwitch = confirm != null ? confirm : () -> { };
        rmw.add();
        count.getAndAdd(1); // dropped after confirmation
        rcu.callRcu(this::switchToAtomicRcu);
    }

    /** percpu_ref_switch_to_atomic_rcu: runs on the Rcu daemon after the grace period. */
    private void switchToAtomicRcu() {
        long sum = slots.sumOpaque(COUNT); // every slot write happened before the grace period ended
        rmw.add();
        count.getAndAdd(sum - PERCPU_COUNT_BIAS);
        Runnable confirm;
        synchronized (this) {
            foldedSum = sum;
            confirm = confirmSwitch;
        }
        runConfirm(confirm);
        synchronized (this) {
            confirmSwitch = null;
            notifyAll();
        }
        putAtomic(1); // the switch's own reference
    }

    /** __percpu_ref_switch_to_percpu: caller holds this, the ref is in atomic mode, no switch in flight. */
    private void switchToPercpu() {
        if ((mode & ATOMIC) == 0) {
            return;
        }
        // No owner writes a slot in atomic mode (the grace period of the last
        // switch saw to that), so this thread may zero them all. Check it: a
        // slot written after the fold is a count the fold lost.
        long sum = slots.sumOpaque(COUNT);
        if (sum != foldedSum) {
            throw new IllegalStateException("percpu_ref: slots changed by " + (sum - foldedSum)
                    + " after the fold (a get/put the grace period did not wait for)");
        }
        rmw.add();
        count.getAndAdd(PERCPU_COUNT_BIAS);
        for (int cpu = 0; cpu < slots.nrCpus(); cpu++) {
            slots.setOpaque(cpu, COUNT, 0);
        }
        modeStore.add();
        MODE.setRelease(this, mode & ~ATOMIC); // pairs with modeAcquire() in get/put
    }

    private void awaitSwitchDone() {
        boolean interrupted = false;
        while (confirmSwitch != null) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void runConfirm(Runnable confirm) {
        if (confirm != null) {
            confirm.run();
        }
    }

    private boolean incNotZero() {
        for (long c = count.getOpaque(); c != 0; c = count.getOpaque()) {
            cas.add();
            if (count.compareAndSet(c, c + 1)) {
                return true;
            }
        }
        return false;
    }

    private void putAtomic(long n) {
        rmw.add();
        long old = count.getAndAddRelease(-n); // [release] pairs with the acquire fence of the last put
        if (old == n) {
            VarHandle.acquireFence();
            release.run();
        }
    }

    @Override
    public String toString() {
        long m = modeAcquire();
        return "PercpuRef[" + (m == 0 ? "percpu" : (m & DEAD) != 0 ? "dead" : "atomic") + "]";
    }
}
