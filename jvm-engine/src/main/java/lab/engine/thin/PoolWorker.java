package lab.engine.thin;

import java.util.ArrayDeque;
import lab.engine.block.Bio;
import lab.engine.dm.DmTarget;
import lab.engine.dm.DmTargetIo;

/*
 * A thin pool's worker: pool->wq running do_worker (drivers/md/dm-thin.c), a
 * kernel thread, so in the root cgroup: what it submits is charged to the
 * root unless the bio carries an association of its own.
 *
 * defer(target, tio, cell)      thin_defer_cell: the cell goes on the pool's
 *                               deferred list under pool->lock; wake_worker
 * run                           process_deferred_cells: for each, provision
 *                               the block, remap, and issue the bio from this
 *                               thread (remap_and_issue -> submit_bio_noacct)
 *
 * The bio's completion runs as every completion of the model does: on the
 * thread that owns the bio's slot (the device below hands it back there), so
 * dm's clone_endio never runs here.
 */

/** The thread that provisions a thin pool's blocks and issues the bios that waited for them. */
final class PoolWorker {
    private record Deferred(ThinTarget target, DmTargetIo tio, long vkey) {}

    private final ThinPool pool;
    private final int cpu;
    /** {@code pool->deferred_cells}; guarded by {@code this} ({@code pool->lock}). */
    private final ArrayDeque<Deferred> deferred = new ArrayDeque<>();
    private final Thread thread;
    private boolean stopping;

    /** Starts the worker on slot {@code cpu}, its own per-cpu slot of the pool's metadata. */
    PoolWorker(ThinPool pool, int cpu, String name) {
        this.pool = pool;
        this.cpu = cpu;
        this.thread = Thread.ofPlatform().name(name).daemon().start(this::run);
    }

    /** {@code thin_defer_cell}: {@code tio}'s clone waits for the worker, its virtual cell {@code vkey} held. Any thread. */
    synchronized void defer(ThinTarget target, DmTargetIo tio, long vkey) {
        deferred.addLast(new Deferred(target, tio, vkey));
        notifyAll(); // wake_worker
    }

    /** Stops the worker once the deferred list is empty. */
    void stop() {
        synchronized (this) {
            stopping = true;
            notifyAll();
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        for (Deferred d; (d = next()) != null;) {
            Bio clone = d.tio().clone();
            if (d.target().provisionAndRemap(d.tio(), d.vkey(), cpu) == DmTarget.DM_MAPIO_REMAPPED) {
                pool.data.submitBio(clone); // from this thread: task_css(current) is the root's
            } else {
                Bio.bioIoError(clone); // out of data space (the model's pools are sized never to be)
            }
        }
    }

    /** The next deferred cell, waiting for one; null once stopped and drained. */
    private synchronized Deferred next() {
        while (deferred.isEmpty() && !stopping) {
            try {
                wait();
            } catch (InterruptedException e) {
                return null;
            }
        }
        return deferred.pollFirst();
    }
}
