package lab.analysis.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lab kernel's switch A/B files as written: read whole, absent when missing, a bad line named by file and line. */
class LabAbTest {
    private static final String HEADER = "count\tround\tslot\tvariant\tvalue\tjobs\tios\truntime_s\tmetric\ttask_clock_ns\tns_per_io"
            + "\tops_delta\textra\n";

    @TempDir
    Path dir;

    @Test
    void readsEveryTrialAndIntervalOfTheFixture() throws Exception {
        LabAbFixture.iops(dir, 3, 1, 4);
        LabAb ab = LabAb.read(dir).orElseThrow();
        assertEquals(2 * 3 * 3, ab.trials().size());
        assertEquals(2 * 3 * 3 * 3, ab.iterations().size());
        LabAb.Trial first = ab.trials().getFirst();
        assertEquals(1, first.count());
        assertEquals("before", first.variant());
        assertEquals("rwsem", first.value());
        assertEquals(LabAbFixture.IOS, first.ios());
        assertEquals(LabAbFixture.NS_AFTER + LabAbFixture.delta(1), first.nsPerIo(), 1e-9);
        assertEquals(LabAbFixture.K, first.opsPerIoPerCount(), 1e-12);
        assertEquals(Map.of(), first.extra());
    }

    @Test
    void theExtraColumnIsKeyValuePairs() throws Exception {
        LabAbFixture.share(dir, 1);
        LabAb.Trial t = LabAb.read(dir).orElseThrow().trials().getFirst();
        assertEquals(List.of("a_mibs", "b_mibs", "root_pct"), List.copyOf(t.extra().keySet()));
        assertEquals("100", t.extra().get("root_pct"));
    }

    @Test
    void noTrialsFileIsAbsentAndNoIntervalsFileIsNoIntervals() throws Exception {
        assertTrue(LabAb.read(dir).isEmpty());
        LabAbFixture.iops(dir, 1, 1);
        Files.delete(dir.resolve(LabAb.ITERATIONS));
        assertEquals(List.of(), LabAb.read(dir).orElseThrow().iterations());
    }

    @Test
    void extraColumnsAreKept() throws Exception {
        Files.writeString(dir.resolve(LabAb.TRIALS), HEADER.replace("\n", "\tnew\n") + "1\t1\t1\tbefore\tx\t1\t10\t1\t10\t100\t10\t0\t-\tz\n");
        assertEquals(1, LabAb.read(dir).orElseThrow().trials().size());
    }

    @Test
    void aBadLineNamesFileAndLine() throws Exception {
        Path f = dir.resolve(LabAb.TRIALS);
        Files.writeString(f, HEADER + "1\t1\t1\tbefore\tx\t1\t10\t1\t10\t100\t10\t0\t-\n\n1\t2\t1\tbefore\tx\t1\t10\t1\tfast\t100\t10\t0\t-\n");
        Tsv.Malformed e = assertThrows(Tsv.Malformed.class, () -> LabAb.read(dir));
        assertTrue(e.getMessage().startsWith(f + ":4: column 'metric' is 'fast'"), e.getMessage());
        assertEquals(4, e.line());
        Files.writeString(f, HEADER + "1\t1\t1\tbefore\tx\t1\t10\t1\t10\t100\t10\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LabAb.read(dir)).getMessage()
                .startsWith(f + ":2: 11 fields, the header has 13"));
        Files.writeString(f, HEADER + "0\t1\t1\tbefore\tx\t1\t10\t1\t10\t100\t10\t0\t-\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LabAb.read(dir)).getMessage().contains(":2: column 'count'"));
        Files.writeString(f, HEADER + "1\t1\t1\tbefore\tx\t1\t10\t1\t10\t100\t10\t0\tnokey\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LabAb.read(dir)).getMessage().contains(":2: column 'extra'"));
        Files.writeString(f, HEADER.replace("\tmetric", "\tiops"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LabAb.read(dir)).getMessage()
                .startsWith(f + ":1: the header has no column 'metric'"));
    }

    @Test
    void aSecondTrialOfTheSameRoundAndVariantIsRefused() throws Exception {
        Path f = dir.resolve(LabAb.TRIALS);
        String line = "1\t1\t1\tafter\tx\t1\t10\t1\t10\t100\t10\t0\t-\n";
        Files.writeString(f, HEADER + line + line);
        String m = assertThrows(IllegalArgumentException.class, () -> LabAb.read(dir)).getMessage();
        assertTrue(m.startsWith(f + ":3: a second trial of count 1, round 1, variant after (the first is on line 2)"), m);
    }

    @Test
    void aBadIntervalLineNamesTheIntervalsFile() throws Exception {
        LabAbFixture.iops(dir, 1, 1);
        Path it = dir.resolve(LabAb.ITERATIONS);
        Files.writeString(it, Files.readString(it) + "1\t1\tafter\tx\t5\n");
        String m = assertThrows(IllegalArgumentException.class, () -> LabAb.read(dir)).getMessage();
        assertTrue(m.startsWith(it + ":11: column 'i'"), m);
    }

    @Test
    void aTrialsBootIsItsColumnOrOneWithout() throws Exception {
        Files.writeString(dir.resolve(LabAb.TRIALS), HEADER.replace("\n", "\tboot\n")
                + "1\t1\t1\tbefore\ton\t2\t100\t2.0\t50.0\t1000\t10.0\t200\t-\t1\n"
                + "1\t5\t1\tbefore\ton\t2\t100\t2.0\t50.0\t1000\t10.0\t200\t-\t2\n");
        LabAb ab = LabAb.read(dir).orElseThrow();
        assertEquals(List.of(1, 2), ab.trials().stream().map(LabAb.Trial::boot).toList());
        assertEquals(List.of(1, 2), List.copyOf(ab.boots()));
        LabAbFixture.iops(dir, 2, 1);
        assertEquals(List.of(1), List.copyOf(LabAb.read(dir).orElseThrow().boots()));
    }

    @Test
    void aRoundInTwoBootsIsNamedByLine() throws Exception {
        Files.writeString(dir.resolve(LabAb.TRIALS), HEADER.replace("\n", "\tboot\n")
                + "1\t1\t1\tbefore\ton\t2\t100\t2.0\t50.0\t1000\t10.0\t200\t-\t1\n"
                + "1\t1\t2\tafter\toff\t2\t100\t2.0\t50.0\t1000\t10.0\t0\t-\t2\n");
        Tsv.Malformed e = assertThrows(Tsv.Malformed.class, () -> LabAb.read(dir));
        assertEquals(3, e.line());
        assertTrue(e.getMessage().contains("round 1 is in boot 1"), e.getMessage());
    }
}
