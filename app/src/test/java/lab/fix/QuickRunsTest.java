package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import lab.results.RunFolder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A quick run's raw/ as the quick plan of issue 33 leaves it, made from a committed full run of
 * each headline fix by deleting the cells a quick run no longer measures: the raw table's other
 * depths, rw modes and patterns, targets or caches (every variant kept), the guard table's LZ4
 * and 4-thread files, and the cost sweep's gaps but the calibrated base. Each section renders it,
 * says once, in words, that the quick run measured only those cells, and its headline, calibrated
 * and predicted, is the full run's to the digit: the cells cut are none the headline reads.
 */
class QuickRunsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path RESULTS = Path.of("../results");

    @TempDir
    Path tmp;

    /** The fix, its committed full run, the raw table's file prefix and the params a quick run keeps there, the quick note. */
    static Stream<Arguments> runs() {
        return Stream.of(
                Arguments.of("dm-css-ref", "pair-dm-css-ref-2core-20261204", List.of("dmcss", "dmcss-inject"),
                        Map.of("depth", List.of("0", "5")), "Quick run: the raw table and the injected experiment measured depths 0 and 5 only"),
                Arguments.of("zram-init-lock", "pair-zram-init-lock-2core-20261204", List.of("zram"),
                        Map.of("rw", List.of("randrw"), "pattern", List.of("zero")), "Quick run: the guard table measured the headline's cells only"),
                Arguments.of("part-acct", "pair-part-acct-2core-20261207", List.of("part-acct"),
                        Map.of("target", List.of("disk")), "Quick run: the raw table measured the target disk only"),
                Arguments.of("thin-bufio-lock", "pair-thin-bufio-lock-2core-20261207", List.of("thin"),
                        Map.of("cache", List.of("whole")), "Quick run: the raw table measured the cache whole only"));
    }

    @ParameterizedTest
    @MethodSource("runs")
    void aQuickRunsPartialTablesRenderSayWhatWasMeasuredAndKeepTheHeadline(String fix, String committed, List<String> tables,
                                                                            Map<String, List<String>> keep, String note) throws IOException {
        Path full = RESULTS.resolve(committed);
        Path run = tmp.resolve(committed);
        Path raw = run.resolve("raw").resolve(fix);
        RunFolder.copyTree(full.resolve("raw").resolve(fix), raw);
        Files.writeString(run.resolve("manifest.json"), Files.readString(full.resolve("manifest.json"))
                .replace("\"quick\" : false", "\"quick\" : true"));
        long base = JSON.readTree(raw.resolve("calibration.json").toFile()).path("baseNs").asLong();
        int before = cells(raw);
        try (Stream<Path> s = Files.list(raw)) {
            for (Path f : s.toList()) {
                String name = f.getFileName().toString();
                String prefix = name.replaceFirst("-r\\d+(-t\\d+)?\\.json$", "");
                if (prefix.equals(name)) {
                    continue;
                }
                if (prefix.equals("zram-lz4") || prefix.equals("zram") && name.endsWith("-t4.json")
                        || prefix.equals("part-acct-grid") && !name.endsWith("-t2.json")) { // the grid: the most threads only
                    Files.delete(f);
                } else if (tables.contains(prefix)) {
                    keepOnly(f, p -> keep.entrySet().stream().allMatch(k -> k.getValue().contains(p.path(k.getKey()).asText())));
                } else if (prefix.endsWith("-costs") || prefix.endsWith("-costs-timed")) {
                    keepOnly(f, p -> p.path("gapNs").asText().equals(Long.toString(base)));
                }
            }
        }
        assertTrue(cells(raw) < before, "the quick shape cut no cell");
        assertTrue(Files.readString(run.resolve("manifest.json")).contains("\"quick\" : true"));
        Fixes.notebook(run);
        String md = Files.readString(run.resolve("NOTEBOOK.md"));
        assertEquals(1, count(md, note), md);
        assertEquals(0, count(Files.readString(full.resolve("NOTEBOOK.md")), "Quick run:"), "the full run says nothing of a quick one");
        assertFalse(md.contains("Fits of the `"), "one gap: no fit over gaps");
        assertTrue(md.contains("No fits of the line: this run's cost sweep measured one gap, the calibrated base (" + base + " ns)"), md);
        JsonNode h = JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path(fix).path("headline");
        JsonNode fh = JSON.readTree(full.resolve("summary.json").toFile()).path("fixes").path(fix).path("headline");
        assertNotNull(h.path("jvm_calibrated").path("value").numberValue(), h.toString());
        assertEquals(fh.path("jvm_calibrated").path("value").asDouble(), h.path("jvm_calibrated").path("value").asDouble(), 0);
        assertTrue(h.path("predicted").isNumber(), h.toString());
        assertEquals(fh.path("predicted").asDouble(), h.path("predicted").asDouble(), 0, h.toString());
        assertEquals(fh.path("measured_op_ns").asDouble(), h.path("measured_op_ns").asDouble(), 0, h.toString());
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    /** JMH cells in every JSON array file of {@code dir}. */
    private static int cells(Path dir) throws IOException {
        int n = 0;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.filter(f -> f.toString().endsWith(".json")).toList()) {
                JsonNode j = JSON.readTree(f.toFile());
                n += j.isArray() ? j.size() : 0;
            }
        }
        return n;
    }

    /** {@code f}, a JMH JSON file, with the entries whose params {@code keep} holds; deleted where none is left. */
    private static void keepOnly(Path f, Predicate<JsonNode> keep) throws IOException {
        ArrayNode kept = JSON.createArrayNode();
        JSON.readTree(f.toFile()).forEach(e -> {
            if (keep.test(e.path("params"))) {
                kept.add(e);
            }
        });
        if (kept.isEmpty()) {
            Files.delete(f);
        } else {
            JSON.writeValue(f.toFile(), kept);
        }
    }
}
