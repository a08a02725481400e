package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.SweepEstimates;
import lab.results.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A notebook is made in two stages: every section's figures first, then each page rendered with
 * estimation forbidden. A page that prints the figure its stage made renders, and summary.json
 * carries the stage's record of it; a page that asks for a new figure while it renders fails
 * with the stage's message, in {@link Notebook#write} as in {@link Section#render}.
 *
 * <p>The run: one sweep {@code raw/probe/s-rR-t2.json} ({@code probe/s} in the record), three
 * rounds, variant a at 100, 120 and 101 ns per op, b at a's over 1.08, 1.10 and 1.12: a over b is
 * 1.099879 [1.051297–1.150706] (logs 0.0769610, 0.0953102, 0.1133287, mean 0.0952000, sd
 * 0.0181841, half-width 4.303 · 0.0181841 / √3 = 0.0451754), printed as {@code 1.10 [1.05–1.15]x}.
 */
class NotebookStagesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> A = Map.of("variant", "a");
    private static final Map<String, String> B = Map.of("variant", "b");

    @TempDir
    Path run;

    /** A page of one figure, a over b, made in its estimation stage; {@code more}: it also asks for b over a while it renders. */
    record Probe(boolean more) implements Section {
        @Override
        public String id() {
            return "probe";
        }

        @Override
        public Optional<Estimated> estimate(RunDir run) throws IOException {
            SweepEstimates s = SweepEstimates.read(run.raw().resolve("probe"), "s", run::gap);
            s.ratio(A, B, 2);
            return Optional.of(() -> {
                Estimate r = s.ratio(A, B, 2); // made above: read back
                String more = this.more ? " " + Parts.ratioCell(s.ratio(B, A, 2)) : ""; // never made: the stage refuses
                return new SectionOutput("## probe\n\na over b: " + Parts.ratioCell(r) + more + "\n\n", Map.of(),
                        Map.of("ratio", r.json()));
            });
        }
    }

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

    private RunDir probeRun() throws IOException {
        Path raw = Files.createDirectories(run.resolve("raw").resolve("probe"));
        Files.writeString(run.resolve("manifest.json"), "{\"run_id\": \"probe-run\", \"command\": \"./lab pair probe\"}");
        double[] base = {100, 120, 101};
        double[] ratio = {1.08, 1.10, 1.12};
        for (int r = 1; r <= 3; r++) {
            Files.writeString(raw.resolve("s-r" + r + "-t2.json"), JSON.writeValueAsString(List.of(entry("a", base[r - 1]),
                    entry("b", base[r - 1] / ratio[r - 1]))));
        }
        return RunDir.open(run);
    }

    @Test
    void aPageThatPrintsWhatItsStageMadeRendersAndSummaryJsonCarriesTheRecord() throws IOException {
        probeRun();
        Notebook.write(run, List.of(), List.of(new Probe(false)));
        String md = Files.readString(run.resolve("NOTEBOOK.md"));
        assertTrue(md.contains("a over b: 1.10 [1.05–1.15]x\n"), md);
        JsonNode estimates = JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path("probe").path("estimates");
        assertEquals(1, estimates.size(), estimates.toString());
        JsonNode e = estimates.get(0);
        assertEquals("probe/s ratio variant=a variant=b 2 3", e.path("sweep").asText() + " " + e.path("figure").asText() + " "
                + e.path("a").asText() + " " + e.path("b").asText() + " " + e.path("threads").asInt() + " " + e.path("rounds").asInt());
        assertEquals(1.099879, e.path("value").asDouble(), 1e-6);
        assertEquals(1.051297, e.path("ci95").get(0).asDouble(), 1e-6);
        assertEquals(1.150706, e.path("ci95").get(1).asDouble(), 1e-6);
        assertFalse(e.has("df"), "df is rounds - 1: not written");
    }

    @Test
    void aPageThatAsksForANewEstimateWhileItRendersFailsWithTheStagesMessage() throws IOException {
        RunDir r = probeRun();
        String message = "a page asked for an estimate while it rendered: ratio of variant=b over variant=a at 2 threads in"
                + " probe/s; make it in the estimation stage";
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Notebook.write(run, List.of(), List.of(new Probe(true))));
        assertEquals(message, e.getMessage());
        assertFalse(Files.exists(run.resolve("NOTEBOOK.md")), "nothing is written from a page that failed");
        e = assertThrows(IllegalStateException.class, () -> new Probe(true).render(r));
        assertEquals(message, e.getMessage(), "Section.render runs the same two stages");
        assertTrue(new Probe(false).render(r).orElseThrow().markdown().contains("1.10 [1.05–1.15]x"));
    }
}
