package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code ./lab coverage} run's page, from a hand-written raw/coverage.tsv: its figures printed as
 * the file has them, those outside the targets in bold, the three tables, summary.json, and what
 * a broken file leaves (a gap, the rest rendered).
 */
class CoveragePageTest {
    private static final String HEADER = "setting\truns\tcoverage\taa_false_change\twrong_effect\tmean_rounds\tverdicts\tcoverage_lo"
            + "\tcoverage_hi\taa_false_lo\taa_false_hi\tdesign\tnoise\tspread\ttruth\tseed\n";
    private static final String QUICK = "quick normal 0.010 truth 1.025\t2000\t0.9500\t0.0450\t0.0000\t4.00\t{effect=0, small-change=10,"
            + " no-effect=1900, inconclusive=0, control-failed=90, no-interval=0}\t0.9396\t0.9587\t0.0368\t0.0550\tquick\tnormal\t0.010"
            + "\t1.025\t52\n";
    // coverage 0.9205 below 0.93, and an A/A leaving out 1 6.10% of the time, above 5.5%: both in bold
    private static final String FULL_T3 = "full t3 0.060 truth 1.010\t2000\t0.9205\t0.0610\t0.0005\t23.90\t{effect=1, small-change=0,"
            + " no-effect=100, inconclusive=1777, control-failed=122, no-interval=0}\t0.9079\t0.9316\t0.0514\t0.0723\tfull\tt3\t0.060"
            + "\t1.010\t71\n";
    private static final String TRUTH_1 = "quick normal 0.030 truth 1.000\t2000\t0.9490\t0.0480\t0.0000\t4.00\t{effect=0, small-change=5,"
            + " no-effect=1000, inconclusive=899, control-failed=96, no-interval=0}\t0.9385\t0.9578\t0.0395\t0.0583\tquick\tnormal\t0.030"
            + "\t1.000\t72\n";
    private static final String NESTED = "boots 3x3 normal 0.030 truth 1.020\t2000\t0.9510\tn/a\tn/a\t9.00\tn/a\t0.9407\t0.9597\tn/a"
            + "\tn/a\tboots 3x3\tnormal\t0.030\t1.020\t76\n";
    private static final String DESIGN = "design\town_rounds\tpilot\tmargin\tbudget_s\tround_s\tmax_rounds\tforks\titerations\thalf_width\n"
            + "quick\t1\t4\t0.05\t30\t10\t24\t1\t5\t0.02440\nfull\t3\t8\t0.02\t900\t30\t24\t3\t5\t0.00990\n";

    @TempDir
    Path tmp;

    private Path run(String coverage) throws IOException {
        Path d = tmp.resolve("coverage-test");
        Files.createDirectories(d.resolve("raw"));
        Files.writeString(d.resolve("manifest.json"), "{\"command\": \"./lab coverage --id coverage-test\", \"cores\": 2,"
                + " \"run_id\": \"coverage-test\"}");
        Files.writeString(d.resolve("raw/coverage.tsv"), coverage);
        Files.writeString(d.resolve("raw/design.tsv"), DESIGN);
        return d;
    }

    @Test
    void printsTheFileAsItIsWithFiguresOutsideTheTargetsInBold() throws IOException {
        Path d = run(HEADER + QUICK + FULL_T3 + TRUTH_1 + NESTED);
        Notebook.Written w = Notebook.write(d, List.of(), List.of());
        assertEquals(List.of(), w.gaps());
        assertEquals(List.of(), w.charts());
        String md = Files.readString(d.resolve("NOTEBOOK.md"));
        assertTrue(md.startsWith("# Run `coverage-test`\n\nMade by `./lab coverage --id coverage-test` on 2 cores."), md);
        assertTrue(md.contains("\n| quick | normal | 0.010 | 1.025 | 2000 | 0.9500 [0.9396–0.9587] | 0.0450 [0.0368–0.0550] | 0.0000"
                + " | 4.00 | 0 | 10 | 1900 | 0 | 90 | 0 |\n"), md);
        assertTrue(md.contains("\n| full | t3 | 0.060 | 1.010 | 2000 | **0.9205 [0.9079–0.9316]** | **0.0610 [0.0514–0.0723]** | 0.0005"
                + " | 23.90 | 1 | 0 | 100 | 1777 | 122 | 0 |\n"), md);
        // the truth-1 row under its own title, after the first table
        int noChange = md.indexOf("### The headline's truth 1 (no change)");
        assertTrue(noChange > md.indexOf("| full | t3 | 0.060") && md.indexOf("| quick | normal | 0.030 | 1.000 |") > noChange, md);
        assertTrue(md.contains("\n| 3x3 | normal | 0.030 | 1.020 | 2000 | 0.9510 [0.9407–0.9597] |\n"), md);
        assertTrue(md.contains("| quick | 1 | 4 | ±5% | 0.02440 | 30 s | 10 s | 24 | 1 x 5 |"), md);
        assertTrue(md.contains("coverage of 93%–97% and an A/A false-change rate of at most 5.5%"), md);
        assertTrue(md.contains("Ann. Math. Statist. 16(3), 1945"), md);
        JsonNode s = new ObjectMapper().readTree(d.resolve("summary.json").toFile());
        JsonNode full = s.path("coverage").path("settings").get(1);
        assertEquals("full t3 0.060 truth 1.010", full.path("setting").asText());
        assertEquals(0.9079, full.path("coverage").path("ci95").get(0).asDouble());
        assertEquals(1777, full.path("verdicts").path("inconclusive").asInt());
        assertEquals(71, full.path("seed").asLong());
        JsonNode nested = s.path("coverage").path("settings").get(3);
        assertTrue(nested.path("aa_false_change").isNull() && nested.path("verdicts").isNull(), nested.toString());
        assertEquals(0.055, s.path("coverage").path("targets").path("aa_false_change_max").asDouble());
        byte[] first = Files.readAllBytes(d.resolve("NOTEBOOK.md"));
        Notebook.write(d, List.of(), List.of());
        assertArrayEquals(first, Files.readAllBytes(d.resolve("NOTEBOOK.md")), "byte for byte again");
    }

    @Test
    void aBrokenLineIsAGapAndTheRestIsRendered() throws IOException {
        Path d = run(HEADER + QUICK.replace("\t2000\t", "\ttwo thousand\t") + FULL_T3 + "cut\tshort\n");
        Notebook.Written w = Notebook.write(d, List.of(), List.of());
        assertEquals(2, w.gaps().size(), w.gaps().toString());
        assertTrue(w.gaps().getFirst().startsWith("`raw/coverage.tsv`: a line whose runs cannot be read"), w.gaps().toString());
        assertTrue(w.gaps().get(1).contains("a line with 2 fields, not 16"), w.gaps().toString());
        String md = Files.readString(d.resolve("NOTEBOOK.md"));
        assertFalse(md.contains("| quick | normal | 0.010 |"), md);
        assertTrue(md.contains("| full | t3 | 0.060 |"), md);
        assertTrue(md.contains("## Gaps\n\nFiles that could not be used"), md);
    }

    @Test
    void aFileWithoutAColumnTheNotebookReadsIsAGap() throws IOException {
        Path d = run(HEADER.replace("\tseed", "\tstart") + QUICK);
        Notebook.Written w = Notebook.write(d, List.of(), List.of());
        assertEquals(List.of("`raw/coverage.tsv`: no column seed in its header"), w.gaps());
    }
}
