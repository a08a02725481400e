package lab.engine.block;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A bio's page vector, the {@code bi_io_vec} array of {@code struct bio_vec} (include/linux/bvec.h):
 * entry {@code i} is {@code len[i]} bytes at {@code offset[i]} of {@code page[i]}.
 *
 * <p>A bioset's own vectors are {@link #PAGE_SIZE} pages cut from one contiguous off-heap
 * {@link #buffer} (like a large folio split into pages), so that a load generator can fill the
 * data of a bio with one call. The entries never change after construction; what a bio uses of
 * them is given by the bio's iterator ({@link Bio#idx}, {@link Bio#bvecDone}, {@link Bio#size}).
 *
 * <p>Ownership: a vector belongs to the bio that was allocated with it ({@code bi_inline_vecs});
 * clones only point at it (see {@link Bioset#allocClone}). The memory belongs to the arena that
 * allocated it (the bioset's), and is freed when that arena closes.
 */
public final class BioVec {

    /** {@code PAGE_SIZE}. */
    public static final int PAGE_SIZE = 4096;

    /** The pages, each a {@link #PAGE_SIZE}-byte slice of {@link #buffer} (or a caller's segment). */
    final MemorySegment[] page;
    /** Byte offset of each entry's data in its page. */
    final int[] offset;
    /** Byte length of each entry. */
    final int[] len;
    /** The whole memory behind the entries, contiguous. */
    private final MemorySegment buffer;

    private BioVec(MemorySegment buffer) {
        int n = (int) ((buffer.byteSize() + PAGE_SIZE - 1) / PAGE_SIZE);
        this.buffer = buffer;
        this.page = new MemorySegment[n];
        this.offset = new int[n];
        this.len = new int[n];
        for (int i = 0; i < n; i++) {
            long start = (long) i * PAGE_SIZE;
            page[i] = buffer.asSlice(start, Math.min(PAGE_SIZE, buffer.byteSize() - start));
            len[i] = (int) page[i].byteSize();
        }
    }

    /** A vector of {@code bytes} (rounded up to whole pages) of page-aligned memory from {@code arena}. */
    static BioVec alloc(Arena arena, int bytes) {
        long size = (long) (bytes + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;
        return new BioVec(arena.allocate(size, PAGE_SIZE));
    }

    /**
     * A vector over a caller's memory, cut into pages ({@code bio_iov_iter_get_pages()} for
     * O_DIRECT). The caller keeps ownership of {@code buffer} and must keep it alive until every
     * bio that uses this vector has completed.
     */
    public static BioVec of(MemorySegment buffer) {
        return new BioVec(buffer);
    }

    /** The contiguous memory behind the entries. */
    public MemorySegment buffer() {
        return buffer;
    }

    /** Bytes the entries hold in all ({@code bi_max_vecs} pages' worth). */
    public long capacity() {
        return buffer.byteSize();
    }

    /** Number of entries ({@code bi_vcnt}). */
    public int count() {
        return page.length;
    }
}
