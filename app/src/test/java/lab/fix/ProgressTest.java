package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/** Progress: in place on a terminal, plain and sparse off one, and what is left from what was done. */
class ProgressTest {
    @Test
    void onATerminalTheStatusIsRewrittenInPlaceAndCleared() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        Progress p = new Progress(new PrintStream(b, true), true);
        p.status("building: 10 of 1297");
        p.status("building: 20 of 1297");
        p.done();
        assertEquals("\r\033[Kbuilding: 10 of 1297\r\033[Kbuilding: 20 of 1297\r\033[K", b.toString());
    }

    @Test
    void offATerminalAPlainLineAtMostEveryThirtySeconds() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        Progress p = new Progress(new PrintStream(b, true), false);
        p.status("first");
        p.status("second, too soon");
        p.done();
        p.status("after done, a new phase");
        assertEquals("first\nafter done, a new phase\n", b.toString());
    }

    @Test
    void aLongStatusIsCutSoItNeverWraps() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        new Progress(new PrintStream(b, true), false).status("x".repeat(300));
        assertEquals(Progress.WIDTH + 1, b.toString().length(), "cut to the width, and its newline");
        assertTrue(b.toString().endsWith("…\n"));
    }

    @Test
    void whatIsLeftComesFromTheUnitsDone() {
        assertEquals("", Progress.eta(5_000_000_000L, 0, 10), "nothing to go by before the first unit");
        assertEquals("about 45 s left", Progress.eta(5_000_000_000L, 1, 10));
        assertEquals("about 3 min 20 s left", Progress.eta(100_000_000_000L, 5, 15));
        assertEquals("about 1 h 02 min left", Progress.eta(3_720_000_000_000L, 1, 2));
        assertEquals("", Progress.eta(1, 3, 3), "nothing left");
    }
}
