package lab.bridge.run;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import lab.jobspec.Job;
import lab.jobspec.Verify;

/**
 * {@code verify=} and {@code verify_pattern}: what every written block carries, and its check on
 * read. A write is cut into pieces of {@code verify_interval} bytes ({@link Job#verifyInterval()}:
 * by default the whole write for one block size), and each piece is a block of its own, as fio
 * cuts it ({@code populate_verify_io_u()}). The layout is the lab's own, not fio's
 * {@code struct verify_header}.
 *
 * <pre>
 *   0  u32 magic       "LABV" crc32c, "LABC" crc32, "LABM" md5, "LAB1" sha1, "LAB2" sha256, "LABT" meta
 *   4  u32 crc         crc32c / crc32 of bytes [header, len); 0 for the digests; meta: crc32c of bytes [8, 32)
 *   8  u64 offset      byte offset of the block on the target
 *  16  u64 generation  the writing clone's write count (1, 2, ...): which write left it
 *  24  u32 length      the block's length (the writing job's verify_interval)
 *  28  u32 clone       which clone of numjobs wrote it
 *  32  digest          md5 (16 bytes), sha1 (20), sha256 (32); absent for the crcs
 * </pre>
 * Little-endian. The header is 32 bytes for the crcs, 32 + the digest for the digests; the
 * checksum covers the rest of the block. With {@code verify_offset=N} the header and the N bytes
 * into the piece change places once it is stamped (fio's {@code memswp()}), so on the target it
 * lies N bytes in. Because kind, offset and length live in the block, a
 * read job of a later run verifies what a write job of an earlier run left, whatever order either
 * used, and a block written with another kind is named as such. With {@code nrfiles} the header
 * does not name the file (fio's names none either): a block read from another file of the clone at
 * the same offset, written by the same job, checks as valid.
 *
 * <p>{@code verify_pattern}: the block is the pattern repeated from its first byte, then the
 * header over its start; a read checks the header and then the bytes after it against the
 * pattern (fio checks both too). {@code verify=pattern} has no header: the whole block is the
 * pattern, and a block that differs anywhere is a mismatch (a block never written included, as
 * in fio). fio's own {@code pattern} kind set by {@code verify_pattern} alone writes its header
 * as well; the lab's does not.
 *
 * <p>One instance per worker (the checksums are stateful); not thread-safe. {@link #stamp}
 * and {@link #check} allocate nothing: the worker passes a {@link ByteBuffer} view of the
 * buffer made once at warm-up; only {@link #describe}, on a mismatch, builds a string.
 */
final class VerifyHeader {

    /** {@code "LABV"} read as a little-endian u32: the crc32c kind's magic. */
    static final int MAGIC = 0x5642414c;
    /** Bytes of the fixed header; a digest kind adds its digest. */
    static final int SIZE = 32;

    /** {@link #check}'s answers. */
    static final int OK = 0, UNWRITTEN = 1, BAD_MAGIC = 2, BAD_OFFSET = 3, BAD_LENGTH = 4, BAD_CRC = 5,
            BAD_PATTERN = 6, OTHER_KIND = 7;

    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final Verify[] HEADER_KINDS =
            {Verify.CRC32C, Verify.CRC32, Verify.MD5, Verify.SHA1, Verify.SHA256, Verify.META};

    private final Verify kind;
    private final int clone;
    /** Bytes of each piece of a write ({@code verify_interval}). */
    private final int interval;
    /** Where in the block the last bad piece {@link #check} found starts. */
    private int badAt;
    private final int magic;
    /** Header bytes: 0 (pattern), 32, or 32 + the digest. */
    private final int headerSize;
    private final Checksum crc;
    private final MessageDigest digest;
    private final byte[] computed;
    private final byte[] stored;
    /** {@code verify_pattern} repeated over {@code bs} bytes, or null. */
    private final MemorySegment pattern;
    /** {@code verify_offset}: where in each piece the header lies on the target; 0 at its start. */
    private final int swapAt;
    /** The header's bytes while {@link #swap} exchanges them. */
    private final MemorySegment swapped;

    VerifyHeader(Job job, int clone) {
        this.kind = job.verify();
        this.clone = clone;
        this.interval = job.verifyInterval();
        this.magic = magic(kind);
        this.headerSize = headerSize(kind);
        this.crc = switch (kind) {
            case CRC32C, META -> new CRC32C();
            case CRC32 -> new CRC32();
            default -> null;
        };
        this.digest = switch (kind) {
            case MD5 -> digest("MD5");
            case SHA1 -> digest("SHA-1");
            case SHA256 -> digest("SHA-256");
            default -> null;
        };
        this.swapAt = headerSize > 0 ? job.checks().offset() : 0;
        this.swapped = MemorySegment.ofArray(new byte[headerSize]);
        int dlen = digest == null ? 0 : digest.getDigestLength();
        this.computed = new byte[dlen];
        this.stored = new byte[dlen];
        byte[] p = job.verifyPatternBytes();
        if (p == null) {
            this.pattern = null;
        } else {
            byte[] full = new byte[job.maxBs()];
            for (int i = 0; i < full.length; i++) {
                full[i] = p[i % p.length];
            }
            this.pattern = MemorySegment.ofArray(full);
        }
    }

    /** Bytes of {@code kind}'s header ({@link Verify#headerBytes}): 0 for {@code pattern}; {@code bs} must be larger. */
    static int headerSize(Verify kind) {
        return kind.headerBytes();
    }

    private static int magic(Verify kind) {
        char c = switch (kind) {
            case CRC32C -> 'V';
            case CRC32 -> 'C';
            case MD5 -> 'M';
            case SHA1 -> '1';
            case SHA256 -> '2';
            case META -> 'T';
            default -> 0;
        };
        return c == 0 ? 0 : 0x0042414c | (c << 24);
    }

    private static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no " + algorithm, e);
        }
    }

    /**
     * Whether {@link #stamp} writes the whole block ({@code verify_pattern}), so the worker need
     * not fill it first.
     */
    boolean fillsBlock() {
        return pattern != null;
    }

    /**
     * Writes the write about to be issued from {@code buf} (viewed as {@code view}): each
     * {@code verify_interval} piece gets the pattern, then its header.
     */
    void stamp(MemorySegment buf, ByteBuffer view, long offset, long generation, int len) {
        if (pattern != null) {
            MemorySegment.copy(pattern, 0, buf, 0, len);
        }
        if (headerSize == 0) {
            return;
        }
        for (int at = 0; at < len; at += interval) {
            int n = Math.min(interval, len - at);
            if (pattern == null) {
                // the buffer's last write left its header verify_offset in: data there again (after a
                // read-back, whose check swapped back, this moves that header into the data instead,
                // which the checksum covers like any data)
                swap(buf, at);
            }
            buf.set(U32, at, magic);
            buf.set(U64, at + 8, offset + at);
            buf.set(U64, at + 16, generation);
            buf.set(U32, at + 24, n);
            buf.set(U32, at + 28, clone);
            if (kind == Verify.META) {
                buf.set(U32, at + 4, crcOf(view, at + 8, at + SIZE));
            } else if (crc != null) {
                buf.set(U32, at + 4, crcOf(view, at + headerSize, at + n));
            } else {
                buf.set(U32, at + 4, 0);
                digestOf(view, at + headerSize, at + n);
                MemorySegment.copy(computed, 0, buf, ValueLayout.JAVA_BYTE, at + SIZE, computed.length);
            }
            swap(buf, at);
        }
    }

    /**
     * fio's {@code memswp()} with {@code verify_offset}: the piece's header and the bytes
     * {@code verify_offset} into it change places (the parser keeps the two apart and inside the
     * piece); its own inverse, so the check calls it too. Nothing without {@code verify_offset}.
     */
    private void swap(MemorySegment buf, int at) {
        if (swapAt == 0) {
            return;
        }
        MemorySegment.copy(buf, at, swapped, 0, headerSize);
        MemorySegment.copy(buf, at + swapAt, buf, at, headerSize);
        MemorySegment.copy(swapped, 0, buf, at + swapAt, headerSize);
    }

    /**
     * Checks a block read at {@code offset}, piece by piece; {@link #OK} or the first bad piece's
     * verdict ({@link #UNWRITTEN} .. {@link #OTHER_KIND}), whose place {@link #describe} names.
     */
    int check(MemorySegment buf, ByteBuffer view, long offset, int len) {
        for (int at = 0; at < len; at += interval) {
            int v = checkPiece(buf, view, offset, at, Math.min(interval, len - at));
            if (v != OK) {
                badAt = at;
                return v;
            }
        }
        return OK;
    }

    private int checkPiece(MemorySegment buf, ByteBuffer view, long offset, int at, int n) {
        swap(buf, at); // verify_offset: the header back at the piece's start
        if (headerSize > 0) {
            int m = buf.get(U32, at);
            if (m != magic) {
                return m == 0 ? UNWRITTEN : kindOf(m) != null ? OTHER_KIND : BAD_MAGIC;
            }
            if (buf.get(U64, at + 8) != offset + at) {
                return BAD_OFFSET;
            }
            if (buf.get(U32, at + 24) != n) {
                return BAD_LENGTH;
            }
            if (!sumMatches(buf, view, at, n)) {
                return BAD_CRC;
            }
        }
        if (pattern != null && patternMismatch(buf, at, n) >= 0) {
            return BAD_PATTERN;
        }
        return OK;
    }

    private boolean sumMatches(MemorySegment buf, ByteBuffer view, int at, int n) {
        if (kind == Verify.META) {
            return buf.get(U32, at + 4) == crcOf(view, at + 8, at + SIZE);
        }
        if (crc != null) {
            return buf.get(U32, at + 4) == crcOf(view, at + headerSize, at + n);
        }
        digestOf(view, at + headerSize, at + n);
        MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, at + SIZE, stored, 0, stored.length);
        return Arrays.equals(stored, computed);
    }

    /** The first byte of piece [at, at + n) after its header where the block differs from the pattern, or -1. */
    private long patternMismatch(MemorySegment buf, int at, int n) {
        long m = MemorySegment.mismatch(buf, at + headerSize, at + n, pattern, at + headerSize, at + n);
        return m < 0 ? -1 : at + headerSize + m;
    }

    /** The kind whose magic {@code m} is, or null for none of the lab's. */
    private static Verify kindOf(int m) {
        for (Verify k : HEADER_KINDS) {
            if (magic(k) == m) {
                return k;
            }
        }
        return null;
    }

    /** What {@link #check} found wrong in its first bad piece, with expected and actual values, for the notes. */
    String describe(int verdict, MemorySegment buf, ByteBuffer view, long offset, int len) {
        int at = badAt;
        int n = Math.min(interval, len - at);
        String where = "block at offset " + (offset + at) + " (0x" + Long.toHexString(offset + at) + "), " + n
                + " bytes" + (n == len ? "" : " (piece of the " + len + "-byte I/O at offset " + offset + ")") + ": ";
        return where + switch (verdict) {
            case BAD_MAGIC -> String.format("magic 0x%08x, expected 0x%08x (not a lab verify block)",
                    buf.get(U32, at), magic);
            case OTHER_KIND -> "written with verify=" + kindOf(buf.get(U32, at)).fioName() + ", read with verify="
                    + kind.fioName() + " (verify with the writing job's kind)";
            case BAD_OFFSET -> "header offset " + buf.get(U64, at + 8) + ", expected " + (offset + at)
                    + " (a block written elsewhere landed here)";
            case BAD_LENGTH -> "header length " + buf.get(U32, at + 24) + ", expected " + n
                    + " (written with another bs or verify_interval? verify with the writing job's)";
            case BAD_CRC -> kind == Verify.META
                    ? String.format("meta crc32c 0x%08x in header, 0x%08x computed over its fields",
                            buf.get(U32, at + 4), crcOf(view, at + 8, at + SIZE))
                    : crc != null
                    ? String.format("%s 0x%08x in header (generation %d, clone %d), 0x%08x computed over the data",
                            kind.fioName(), buf.get(U32, at + 4), buf.get(U64, at + 16), buf.get(U32, at + 28),
                            crcOf(view, at + headerSize, at + n))
                    : kind.fioName() + " " + hex(storedCopy(buf, at)) + " in header (generation "
                            + buf.get(U64, at + 16) + ", clone " + buf.get(U32, at + 28) + "), "
                            + hex(computedCopy(view, at + headerSize, at + n)) + " computed over the data";
            case BAD_PATTERN -> {
                long b = patternMismatch(buf, at, n);
                yield String.format("byte %d is 0x%02x, verify_pattern has 0x%02x there", b,
                        buf.get(ValueLayout.JAVA_BYTE, b), pattern.get(ValueLayout.JAVA_BYTE, b));
            }
            default -> "verdict " + verdict;
        };
    }

    private byte[] storedCopy(MemorySegment buf, int at) {
        MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, at + SIZE, stored, 0, stored.length);
        return stored.clone();
    }

    private byte[] computedCopy(ByteBuffer view, int from, int to) {
        digestOf(view, from, to);
        return computed.clone();
    }

    private static String hex(byte[] b) {
        return java.util.HexFormat.of().formatHex(b);
    }

    /** The CRC of bytes [from, to) of the buffer. */
    private int crcOf(ByteBuffer view, int from, int to) {
        view.limit(to).position(from);
        crc.reset();
        crc.update(view);
        return (int) crc.getValue();
    }

    private void digestOf(ByteBuffer view, int from, int to) {
        view.limit(to).position(from);
        digest.reset();
        digest.update(view);
        try {
            digest.digest(computed, 0, computed.length);
        } catch (java.security.DigestException e) {
            throw new IllegalStateException(e);
        }
    }
}
