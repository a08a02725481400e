package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BenchCommandTest {

    /** A report written while the benchmark's folder still has its in-progress name records the final id. */
    @Test
    void runIdDropsThePartialWrapping() {
        assertEquals("bridge-vs-fio-zram-20261202", BenchCommand.runId(Path.of("results/.bridge-vs-fio-zram-20261202.partial")));
        assertEquals("bridge-vs-fio-zram-20261130", BenchCommand.runId(Path.of("/x/results/bridge-vs-fio-zram-20261130")));
        assertEquals(".partial", BenchCommand.runId(Path.of(".partial")));
    }
}
