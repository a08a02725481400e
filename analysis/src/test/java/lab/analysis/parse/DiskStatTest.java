package lab.analysis.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import lab.analysis.MalformedResultException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskStatTest {
    @TempDir
    Path dir;

    /** /sys/block/vda/stat around a 139 MiB O_DIRECT read on the VM. */
    @Test
    void deltaOfRealVdaPair() throws Exception {
        DiskStat before = DiskStat.read(Captured.file("vda.before.stat"));
        DiskStat after = DiskStat.read(Captured.file("vda.after.stat"));
        assertEquals(17, before.fieldCount());
        assertEquals(573287, before.readIos());
        assertEquals(OptionalLong.of(1748), before.flushTicksMs());
        DiskStat d = DiskStat.delta(before, after);
        assertEquals(302, d.readIos());
        assertEquals(22, d.readMerges());
        assertEquals(285504, d.readSectors());
        assertEquals(386, d.readTicksMs());
        assertEquals(38, d.writeIos());
        assertEquals(200, d.ioTicksMs());
        assertEquals(OptionalLong.of(0), d.discardIos());
        assertEquals(OptionalLong.of(1), d.flushIos());
        assertEquals(after.file(), d.file());
    }

    /** The committed kernel-smoke zram capture: reads only, so writes and discards stay 0. */
    @Test
    void deltaOfRealZramPair() throws Exception {
        DiskStat d = DiskStat.delta(DiskStat.read(Captured.file("zram.fio.before.stat")),
                DiskStat.read(Captured.file("zram.fio.after.stat")));
        assertEquals(392138, d.readIos());
        assertEquals(3137104, d.readSectors());
        assertEquals(916, d.readTicksMs());
        assertEquals(0, d.writeIos());
        assertEquals(916, d.ioTicksMs());
        assertEquals(916, d.timeInQueueMs());
    }

    @Test
    void inFlightIsAGaugeTakenFromAfter() throws Exception {
        DiskStat before = DiskStat.read(write("b", "1 0 8 1 0 0 0 0 5 1 1"));
        DiskStat after = DiskStat.read(write("a", "2 0 16 2 0 0 0 0 3 2 2"));
        DiskStat d = DiskStat.delta(before, after);
        assertEquals(3, d.inFlight());
        assertEquals(1, d.readIos());
    }

    @Test
    void elevenFifteenAndSeventeenFieldForms() throws Exception {
        DiskStat old = DiskStat.read(write("11", "1 2 3 4 5 6 7 8 9 10 11"));
        assertEquals(11, old.fieldCount());
        assertEquals(11, old.timeInQueueMs());
        assertTrue(old.discardIos().isEmpty());
        assertTrue(old.flushIos().isEmpty());
        DiskStat mid = DiskStat.read(write("15", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"));
        assertEquals(15, mid.fieldCount());
        assertEquals(OptionalLong.of(15), mid.discardTicksMs());
        assertTrue(mid.flushTicksMs().isEmpty());
        DiskStat now = DiskStat.read(write("17", "  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17\n"));
        assertEquals(17, now.fieldCount());
        assertEquals(OptionalLong.of(16), now.flushIos());
        assertEquals(17, now.values().length);
    }

    @Test
    void counterGoingBackwardsNamesBothFiles() throws Exception {
        DiskStat before = DiskStat.read(Captured.file("vda.before.stat"));
        DiskStat after = DiskStat.read(Captured.file("vda.after.stat"));
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> DiskStat.delta(after, before));
        assertTrue(e.getMessage().contains("vda.before.stat"), e.getMessage());
        assertTrue(e.getMessage().contains("vda.after.stat"), e.getMessage());
        assertTrue(e.getMessage().contains("readIos went backwards"), e.getMessage());
    }

    @Test
    void differentFieldCountsCannotBeSubtracted() throws Exception {
        DiskStat old = DiskStat.read(write("11", "1 2 3 4 5 6 7 8 9 10 11"));
        DiskStat now = DiskStat.read(Captured.file("vda.after.stat"));
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> DiskStat.delta(old, now));
        assertTrue(e.getMessage().contains("has 17 fields but"), e.getMessage());
    }

    @Test
    void emptyFileIsMalformed() throws Exception {
        assertMalformed(write("empty.stat", ""), "empty.stat", "is empty");
    }

    @Test
    void wrongFieldCountIsMalformed() throws Exception {
        assertMalformed(write("cut.stat", "573287 22645 13480042 570357 118509"), "cut.stat", "has 5 fields");
        assertMalformed(Captured.file("zram.fio.after.mm_stat"), "zram.fio.after.mm_stat", "has 9 fields");
    }

    @Test
    void garbageIsMalformed() throws Exception {
        assertMalformed(write("neg.stat", "1 2 3 4 5 6 7 8 -9 10 11"), "neg.stat", "field 9 (inFlight) '-9'");
        assertMalformed(write("word.stat", "1 2 x 4 5 6 7 8 9 10 11"), "word.stat", "field 3 (readSectors)");
        assertMalformed(write("huge.stat", "1 2 3 4 5 6 7 8 9 10 99999999999999999999"), "huge.stat", "field 11");
        assertMalformed(Captured.file("perf-stat-r1.csv"), "perf-stat-r1.csv", "more than one line");
        assertMalformed(Captured.file("jmh-gc.json"), "jmh-gc.json", "more than one line");
    }

    private Path write(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content);
    }

    private static void assertMalformed(Path f, String name, String problem) {
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> DiskStat.read(f));
        assertTrue(e.getMessage().contains(name), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
    }
}
