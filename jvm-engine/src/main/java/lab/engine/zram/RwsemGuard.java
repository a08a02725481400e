package lab.engine.zram;

import lab.engine.count.SharedLines;
import lab.engine.sync.Rwsem;

/*
 * zram->init_lock on the I/O path, as zram_make_request used it until 2015:
 *
 *   enter(cpu):   down_read(&init_lock); if (!init_done) { up_read; fail }
 *   exit:         up_read(&init_lock)
 *   beginReset:   down_write; init_done = false; up_write
 *   endReset:     down_write; init_done = true;  up_write
 *
 * Per I/O: two locked xadds on the rwsem's count word, which every CPU doing I/O to the device
 * shares: the line bounces on every enter and every exit even though readers never wait for each
 * other. That bouncing is what the fix was after. Counted as one rwsem-read per I/O at the site
 * zram.init_lock (lab.engine.count).
 *
 * Where the model simplifies: the kernel's zram_reset_device frees the meta while still holding
 * the write lock, and init_lock also serialises disksize_store against reset. Here the write
 * lock is held only while init_done changes, and the Zram serialises init and reset with its own
 * mutex (so every guard gets that), which is equivalent for the readers: once the flag is clear
 * under the write lock, a reader that gets the read lock sees it clear and leaves without touching
 * the meta, and a reader that saw it set has left before down_write returned.
 *
 * Ordering: initDone is read and written only under the rwsem, so plain accesses suffice; the
 * rwsem's acquire (down_*) and release (up_*) order them, and order the new meta, published
 * before endReset's up_write, before a reader's down_read.
 */

/** The rw_semaphore guard: {@code down_read}/{@code up_read} around each I/O. */
final class RwsemGuard implements MetaGuard {
    /** zram->init_lock. */
    private final Rwsem initLock;
    /** init_done(zram). Guarded by initLock. */
    private boolean initDone;

    RwsemGuard(SharedLines lines) {
        this.initLock = new Rwsem(lines, "zram.init_lock");
    }

    @Override
    public int enter(int cpu) {
        initLock.downRead();
        if (!initDone) {
            initLock.upRead();
            return NOT_INITIALISED;
        }
        return 0;
    }

    @Override
    public void exit(int cpu, int token) {
        initLock.upRead();
    }

    @Override
    public void beginReset() {
        initLock.downWrite(); // waits for every reader inside; holds off new ones
        initDone = false;
        initLock.upWrite();
    }

    @Override
    public void endReset() {
        initLock.downWrite();
        initDone = true;
        initLock.upWrite();
    }

    @Override
    public String toString() {
        return "RwsemGuard[" + initLock + "]";
    }
}
