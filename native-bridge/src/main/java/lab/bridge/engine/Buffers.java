package lab.bridge.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * An engine's I/O buffers: {@code count} buffers of {@code bs} bytes, each starting on a
 * 4096-byte boundary (enough for O_DIRECT on any logical block size up to a page), carved
 * from one slab of one arena. Owned by the engine; freed when its arena closes.
 */
final class Buffers {
    static final int ALIGN = 4096;

    private final MemorySegment[] segments;
    private final long[] addresses;
    private final int bs;
    private final long bytes;

    Buffers(Arena arena, int count, int bs) {
        long stride = (bs + ALIGN - 1L) & -ALIGN;
        MemorySegment slab = arena.allocate(stride * count, ALIGN);
        this.bytes = slab.byteSize();
        this.segments = new MemorySegment[count];
        this.addresses = new long[count];
        this.bs = bs;
        for (int i = 0; i < count; i++) {
            segments[i] = slab.asSlice(i * stride, bs);
            addresses[i] = segments[i].address();
        }
    }

    MemorySegment segment(int tag) {
        return segments[tag];
    }

    long address(int tag) {
        return addresses[tag];
    }

    /** Every buffer's address, in tag order (for {@code io_uring_register_buffers}). */
    long[] addresses() {
        return addresses.clone();
    }

    int count() {
        return segments.length;
    }

    int bs() {
        return bs;
    }

    /** Bytes of the slab: what stays allocated if the buffers must be leaked. */
    long bytes() {
        return bytes;
    }

    /** Rejects a tag or length that would reach outside its buffer. */
    void check(int tag, int len) {
        if (tag < 0 || tag >= segments.length) {
            throw new IndexOutOfBoundsException("tag " + tag + " outside 0.." + (segments.length - 1));
        }
        if (len < 0 || len > bs) {
            throw new IndexOutOfBoundsException("len " + len + " outside a buffer of " + bs + " bytes");
        }
    }
}
