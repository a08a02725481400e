package lab.bridge.run;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * {@code verify=crc32c}: the header every written block carries at its start, fio's {@code struct
 * verify_header} in the lab's layout, and its check on read. A block is one I/O of {@code bs}
 * bytes (fio's {@code verify_interval} defaults to {@code bs}).
 *
 * <pre>
 *   0  u32 magic       {@link #MAGIC}
 *   4  u32 crc32c      of bytes [{@link #SIZE}, len) of the block
 *   8  u64 offset      byte offset of the block on the target
 *  16  u64 generation  the writing clone's write count (1, 2, ...): which write left it
 *  24  u32 length      the block's length (bs of the writing job)
 *  28  u32 clone       which clone of numjobs wrote it
 * </pre>
 * Little-endian. Because offset and length live in the block, a read job of a later run
 * verifies what a write job of an earlier run left, whatever order either used.
 *
 * <p>One instance per worker (the {@link CRC32C} is stateful); not thread-safe. {@link #stamp}
 * and {@link #check} allocate nothing: the worker passes a {@link ByteBuffer} view of the
 * buffer made once at warm-up; only {@link #describe}, on a mismatch, builds a string.
 */
final class VerifyHeader {

    /** {@code "LABV"} read as a little-endian u32. */
    static final int MAGIC = 0x5642414c;
    /** Header bytes; {@code bs} must be larger. */
    static final int SIZE = 32;

    /** {@link #check}'s answers. */
    static final int OK = 0, UNWRITTEN = 1, BAD_MAGIC = 2, BAD_OFFSET = 3, BAD_LENGTH = 4, BAD_CRC = 5;

    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;

    private final CRC32C crc = new CRC32C();
    private final int clone;

    VerifyHeader(int clone) {
        this.clone = clone;
    }

    /** Writes the header of the block about to be written from {@code buf} (viewed as {@code view}). */
    void stamp(MemorySegment buf, ByteBuffer view, long offset, long generation, int len) {
        buf.set(U32, 0, MAGIC);
        buf.set(U64, 8, offset);
        buf.set(U64, 16, generation);
        buf.set(U32, 24, len);
        buf.set(U32, 28, clone);
        buf.set(U32, 4, crcOf(view, len));
    }

    /** Checks a block read at {@code offset}; one of {@link #OK} .. {@link #BAD_CRC}. */
    int check(MemorySegment buf, ByteBuffer view, long offset, int len) {
        int magic = buf.get(U32, 0);
        if (magic != MAGIC) {
            return magic == 0 ? UNWRITTEN : BAD_MAGIC;
        }
        if (buf.get(U64, 8) != offset) {
            return BAD_OFFSET;
        }
        if (buf.get(U32, 24) != len) {
            return BAD_LENGTH;
        }
        return buf.get(U32, 4) == crcOf(view, len) ? OK : BAD_CRC;
    }

    /** What {@link #check} found wrong, with expected and actual values, for the notes. */
    String describe(int verdict, MemorySegment buf, ByteBuffer view, long offset, int len) {
        String where = "block at offset " + offset + " (0x" + Long.toHexString(offset) + "), " + len + " bytes: ";
        return where + switch (verdict) {
            case BAD_MAGIC -> String.format("magic 0x%08x, expected 0x%08x (not a lab verify block)",
                    buf.get(U32, 0), MAGIC);
            case BAD_OFFSET -> "header offset " + buf.get(U64, 8) + ", expected " + offset
                    + " (a block written elsewhere landed here)";
            case BAD_LENGTH -> "header length " + buf.get(U32, 24) + ", expected " + len
                    + " (written with another bs? verify with the writing job's bs)";
            case BAD_CRC -> String.format("crc32c 0x%08x in header (generation %d, clone %d), 0x%08x computed over the data",
                    buf.get(U32, 4), buf.get(U64, 16), buf.get(U32, 28), crcOf(view, len));
            default -> "verdict " + verdict;
        };
    }

    private int crcOf(ByteBuffer view, int len) {
        view.limit(len).position(SIZE);
        crc.reset();
        crc.update(view);
        return (int) crc.getValue();
    }
}
