package lab.analysis.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.analysis.MalformedResultException;
import lab.analysis.parse.PerfLockContention.CallerSum;
import lab.analysis.parse.PerfLockContention.Column;
import lab.analysis.parse.PerfLockContention.Row;
import lab.analysis.parse.PerfLockContention.ThreadRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixtures under {@code perf-lock/} are not captures: {@code make-fixtures.c} there printed
 * them with the printf formats of perf 6.1's {@code builtin-lock.c} (see its README). The true
 * nanoseconds behind each printed time are repeated here from that file.
 */
class PerfLockContentionTest {
    @TempDir
    Path dir;

    /** make-fixtures.c's callers[]: wait_time_total in ns, and the unit perf prints it in. */
    private static final long[] TOTAL_NS = {7512345678901L, 61234567890L, 3456789012L, 45678901L, 123456L, 1800L, 640L};
    private static final List<String> TOTAL_UNITS = List.of("h", "m", "s", "ms", "us", "us", "ns");
    private static final long[] MAX_NS = {95123456789L, 2345678901L, 12345678L, 987654L, 9876L, 999L, 640L};

    @Test
    void everyTimeUnitReadsToItsNanoseconds() throws Exception {
        PerfLockContention t = PerfLockContention.read(fixture("lock-contention.txt"));
        assertEquals(List.of(Column.CONTENDED, Column.WAIT_TOTAL, Column.WAIT_MAX, Column.AVG_WAIT), t.columns());
        assertEquals(7, t.rows().size());
        assertEquals(List.of(48213L, 20480L, 9000L, 700L, 31L, 2L, 1L), t.rows().stream().map(Row::contended).toList());
        assertEquals(TOTAL_UNITS, t.rows().stream().map(r -> r.waits().waitTotal().unit()).toList());
        for (int i = 0; i < TOTAL_NS.length; i++) {
            Row r = t.rows().get(i);
            assertNear(TOTAL_NS[i], r.waits().waitTotal(), "row " + i + " total");
            assertNear(MAX_NS[i], r.waits().waitMax(), "row " + i + " max");
            assertNear(TOTAL_NS[i] / r.contended(), r.waits().avgWait(), "row " + i + " avg");
            assertNull(r.waits().waitMin(), "-F left wait_min out");
        }
        assertEquals(7.524e12, t.rows().getFirst().waitTotalNs(), 1);
        assertEquals(1.80e3, t.rows().get(5).waitTotalNs(), 1e-9);
        assertEquals(0.0, t.rows().getLast().waits().waitTotal().errorNs(), "ns is printed exactly");
        assertEquals(List.of("rwsem:W", "mutex", "spinlock", "rwsem:R", "pcpu-sem:R", "rwlock:W", "semaphore"),
                t.rows().stream().map(Row::type).toList());
        assertEquals(List.of("dm_bufio_lock+0x1a", "dm_bufio_lock+0x2f", "bio_associate_blkg+0x21", "thin_map+0x1b5",
                "Unknown", "update_io_ticks", "dm_bufio_lock+0x44"), t.rows().stream().map(Row::caller).toList());
        assertTrue(t.debug().isEmpty());
        assertTrue(t.preamble().isEmpty());
    }

    @Test
    void sumsTheRowsOfACallersSymbol() throws Exception {
        PerfLockContention t = PerfLockContention.read(fixture("lock-contention.txt"));
        CallerSum bufio = t.sumAt(Set.of("dm_bufio_lock"));
        assertEquals(3, bufio.rows(), "three callchains end in dm_bufio_lock, at three offsets");
        assertEquals(48213 + 20480 + 1, bufio.contended());
        assertEquals(2.09 * 3600e9 + 1.02 * 60e9 + 640, bufio.waitTotalNs(), 1);
        double truth = TOTAL_NS[0] + TOTAL_NS[1] + TOTAL_NS[6];
        assertTrue(Math.abs(bufio.waitTotalNs() - truth) <= bufio.waitTotalErrorNs(), bufio.toString());
        assertEquals(68694 / 1000.0, bufio.contendedPerIo(1000), 1e-12);
        assertEquals(bufio.waitTotalNs() / 1000, bufio.waitNsPerIo(1000), 1e-6);
        CallerSum two = t.sumAt(Set.of("update_io_ticks", "Unknown", "thin_map+0x1b5"));
        assertEquals(2, two.rows(), "a caller with its offset is no symbol");
        assertEquals(33, two.contended());
        assertEquals(0, t.sumAt(Set.of("dm_bufio")).rows(), "a symbol matches whole, not by prefix");
        assertThrows(IllegalArgumentException.class, () -> bufio.waitNsPerIo(0));
    }

    @Test
    void headerOnlyIsAnEmptyTable() throws Exception {
        PerfLockContention t = PerfLockContention.read(fixture("lock-contention-empty.txt"));
        assertEquals(4, t.columns().size());
        assertTrue(t.rows().isEmpty());
        CallerSum none = t.sumAt(Set.of("dm_bufio_lock"));
        assertEquals(0, none.rows());
        assertEquals(0, none.contended());
        assertEquals(0.0, none.waitTotalNs());
    }

    @Test
    void verboseTableInAnotherColumnOrderWithCallstacksAndTheDebugTrailer() throws Exception {
        PerfLockContention t = PerfLockContention.read(fixture("lock-contention-verbose.txt"));
        assertEquals(List.of(Column.AVG_WAIT, Column.WAIT_TOTAL, Column.WAIT_MIN, Column.CONTENDED), t.columns());
        assertEquals(2, t.rows().size());
        Row first = t.rows().getFirst();
        assertEquals(57, first.contended());
        assertEquals(2.28e6, first.waitTotalNs(), 1e-6);
        assertEquals(40.0e3, first.waits().avgWait().ns(), 1e-9);
        assertEquals(12.0e3, first.waits().waitMin().ns(), 1e-9);
        assertNull(first.waits().waitMax());
        assertEquals(List.of("0xffffffff81a0c2f0  mutex_lock+0x20", "0xffffffffa0123456  dm_bufio_lock+0x1a",
                "0xffffffffa0124567  dm_bufio_get+0x33"), first.callstack());
        Row second = t.rows().get(1);
        assertEquals(4, second.contended());
        assertEquals(500.0, second.waits().waitMin().ns());
        assertEquals(2, second.callstack().size());
        var debug = t.debug().orElseThrow();
        assertEquals(1, debug.bad());
        assertEquals(2, debug.total());
        assertEquals(Map.of("acquire", 0, "acquired", 0, "contended", 3, "release", 0), debug.histogram());
    }

    @Test
    void perThreadTableKeepsSpacesInsideTheComm() throws Exception {
        PerfLockContention t = PerfLockContention.read(fixture("lock-contention-threads.txt"));
        assertTrue(t.perThread());
        assertTrue(t.rows().isEmpty());
        assertEquals(List.of(4321, 17, 5012), t.threads().stream().map(ThreadRow::pid).toList());
        assertEquals(List.of("fio", "kworker/u4:2", "VM Thread"), t.threads().stream().map(ThreadRow::comm).toList());
        assertEquals(List.of(1500L, 800L, 3L), t.threads().stream().map(r -> r.waits().contended()).toList());
        assertEquals(694.0, t.threads().get(1).waits().avgWait().ns());
        assertThrows(IllegalStateException.class, () -> t.sumAt(Set.of("fio")));
    }

    /** perf prints the caller with %s: a demangled user symbol may hold spaces, and extra ones around it are padding. */
    @Test
    void callerIsTheRestOfTheLine() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(fixture("lock-contention-empty.txt")));
        lines.add("         5      1.00 ms     500.00 us    200.00 us        mutex   operator new(unsigned long)+0x10   ");
        PerfLockContention t = PerfLockContention.read(write("space.txt", lines));
        assertEquals("operator new(unsigned long)+0x10", t.rows().getFirst().caller());
        assertEquals("operator new(unsigned long)", t.rows().getFirst().symbol());
        assertEquals(5, t.sumAt(Set.of("operator new(unsigned long)")).contended());
    }

    @Test
    void warningsBeforeTheHeaderAreKept() throws Exception {
        List<String> lines = new ArrayList<>(List.of("Warning:", "Processed 81234 events and lost 3 chunks!", "",
                "Check IO/CPU overload!", ""));
        lines.addAll(Files.readAllLines(fixture("lock-contention.txt")));
        PerfLockContention t = PerfLockContention.read(write("warned.txt", lines));
        assertEquals(List.of("Warning:", "Processed 81234 events and lost 3 chunks!", "Check IO/CPU overload!"), t.preamble());
        assertEquals(7, t.rows().size());
    }

    @Test
    void malformedFixtureNamesFileAndLine() {
        assertMalformed(fixture("lock-contention-malformed.txt"), "line 6: avg wait '65.25 rwsem:R': unit is none of");
    }

    @Test
    void malformedLinesNameFileAndLine() throws Exception {
        List<String> good = Files.readAllLines(fixture("lock-contention.txt"));
        assertMalformed(edit("cut.txt", good, 8, "         2      1.80 us       999 ns"), "line 9: ends before its 'avg wait' column");
        assertMalformed(edit("type.txt", good, 2, "     48213      2.09 h       1.59 m     155.82 ms      rwsem   x"),
                "line 3: lock type 'rwsem' is none of");
        assertMalformed(edit("ns.txt", good, 8, "         1     640.00 ns       640 ns       640 ns    semaphore   f"),
                "line 9: total wait '640.00 ns': not printed as %llu");
        assertMalformed(edit("us.txt", good, 7, "         2        1.8 us       999 ns       900 ns     rwlock:W   f"),
                "line 8: total wait '1.8 us': not printed as %.2f");
        assertMalformed(edit("count.txt", good, 3, "     20.5k      1.02 m       2.35 s       2.99 ms        mutex   f"),
                "line 4: contended '20.5k' is not a count");
        assertMalformed(edit("caller.txt", good, 4, "      9000      3.46 s      12.35 ms    384.09 us     spinlock"),
                "line 5: no caller after the type");
        assertMalformed(edit("stack.txt", good, 1, "\t\t\tdm_bufio_lock+0x1a"), "line 2: a callstack line with no caller row");
    }

    @Test
    void malformedHeadersAndTrailers() throws Exception {
        assertMalformed(write("none.txt", List.of("perf: no such command", "")), "no header line");
        assertMalformed(write("noc.txt", List.of("  total wait     max wait         type   caller")),
                "line 1: header has no 'contended' column (run with -F contended");
        assertMalformed(write("nototal.txt", List.of(" contended     max wait         type   caller")),
                "line 1: header has no 'total wait' column");
        assertMalformed(write("unknown.txt", List.of(" contended   total wait     acquired         type   caller")),
                "line 1: header has an unknown column before 'acquired type caller'");
        assertMalformed(write("twice.txt", List.of(" contended   total wait    contended         type   caller")),
                "line 1: header names 'contended' twice");
        List<String> verbose = Files.readAllLines(fixture("lock-contention-verbose.txt"));
        int hist = verbose.indexOf("  contended: 3");
        assertMalformed(edit("hist.txt", verbose, hist, "  contended: three"), "line " + (hist + 1) + ": expected 'contended: N'");
        List<String> after = new ArrayList<>(verbose);
        after.add("bad: 1, total: 2");
        assertMalformed(write("after.txt", after), "line " + after.size() + ": text after the debug trailer");
        assertMalformed(write("short.txt", verbose.subList(0, verbose.size() - 1)), "the debug trailer ends before 'release: N'");
    }

    private static void assertNear(long trueNs, PerfLockContention.Time printed, String what) {
        double off = Math.abs(printed.ns() - trueNs);
        assertTrue(off <= printed.errorNs(), what + ": " + printed + " is " + printed.ns() + " ns, " + off
                + " from the true " + trueNs + " ns, more than its error " + printed.errorNs());
    }

    private Path edit(String name, List<String> lines, int index, String replacement) throws Exception {
        return TextFixtures.edit(dir, name, lines, index, replacement);
    }

    private Path write(String name, List<String> lines) throws Exception {
        return Files.write(dir.resolve(name), lines);
    }

    private static void assertMalformed(Path f, String problem) {
        TextFixtures.assertMalformed(PerfLockContention::read, f, problem);
    }

    static Path fixture(String name) {
        return TextFixtures.resource("perf-lock/" + name);
    }
}
