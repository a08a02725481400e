package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input is one line and exit 2; an unexpected error is one line naming a log with the trace. */
class LabErrorsTest extends CapturedStreams {
    @TempDir
    Path state;

    @Test
    void aMissingInputFileIsOneLineAndExit2() {
        assertEquals(Lab.EXIT_BAD_INPUT, Lab.run("flamegraph", "/nonexistent.collapsed", state.resolve("o.svg").toString()));
        String e = err.toString();
        assertEquals(1, e.lines().count(), e);
        assertEquals("lab: cannot open /nonexistent.collapsed: no such file or directory", e.strip());
        assertFalse(Files.exists(state.resolve("o.svg")));
    }

    @Test
    void aBadOptionIsOneLineNamingTheHelpToRead() {
        assertEquals(Lab.EXIT_BAD_INPUT, Lab.run("pair", "zram-init-lock", "--rounds", "x"));
        String e = err.toString();
        assertEquals(1, e.lines().count(), e);
        assertTrue(e.contains("'--rounds'") && e.contains("(see ./lab pair --help)"), e);
    }

    @Test
    void anInternalErrorIsOneLineAndTheTraceGoesToALog() throws Exception {
        String old = System.getProperty("lab.state");
        System.setProperty("lab.state", state.toString());
        try {
            String line = Lab.internalError(new IllegalStateException("boom"));
            assertTrue(line.startsWith("lab: internal error: java.lang.IllegalStateException: boom (stack trace in "), line);
            assertEquals(1, line.lines().count());
            Path log = Path.of(line.substring(line.indexOf("stack trace in ") + 15, line.length() - 1));
            assertTrue(log.startsWith(state), log.toString());
            assertTrue(Files.readString(log).contains("at lab.cli.LabErrorsTest"), "the trace is in the log");
        } finally {
            if (old == null) {
                System.clearProperty("lab.state");
            } else {
                System.setProperty("lab.state", old);
            }
        }
    }

    @Test
    void helpStatesTheExitCodes() {
        assertEquals(0, Lab.run("--help"));
        assertTrue(out.toString().contains("Exit codes: 0 done; 1 the run failed"), out.toString());
    }
}
