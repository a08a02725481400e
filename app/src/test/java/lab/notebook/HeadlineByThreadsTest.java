package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import lab.analysis.estimate.Estimate;
import lab.fix.FixUnit;
import lab.fix.Fixes;
import org.junit.jupiter.api.Test;

/**
 * Each section's {@link HeadlineByThreads} names keys its summary really holds: in the newest
 * committed {@code pair-FIX-*} run, the keys give a figure per thread count, calibrated and raw as
 * the section names them, and at one thread count the figure is the headline's own (its
 * {@code jvm_calibrated}, its {@code jvm_raw}), so a comparison of runs reads the headline's figure.
 */
class HeadlineByThreadsTest {
    private static final Path RESULTS = Path.of("../results");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eachSectionsKeysHoldItsHeadlinePerThreadCount() throws IOException {
        int checked = 0;
        for (FixUnit u : Fixes.ALL) {
            Section s = u.section();
            HeadlineByThreads keys = s == null ? null : s.headlineByThreads();
            if (keys == null) {
                continue;
            }
            String id = u.fix().id();
            JsonNode summary = newest(id);
            assertTrue(summary != null, id + ": no committed pair run to check its keys against");
            RunFigures f = RunFigures.read(summary, id, keys);
            JsonNode h = summary.path("fixes").path(id).path("headline");
            for (String kind : List.of(RunFigures.CALIBRATED, RunFigures.RAW)) {
                String path = kind.equals(RunFigures.CALIBRATED) ? keys.calibrated() : keys.raw();
                Estimate head = Estimate.fromJson(JSON.convertValue(h.path("jvm_" + kind), Map.class));
                if (path == null) {
                    assertTrue(head == null, id + ": a " + kind + " headline, but no " + kind + " keys");
                    continue;
                }
                var byT = kind.equals(RunFigures.CALIBRATED) ? f.calibrated() : f.raw();
                assertFalse(byT.isEmpty() || byT.containsKey(0), id + ": nothing per thread count at " + path);
                if (head != null) {
                    assertTrue(byT.values().stream().map(RunFigures.Figure::estimate).filter(Objects::nonNull)
                            .anyMatch(e -> e.value() == head.value() && e.lo() == head.lo() && e.hi() == head.hi()),
                            id + ": the headline's " + kind + " figure " + head + " is at no thread count of " + path + ": " + byT);
                }
            }
            checked++;
        }
        assertTrue(checked >= 5, "sections with per-thread keys checked: " + checked);
    }

    /** The newest committed pair run of {@code id} whose summary has the fix's figures; null for none. */
    private static JsonNode newest(String id) throws IOException {
        List<Path> runs;
        try (Stream<Path> s = Files.list(RESULTS)) {
            runs = s.filter(p -> p.getFileName().toString().startsWith("pair-" + id + "-"))
                    .sorted(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed()).toList();
        }
        for (Path r : runs) {
            Path summary = r.resolve("summary.json");
            if (Files.isRegularFile(summary)) {
                JsonNode n = JSON.readTree(summary.toFile());
                if (n.path("fixes").path(id).isObject() && !n.path("fixes").path(id).has("status")) {
                    return n;
                }
            }
        }
        return null;
    }
}
