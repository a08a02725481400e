package lab.engine.bufio;

import java.util.Arrays;
import lab.engine.sync.Rwsem;

/**
 * One index of cached buffers by block number: dm-bufio's {@code c->buffer_tree} (6.1: one per
 * client) or one of 6.4's {@code struct buffer_tree}s (one per stripe, with its own lock). The
 * kernel's is an rbtree; the model's is a sorted array searched by bisection: the same log2(n)
 * dependent loads per lookup, and an insert or removal that shifts the array instead of
 * rebalancing (only on a miss, under the exclusive lock, where a block read dominates anyway).
 *
 * <p>Guard: {@link #find} under the client's lock (shared or exclusive, or {@link #lock} shared
 * for a stripe); {@link #insert} and {@link #remove} under the exclusive one (and {@link #lock}
 * exclusive for a stripe). The arrays grow only while the cache fills.
 */
final class BufferTree {
    /** The stripe's own lock ({@link BufioLocking#STRIPED}), else null. */
    final Rwsem lock;
    private long[] keys;
    private Buffer[] bufs;
    private int n;

    BufferTree(int capacity, Rwsem lock) {
        this.lock = lock;
        this.keys = new long[Math.max(capacity, 4)];
        this.bufs = new Buffer[keys.length];
    }

    /** {@code __find}: the buffer of {@code block}, or null. */
    Buffer find(long block) {
        int i = search(block);
        return i >= 0 ? bufs[i] : null;
    }

    /** {@code __insert}: {@code b} must not be in any tree and its block in none of this one's buffers. */
    void insert(Buffer b) {
        int i = search(b.block);
        if (i >= 0) {
            throw new IllegalStateException("bufio: block " + b.block + " is cached twice");
        }
        i = -i - 1;
        if (n == keys.length) {
            keys = Arrays.copyOf(keys, n * 2);
            bufs = Arrays.copyOf(bufs, n * 2);
        }
        System.arraycopy(keys, i, keys, i + 1, n - i);
        System.arraycopy(bufs, i, bufs, i + 1, n - i);
        keys[i] = b.block;
        bufs[i] = b;
        n++;
    }

    /** {@code __remove}. */
    void remove(Buffer b) {
        int i = search(b.block);
        if (i < 0 || bufs[i] != b) {
            throw new IllegalStateException("bufio: " + b + " is not in its tree");
        }
        System.arraycopy(keys, i + 1, keys, i, n - i - 1);
        System.arraycopy(bufs, i + 1, bufs, i, n - i - 1);
        n--;
        bufs[n] = null;
    }

    /** Buffers in the tree. */
    int size() {
        return n;
    }

    /** Index of {@code block}, or {@code -(insertion point) - 1}. */
    private int search(long block) {
        int lo = 0;
        int hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long k = keys[mid];
            if (k < block) {
                lo = mid + 1;
            } else if (k > block) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }
}
