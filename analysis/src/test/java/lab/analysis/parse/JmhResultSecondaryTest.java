package lab.analysis.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lab.analysis.JmhResult;
import lab.analysis.MalformedResultException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JmhResultSecondaryTest {
    @TempDir
    Path dir;

    /** Primitives.getPut, 2 params, -f 1 -i 2 -prof gc, on the VM (JMH 1.37). */
    @Test
    void gcAllocRateNormFromRealCapture() throws Exception {
        List<JmhResult> rs = JmhResult.read(Captured.file("jmh-gc.json"));
        assertEquals(2, rs.size());
        JmhResult r = rs.get(0);
        assertEquals("atomic-refcount", r.params().get("primitive"));
        assertEquals(List.of("gc.alloc.rate", "gc.alloc.rate.norm", "gc.count"), List.copyOf(r.secondary().keySet()));
        assertEquals(2.0189350119674142E-4, r.gcAllocBytesPerOp().orElseThrow(), 1e-18);
        JmhResult.Metric norm = r.secondary().get("gc.alloc.rate.norm");
        assertEquals("B/op", norm.unit());
        assertEquals(List.of(1.993289680059168E-4, 2.0445803438756606E-4), norm.samples());
        assertTrue(Double.isNaN(norm.scoreError()), "JMH writes \"NaN\" for a one-fork error");
        assertTrue(Double.isNaN(r.scoreError()));
        assertEquals("MB/sec", r.secondary().get("gc.alloc.rate").unit());
        assertEquals(2, r.samples().size());
        assertEquals(2.4580084598765337E-4, rs.get(1).gcAllocBytesPerOp().orElseThrow(), 1e-18);
    }

    @Test
    void noSecondariesGivesEmptyMap() throws Exception {
        JmhResult r = JmhResult.read(write("plain.json", entry("\"score\":5.5,\"scoreError\":0.1", ""))).get(0);
        assertEquals(Map.of(), r.secondary());
        assertTrue(r.gcAllocBytesPerOp().isEmpty());
        assertEquals(5.5, r.score());
    }

    @Test
    void oldConstructorStillWorks() {
        JmhResult r = new JmhResult("a.B.c", "avgt", 1, Map.of(), 1.0, 0.1, "ns/op", List.of(1.0));
        assertEquals(Map.of(), r.secondary());
        assertEquals("c", r.method());
    }

    @Test
    void nonFiniteScoresParseAsNaNOrInfinity() throws Exception {
        String sec = ",\"secondaryMetrics\":{\"gc.alloc.rate.norm\":{\"score\":\"NaN\",\"scoreError\":\"NaN\","
                + "\"scoreUnit\":\"B/op\",\"rawData\":[[\"NaN\",\"Infinity\"]]}}";
        JmhResult r = JmhResult.read(write("nan.json", entry("\"score\":\"NaN\"", sec))).get(0);
        assertTrue(Double.isNaN(r.score()));
        assertTrue(Double.isNaN(r.gcAllocBytesPerOp().orElseThrow()));
        assertEquals(Double.POSITIVE_INFINITY, r.secondary().get("gc.alloc.rate.norm").samples().get(1));
    }

    @Test
    void truncatedJsonIsMalformed() throws Exception {
        String whole = Files.readString(Captured.file("jmh-gc.json"));
        Path cut = Files.writeString(dir.resolve("cut.json"), whole.substring(0, whole.length() / 2));
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> JmhResult.read(cut));
        assertTrue(e.getMessage().contains("cut.json"), e.getMessage());
        assertTrue(e.getMessage().contains("not readable JSON"), e.getMessage());
    }

    @Test
    void secondaryWithoutScoreOrWithGarbageIsMalformed() throws Exception {
        Path noScore = write("noscore.json", entry("\"score\":1", ",\"secondaryMetrics\":{\"gc.count\":{\"scoreUnit\":\"counts\"}}"));
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> JmhResult.read(noScore));
        assertTrue(e.getMessage().contains("noscore.json") && e.getMessage().contains("gc.count lacks a score"), e.getMessage());
        Path word = write("word.json", entry("\"score\":1", ",\"secondaryMetrics\":{\"gc.count\":{\"score\":\"lots\"}}"));
        e = assertThrows(MalformedResultException.class, () -> JmhResult.read(word));
        assertTrue(e.getMessage().contains("word.json") && e.getMessage().contains("\"lots\" is not a number"), e.getMessage());
    }

    @Test
    void foreignAndEmptyFilesAreMalformed() throws Exception {
        Path perf = Captured.file("perf-stat-r1.csv");
        assertTrue(assertThrows(MalformedResultException.class, () -> JmhResult.read(perf)).getMessage().contains("perf-stat-r1.csv"));
        Path empty = Files.writeString(dir.resolve("empty.json"), "");
        assertTrue(assertThrows(MalformedResultException.class, () -> JmhResult.read(empty)).getMessage().contains("empty.json"));
    }

    private static String entry(String primary, String secondary) {
        return "[{\"benchmark\":\"lab.engine.bench.Primitives.getPut\",\"mode\":\"avgt\",\"threads\":1,"
                + "\"primaryMetric\":{" + primary + ",\"scoreUnit\":\"ns/op\",\"rawData\":[[5.5]]}" + secondary + "}]";
    }

    private Path write(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content);
    }
}
