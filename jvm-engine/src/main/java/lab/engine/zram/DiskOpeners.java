package lab.engine.zram;

/*
 * The block device's openers and zram's claim, under disk->open_mutex (here: this object's
 * monitor), which is all today's zram relies on to keep reset away from I/O.
 *
 *   open():           while (claim) wait; openers++            zram_open fails with -EBUSY instead
 *   release():        openers--; wake a waiting reset at 0
 *   claimWhenIdle():  claim = true; while (openers > 0) wait   reset_store fails with -EBUSY instead
 *   unclaim():        claim = false; wake waiting openers
 *
 * The claim is set before waiting so that a stream of new openers cannot starve the reset. Not
 * on the I/O path: the benchmark opens once per worker, as fio opens /dev/zramN once per job.
 */

/** {@code disk_openers(disk)} and {@code zram->claim}: opens block while a reset holds the claim; reset waits for openers to go. */
final class DiskOpeners {
    /** disk_openers(disk). Guarded by this. */
    private int openers;
    /** zram->claim: a reset is waiting for or holding the device. Guarded by this. */
    private boolean claim;

    /** blkdev_get + zram_open: waits while a reset holds the claim. */
    synchronized void open() {
        boolean interrupted = false;
        while (claim) {
            interrupted |= waitUninterruptibly();
        }
        openers++;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** blkdev_put. */
    synchronized void release() {
        if (openers == 0) {
            throw new IllegalStateException("zram: release without open");
        }
        if (--openers == 0) {
            notifyAll();
        }
    }

    /** reset_store's claim: takes it, then waits until nobody has the device open. */
    synchronized void claimWhenIdle() {
        boolean interrupted = false;
        while (claim) {            // another reset; the Zram serialises resets, so only defensive
            interrupted |= waitUninterruptibly();
        }
        claim = true;
        while (openers != 0) {
            interrupted |= waitUninterruptibly();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** End of reset_store: zram->claim = false. */
    synchronized void unclaim() {
        claim = false;
        notifyAll();
    }

    /** disk_openers(disk), a snapshot. */
    synchronized int openers() {
        return openers;
    }

    private boolean waitUninterruptibly() {
        try {
            wait();
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    @Override
    public synchronized String toString() {
        return "DiskOpeners[openers=" + openers + ", claim=" + claim + "]";
    }
}
