package lab.engine.zram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Test pages: fixed kinds for the I/O tests, and versioned per-index patterns for the races, which
 * a reader can check without knowing which write it raced with.
 */
final class Pages {
    static final int PAGE = Zram.PAGE_SIZE;
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Pages() {
    }

    static byte[] zero() {
        return new byte[PAGE];
    }

    static byte[] sameFilled(byte b) {
        byte[] p = new byte[PAGE];
        Arrays.fill(p, b);
        return p;
    }

    /** Pseudo-random bytes: incompressible, so stored as a huge page. */
    static byte[] random(long seed) {
        byte[] p = new byte[PAGE];
        fillRandom(p, 0, PAGE, seed);
        return p;
    }

    /** First half pseudo-random, second half zeros: compresses to a little over half a page. */
    static byte[] halfCompressible(long seed) {
        byte[] p = new byte[PAGE];
        fillRandom(p, 0, PAGE / 2, seed);
        return p;
    }

    /** Bytes that are not a valid page of anything written: what a read must overwrite. */
    static byte[] garbage() {
        return sameFilled((byte) 0x5a);
    }

    static boolean isZero(byte[] p) {
        for (byte b : p) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** xorshift64* into [from, to), whole words. */
    static void fillRandom(byte[] p, int from, int to, long seed) {
        long x = seed * 0x9E3779B97F4A7C15L | 1;
        for (int pos = from; pos < to; pos += Long.BYTES) {
            x ^= x >>> 12;
            x ^= x << 25;
            x ^= x >>> 27;
            WORDS.set(p, pos, x * 0x2545F4914F6CDD1DL);
        }
    }

    /** The first word of every versioned page of {@code index}: (index + 1) << 16 | version. */
    static long stamp(long index, int version) {
        return (index + 1) << 16 | version;
    }

    /**
     * Version {@code version} (1..65535) of page {@code index}: same-filled with the stamp, half
     * compressible, or random, by version mod 3; the first word is always the stamp.
     */
    static void fill(byte[] p, long index, int version) {
        long w = stamp(index, version);
        switch (version % 3) {
            case 0 -> {
                for (int pos = 0; pos < PAGE; pos += Long.BYTES) {
                    WORDS.set(p, pos, w);
                }
            }
            case 1 -> {
                fillRandom(p, 0, PAGE / 2, w);
                Arrays.fill(p, PAGE / 2, PAGE, (byte) 0);
            }
            default -> fillRandom(p, 0, PAGE, w);
        }
        WORDS.set(p, 0, w);
    }

    /** Whether {@code p} is all zeros or exactly one whole version of {@code index}'s page. */
    static boolean isValid(byte[] p, long index, byte[] scratch) {
        long w = (long) WORDS.get(p, 0);
        if (w == 0) {
            return isZero(p);
        }
        int version = (int) (w & 0xFFFF);
        if (w >>> 16 != index + 1 || version == 0) {
            return false;
        }
        fill(scratch, index, version);
        return Arrays.equals(p, scratch);
    }
}
