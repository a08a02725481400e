package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The read-back of a job's writes ({@link VerifyLog} in {@link IoSequence}): which I/Os are
 * read-backs, in what order, and when, as fio 3.33's {@code do_io()}, {@code do_verify()},
 * {@code check_get_verify()} and {@code log_io_piece()} give them. (The counts against fio
 * itself: the bridge's {@code FioVerifyContractTest}.)
 */
class VerifyLogTest {
    @TempDir
    Path dir;

    /** One I/O as the sequence gave it: R for a read, r for a read-back, W for a write. */
    private record Io(char kind, long offset) {
    }

    /** Runs the sequence to its end, completing each I/O at once, as a depth-1 engine. */
    private List<Io> run(String lines) throws Exception {
        IoSequence s = IoSequence.forJob(TestJobs.job(dir, lines), 0);
        List<Io> out = new ArrayList<>();
        while (s.hasNext()) {
            assertFalse(s.waits(), "nothing in flight at depth 1");
            boolean read = s.nextIsRead();
            out.add(new Io(!read ? 'W' : s.checks() ? 'r' : 'R', s.offset()));
            s.completed(read, s.file(), s.offset());
        }
        return out;
    }

    private static String kinds(List<Io> ios) {
        StringBuilder b = new StringBuilder();
        ios.forEach(i -> b.append(i.kind));
        return b.toString();
    }

    /**
     * After its pass a write job reads every block back: a sequential one in offset order (fio's
     * io_hist_tree), a random one with its map in issue order (io_hist_list); either way the k-th
     * read-back is the k-th write's block.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rw=write\noffset=1m", "rw=randwrite"})
    void aWriteJobReadsEveryBlockBackAfterItsPass(String rw) throws Exception {
        List<Io> ios = run(rw + "\nsize=64k\nbs=4k\nverify=crc32c");
        assertEquals("W".repeat(16) + "r".repeat(16), kinds(ios));
        for (int i = 0; i < 16; i++) {
            assertEquals(ios.get(i).offset, ios.get(16 + i).offset, "read back where written, in order");
        }
    }

    @Test
    void norandommapReadsBackEachBlocksLastWriteOnceInOffsetOrder() throws Exception {
        List<Io> ios = run("rw=randwrite\nsize=256k\nbs=4k\nnorandommap\nverify=crc32c");
        List<Long> written = ios.stream().filter(i -> i.kind == 'W').map(Io::offset).toList();
        List<Long> back = ios.stream().filter(i -> i.kind == 'r').map(Io::offset).toList();
        assertEquals(64, written.size());
        assertEquals(new HashSet<>(written).size(), back.size(), "one read-back per distinct block");
        assertEquals(back.stream().sorted().toList(), back, "fio's io_hist_tree: by offset");
        assertTrue(back.size() < 60, "uniform draws repeat some of 64 blocks: " + back.size());
    }

    @Test
    void aBacklogReadsBackABatchWheneverItFills() throws Exception {
        assertEquals("WWWWrrrr".repeat(4), kinds(run("rw=write\nsize=64k\nverify=md5\nverify_backlog=4")));
        assertEquals("WWWWrr" + "WWrr".repeat(6) + "rr",
                kinds(run("rw=write\nsize=64k\nverify=md5\nverify_backlog=4\nverify_backlog_batch=2")),
                "a batch of 2 leaves 2 waiting: 2 writes fill the log to 4 again; the last 2 after the pass");
    }

    @Test
    void loopsReadBackAfterEachPass() throws Exception {
        assertEquals(("W".repeat(8) + "r".repeat(8)).repeat(2), kinds(run("rw=write\nsize=32k\nverify=crc32\nloops=2")));
    }

    @Test
    void doVerify0ReadsNothingBack() throws Exception {
        assertEquals("W".repeat(8), kinds(run("rw=write\nsize=32k\nverify=crc32\ndo_verify=0")));
    }

    @Test
    void aMixedJobChecksOnlyItsReadBacksAReadJobEveryRead() throws Exception {
        List<Io> ios = run("rw=randrw\nsize=256k\nverify=crc32c");
        long own = ios.stream().filter(i -> i.kind != 'r').count();
        long writes = ios.stream().filter(i -> i.kind == 'W').count();
        assertEquals(64, own, "the pass is its own I/Os");
        assertEquals(writes, ios.stream().filter(i -> i.kind == 'r').count(), "each write read back after it");
        assertTrue(kinds(ios).substring(64).chars().allMatch(c -> c == 'r'), kinds(ios));
        assertEquals("r".repeat(16), kinds(run("rw=read\nsize=64k\nverify=crc32c")));
    }

    @Test
    void ioSizeCountsTheReadBacksWhenItDecidesOnAnotherPass() throws Exception {
        assertEquals("W".repeat(8) + "r".repeat(8), kinds(run("rw=write\nsize=32k\nio_size=64k\nverify=crc32c")),
                "32k written + 32k read back reach io_size: no second pass (fio's keep_running)");
    }

    /** At depth above 1 the pass ends with writes in flight: the read-back waits for them. */
    @Test
    void aReadBackWaitsForItsWrite() throws Exception {
        IoSequence s = IoSequence.forJob(TestJobs.job(dir, "rw=write\nsize=8k\nverify=crc32c"), 0);
        assertFalse(s.nextIsRead());
        long first = s.offset();
        assertFalse(s.nextIsRead());
        long second = s.offset();
        assertTrue(s.hasNext(), "the read-backs are left");
        assertTrue(s.waits());
        assertThrows(IllegalStateException.class, s::nextIsRead);
        s.completed(false, 0, second);
        assertTrue(s.waits(), "the first write is the first read back");
        s.completed(false, 0, first);
        assertFalse(s.waits());
        assertTrue(s.nextIsRead());
        assertEquals(first, s.offset());
        assertTrue(s.checks());
    }

    /** With a backlog, a read-back whose write is in flight lets the pass's own I/O go first, as fio's. */
    @Test
    void aBacklogReadBackInFlightYieldsToTheNextWrite() throws Exception {
        IoSequence s = IoSequence.forJob(TestJobs.job(dir, "rw=write\nsize=64k\nverify=crc32c\nverify_backlog=1"), 0);
        assertFalse(s.nextIsRead());
        long first = s.offset();
        s.completed(false, 0, first);
        assertTrue(s.nextIsRead(), "the landed write is read back");
        s.completed(true, 0, first);
        assertFalse(s.nextIsRead());
        long third = s.offset();
        assertFalse(s.nextIsRead(), "the second write is in flight: another write instead");
        s.completed(false, 0, third);
        assertTrue(s.nextIsRead());
        assertEquals(third, s.offset());
    }

    /**
     * fio's io_completed(): a write that fails (continue_on_error goes on) is unlogged and not read
     * back, in both shapes of the log; the others are, in their order. Depth 3: the failed write
     * is the middle of three in flight.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rw=write", "rw=randwrite"})
    void aFailedWriteIsNotReadBack(String rw) throws Exception {
        IoSequence s = IoSequence.forJob(TestJobs.job(dir, rw + "\nsize=16k\nbs=4k\nverify=crc32c"), 0);
        long[] w = new long[4];
        for (int i = 0; i < 3; i++) {
            assertFalse(s.nextIsRead());
            w[i] = s.offset();
        }
        s.completed(false, 0, w[0]);
        s.writeFailed(0, w[1]);
        s.completed(false, 0, w[2]);
        assertFalse(s.nextIsRead());
        w[3] = s.offset();
        s.completed(false, 0, w[3]);
        List<Long> back = new ArrayList<>();
        while (s.hasNext()) {
            assertTrue(s.nextIsRead());
            back.add(s.offset());
            s.completed(true, 0, s.offset());
        }
        List<Long> expected = new ArrayList<>(List.of(w[0], w[2], w[3]));
        if (rw.equals("rw=write")) {
            expected.sort(null); // the ordered log: by offset
        }
        assertEquals(expected, back, "w[1] at " + w[1] + " failed");
    }

    @Test
    void theOrderedLogDropsEveryPieceANewWriteOverlaps() throws Exception {
        Job j = TestJobs.job(dir, "rw=write\nsize=64k\nbs=4k\nverify=crc32c");
        VerifyLog log = new VerifyLog(j, 4096, false);
        log.log(0, 8192, 4096);
        log.log(0, 16384, 8192);
        log.log(0, 4096, 16384); // covers 4k..20k: both
        assertEquals(1, log.size());
        log.landed(0, 4096);
        assertTrue(log.take());
        assertEquals(4096, log.offset());
        assertEquals(16384, log.length());
        assertFalse(log.take());
    }
}
