package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import lab.fix.Progress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kernel scripts' phases, from their log and the guest's console log, as they are written. */
class LogFollowerTest {
    private static void append(Path f, String s) throws Exception {
        Files.writeString(f, s, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void showsTheNewestPhaseOfAnyLogAndNothingElse(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("scenario.log");
        append(log, "lab-kernel: an old run's line, before the follower started\n");
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (LogFollower f = new LogFollower(log, dir, new Progress(new PrintStream(b, true), true), "lab:   ")) {
            f.poll();
            assertNull(f.phase(), "what the log held before is not this run's");
            append(log, "some tool's chatter\nguest.sh: booting debian (tcg, 2 vCPUs)\n");
            f.poll();
            assertEquals("guest.sh: booting debian (tcg, 2 vCPUs)", f.phase());
            Path console = Files.createDirectories(dir.resolve("guest")).resolve("console.log");
            append(console, "[    0.1] kernel noise\nLAB-GUEST-UP 6.1.0\nlab-kernel: ab-guest: round 1/3, N=1, before (on)\nJobs: 1 [50.0%]\r");
            f.poll();
            assertEquals("lab-kernel: ab-guest: round 1/3, N=1, before (on)", f.phase());
            append(console, "lab-kernel: ab-guest: round 1/3, N=1, aft");
            f.poll();
            assertEquals("lab-kernel: ab-guest: round 1/3, N=1, before (on)", f.phase(), "half a line waits for its end");
            append(console, "er (off)\n");
            f.poll();
            assertEquals("lab-kernel: ab-guest: round 1/3, N=1, after (off)", f.phase());
        }
        String shown = b.toString();
        assertTrue(shown.contains("\r\033[Klab:   lab-kernel: ab-guest: round 1/3, N=1, after (off) [0 s]"), shown);
        assertTrue(shown.endsWith("\r\033[K"), "the status line is cleared at the end: " + shown);
    }
}
