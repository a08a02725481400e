package lab.analysis.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.analysis.JmhSweep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LineCost over a hand-made cost sweep: scores (gap included) at gaps 0 and 100, timed pairs
 * (the operations alone) at 1000 and 3000, 1 and 2 threads, two rounds. An rmw is priced by a
 * pair of two operations. Every figure is worked out beside its assertion.
 */
class LineCostTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, LineCost.Probe> PROBES = Map.of("rmw", new LineCost.Probe("atomic-refcount", 2));

    @TempDir
    Path dir;

    private static Map<String, Object> entry(String method, int t, String line, long gap, double score, Map<String, Double> secondary) {
        Map<String, Object> pm = new LinkedHashMap<>();
        pm.put("score", score);
        pm.put("scoreError", 0.0);
        pm.put("scoreUnit", "ns/op");
        pm.put("rawData", List.of(List.of(score)));
        Map<String, Object> sec = new LinkedHashMap<>();
        secondary.forEach((k, v) -> sec.put(k, Map.of("score", v, "scoreError", "NaN", "scoreUnit", "#", "rawData", List.of(List.of(v)))));
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("jmhVersion", "1.37");
        e.put("benchmark", "lab.engine.bench.Primitives." + method);
        e.put("mode", "avgt");
        e.put("threads", t);
        e.put("forks", 1);
        e.put("params", Map.of("primitive", "atomic-refcount", "line", line, "gapNs", Long.toString(gap)));
        e.put("primaryMetric", pm);
        e.put("secondaryMetrics", sec);
        return e;
    }

    /**
     * Scores: private 20 + gap per pair; shared 2 x extra more, extra (per op, 2 threads) 40 at gap 0
     * and 30 at 100, 0 at 1 thread; round 2 adds 2 ns to the shared pair (extra +1). Timed: private
     * pairs of 30 ns, shared 30 + 2 x 8 at gap 1000 and 30 + 2 x 6 at 3000 (2 threads), while the
     * scores at those gaps (gap included) are noise that would say the opposite.
     */
    private LineCost costs() throws IOException {
        for (int r = 1; r <= 2; r++) {
            for (int t = 1; t <= 2; t++) {
                List<Object> score = new ArrayList<>();
                List<Object> timed = new ArrayList<>();
                for (long gap : new long[] {0, 100}) {
                    double extra = t == 1 ? 0 : (gap == 0 ? 40 : 30) + (r == 2 ? 1 : 0);
                    score.add(entry("getPut", t, "private", gap, 20 + gap, Map.of()));
                    score.add(entry("getPut", t, "shared", gap, 20 + gap + 2 * extra, Map.of()));
                }
                for (long gap : new long[] {1000, 3000}) {
                    double extra = t == 1 ? 0 : gap == 1000 ? 8 : 6;
                    long pairs = 1_000_000;
                    timed.add(entry("timedGetPut", t, "private", gap, gap + 400, Map.of("pairNs", 30.0 * pairs, "pairs", (double) pairs)));
                    timed.add(entry("timedGetPut", t, "shared", gap, gap - 400,
                            Map.of("pairNs", (30 + 2 * extra) * pairs, "pairs", (double) pairs)));
                }
                Files.writeString(dir.resolve("costs-r" + r + "-t" + t + ".json"), JSON.writeValueAsString(score));
                Files.writeString(dir.resolve("costs-timed-r" + r + "-t" + t + ".json"), JSON.writeValueAsString(timed));
            }
        }
        JmhSweep s = JmhSweep.read(dir, "costs", e -> { throw new AssertionError(e); });
        JmhSweep t = JmhSweep.read(dir, "costs-timed", e -> { throw new AssertionError(e); });
        return LineCost.of(s, t, PROBES);
    }

    @Test
    void theExtraIsSharedLessPrivateWithinARoundPerOperation() throws IOException {
        LineCost c = costs();
        assertEquals(List.of(0L, 100L, 1000L, 3000L), c.gaps());
        // gap 0, 2 threads: 40 (round 1) and 41 (round 2): median 40.5 [40–41]
        var e = c.extra("rmw", 2, 0);
        assertEquals(40.5, e.median(), 1e-12);
        assertEquals(40.0, e.min(), 1e-12);
        assertEquals(41.0, e.max(), 1e-12);
        assertEquals(0.0, c.extra("rmw", 1, 100).median(), 1e-12);
        assertNull(c.extra("cas", 2, 0), "no probe, no cost");
    }

    @Test
    void atGapsOfMicrosecondsTheTimedPairIsUsedNotTheScore() throws IOException {
        LineCost c = costs();
        assertTrue(c.timedAt(1000) && c.timedAt(3000));
        assertFalse(c.timedAt(100));
        // the scores at 1000 would give (600 - 1400) / 2 = -400; the timed pairs give (46 - 30) / 2 = 8
        assertEquals(8.0, c.extra("rmw", 2, 1000).median(), 1e-12);
        assertEquals(6.0, c.extra("rmw", 2, 3000).median(), 1e-12);
        // 2000 lies halfway between 1000 and 3000: 7; beyond the last gap the last value holds
        assertEquals(7.0, c.extraAt("rmw", 2, 2000), 1e-12);
        assertEquals(6.0, c.extraAt("rmw", 2, 13000), 1e-12);
        // private ns per operation: the timed pair's 30 / 2
        assertEquals(15.0, c.privateNs("rmw", 2, 1000), 1e-12);
    }

    @Test
    void theThinkTimeIsTheOperationAndItsShareOfTheGap() throws IOException {
        LineCost c = costs();
        // a score includes the gap: (20 + 100) / 2 = 60; a timed pair does not: 15 + 3000 / 2 = 1515
        assertEquals(60.0, c.thinkNs("rmw", 1, 100), 1e-12);
        assertEquals(1515.0, c.thinkNs("rmw", 1, 3000), 1e-12);
        // a gap not measured: the shortest gap's (20 / 2 = 10) plus its share, 13000 / 2
        assertEquals(6510.0, c.thinkNs("rmw", 1, 13000), 1e-12);
        // every measured point at 2 threads goes to the queue's fit: 4 gaps x 2 thread counts
        assertEquals(8, c.queuePoints("rmw").size());
    }

    /**
     * A visit's cost: the timed pair at the I/O's rhythm (2000 ns of work after one pair, 300 after
     * the next), shared less private per pair (not per operation: a pair is one visit), within each
     * round: 2 threads 60 and 64 more (median 62), 1 thread 2 more; and the rhythm read back.
     */
    @Test
    void aVisitCostsTheTimedPairAtTheIosRhythmSharedLessPrivate() throws IOException {
        LineCost without = costs();
        assertFalse(without.hasVisits());
        assertNull(without.visitExtra(2));
        assertNull(without.visitRhythm());
        for (int r = 1; r <= 2; r++) {
            for (int t = 1; t <= 2; t++) {
                List<Object> v = new ArrayList<>();
                long pairs = 1_000_000;
                double extra = t == 1 ? 2 : r == 1 ? 60 : 64;
                for (String line : List.of("private", "shared")) {
                    Map<String, Object> e = entry("timedGetPut", t, line, 2000, 2345, Map.of("pairNs",
                            (line.equals("private") ? 25.0 : 25.0 + extra) * pairs, "pairs", (double) pairs));
                    e.put("params", Map.of("primitive", "atomic-refcount", "line", line, "gapNs", "2000", "userGapNs", "300"));
                    v.add(e);
                }
                Files.writeString(dir.resolve("costs-visits-r" + r + "-t" + t + ".json"), JSON.writeValueAsString(v));
            }
        }
        LineCost c = LineCost.of(JmhSweep.read(dir, "costs", e -> { throw new AssertionError(e); }),
                JmhSweep.read(dir, "costs-timed", e -> { throw new AssertionError(e); }),
                JmhSweep.read(dir, "costs-visits", e -> { throw new AssertionError(e); }), PROBES);
        assertTrue(c.hasVisits());
        assertEquals(62.0, c.visitExtra(2).median(), 1e-12);
        assertEquals(60.0, c.visitExtra(2).min(), 1e-12);
        assertEquals(2.0, c.visitExtra(1).median(), 1e-12);
        assertEquals(List.of(2000L, 300L), java.util.Arrays.stream(c.visitRhythm()).boxed().toList());
        assertEquals(List.of(0L, 100L, 1000L, 3000L), c.gaps(), "the visits' sweep adds no gap to the operations'");
    }
}
