package lab.fix.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import lab.analysis.MalformedResultException;
import java.util.List;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrimitivesReportTest {
    @TempDir
    Path raw;

    /** A JMH JSON entry as JMH 1.37 writes it (fields trimmed to those read). */
    static String entry(String prim, int threads, double score, double... samples) {
        StringBuilder raw = new StringBuilder("[[");
        for (int i = 0; i < samples.length; i++) {
            raw.append(i == 0 ? "" : ",").append(samples[i]);
        }
        raw.append("]]");
        return """
            {"jmhVersion":"1.37","benchmark":"lab.engine.bench.Primitives.pair","mode":"avgt","threads":%d,
             "forks":1,"params":{"primitive":"%s"},
             "primaryMetric":{"score":%s,"scoreError":0.1,"scoreUnit":"ns/op","rawData":%s}}
            """.formatted(threads, prim, score, raw);
    }

    void write(String name, String... entries) throws Exception {
        Files.writeString(raw.resolve(name), "[" + String.join(",", entries) + "]");
    }

    @Test
    void scalingIsTakenWithinEachRound() throws Exception {
        write("primitives-r1-t1.json", entry("atomic-refcount", 1, 10, 9, 10, 11), entry("padded-slot", 1, 2, 2, 2, 2));
        write("primitives-r1-t2.json", entry("atomic-refcount", 2, 80, 70, 80, 90), entry("padded-slot", 2, 2, 2, 2, 2));
        write("primitives-r2-t2.json", entry("atomic-refcount", 2, 40, 40, 40, 40), entry("padded-slot", 2, 2, 2, 2, 2));
        write("primitives-r2-t1.json", entry("atomic-refcount", 1, 20, 20, 20, 20), entry("padded-slot", 1, 2, 2, 2, 2));
        write("unrelated.json", "garbage");
        PrimitivesReport r = PrimitivesReport.read(raw);
        assertEquals(2, r.rounds());
        // round 1: 2*10/80 = 0.25; round 2: 2*20/40 = 1.0: the geometric mean 0.5, t over two rounds
        Estimate s = r.scaling("atomic-refcount", 2);
        assertEquals(0.5, s.value(), 1e-9);
        assertEquals(Estimator.of(List.of(0.25, 1.0)), s);
        assertEquals(2.0, r.scaling("padded-slot", 2).value(), 1e-9);
        // ns per pair: the two rounds' scores, 80 and 40, their geometric mean
        assertEquals(2, r.nsPerPair("atomic-refcount", 2).rounds());
        assertEquals(Math.sqrt(80 * 40), r.nsPerPair("atomic-refcount", 2).value(), 1e-9);
        String md = r.markdown("./lab bench primitives");
        assertTrue(md.contains("| `atomic-refcount` |"), md);
        assertTrue(md.contains(s.format(2) + "x"), md);
        assertTrue(md.contains("Reproduce: `./lab bench primitives`"), md);
    }

    @Test
    void aTruncatedFileIsNamed() throws Exception {
        write("primitives-r1-t1.json", entry("atomic-refcount", 1, 10, 10).substring(0, 40));
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> PrimitivesReport.read(raw));
        assertTrue(e.getMessage().contains("primitives-r1-t1.json"), e.getMessage());
    }

    @Test
    void anEmptyOrForeignFileIsNamed() throws Exception {
        Files.writeString(raw.resolve("primitives-r1-t1.json"), "");
        assertThrows(MalformedResultException.class, () -> PrimitivesReport.read(raw));
        Files.writeString(raw.resolve("primitives-r1-t1.json"), "{\"jobs\":[]}");
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> PrimitivesReport.read(raw));
        assertTrue(e.getMessage().contains("not a JMH result"), e.getMessage());
    }

    @Test
    void noResultsAtAllIsAnError() {
        assertThrows(MalformedResultException.class, () -> PrimitivesReport.read(raw));
    }
}
