package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.results.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A comparison of runs (`./lab compare`, `./lab fleet`) prints each run's headline figures with
 * the verdicts that run's own table gives them: the same interval, A/A and margin, decided by the
 * same rule; a figure whose A/A failed is no evidence there either.
 */
class CompareSectionTest {
    private static String summary(String headline) {
        return "{\"run\": {\"cores\": 2, \"command\": \"./lab pair f\"}, \"fixes\": {\"f\": {\"headline\": " + headline + "}}}";
    }

    @Test
    void eachRunsHeadlineIsJudgedAsItsOwnTableJudgesIt(@TempDir Path dir) throws Exception {
        Path raw = Files.createDirectories(dir.resolve("raw/compare"));
        Files.writeString(dir.resolve("manifest.json"), "{\"command\": \"./lab compare a b\"}");
        // run a: calibrated 1.04 [1.03–1.05] at ±2%, wholly beyond +2%: an effect; its A/A holds 1
        Files.writeString(raw.resolve("01-a.summary.json"), summary("{\"metric\": \"m\", \"seed\": 1.15, \"jvm\": 1.04, \"target\": 0.02,"
                + " \"jvm_calibrated\": {\"value\": 1.04, \"ci95\": [1.03, 1.05], \"rounds\": 4},"
                + " \"aa\": {\"value\": 1.0, \"ci95\": [0.99, 1.01], \"rounds\": 4},"
                + " \"kernel\": 1.01, \"kernel_estimate\": {\"value\": 1.01, \"ci95\": [1.005, 1.015], \"rounds\": 3}}"));
        // run b: the same figure, but its A/A [1.01–1.03] leaves out 1; its raw-only kernel figure has two rounds
        Files.writeString(raw.resolve("02-b.summary.json"), summary("{\"metric\": \"m\", \"seed\": 1.15, \"jvm\": 1.04, \"target\": 0.05,"
                + " \"jvm_calibrated\": {\"value\": 1.04, \"ci95\": [1.03, 1.05], \"rounds\": 4},"
                + " \"aa\": {\"value\": 1.02, \"ci95\": [1.01, 1.03], \"rounds\": 4},"
                + " \"kernel\": 0.98, \"kernel_estimate\": {\"value\": 0.98, \"ci95\": null, \"rounds\": 2}}"));
        String md = new CompareSection().render(RunDir.open(dir)).orElseThrow().markdown();
        String row = md.lines().filter(l -> l.startsWith("| `f` |")).findFirst().orElseThrow();
        List<String> cells = List.of(row.split(" \\| "));
        assertEquals("1.04 [1.03–1.05]x, effect ≥ +2%", cells.get(3), row);
        assertEquals("1.01 [1.01–1.02]x, change < ±2%", cells.get(4), row);
        assertEquals("1.04 [1.03–1.05]x, A/A failed: not evidence", cells.get(5), row);
        assertTrue(cells.get(6).startsWith("0.98x, 2 rounds: no interval"), row);
    }
}
