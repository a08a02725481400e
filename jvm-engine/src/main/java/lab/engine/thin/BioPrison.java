package lab.engine.thin;

import lab.engine.count.SharedLines;
import lab.engine.sync.Backoff;
import lab.engine.sync.Spinlock;

/*
 * The bio prison, struct dm_bio_prison (drivers/md/dm-bio-prison-v1.c, 6.1):
 * cells keyed by a virtual or data block range, each held by one bio while
 * the pool decides what to do with that range; one spinlock (prison->lock)
 * over all of them, taken by every detain and every release. dm-thin's map
 * detains a virtual cell before the lookup and a data cell after it, and
 * releases both before remapping: four lock pairs per I/O on one line, in
 * every variant of the bufio lock.
 *
 * The cells are an open-addressing table of held keys (the kernel's is an
 * rbtree of cells from a mempool). Where the model simplifies: a bio whose
 * key is held waits for it to be released and tries again (the kernel
 * parks the bio in the cell, and the holder's release hands it to the
 * pool's worker to map again); the lab's I/O almost never meets a held
 * cell (random blocks, one bio in flight per worker).
 */

/** Cells of held block ranges under one spinlock. */
public final class BioPrison {
    static final String SITE = "thin.prison";
    private static final long EMPTY = -1;
    /** {@code MIN_CELLS}. */
    static final int CELLS = 1024;

    private final Spinlock lock;
    private final long[] cells = new long[CELLS];
    private int held;

    public BioPrison(SharedLines lines) {
        lock = new Spinlock(lines, SITE);
        java.util.Arrays.fill(cells, EMPTY);
    }

    /** {@code build_virtual_key} / {@code build_data_key}: one block of device {@code dev} (data blocks: dev 0). */
    static long key(boolean virtual, long dev, long block) {
        return (virtual ? 1L << 62 : 0) | (dev << 40) | block;
    }

    /** {@code bio_detain}: holds {@code key}'s cell, waiting while another bio holds it. */
    public void detain(long key) {
        int round = 0;
        while (!tryDetain(key)) {
            round = Backoff.pause(round);
        }
    }

    /** Holds {@code key}'s cell if no one does; false if someone does. */
    public boolean tryDetain(long key) {
        lock.lock();
        try {
            int mask = CELLS - 1;
            for (int i = slot(key);; i = (i + 1) & mask) {
                long k = cells[i];
                if (k == key) {
                    return false;
                }
                if (k == EMPTY) {
                    if (held == CELLS - 1) {
                        throw new IllegalStateException("bio prison: all " + CELLS + " cells held");
                    }
                    cells[i] = key;
                    held++;
                    return true;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** {@code dm_cell_release_no_holder}: lets go of {@code key}'s cell. */
    public void release(long key) {
        lock.lock();
        try {
            int mask = CELLS - 1;
            int i = slot(key);
            while (cells[i] != key) {
                if (cells[i] == EMPTY) {
                    throw new IllegalStateException("bio prison: release of a cell not held: " + Long.toHexString(key));
                }
                i = (i + 1) & mask;
            }
            // backward-shift deletion: pull later keys of the run into the gap
            int gap = i;
            for (int j = (gap + 1) & mask; cells[j] != EMPTY; j = (j + 1) & mask) {
                int home = slot(cells[j]);
                if (((j - home) & mask) >= ((j - gap) & mask)) {
                    cells[gap] = cells[j];
                    gap = j;
                }
            }
            cells[gap] = EMPTY;
            held--;
        } finally {
            lock.unlock();
        }
    }

    /** Cells held now (a snapshot). */
    public int held() {
        lock.lock();
        try {
            return held;
        } finally {
            lock.unlock();
        }
    }

    private static int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 54) & (CELLS - 1);
    }
}
