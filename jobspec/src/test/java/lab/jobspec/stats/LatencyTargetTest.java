package lab.jobspec.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import lab.jobspec.Job;
import lab.jobspec.JobFileParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio 3.33's latency-target search ({@code lat_target_check()} and its kin) on a clock the test
 * moves: the depths it tries, the drain when a depth fails, the final window, and giving up at
 * depth 1. (Against fio itself: the bridge's {@code FioPacingContractTest}.)
 */
class LatencyTargetTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private Job job(String lines) throws Exception {
        Path f = java.nio.file.Files.createTempFile(dir, "job", ".fio");
        java.nio.file.Files.writeString(f, "[j]\n" + lines);
        return JobFileParser.parse(f).jobs().getFirst();
    }

    private LatencyTarget target(String extra) throws Exception {
        Job j = job("rw=randread\nsize=1m\nioengine=libaio\niodepth=16\nlatency_target=1ms\n"
                + "latency_window=10ms\n" + extra);
        LatencyTarget t = new LatencyTarget(j);
        t.start(0);
        return t;
    }

    /** {@code n} completions of {@code latNs} each, then the window's end at {@code now}. */
    private static void window(LatencyTarget t, int n, long latNs, long now) {
        for (int i = 0; i < n; i++) {
            assertFalse(t.completed(latNs, now - 1));
        }
        t.check(now);
    }

    @Test
    void depthDoublesWhileNothingFailsThenRunsOneFinalWindowAndEnds() throws Exception {
        LatencyTarget t = target("");
        assertEquals(1, t.depth());
        int[] depths = {2, 4, 8, 16, 16};
        for (int w = 0; w < depths.length; w++) {
            window(t, 100, MS / 2, (w + 1) * 10 * MS);
            assertEquals(depths[w], t.depth(), "after window " + w);
            assertFalse(t.done());
        }
        assertTrue(t.takeQuiesce(), "the final window starts drained");
        assertTrue(t.takeReset(), "with its statistics started over");
        assertFalse(t.takeReset(), "once");
        window(t, 100, MS / 2, 60 * MS);
        assertTrue(t.done(), "the final window at 16 passed: done");
    }

    @Test
    void aFailingDepthIsHalvedTowardTheLastOneThatPassedAndTheQueueDrains() throws Exception {
        LatencyTarget t = target("");
        window(t, 10, MS / 2, 10 * MS); // 2
        window(t, 10, MS / 2, 20 * MS); // 4
        window(t, 10, MS / 2, 30 * MS); // 8
        assertEquals(8, t.depth());
        assertFalse(t.completed(2 * MS, 31 * MS), "one over the target fails the depth at once (percentile 100)");
        assertEquals(6, t.depth(), "(8 + 4) / 2");
        assertTrue(t.takeQuiesce());
        window(t, 10, MS / 2, 41 * MS);
        assertEquals(7, t.depth(), "(6 + 8) / 2: bisecting below the depth that failed");
    }

    @Test
    void aWindowWithoutCompletionsFailsItsDepth() throws Exception {
        LatencyTarget t = target("");
        t.check(10 * MS);
        assertEquals(1, t.depth(), "nothing completed yet: not judged");
        window(t, 10, MS / 2, 10 * MS); // 2
        window(t, 10, MS / 2, 20 * MS); // 4
        t.check(30 * MS);
        assertEquals(3, t.depth(), "an empty window fails 4: (4 + 2) / 2");
    }

    @Test
    void overTheTargetAtDepth1GivesUp() throws Exception {
        LatencyTarget t = target("");
        assertTrue(t.completed(2 * MS, 1), "ETIMEDOUT at depth 1");
    }

    @Test
    void aPercentileBelow100JudgesTheWindowsShare() throws Exception {
        LatencyTarget t = target("latency_percentile=99\n");
        for (int i = 0; i < 99; i++) {
            t.completed(MS / 2, 5 * MS);
        }
        assertFalse(t.completed(2 * MS, 5 * MS), "one slow I/O is only counted");
        t.check(10 * MS);
        assertEquals(2, t.depth(), "99 of 100 met it: 99% passes");
        for (int i = 0; i < 98; i++) {
            t.completed(MS / 2, 15 * MS);
        }
        t.completed(2 * MS, 15 * MS);
        t.completed(2 * MS, 15 * MS);
        t.check(20 * MS);
        assertEquals(1, t.depth(), "98 of 100: fails, back to (2 + 1) / 2");
    }

    @Test
    void withoutATargetTheDepthIsTheJobs() throws Exception {
        LatencyTarget t = new LatencyTarget(job("rw=randread\nsize=1m\nioengine=libaio\niodepth=16\n"));
        t.start(0);
        assertFalse(t.active());
        assertEquals(16, t.depth());
        assertFalse(t.completed(Long.MAX_VALUE, 1));
    }
}
