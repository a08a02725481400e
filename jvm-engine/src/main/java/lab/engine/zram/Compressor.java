package lab.engine.zram;

import io.airlift.compress.Decompressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.lzo.LzoCompressor;
import io.airlift.compress.lzo.LzoDecompressor;

/**
 * The compression backend of a zram device, as written to {@code /sys/block/zramN/comp_algorithm}.
 *
 * <p>Both backends are aircompressor's pure-Java ports (no JNI, so the JIT sees the whole I/O
 * path, as the kernel's are plain C called from zcomp):
 * <ul>
 * <li>{@link #LZO_RLE}, zram's default since Linux 5.1, is modelled by LZO1X-1. The kernel's
 *     lzo-rle is the same LZO1X-1 compressor with one addition: a run of zero bytes is emitted as a
 *     run-length instruction, which shortens pages with long zero runs (and the time to compress
 *     them). Pages that are a single repeated word never reach the compressor at all (zram's
 *     same-filled pages), so the model differs only on pages with long zero runs among other
 *     data: there it produces somewhat longer output, a little more slowly, than the kernel.</li>
 * <li>{@link #LZ4} is LZ4 block compression at the default acceleration, as
 *     {@code LZ4_compress_default}.</li>
 * </ul>
 */
public enum Compressor {
    LZO_RLE("lzo-rle"),
    LZ4("lz4");

    private final String cliName;

    Compressor(String cliName) {
        this.cliName = cliName;
    }

    /** The kernel's name for the algorithm, as comp_algorithm and the lab's command line spell it. */
    public String cliName() {
        return cliName;
    }

    /** The backend whose {@link #cliName()} is {@code cliName}. */
    public static Compressor of(String cliName) {
        for (Compressor c : values()) {
            if (c.cliName.equals(cliName)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown zram compressor '" + cliName + "' (known: lzo-rle, lz4)");
    }

    /** A compressor instance: not thread-safe (it owns its hash table), so one per stream. */
    io.airlift.compress.Compressor newCompressor() {
        return switch (this) {
            case LZO_RLE -> new LzoCompressor();
            case LZ4 -> new Lz4Compressor();
        };
    }

    /** A decompressor instance, one per stream. */
    Decompressor newDecompressor() {
        return switch (this) {
            case LZO_RLE -> new LzoDecompressor();
            case LZ4 -> new Lz4Decompressor();
        };
    }
}
