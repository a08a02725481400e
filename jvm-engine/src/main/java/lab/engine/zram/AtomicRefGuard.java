package lab.engine.zram;

import lab.engine.count.LineCounter;
import lab.engine.count.LineOp;
import lab.engine.count.SharedLines;
import lab.engine.sync.PaddedLong;

/*
 * Minchan Kim's patch in the 2015 thread ("zram: remove init_lock in zram_make_request"): a
 * reference count on the meta, taken per I/O, and a completion that reset waits for.
 *
 *   enter(cpu):   if (!zram_meta_get(meta)) fail;                 atomic_inc_not_zero: CAS loop
 *                 if (!init_done [acquire]) { zram_meta_put; fail }
 *   exit:         zram_meta_put(meta)                             atomic_dec_and_test, complete() at 0
 *   beginReset:   zram_meta_put(meta)    -- drop the initial reference
 *                 init_done = false      -- zram->disksize = 0
 *                 wait_for_completion(&meta->complete)
 *   endReset:     reinit_completion; refcount = 1; init_done = true
 *
 * Why readers also check init_done: inc-not-zero only refuses once the count is zero, and while
 * any reader is inside it is not, so without the flag a steady stream of readers would keep the
 * count above zero and starve reset. With it, readers that get a reference after the flag is
 * clear drop it at once, and the count drains.
 *
 * Per I/O: a load and a CAS (lock cmpxchg) on the shared count in, and a lock xadd out: the same
 * shared-line traffic as the rwsem's two xadds, and a CAS loop that retries under contention.
 * The thread measured it against down_read/up_read. Counted per I/O as one cas (each attempt of
 * the loop) and one rmw at the site zram.meta_ref (lab.engine.count); reset's own operations are
 * not counted.
 *
 * Where the model simplifies: in the patch the count and the completion live in struct zram_meta
 * and a new meta brings a new count; here the guard owns one count and sets it back to 1 in
 * endReset, which is the same protocol without reallocating the count.
 *
 * Ordering: atomic_dec_and_test is fully ordered in the kernel, and so is the getAndAdd here; the
 * put that reaches zero completes the completion, whose volatile store/load pair orders every
 * holder's accesses to the meta before reset's wait returns. endReset's release store of
 * initDone pairs with the acquire load in enter and publishes the new meta.
 */

/** The atomic-refcount guard: {@code zram_meta_get}/{@code zram_meta_put} around each I/O. */
final class AtomicRefGuard implements MetaGuard {
    /** meta->refcount: 1 (the initial reference) + readers inside; 0 when reset or never initialised. */
    private final PaddedLong refcount = new PaddedLong(0);
    /** init_done(zram), i.e. zram->disksize != 0, as 0 or 1; read-mostly, on its own line. */
    private final PaddedLong initDone = new PaddedLong(0);
    /** meta->complete: completed by the put that takes refcount to zero. */
    private final Completion complete = new Completion();
    /** zram_meta_get's compare-and-set, each attempt. */
    private final LineCounter getCas;
    /** zram_meta_put's fetch-add. */
    private final LineCounter putRmw;

    AtomicRefGuard(SharedLines lines) {
        this.getCas = lines.counter("zram.meta_ref", LineOp.CAS);
        this.putRmw = lines.counter("zram.meta_ref", LineOp.RMW);
    }

    @Override
    public int enter(int cpu) {
        if (!zramMetaGet()) {
            return NOT_INITIALISED;
        }
        if (initDone.getAcquire() == 0) { // pairs with setRelease in endReset
            zramMetaPut();
            return NOT_INITIALISED;
        }
        return 0;
    }

    @Override
    public void exit(int cpu, int token) {
        zramMetaPut();
    }

    @Override
    public void beginReset() {
        zramMetaPut();                 // drop the initial reference
        initDone.setRelease(0);        // readers that still get a reference now put it back
        complete.waitForCompletion();  // the last reader's put completes it
    }

    @Override
    public void endReset() {
        complete.reinit();
        refcount.setRelease(1);
        initDone.setRelease(1); // [release] pairs with getAcquire in enter: publishes the new meta
    }

    /** zram_meta_get: atomic_inc_not_zero, a CAS loop that refuses a count that reached zero. */
    private boolean zramMetaGet() {
        for (long c = refcount.getOpaque(); c != 0; c = refcount.getOpaque()) {
            getCas.add();
            if (refcount.compareAndSet(c, c + 1)) {
                return true;
            }
        }
        return false;
    }

    /** zram_meta_put: atomic_dec_and_test; the put that reaches zero completes reset's wait. */
    private void zramMetaPut() {
        putRmw.add();
        long old = refcount.getAndAdd(-1); // fully ordered, as atomic_dec_and_test
        if (old == 1) {
            complete.complete();
        } else if (old <= 0) {
            refcount.getAndAdd(1);
            throw new IllegalStateException("zram meta refcount underflow");
        }
    }

    @Override
    public String toString() {
        return "AtomicRefGuard[refcount=" + refcount + ", initDone=" + initDone + "]";
    }
}
