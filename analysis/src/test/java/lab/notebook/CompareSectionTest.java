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

    /** The rows of the table under the heading that starts with {@code heading}, as lists of cells. */
    static List<List<String>> table(String md, String heading) {
        List<String> lines = md.lines().toList();
        int i = 0;
        while (i < lines.size() && !lines.get(i).startsWith(heading)) {
            i++;
        }
        while (i < lines.size() && !lines.get(i).startsWith("|")) {
            i++;
        }
        List<List<String>> rows = new java.util.ArrayList<>();
        for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            String l = lines.get(i);
            rows.add(List.of(l.substring(2, l.length() - 2).split(" \\| ", -1)));
        }
        return rows;
    }

    /** The row of {@code rows} whose first cell is {@code first}. */
    static List<String> row(List<List<String>> rows, String first) {
        return rows.stream().filter(r -> r.getFirst().equals(first)).findFirst().orElseThrow(() -> new AssertionError("no row " + first));
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
        List<List<String>> rows = table(md, "### `f`");
        // run | figure | headline | at its most | kernel
        assertEquals("1.04 [1.03–1.05]x, effect ≥ +2%", row(rows, "`a`").get(2), md);
        assertEquals("1.01 [1.01–1.02]x, change < ±2%", row(rows, "`a`").get(4), md);
        assertEquals("1.04 [1.03–1.05]x, A/A failed: not evidence", row(rows, "`b`").get(2), md);
        assertTrue(row(rows, "`b`").get(4).startsWith("0.98x, 2 rounds: no interval"), md);
        // the pair: b's A/A failed, so a / b is no evidence either; b's kernel figure has no interval, nor has the ratio
        List<String> pair = row(table(md, "Each pair of runs"), "`a`");
        assertEquals("1.00 [0.99–1.01]x, A/A failed (`b`): not evidence", pair.get(3), md);
        assertEquals("1.03x (`b`: 2 rounds: no interval)", pair.get(4), md);
    }
}
