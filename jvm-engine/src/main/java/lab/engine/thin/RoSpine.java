package lab.engine.thin;

import java.lang.foreign.MemorySegment;
import lab.engine.bufio.Buffer;
import lab.engine.bufio.BufioClient;

/**
 * A read-only walk's hold on the btree, {@code struct ro_spine}
 * (persistent-data/dm-btree-spine.c, 6.1): the last two nodes stepped to; stepping to a third
 * lets go of the oldest. Non-blocking, through the client's walk ({@link BufioClient#walkGet}:
 * a miss ends the step with false, as {@code dm_bm_read_try_lock} returns -EWOULDBLOCK), or
 * blocking ({@link BufioClient#read}, the pool worker's way). One per submitting slot, reused.
 */
final class RoSpine {
    private final BufioClient bm;
    private final int cpu;
    private boolean blocking;
    private Buffer n0;
    private Buffer n1;
    private int count;
    /** Nodes stepped to since {@link #init}. */
    int steps;

    RoSpine(BufioClient bm, int cpu) {
        this.bm = bm;
        this.cpu = cpu;
    }

    /** {@code init_ro_spine}. */
    void init(boolean blocking) {
        this.blocking = blocking;
        count = 0;
        steps = 0;
    }

    /** {@code ro_step}: false when the block is not cached (non-blocking only). */
    boolean step(long block) {
        if (count == 2) {
            put(n0);
            n0 = n1;
            n1 = null;
            count = 1;
        }
        Buffer b = blocking ? bm.read(block, cpu) : bm.walkGet(block);
        if (b == null) {
            return false;
        }
        if (count == 0) {
            n0 = b;
        } else {
            n1 = b;
        }
        count++;
        steps++;
        return true;
    }

    /** {@code ro_node}: the node last stepped to. */
    MemorySegment node() {
        return (count == 2 ? n1 : n0).data();
    }

    /** {@code exit_ro_spine}. */
    void exit() {
        if (count > 0) {
            put(n0);
        }
        if (count > 1) {
            put(n1);
        }
        n0 = null;
        n1 = null;
        count = 0;
    }

    private void put(Buffer b) {
        if (blocking) {
            bm.release(b);
        } else {
            bm.walkPut(b);
        }
    }
}
