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
 * faster than the base in every round, and a control that is the base again.
 */
class RoundRatioTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> BASE = Map.of("variant", "a");
    private static final Map<String, String> CAND = Map.of("variant", "b");
    private static final Map<String, String> AA = Map.of("variant", "a~aa");

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
            Files.writeString(dir.resolve("s-r" + r + "-t2.json"), JSON.writeValueAsString(List.of(
                    entry("a", b * (1 - spread), b, b * (1 + spread)),
                    entry("b", c * (1 - spread), c, c * (1 + spread)),
                    entry("a~aa", b * (1 + spread), b, b * (1 - spread)))));
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

    @Test
    void theAaIsTheControlsRoundsNotItsIterations() throws IOException {
        JmhSweep s = sweep(0.01);
        NoiseFloor f = NoiseFloor.of(s, BASE, AA, 2);
        assertEquals(3, f.rounds());
        assertEquals(1.0, f.aa().value(), 1e-12, "the control's own estimate: the same ns each round");
        assertEquals(0.0, f.floor(), 1e-12, "identical round means: the A/A's interval is 1 exactly, whatever the iterations");
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        NoiseFloor loud = NoiseFloor.of(sweep(0.08), BASE, AA, 2);
        assertEquals(f.floor(), loud.floor(), 1e-12, "louder iterations with the same round means: the same A/A");
        assertNull(NoiseFloor.of(s, BASE, Map.of("variant", "none"), 2), "no control in the run: no floor");
    }

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
        assertEquals(lab.analysis.estimate.Estimator.of(List.of(1.03, 0.98, 1.01)).reach(), f.floor(), 1e-12);
        assertTrue(f.floor() > 0.05, "±2.5% between rounds at 2 df: " + f.floor());
        assertFalse(f.failed());
    }
}
