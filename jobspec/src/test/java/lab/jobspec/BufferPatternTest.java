package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.Deflater;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BufferPatternTest {
    private static final int LEN = 64 << 10;

    @TempDir
    Path dir;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment buf = arena.allocate(LEN, 4096);

    @AfterEach
    void close() {
        arena.close();
    }

    private BufferPattern pattern(String lines) throws Exception {
        return BufferPattern.forJob(TestJobs.job(dir, "size=1g\nbs=64k\n" + lines), 0);
    }

    /** The bytes after {@link BufferPattern#fillInitial}, then after a whole-buffer write at each offset. */
    private byte[][] snapshots(String lines, long... offsets) throws Exception {
        BufferPattern p = pattern(lines);
        p.fillInitial(buf);
        byte[][] out = new byte[offsets.length + 1][];
        out[0] = bytes();
        for (int i = 0; i < offsets.length; i++) {
            p.prepareWrite(buf, LEN, offsets[i]);
            out[i + 1] = bytes();
        }
        return out;
    }

    private byte[] bytes() {
        return buf.toArray(ValueLayout.JAVA_BYTE);
    }

    private static double deflatedRatio(byte[] data) {
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION);
        d.setInput(data);
        d.finish();
        byte[] out = new byte[data.length * 2];
        int n = 0;
        while (!d.finished()) {
            n += d.deflate(out, n, out.length - n);
        }
        d.end();
        return (double) n / data.length;
    }

    private static int differingBytes(byte[] a, byte[] b) {
        int n = 0;
        for (int i = 0; i < a.length; i++) {
            n += a[i] != b[i] ? 1 : 0;
        }
        return n;
    }

    @Test
    void zeroBuffersAreZeroInitiallyAndOnRefill() throws Exception {
        buf.fill((byte) 0x5a);
        BufferPattern p = pattern("zero_buffers\nrefill_buffers");
        p.fillInitial(buf);
        assertArrayEquals(new byte[LEN], bytes());
        buf.fill((byte) 0x5a);
        p.prepareWrite(buf, 4096, 0);
        byte[] b = bytes();
        assertArrayEquals(new byte[4096], Arrays.copyOf(b, 4096));
        assertEquals(0x5a, b[4096], "only len bytes are prepared");
    }

    @Test
    void zeroBuffersAreNotScrambled() throws Exception {
        BufferPattern p = pattern("zero_buffers");
        p.fillInitial(buf);
        p.prepareWrite(buf, LEN, 1 << 20);
        assertArrayEquals(new byte[LEN], bytes());
    }

    @Test
    void compressPercentage100IsZeros() throws Exception {
        BufferPattern p = pattern("buffer_compress_percentage=100");
        p.fillInitial(buf);
        assertArrayEquals(new byte[LEN], bytes());
    }

    @Test
    void randomBuffersDoNotCompress() throws Exception {
        pattern("").fillInitial(buf);
        assertTrue(deflatedRatio(bytes()) >= 0.95, "ratio " + deflatedRatio(bytes()));
    }

    @Test
    void halfCompressibleBuffersDeflateToAboutHalf() throws Exception {
        for (byte[] b : snapshots("buffer_compress_percentage=50", 0)) {
            double ratio = deflatedRatio(b);
            assertTrue(ratio >= 0.45 && ratio <= 0.60, "ratio " + ratio);
        }
    }

    @Test
    void compressibleChunksAreRandomThenZero() throws Exception {
        pattern("buffer_compress_percentage=75").fillInitial(buf);
        byte[] b = bytes();
        byte[] tail = Arrays.copyOfRange(b, 128, 512);
        assertArrayEquals(new byte[512 - 128], tail, "the last 75% of each 512-byte chunk is zeros");
        assertTrue(differingBytes(Arrays.copyOfRange(b, 0, 128), new byte[128]) > 100, "the first 25% is random");
    }

    @Test
    void compressibleBuffersAreRefilledEachWrite() throws Exception {
        byte[][] s = snapshots("buffer_compress_percentage=50", 0);
        assertTrue(differingBytes(s[0], s[1]) > LEN / 2 * 0.9, "random halves are fresh");
    }

    @Test
    void scrambleChangesEveryBlockBetweenWrites() throws Exception {
        byte[][] s = snapshots("", 8192, 8192);
        for (int block = 0; block < LEN; block += 512) {
            assertFalse(Arrays.equals(s[1], block, block + 512, s[2], block, block + 512), "block " + block);
        }
        assertTrue(differingBytes(s[0], s[2]) < LEN / 10, "scramble stamps, it does not refill");
        assertEquals(8192 + 512, findOffsetStamp(s[2], 512), "each block carries its byte offset");
    }

    private static long findOffsetStamp(byte[] b, int block) {
        MemorySegment s = MemorySegment.ofArray(b);
        for (int line = 0; line < 8; line++) {
            long v = s.get(ValueLayout.JAVA_LONG_UNALIGNED, block + line * 64L);
            if (v == 8192 + 512) {
                return v;
            }
        }
        return -1;
    }

    @Test
    void noScrambleWritesTheSameBufferEachTime() throws Exception {
        byte[][] s = snapshots("scramble_buffers=0", 0, 4096);
        assertArrayEquals(s[0], s[2]);
    }

    @Test
    void verifyTurnsScrambleOffAsInFio() throws Exception {
        byte[][] s = snapshots("verify=crc32c", 0);
        assertArrayEquals(s[0], s[1]);
    }

    @Test
    void refillChangesAllOfIt() throws Exception {
        byte[][] s = snapshots("refill_buffers", 0);
        MemorySegment a = MemorySegment.ofArray(s[0]);
        MemorySegment b = MemorySegment.ofArray(s[1]);
        for (long i = 0; i < LEN; i += 8) {
            assertTrue(a.get(ValueLayout.JAVA_LONG_UNALIGNED, i) != b.get(ValueLayout.JAVA_LONG_UNALIGNED, i),
                    "word at " + i);
        }
    }

    @Test
    void oddLengthsAreFilledToTheLastByte() throws Exception {
        BufferPattern p = pattern("refill_buffers");
        buf.fill((byte) 0);
        p.prepareWrite(buf, 4099, 0);
        byte[] b = bytes();
        assertTrue(b[4096] != 0 || b[4097] != 0 || b[4098] != 0, "tail bytes filled");
        assertEquals(0, b[4099]);
    }

    @Test
    void sameJobAndCloneGiveTheSameBytes() throws Exception {
        Job job = TestJobs.job(dir, "size=1g\nrandseed=42");
        byte[][] runs = new byte[2][];
        for (int run = 0; run < 2; run++) {
            BufferPattern p = BufferPattern.forJob(job, 3);
            p.fillInitial(buf);
            p.prepareWrite(buf, LEN, 12288);
            runs[run] = bytes();
        }
        assertArrayEquals(runs[0], runs[1]);
    }

    @Test
    void clonesAndSeedsDiffer() throws Exception {
        Job job = TestJobs.job(dir, "size=1g\nrandseed=42");
        BufferPattern.forJob(job, 0).fillInitial(buf);
        byte[] clone0 = bytes();
        BufferPattern.forJob(job, 1).fillInitial(buf);
        byte[] clone1 = bytes();
        BufferPattern.forJob(TestJobs.job(dir, "size=1g\nrandseed=43"), 0).fillInitial(buf);
        byte[] otherSeed = bytes();
        assertTrue(differingBytes(clone0, clone1) > LEN * 0.9);
        assertTrue(differingBytes(clone0, otherSeed) > LEN * 0.9);
    }

    /** Distinct contents among {@code n} 64k writes of a job with {@code lines}. */
    private int distinctWrites(String lines, int n) throws Exception {
        BufferPattern p = pattern(lines);
        p.fillInitial(buf);
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < n; i++) {
            p.prepareWrite(buf, LEN, (long) i * LEN);
            seen.add(java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5").digest(bytes())));
        }
        return seen.size();
    }

    /**
     * dedupe_percentage: that share of the writes repeat earlier content (the last unique one, or
     * the working set's pages, which are the first unique ones), the rest are new; 100 repeats
     * the first for ever; without it every write is new (scrambled).
     */
    @Test
    void dedupePercentageRepeatsThatShareOfTheWrites() throws Exception {
        assertEquals(400, distinctWrites("", 400));
        int repeat = distinctWrites("dedupe_percentage=50", 400);
        assertTrue(repeat > 170 && repeat < 230, "about half new: " + repeat);
        int set = distinctWrites("dedupe_percentage=50\ndedupe_mode=working_set\ndedupe_working_set_percentage=1", 400);
        assertTrue(set > 170 && set < 230, "the set's pages are among the new ones: " + set);
        assertEquals(1, distinctWrites("dedupe_percentage=100", 50));
    }

    @Test
    void aWorkingSetNeedsSizeOneFileAndRoomBesideIt() {
        TestJobs.assertRefused("[j]\ndedupe_percentage=50\ndedupe_mode=working_set\n", 3, "dedupe_mode",
                "needs size=");
        TestJobs.assertRefused("[j]\nsize=1m\ndedupe_percentage=96\ndedupe_mode=working_set\n", 3, "dedupe_percentage",
                "exceed 100 together");
    }
}
