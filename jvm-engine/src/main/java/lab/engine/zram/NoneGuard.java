package lab.engine.zram;

import lab.engine.sync.PaddedLong;

/*
 * Today's kernel (since the init_lock left the I/O path): no reader-side primitive at all.
 *
 * The meta is safe because reset_store refuses to reset a device that is open: under
 * disk->open_mutex it fails with -EBUSY if disk_openers(disk) or zram->claim, else sets
 * zram->claim (which makes zram_open fail) for the duration of the reset. Any I/O comes through
 * an open block device, so no I/O can be in flight. I/O to a reset device fails because
 * set_capacity(disk, 0) makes the block layer's bio_check_eod reject it.
 *
 *   enter(cpu):   init_done [acquire]      -- stands for the capacity check of bio_check_eod
 *   exit:         nothing
 *   beginReset:   claim; wait until the openers count is 0; init_done = false [release]; unclaim
 *   endReset:     init_done = true [release]
 *
 * Per I/O: one acquire load of a read-mostly flag; no shared-line operation to count
 * (lab.engine.count).
 *
 * Where the model differs: the kernel's reset fails with -EBUSY on an open device and keeps the
 * claim until the reset is over; the lab's reset waits for the openers to go (and an open()
 * waits while a reset holds the claim), and drops the claim once the flag is clear, which is
 * safe because an opener that comes in later sees the flag clear and fails its I/O without
 * touching the meta. The protection holds only for I/O issued between open() and release():
 * a caller that does I/O without opening the device is not protected, as in the kernel.
 */

/** No per-I/O guard: reset waits until the block device has no openers. */
final class NoneGuard implements MetaGuard {
    /** disk_openers(disk) and zram->claim under disk->open_mutex. */
    private final DiskOpeners openers;
    /** The device's capacity is non-zero (init_done), as 0 or 1; read-mostly, on its own line. */
    private final PaddedLong initDone = new PaddedLong(0);

    NoneGuard(DiskOpeners openers) {
        this.openers = openers;
    }

    @Override
    public int enter(int cpu) {
        return initDone.getAcquire() != 0 ? 0 : NOT_INITIALISED; // pairs with setRelease in endReset
    }

    @Override
    public void exit(int cpu, int token) {
    }

    @Override
    public void beginReset() {
        openers.claimWhenIdle();
        try {
            initDone.setRelease(0);
        } finally {
            openers.unclaim();
        }
    }

    @Override
    public void endReset() {
        initDone.setRelease(1); // [release] pairs with getAcquire in enter: publishes the new meta
    }

    @Override
    public String toString() {
        return "NoneGuard[" + openers + ", initDone=" + initDone + "]";
    }
}
