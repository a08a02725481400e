package lab.engine.zram;

import lab.engine.count.LockStat;
import lab.engine.count.SharedLines;
import lab.engine.sync.PaddedLong;
import lab.engine.sync.Srcu;

/*
 * Sergey Senozhatsky's SRCU version of the fix (linux-mm, January 2015):
 *
 *   enter(cpu):   idx = srcu_read_lock(&zram->srcu); if (!init_done [acquire]) { unlock; fail }
 *   exit:         srcu_read_unlock(&zram->srcu, idx)
 *   beginReset:   init_done = false [release]; synchronize_srcu(&zram->srcu)
 *   endReset:     init_done = true [release]
 *
 * Per I/O: a plain increment of the caller's own per-cpu counter and a full fence on each side
 * (the mfence of the __srcu_read_lock disassembly in the thread), and an acquire load of a
 * read-mostly flag: no store to a shared line, so nothing to count (lab.engine.count). The cost
 * moves to reset, which waits for a grace period (two drains of the per-cpu counters).
 *
 * Ordering: a reader's load of initDone comes after its counter increment and the full fence [B]
 * of readLock, so either synchronize() counts the reader and waits for it, or the reader entered
 * after the grace period began and sees the cleared flag (the store precedes synchronize(), whose
 * mutex and fences order it). endReset's release store pairs with the acquire load in enter and
 * publishes the new meta written before it.
 *
 * Contention (lab.engine.count.LockStat, site zram.srcu, side read): every enter is one
 * acquisition, and none is ever contended: srcu_read_lock never waits and fires no
 * contention_begin, which is the fix. The writer's synchronize_srcu waits for readers, but the
 * kernel counts no lock contention there either, so neither does the model.
 */

/** The SRCU guard: {@code srcu_read_lock}/{@code srcu_read_unlock} around each I/O. */
final class SrcuGuard implements MetaGuard {
    /** zram->srcu. */
    private final Srcu srcu;
    /** init_done(zram), 0 or 1; read-mostly, on its own line. */
    private final PaddedLong initDone = new PaddedLong(0);
    /** The read side's acquisitions (never contended). */
    private final LockStat readers;

    SrcuGuard(int nrCpus, SharedLines lines) {
        this.srcu = new Srcu(nrCpus);
        this.readers = lines.lock("zram.srcu", LockStat.Side.READ);
    }

    @Override
    public int enter(int cpu) {
        int idx = srcu.readLock(cpu);
        readers.acquired();
        if (initDone.getAcquire() == 0) { // pairs with setRelease in endReset
            srcu.readUnlock(cpu, idx);
            return NOT_INITIALISED;
        }
        return idx;
    }

    @Override
    public void exit(int cpu, int token) {
        srcu.readUnlock(cpu, token);
    }

    @Override
    public void beginReset() {
        initDone.setRelease(0);
        srcu.synchronize(); // every reader that could have seen initDone == 1 has left
    }

    @Override
    public void endReset() {
        initDone.setRelease(1); // [release] pairs with getAcquire in enter: publishes the new meta
    }

    @Override
    public String toString() {
        return "SrcuGuard[" + srcu + ", initDone=" + initDone + "]";
    }
}
