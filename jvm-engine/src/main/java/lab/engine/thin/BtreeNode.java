package lab.engine.thin;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The on-disk btree node of persistent-data ({@code struct btree_node},
 * drivers/md/persistent-data/dm-btree-internal.h), read and written in place in a metadata
 * block: a 32-byte little-endian header ({@code csum, flags, blocknr, nr_entries, max_entries,
 * value_size, padding}), then {@code max_entries} 64-bit keys, then as many 64-bit values (every
 * btree of dm-thin has 8-byte values: a subtree's root, a child's block, or a mapping's
 * data block and time). Static accessors over the block's bytes, as the kernel's are macros over
 * the buffer.
 */
final class BtreeNode {
    static final int INTERNAL_NODE = 1;
    static final int LEAF_NODE = 1 << 1;
    /** {@code BTREE_CSUM_XOR}. */
    static final int BTREE_CSUM_XOR = 121107;
    static final int HEADER = 32;
    static final int VALUE_SIZE = 8;

    private static final ValueLayout.OfLong LE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long CSUM = 0;
    private static final long FLAGS = 4;
    private static final long BLOCKNR = 8;
    private static final long NR_ENTRIES = 16;
    private static final long MAX_ENTRIES = 20;
    private static final long VALUE_SIZE_AT = 24;

    private BtreeNode() {
    }

    /** {@code calc_max_entries()}: entries of a node in a block, a multiple of 3. */
    static int maxEntries(int blockSize) {
        int total = (blockSize - HEADER) / (8 + VALUE_SIZE);
        return 3 * (total / 3);
    }

    /** A new empty node: the header of block {@code block}. */
    static void init(MemorySegment n, long block, int flags, int max) {
        n.set(LE32, FLAGS, flags);
        n.set(LE64, BLOCKNR, block);
        n.set(LE32, NR_ENTRIES, 0);
        n.set(LE32, MAX_ENTRIES, max);
        n.set(LE32, VALUE_SIZE_AT, VALUE_SIZE);
    }

    static int flags(MemorySegment n) {
        return n.get(LE32, FLAGS);
    }

    static void setFlags(MemorySegment n, int flags) {
        n.set(LE32, FLAGS, flags);
    }

    static boolean isLeaf(MemorySegment n) {
        return (flags(n) & LEAF_NODE) != 0;
    }

    static long blocknr(MemorySegment n) {
        return n.get(LE64, BLOCKNR);
    }

    static int nrEntries(MemorySegment n) {
        return n.get(LE32, NR_ENTRIES);
    }

    static void setNrEntries(MemorySegment n, int nr) {
        n.set(LE32, NR_ENTRIES, nr);
    }

    static int max(MemorySegment n) {
        return n.get(LE32, MAX_ENTRIES);
    }

    static int valueSize(MemorySegment n) {
        return n.get(LE32, VALUE_SIZE_AT);
    }

    static long key(MemorySegment n, int i) {
        return n.get(LE64, HEADER + 8L * i);
    }

    static void setKey(MemorySegment n, int i, long key) {
        n.set(LE64, HEADER + 8L * i, key);
    }

    static long value(MemorySegment n, int i) {
        return n.get(LE64, valueAt(n, i));
    }

    static void setValue(MemorySegment n, int i, long v) {
        n.set(LE64, valueAt(n, i), v);
    }

    private static long valueAt(MemorySegment n, int i) {
        return HEADER + 8L * max(n) + (long) VALUE_SIZE * i;
    }

    /** {@code lower_bound()} ({@code bsearch(n, key, 0)}): the last entry whose key is at most {@code key}, -1 if none. */
    static int lowerBound(MemorySegment n, long key) {
        int lo = -1;
        int hi = nrEntries(n);
        while (hi - lo > 1) {
            int mid = lo + ((hi - lo) >>> 1);
            long k = key(n, mid);
            if (k == key) {
                return mid;
            }
            if (Long.compareUnsigned(k, key) < 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** {@code insert_at()}: entry {@code i} becomes (key, value), the ones from {@code i} move up; the node must have room. */
    static void insertAt(MemorySegment n, int i, long key, long value) {
        int nr = nrEntries(n);
        if (nr >= max(n) || i < 0 || i > nr) {
            throw new IllegalStateException("btree: insert at " + i + " of a node with " + nr + "/" + max(n) + " entries");
        }
        MemorySegment.copy(n, HEADER + 8L * i, n, HEADER + 8L * (i + 1), 8L * (nr - i));
        MemorySegment.copy(n, valueAt(n, i), n, valueAt(n, i + 1), (long) VALUE_SIZE * (nr - i));
        setKey(n, i, key);
        setValue(n, i, value);
        setNrEntries(n, nr + 1);
    }

    /** Entries {@code from..nr-1} of {@code src} become entries {@code 0..} of the empty {@code dst} (same max). */
    static void moveTail(MemorySegment src, int from, MemorySegment dst) {
        int nr = nrEntries(src);
        int count = nr - from;
        MemorySegment.copy(src, HEADER + 8L * from, dst, HEADER, 8L * count);
        MemorySegment.copy(src, valueAt(src, from), dst, valueAt(dst, 0), (long) VALUE_SIZE * count);
        setNrEntries(dst, count);
        setNrEntries(src, from);
    }

    /** {@code btree_node_prepare_for_write}: blocknr and checksum. */
    static void prepareForWrite(long block, MemorySegment n) {
        n.set(LE64, BLOCKNR, block);
        n.set(LE32, CSUM, checksum(n));
    }

    /** {@code btree_node_check}: blocknr, checksum, and a sane entry count. */
    static boolean check(long block, MemorySegment n) {
        return blocknr(n) == block && n.get(LE32, CSUM) == checksum(n) && nrEntries(n) <= max(n)
                && max(n) == maxEntries((int) n.byteSize()) && valueSize(n) == VALUE_SIZE;
    }

    /** {@code dm_bm_checksum(&flags, size - 4, BTREE_CSUM_XOR)}: crc32c of everything after the csum field. */
    private static int checksum(MemorySegment n) {
        CRC32C crc = new CRC32C();
        crc.update(n.asSlice(FLAGS).asByteBuffer());
        return (int) crc.getValue() ^ BTREE_CSUM_XOR;
    }
}
