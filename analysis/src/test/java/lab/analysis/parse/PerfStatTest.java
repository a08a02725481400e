package lab.analysis.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.analysis.MalformedResultException;
import lab.analysis.parse.PerfStat.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PerfStatTest {
    @TempDir
    Path dir;

    /** perf stat -x, -e task-clock,...,cycles,instructions -- dd ... on the VM (software events only). */
    @Test
    void singleRunKeepsUnsupportedEventsAbsent() throws Exception {
        PerfStat s = PerfStat.read(Captured.file("perf-stat-r1.csv"));
        assertEquals(6, s.counters().size());
        assertFalse(s.hasVariance());
        Counter clock = s.get("task-clock").orElseThrow();
        assertEquals("msec", clock.unit());
        assertEquals(62.54, clock.value().orElseThrow(), 1e-9);
        assertEquals(62.54e6, PerfStat.taskClockNs(clock), 1e-3);
        assertEquals(100.0, clock.runningPct(), 1e-9);
        assertNull(clock.variancePct());
        assertEquals(5.0, s.get("context-switches").orElseThrow().value().orElseThrow());
        assertEquals("", s.get("context-switches").orElseThrow().unit());
        Counter cycles = s.get("cycles").orElseThrow();
        assertTrue(cycles.absent());
        assertTrue(cycles.value().isEmpty(), "an unsupported event must not read as 0");
        assertEquals(List.of("cycles", "instructions"), s.absent());
    }

    @Test
    void repeatedRunHasVariance() throws Exception {
        PerfStat s = PerfStat.read(Captured.file("perf-stat-r3.csv"));
        assertTrue(s.hasVariance());
        Counter clock = s.get("task-clock").orElseThrow();
        assertEquals(62.90, clock.value().orElseThrow(), 1e-9);
        assertEquals(0.16, clock.variancePct(), 1e-9);
        assertEquals(100.0, clock.runningPct(), 1e-9);
        assertEquals(44.10, s.get("context-switches").orElseThrow().variancePct(), 1e-9);
        assertEquals(List.of("cycles", "instructions"), s.absent());
    }

    @Test
    void modifiersAreKeptButGetIgnoresThem() throws Exception {
        Path f = write("mod.csv", "12.5,msec,task-clock:u,12500000,100.00,0.9,CPUs utilized",
                "<not counted>,,sched:sched_switch,0,0.00,,");
        PerfStat s = PerfStat.read(f);
        assertEquals("task-clock:u", s.get("task-clock").orElseThrow().event());
        assertEquals("task-clock:u", s.get("task-clock:u").orElseThrow().event());
        assertEquals("sched:sched_switch", s.get("sched:sched_switch").orElseThrow().baseEvent());
        assertTrue(s.get("sched").isEmpty());
        assertEquals(List.of("sched:sched_switch"), s.absent());
    }

    @Test
    void ambiguousModifiersMustBeNamedInFull() throws Exception {
        PerfStat s = PerfStat.read(write("uk.csv", "1,,cycles:u,1,100.00,,", "2,,cycles:k,1,100.00,,"));
        assertThrows(IllegalArgumentException.class, () -> s.get("cycles"));
        assertEquals(2.0, s.get("cycles:k").orElseThrow().value().orElseThrow());
    }

    @Test
    void taskClockInNanoseconds() {
        Counter ns = new Counter("task-clock", java.util.OptionalDouble.of(42), "ns", null, 100.0, false);
        assertEquals(42.0, PerfStat.taskClockNs(ns));
        Counter absent = new Counter("task-clock", java.util.OptionalDouble.empty(), "msec", null, null, true);
        assertThrows(IllegalArgumentException.class, () -> PerfStat.taskClockNs(absent));
    }

    @Test
    void emptyFileIsMalformed() throws Exception {
        assertMalformed(write("empty.csv"), "empty.csv", "no event lines");
    }

    @Test
    void headerOnlyIsMalformed() throws Exception {
        assertMalformed(write("header.csv", "# started on Mon Nov 30 04:41:26 2026", ""), "header.csv", "no event lines");
    }

    @Test
    void truncatedLineIsMalformedWithItsLineNumber() throws Exception {
        List<String> lines = Files.readAllLines(Captured.file("perf-stat-r1.csv"));
        Path f = write("cut.csv", lines.get(0), lines.get(1), lines.get(2), "5,,");
        assertMalformed(f, "cut.csv", "line 4: empty event name");
        assertMalformed(write("cut2.csv", lines.get(0), lines.get(1), "62.54,msec"), "cut2.csv", "line 3: expected at least");
    }

    @Test
    void foreignFileIsMalformed() throws Exception {
        assertMalformed(Captured.file("jmh-gc.json"), "jmh-gc.json", "line 1:");
        assertMalformed(write("words.csv", "hello,world,event"), "words.csv", "line 1: value 'hello'");
    }

    @Test
    void perCpuOrIntervalOutputIsRejected() throws Exception {
        assertMalformed(write("interval.csv", "1.001,62.54,msec,task-clock,62539729,100.00,,"),
                "interval.csv", "line 1: unit '62.54' is a number");
    }

    @Test
    void nonNumericRunningIsMalformed() throws Exception {
        assertMalformed(write("run.csv", "5,,context-switches,62539729,lots,,"), "run.csv", "line 1: percent-running 'lots'");
    }

    private Path write(String name, String... lines) throws Exception {
        return Files.write(dir.resolve(name), List.of(lines));
    }

    private static void assertMalformed(Path f, String name, String problem) {
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> PerfStat.read(f));
        assertTrue(e.getMessage().contains(name), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
        assertEquals(f, e.file());
    }
}
