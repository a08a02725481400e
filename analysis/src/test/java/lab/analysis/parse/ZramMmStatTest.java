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

class ZramMmStatTest {
    @TempDir
    Path dir;

    /** The committed kernel-smoke capture: 256 MiB written to zram0, 9 fields. */
    @Test
    void realNineFieldCapture() throws Exception {
        ZramMmStat s = ZramMmStat.read(Captured.file("zram.fio.after.mm_stat"));
        assertEquals(268435456L, s.origDataSize());
        assertEquals(136445692L, s.comprDataSize());
        assertEquals(143196160L, s.memUsedTotal());
        assertEquals(0, s.memLimit());
        assertEquals(143196160L, s.memUsedMax());
        assertEquals(0, s.hugePages());
        assertEquals(OptionalLong.of(0), s.hugePagesSince());
        assertEquals(268435456.0 / 136445692.0, s.compressionRatio(), 1e-12);
    }

    /** zram0 on the VM with nothing stored: the ratio is undefined, not 0 or infinity. */
    @Test
    void emptyDeviceHasNoRatio() throws Exception {
        ZramMmStat s = ZramMmStat.read(Captured.file("zram0.idle.mm_stat"));
        assertEquals(0, s.comprDataSize());
        assertTrue(Double.isNaN(s.compressionRatio()));
    }

    @Test
    void eightFieldFormHasNoHugePagesSince() throws Exception {
        ZramMmStat s = ZramMmStat.read(write("8", "4096 1024 8192 0 8192 1 2 3\n"));
        assertEquals(3, s.hugePages());
        assertTrue(s.hugePagesSince().isEmpty());
        assertEquals(4.0, s.compressionRatio());
    }

    @Test
    void brokenFilesAreMalformed() throws Exception {
        assertMalformed(write("empty", ""), "empty", "is empty");
        assertMalformed(write("cut", "268435456 136445692 143196160"), "cut", "has 3 fields");
        assertMalformed(Captured.file("vda.after.stat"), "vda.after.stat", "has 17 fields");
        assertMalformed(write("word", "268435456 abc 143196160 0 143196160 0 0 0 0"), "word", "field 2 (compr_data_size)");
        assertMalformed(Captured.file("perf-stat-r3.csv"), "perf-stat-r3.csv", "more than one line");
    }

    private Path write(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name + ".mm_stat"), content);
    }

    private static void assertMalformed(Path f, String name, String problem) {
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> ZramMmStat.read(f));
        assertTrue(e.getMessage().contains(name), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
    }
}
