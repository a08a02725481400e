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
 * The estimator and the A/A floor over a JMH sweep read from files, as the sections read them:
 * three rounds in which the machine drifts (everything 20% slower in round 2), a candidate 10%
 * faster than the base in every round, and a control, the base again, whose round means are the
 * base's over 1.02, 0.99, 1.00 (so the A/A, base over control, is those, and an A/A of the base
 * against itself would be 1 exactly).
 */
class RoundRatioTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> BASE = Map.of("variant", "a");
    private static final Map<String, String> CAND = Map.of("variant", "b");
    private static final Map<String, String> AA = Map.of("variant", "a~aa");
    /** The base's ns per op over the control's in rounds 1..3. */
    private static final double[] AA_RATIO = {1.02, 0.99, 1.00};

    @TempDir
    Path dir;

    private static Map<String, Object> entry(String variant, double... iterations) {
        double mean = java.util.Arrays.stream(iterations).average().orElseThrow();
        Map<String, Object> pm = new LinkedHashMap<>();
        pm.put("score", mean);
        pm.put("scoreError", 0.0);
        pm.put("scoreUnit", "ns/op");
        List<Double> it = new ArrayList<>();
        for (double v : iterations) {
            it.add(v);
        }
        pm.put("rawData", List.of(it));
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("benchmark", "x.Y.z");
        e.put("mode", "avgt");
        e.put("threads", 2);
        e.put("forks", 1);
        e.put("params", Map.of("variant", variant));
        e.put("primaryMetric", pm);
        e.put("secondaryMetrics", Map.of());
        return e;
    }

    /** ns per op of the base in rounds 1..3: 100, 120 (the drift), 101; the candidate 10% faster in throughput each round. */
    private JmhSweep sweep(double spread) throws IOException {
        double[] base = {100, 120, 101};
        for (int r = 1; r <= 3; r++) {
            double b = base[r - 1];
            double c = b / 1.1;
            double k = b / AA_RATIO[r - 1];
            Files.writeString(dir.resolve("s-r" + r + "-t2.json"), JSON.writeValueAsString(List.of(
                    entry("a", b * (1 - spread), b, b * (1 + spread)),
                    entry("b", c * (1 - spread), c, c * (1 + spread)),
                    entry("a~aa", k * (1 + spread), k, k * (1 - spread)))));
        }
        return JmhSweep.read(dir, "s", e -> { throw new AssertionError(e); });
    }

    @Test
    void theRatioIsTakenWithinEachRoundSoDriftBetweenRoundsDoesNotEnterIt() throws IOException {
        JmhSweep s = sweep(0.01);
        // every round: base / candidate = 1.1, whatever the round's speed
        List<Double> v = RoundRatio.values(s, BASE, CAND, 2);
        assertEquals(3, v.size());
        v.forEach(x -> assertEquals(1.1, x, 1e-12));
        var r = RoundRatio.of(s, BASE, CAND, 2);
        assertEquals(1.1, r.value(), 1e-12);
        assertEquals(1.1, r.lo(), 1e-12, "the same ratio every round: a zero-width interval");
        assertEquals(1.1, r.hi(), 1e-12);
        assertEquals(3, r.rounds());
        assertTrue(r.excludes(1));
        // the pooled medians would mix rounds: median(100, 101, 120) / median(90.9, 91.8, 109.1) = 101 / 91.8 ≈ 1.100, but
        // the mixed-round ratio 120 / 90.9 (round 2's base over round 1's candidate) is 1.32: never formed
        assertNull(RoundRatio.of(s, BASE, Map.of("variant", "none"), 2), "no round has both: no ratio");
        assertNull(RoundRatio.of(s, BASE, CAND, 1), "no cell at 1 thread");
    }

    /**
     * The A/A is base over control per round, 1.02, 0.99, 1.00: logs 0.0198026273, −0.0100503359,
     * 0, mean 0.0032507638 (1.0032560533), sd (2 df) 0.0151896495, h = 4.303 × 0.0151896495 / √3 =
     * 0.0377362266: [0.9661023841–1.0418385515], the floor its upper end's reach, 0.0418385515; the
     * same with iterations 8% apart as 1% apart, since only the rounds' means enter it.
     */
    @Test
    void theAaIsTheControlsRoundsNotItsIterations() throws IOException {
        JmhSweep s = sweep(0.01);
        NoiseFloor f = NoiseFloor.of(s, BASE, AA, 2);
        assertEquals(3, f.rounds());
        assertEquals(1.0032560533, f.aa().value(), 1e-9, "base over the control, not over itself");
        assertEquals(0.9661023841, f.aa().lo(), 1e-9);
        assertEquals(1.0418385515, f.aa().hi(), 1e-9);
        assertEquals(0.0418385515, f.floor(), 1e-10, "the rounds' spread of base over control, whatever the iterations");
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        NoiseFloor loud = NoiseFloor.of(sweep(0.08), BASE, AA, 2);
        assertEquals(0.0418385515, loud.floor(), 1e-10, "louder iterations with the same round means: the same A/A");
        assertNull(NoiseFloor.of(s, BASE, Map.of("variant", "none"), 2), "no control in the run: no floor");
    }

    /**
     * An A/A of 1.03, 0.98, 1.01: logs 0.0295588022, −0.0202027073, 0.0099503309, mean 0.0064354753
     * (1.0064562274), sd (2 df) 0.0250662645, h = 4.303 × 0.0250662645 / √3 = 0.0622730786:
     * [0.9456927007–1.0711239887], the floor 0.0711239887 (the upper end's; the lower's is 0.0543).
     */
    @Test
    void anAaThatMovesFromRoundToRoundWidensItsInterval() throws IOException {
        double[] aa = {1.03, 0.98, 1.01};
        double[] base = {100, 120, 101};
        for (int r = 1; r <= 3; r++) {
            double b = base[r - 1];
            Files.writeString(dir.resolve("s-r" + r + "-t2.json"), JSON.writeValueAsString(List.of(
                    entry("a", b, b), entry("a~aa", b / aa[r - 1], b / aa[r - 1]))));
        }
        NoiseFloor f = NoiseFloor.of(JmhSweep.read(dir, "s", e -> { throw new AssertionError(e); }), BASE, AA, 2);
        assertEquals(1.0064562274, f.aa().value(), 1e-9);
        assertEquals(0.9456927007, f.aa().lo(), 1e-9);
        assertEquals(1.0711239887, f.aa().hi(), 1e-9);
        assertEquals(0.0711239887, f.floor(), 1e-10);
        assertFalse(f.failed(), "[0.946–1.071] holds 1");
    }
}
