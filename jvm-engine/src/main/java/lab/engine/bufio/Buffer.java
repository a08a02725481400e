package lab.engine.bufio;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import lab.engine.block.BioVec;

/**
 * One cached block, {@code struct dm_buffer} (drivers/md/dm-bufio.c): its block number, its
 * data, how many holders it has, and its state bits. Padded to two cache lines of its own, as a
 * slab object of dm_buffer's size does not share its hold count's line with another buffer.
 *
 * <p>Guards: {@link #block}, the tree and LRU links change only under the client's exclusive
 * lock with {@link #hold} 0; {@link #hold} is plain under the mutex ({@link BufioLocking#MUTEX}),
 * atomic otherwise; {@link #state}'s {@link #B_READING} is cleared with a release store that a
 * waiter's acquire load pairs with; {@link #data} belongs to the holders (and to whoever the
 * caller's own lock lets write it: dm-thin's root_lock).
 */
@SuppressWarnings("unused")
public final class Buffer {
    static final int B_READING = 1;
    static final int B_DIRTY = 1 << 2;

    static final VarHandle HOLD;
    static final VarHandle STATE;

    static {
        try {
            HOLD = MethodHandles.lookup().findVarHandle(Buffer.class, "hold", int.class);
            STATE = MethodHandles.lookup().findVarHandle(Buffer.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    long p00, p01, p02, p03, p04, p05, p06, p07;
    /** {@code b->block}. */
    long block = -1;
    /** {@code b->hold_count}. */
    int hold;
    /** {@code b->state}: {@link #B_READING}, {@link #B_DIRTY}. */
    int state;
    /** {@code b->accessed} / 6.4's {@code lru_entry.referenced}: touched since the last eviction sweep. */
    boolean referenced;
    /** {@code b->read_error}, as a flag. */
    boolean readError;
    /** The tree the buffer is in ({@link BufioClient}'s striped trees; 0 otherwise). */
    int tree;
    /** {@code b->lru_list}: the client's LRU, most recent at the head. */
    Buffer lruPrev;
    Buffer lruNext;
    /** {@code b->data}: one block. */
    final MemorySegment data;
    /** The bio vector over {@link #data}, made once (the metadata I/O allocates nothing). */
    final BioVec vec;
    long q00, q01, q02, q03, q04, q05, q06, q07;

    Buffer(MemorySegment data) {
        this.data = data;
        this.vec = BioVec.of(data);
    }

    /** {@code dm_bufio_get_block_number}. */
    public long block() {
        return block;
    }

    /** {@code dm_bufio_get_block_data}: the block's bytes; the caller must hold the buffer. */
    public MemorySegment data() {
        return data;
    }

    /** Holders now (a snapshot, for assertions). */
    public int holdCount() {
        return (int) HOLD.getOpaque(this);
    }

    boolean reading() {
        return ((int) STATE.getAcquire(this) & B_READING) != 0; // pairs with the release in BufioClient.readDone
    }

    boolean dirty() {
        return (state & B_DIRTY) != 0;
    }

    @Override
    public String toString() {
        return "Buffer[block " + block + ", hold " + holdCount() + ", state " + state + "]";
    }
}
