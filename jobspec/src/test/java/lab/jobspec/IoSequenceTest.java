package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Set;
import java.util.HashSet;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IoSequenceTest {
    @TempDir
    Path dir;

    private Job job(String lines) throws Exception {
        return TestJobs.job(dir, lines);
    }

    /** The offsets of {@code n} I/Os. */
    private static long[] offsets(IoSequence s, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            s.nextIsRead();
            out[i] = s.offset();
        }
        return out;
    }

    @ParameterizedTest(name = "blocks={0}")
    @ValueSource(ints = {1, 2, 3, 7, 256, 1000, 4097})
    void aRandomPassVisitsEveryBlockOnce(int blocks) throws Exception {
        Job j = job("rw=randread\nbs=4k\noffset=1m\nsize=" + blocks * 4 + "k");
        IoSequence s = IoSequence.forJob(j, 0);
        boolean[] seen = new boolean[blocks];
        for (int i = 0; i < blocks; i++) {
            assertFalse(s.passDone(), "pass ends early at " + i);
            assertTrue(s.nextIsRead());
            long off = s.offset();
            assertEquals(0, (off - (1 << 20)) % 4096, "aligned to bs from offset");
            int block = (int) ((off - (1 << 20)) / 4096);
            assertTrue(block >= 0 && block < blocks, "within [offset, offset+size): " + off);
            assertFalse(seen[block], "block " + block + " twice");
            seen[block] = true;
        }
        assertTrue(s.passDone());
    }

    /**
     * fio's LFSR counts blocks of the smallest size of any direction (rw_min_bs, here the reads'
     * 4k) and places a write's block at its own 8k alignment: the walk's blocks past the first
     * half land past the region, and the first of them ends the pass, as fio's
     * get_next_offset() fails there. Each write once, none past the region, the pass short.
     */
    @Test
    void anLfsrOfTwoUnitsEndsThePassAtTheFirstBlockPastTheRegion() throws Exception {
        Job j = job("rw=randwrite\nbs=4k,8k\nrandom_generator=lfsr\nsize=4m");
        IoSequence s = IoSequence.forJob(j, 0);
        Set<Long> seen = new HashSet<>();
        while (!s.passDone()) {
            assertFalse(s.nextIsRead());
            assertEquals(8192, s.length());
            assertEquals(0, s.offset() % 8192, "at the writes' alignment");
            assertTrue(s.offset() < (4 << 20), "within the region: " + s.offset());
            assertTrue(seen.add(s.offset()), "offset " + s.offset() + " twice");
        }
        assertTrue(seen.size() < 512, seen.size() + " writes: the pass ends at the first block past the region");
    }

    /**
     * fio's get_next_seq_offset() wraps a holed walk at the file's end, not the region's: in a
     * file that ends with the region it wraps and fills the pass; in a larger file the pass ends
     * when the next I/O no longer fits the region (fio's io_u_fits()).
     */
    @Test
    void aHoledWalkWrapsAtTheFilesEnd() throws Exception {
        Job j = job("rw=write:12k\nbs=4k\nsize=128k");
        IoSequence own = IoSequence.forJob(j, 0);
        int n = 0;
        while (own.hasNext()) {
            own.nextIsRead();
            n++;
        }
        assertEquals(32, n, "the file ends with the region: wraps until size is done");
        IoSequence larger = IoSequence.forJob(j, 0, new long[] {1L << 20});
        long[] o = new long[8];
        for (int i = 0; i < 8; i++) {
            assertTrue(larger.hasNext());
            larger.nextIsRead();
            o[i] = larger.offset();
        }
        assertFalse(larger.hasNext(), "the 9th would start at 128k, past the region");
        assertArrayEquals(new long[] {0, 16 << 10, 32 << 10, 48 << 10, 64 << 10, 80 << 10, 96 << 10, 112 << 10}, o);
    }

    @Test
    void randomOrderIsNotSequential() throws Exception {
        long[] o = offsets(IoSequence.forJob(job("rw=randwrite\nsize=4m"), 0), 1024);
        int ascending = 0;
        for (int i = 1; i < o.length; i++) {
            ascending += o[i] == o[i - 1] + 4096 ? 1 : 0;
        }
        assertTrue(ascending < 20, "ascending steps: " + ascending);
    }

    @Test
    void partialLastBlockIsNotUsed() throws Exception {
        IoSequence s = IoSequence.forJob(job("rw=randread\nbs=4k\nsize=10k"), 0);
        long[] o = offsets(s, 2);
        Arrays.sort(o);
        assertArrayEquals(new long[] {0, 4096}, o);
        assertTrue(s.passDone());
    }

    @Test
    void sequentialWalksAndWraps() throws Exception {
        IoSequence s = IoSequence.forJob(job("rw=write\nbs=8k\noffset=64k\nsize=24k"), 0);
        long[] o = new long[7];
        boolean[] done = new boolean[7];
        for (int i = 0; i < 7; i++) {
            assertFalse(s.nextIsRead());
            o[i] = s.offset();
            done[i] = s.passDone();
        }
        assertArrayEquals(new long[] {65536, 73728, 81920, 65536, 73728, 81920, 65536}, o);
        assertArrayEquals(new boolean[] {false, false, true, false, false, true, false}, done,
                "taking an I/O past a pass starts the next one");
    }

    @Test
    void resetPassStartsSequentialAgainAtOffset() throws Exception {
        IoSequence s = IoSequence.forJob(job("rw=read\nbs=4k\nsize=16k"), 0);
        offsets(s, 4);
        assertTrue(s.passDone());
        s.resetPass();
        assertFalse(s.passDone());
        assertArrayEquals(new long[] {0, 4096}, offsets(s, 2));
    }

    @Test
    void randomPassAfterResetCoversEveryBlockAgainInANewOrder() throws Exception {
        IoSequence s = IoSequence.forJob(job("rw=randread\nbs=4k\nsize=4m"), 0);
        long[] first = offsets(s, 1024);
        s.resetPass();
        long[] second = offsets(s, 1024);
        assertTrue(s.passDone());
        assertFalse(Arrays.equals(first, second));
        Arrays.sort(first);
        Arrays.sort(second);
        assertArrayEquals(first, second);
    }

    @Test
    void readwriteKeepsOnePositionPerDirection() throws Exception {
        IoSequence s = IoSequence.forJob(job("rw=readwrite\nbs=4k\nsize=1g"), 0);
        long nextRead = 0;
        long nextWrite = 0;
        for (int i = 0; i < 1000; i++) {
            boolean read = s.nextIsRead();
            assertEquals(read ? nextRead : nextWrite, s.offset());
            if (read) {
                nextRead += 4096;
            } else {
                nextWrite += 4096;
            }
        }
        assertTrue(nextRead > 0 && nextWrite > 0);
    }

    @Test
    void rwmixreadSetsTheShareOfReads() throws Exception {
        IoSequence s = IoSequence.forJob(job("rw=randrw\nrwmixread=70\nsize=1g"), 0);
        int reads = 0;
        for (int i = 0; i < 100_000; i++) {
            reads += s.nextIsRead() ? 1 : 0;
        }
        assertEquals(70_000, reads, 1_000);
    }

    @Test
    void pureModesNeverMix() throws Exception {
        IoSequence r = IoSequence.forJob(job("rw=randread\nsize=1m"), 0);
        IoSequence w = IoSequence.forJob(job("rw=write\nsize=1m"), 0);
        for (int i = 0; i < 1000; i++) {
            assertTrue(r.nextIsRead());
            assertFalse(w.nextIsRead());
        }
    }

    @Test
    void rwmixreadZeroAndHundredAreAbsolute() throws Exception {
        IoSequence none = IoSequence.forJob(job("rw=randrw\nrwmixread=0\nsize=1m"), 0);
        IoSequence all = IoSequence.forJob(job("rw=randrw\nrwmixwrite=0\nsize=1m"), 0);
        for (int i = 0; i < 10_000; i++) {
            assertFalse(none.nextIsRead());
            assertTrue(all.nextIsRead());
        }
    }

    @Test
    void clonesGetDifferentOrders() throws Exception {
        Job j = job("rw=randrw\nsize=4m");
        assertFalse(Arrays.equals(offsets(IoSequence.forJob(j, 0), 64), offsets(IoSequence.forJob(j, 1), 64)));
    }

    @Test
    void sameJobAndCloneRepeat() throws Exception {
        Job j = job("rw=randrw\nsize=4m\nrandseed=7");
        IoSequence a = IoSequence.forJob(j, 2);
        IoSequence b = IoSequence.forJob(j, 2);
        for (int i = 0; i < 5000; i++) {
            assertEquals(a.nextIsRead(), b.nextIsRead());
            assertEquals(a.offset(), b.offset());
        }
        Job other = job("rw=randrw\nsize=4m\nrandrepeat=0\nrandseed=8");
        Job same = job("rw=randrw\nsize=4m\nrandrepeat=0\nrandseed=7");
        assertFalse(Arrays.equals(offsets(IoSequence.forJob(same, 2), 64), offsets(IoSequence.forJob(other, 2), 64)));
    }

    /**
     * fio's td_fill_rand_seeds_internal(): under randrepeat=1 (its default) the random offsets'
     * stream is seeded from the thread number alone, so another randseed changes the directions
     * (and sizes) but not the offsets; with randrepeat=0 it changes both.
     */
    @Test
    void randseedLeavesTheOffsetsAloneUnderRandrepeat() throws Exception {
        IoSequence a = IoSequence.forJob(job("rw=randrw\nsize=4m\nrandseed=7"), 0);
        IoSequence b = IoSequence.forJob(job("rw=randrw\nsize=4m\nrandseed=8"), 0);
        int sameDir = 0;
        for (int i = 0; i < 256; i++) {
            sameDir += a.nextIsRead() == b.nextIsRead() ? 1 : 0;
            assertEquals(a.offset(), b.offset(), "offset " + i);
        }
        assertTrue(sameDir < 200, sameDir + " of 256 directions alike: the mix follows randseed");
    }
}
