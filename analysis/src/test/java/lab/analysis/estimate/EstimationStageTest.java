package lab.analysis.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.analysis.JmhSweep;
import lab.analysis.fidelity.NoiseFloor;
import lab.analysis.fidelity.RoundRatio;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guard between the estimation stage and the rendering of a page: a figure made in the
 * stage is read back while a page renders, and one asked for the first time there throws,
 * naming it; every estimator refuses while a page renders; the stage's record holds each figure
 * it made once, in the order made.
 *
 * <p>The sweep: three rounds at 2 threads, the base (variant a) at 100, 120 and 101 ns per op,
 * the candidate (b) at the base's over 1.08, 1.10 and 1.12, and the base's A/A copy (a~aa) at the
 * base's over 1.02, 0.99 and 1.00. So a over b per round is 1.08, 1.10, 1.12: logs 0.0769610,
 * 0.0953102, 0.1133287, mean 0.0952000, exp 1.099879; their sd 0.0181841, t(0.975, 2 df) 4.303,
 * half-width 4.303 · 0.0181841 / √3 = 0.0451754; ends exp(0.0952000 ∓ 0.0451754) = 1.051297 and
 * 1.150706.
 */
class EstimationStageTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> A = Map.of("variant", "a");
    private static final Map<String, String> B = Map.of("variant", "b");
    private static final Map<String, String> AA = Map.of("variant", "a~aa");

    @TempDir
    Path dir;

    private static Map<String, Object> entry(String variant, double ns) {
        Map<String, Object> pm = new LinkedHashMap<>();
        pm.put("score", ns);
        pm.put("scoreError", 0.0);
        pm.put("scoreUnit", "ns/op");
        pm.put("rawData", List.of(List.of(ns, ns)));
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

    private SweepEstimates sweep() throws IOException {
        double[] base = {100, 120, 101};
        double[] ratio = {1.08, 1.10, 1.12};
        double[] aa = {1.02, 0.99, 1.00};
        for (int r = 1; r <= 3; r++) {
            double b = base[r - 1];
            Files.writeString(dir.resolve("s-r" + r + "-t2.json"), JSON.writeValueAsString(List.of(entry("a", b),
                    entry("b", b / ratio[r - 1]), entry("a~aa", b / aa[r - 1]))));
        }
        return SweepEstimates.read(dir, "s", e -> { throw new AssertionError(e); });
    }

    @Test
    void aFigureMadeInTheStageIsReadBackWhileAPageRenders() throws IOException {
        SweepEstimates s = sweep();
        EstimationStage.Made<Estimate> made = EstimationStage.estimate(() -> s.ratio(A, B, 2));
        Estimate read = EstimationStage.rendering(() -> s.ratio(A, B, 2));
        assertSame(made.value(), read, "the page reads the figure the stage made, not a second one");
        assertEquals(1.099879, read.value(), 1e-6);
        assertEquals(1.051297, read.lo(), 1e-6);
        assertEquals(1.150706, read.hi(), 1e-6);
        Map<String, Object> want = new LinkedHashMap<>();
        want.put("sweep", "s");
        want.put("figure", "ratio");
        want.put("a", "variant=a");
        want.put("b", "variant=b");
        want.put("threads", 2);
        want.putAll(read.json());
        assertEquals(List.of(want), made.estimates(), "the stage's record: the figure's key, then the estimate as summary.json writes it");
        assertEquals(List.of(1.099879, 1.051297, 1.150706), List.of(want.get("value"), ((List<?>) want.get("ci95")).get(0),
                ((List<?>) want.get("ci95")).get(1)));
    }

    @Test
    void aNewFigureAskedForWhileAPageRendersThrowsNamingIt() throws IOException {
        SweepEstimates s = sweep();
        EstimationStage.estimate(() -> s.ratio(A, B, 2));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> EstimationStage.rendering(() -> s.ratio(B, A, 2)));
        assertEquals("a page asked for an estimate while it rendered: ratio of variant=b over variant=a at 2 threads in s;"
                + " make it in the estimation stage", e.getMessage());
        assertFalse(EstimationStage.isRendering(), "the phase is restored when a page throws");
        // outside a page the same figure is made: b over a per round is 1/1.08, 1/1.10, 1/1.12, so 1/1.099879
        assertEquals(1 / 1.099879, s.ratio(B, A, 2).value(), 1e-6);
    }

    @Test
    void everyEstimatorRefusesWhileAPageRenders() throws IOException {
        SweepEstimates s = sweep();
        JmhSweep raw = JmhSweep.read(dir, "s", e -> { throw new AssertionError(e); });
        Estimate e = Estimator.of(List.of(1.08, 1.10, 1.12));
        Map<String, EstimationStage.Work<Object, Exception>> calls = new LinkedHashMap<>();
        calls.put("Estimator.of", () -> Estimator.of(List.of(1.08, 1.10, 1.12)));
        calls.put("Estimator.mean", () -> Estimator.mean(List.of(1.0, 2.0, 3.0)));
        calls.put("Estimator.ratio", () -> Estimator.ratio(Map.of(1, 2.0), Map.of(1, 1.0)));
        calls.put("Estimator.of over boots", () -> Estimator.of(Map.of(1, List.of(1.0), 2, List.of(1.1))));
        calls.put("RoundRatio.of", () -> RoundRatio.of(raw, A, B, 2));
        calls.put("NoiseFloor.of", () -> NoiseFloor.of(e));
        calls.put("NoiseFloor.ofIterations", () -> NoiseFloor.ofIterations(List.of(new double[] {1}), List.of(new double[] {1})));
        calls.put("a SweepEstimates figure not made", () -> s.ns(A, 2));
        calls.put("an A/A not made", () -> s.aa(A, AA, 2));
        calls.put("an estimation stage", () -> EstimationStage.estimate(() -> null));
        calls.forEach((what, call) -> {
            IllegalStateException x = assertThrows(IllegalStateException.class, () -> EstimationStage.rendering(call), what);
            assertTrue(x.getMessage().startsWith("a page asked for an estimate while it rendered: "), what + ": " + x.getMessage());
        });
        // t's table is no estimate: Estimate.fromJson reads summary.json's record back with it while a page renders
        assertEquals(4.303, EstimationStage.rendering(() -> Estimator.t975(2)), 0);
        assertEquals(e.lo(), EstimationStage.rendering(() -> Estimate.fromJson(e.json())).lo(), 1e-6);
    }

    @Test
    void theRecordHoldsEachFigureOnceInTheOrderMade() throws IOException {
        SweepEstimates s = sweep();
        EstimationStage.Made<NoiseFloor> made = EstimationStage.estimate(() -> {
            s.ns(A, 2);
            s.ratio(A, B, 2);
            s.ns(A, 2);
            s.where("variant", "a", "").ns(A, 2);
            s.round(1).ns(A, 2);
            return s.aa(A, AA, 2);
        });
        // the second ns is read back; a where view is a sweep of its own, named for it; a round view's figures are parts of a
        // figure over rounds, not recorded; the A/A is its ratio's figure, base over copy
        assertEquals(List.of("ns s variant=a null", "ratio s variant=a variant=b", "ns s[variant=a] variant=a null",
                "ratio s variant=a variant=a~aa"), made.estimates().stream().map(m -> m.get("figure") + " " + m.get("sweep") + " "
                + m.get("a") + " " + m.get("b")).toList());
        assertNotNull(made.value());
        // the A/A per round is 1.02, 0.99, 1.00: its geometric mean exp((0.0198026 − 0.0100503 + 0) / 3) = 1.003256
        assertEquals(1.003256, made.value().aa().value(), 1e-6);
        assertSame(made.value(), EstimationStage.rendering(() -> s.aa(A, AA, 2)), "an A/A made in the stage is read back");
    }
}
