package lab.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Base of command-line tests: captures System.out and System.err around each test. */
abstract class CapturedStreams {
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private PrintStream oldErr;
    private PrintStream oldOut;

    @BeforeEach
    void capture() {
        oldErr = System.err;
        oldOut = System.out;
        System.setErr(new PrintStream(err, true));
        System.setOut(new PrintStream(out, true));
    }

    @AfterEach
    void restore() {
        System.setErr(oldErr);
        System.setOut(oldOut);
    }
}
