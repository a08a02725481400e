package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import lab.fix.CoverageSim;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./lab coverage}: bad options exit 2 with nothing written; a tiny run writes its folder, which regenerates. */
class CoverageCommandTest extends CapturedStreams {
    @TempDir
    Path dir;

    private List<Path> files() throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void badOptionsExit2AndWriteNothing() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        Files.createDirectories(dir.resolve("results/taken"));
        List<Path> before = files();
        String results = dir.resolve("results").toString();
        List<List<String>> bad = List.of(List.of("--runs", "0"), List.of("--runs", "x"), List.of("--runs", "1000001"),
                List.of("--threads", "0"), List.of("--seed", "x"), List.of("--id", "../up"), List.of("--id", ".hidden"),
                List.of("--id", "a/b"), List.of("--id", "taken"), List.of("--runs"));
        for (List<String> args : bad) {
            err.reset();
            String[] argv = Stream.concat(Stream.of("coverage", "--results", results), args.stream()).toArray(String[]::new);
            assertEquals(2, Lab.run(argv), String.join(" ", args) + ": " + err);
            assertTrue(err.toString().startsWith("lab: ") && err.toString().lines().count() == 1, String.join(" ", args) + ": " + err);
            assertEquals(before, files(), String.join(" ", args) + " wrote nothing");
        }
        assertEquals(2, Lab.run("coverage", "--results", file.toString(), "--runs", "1"));
        assertTrue(err.toString().contains("is not a folder"), err.toString());
        assertEquals(before, files());
    }

    /**
     * 20 runs of each setting on two threads: manifest.json, raw/coverage.tsv (the header, a line
     * per setting), raw/design.tsv, NOTEBOOK.md and summary.json, which ./lab notebook remakes
     * byte for byte; a line is the setting's own, whatever thread ran it.
     */
    @Test
    void aTinyRunWritesItsFolderAndItsNotebookRegenerates() throws Exception {
        assertEquals(0, Lab.run("coverage", "--runs", "20", "--threads", "2", "--results", dir.toString(), "--id", "tiny"), err.toString());
        Path run = dir.resolve("tiny");
        assertEquals(run.toString(), out.toString().strip());
        List<String> tsv = Files.readAllLines(run.resolve("raw/coverage.tsv"));
        List<CoverageSim.Case> grid = CoverageSim.grid();
        assertEquals(CoverageSim.ROW_HEADER, tsv.getFirst());
        assertEquals(grid.size() + 1, tsv.size());
        for (int i = 0; i < grid.size(); i++) {
            String[] c = tsv.get(i + 1).split("\t");
            assertEquals(grid.get(i).name(), c[0]);
            assertEquals("20", c[1]);
            assertEquals(String.valueOf(52 + i), c[c.length - 1], "setting i starts from seed 52 + i");
        }
        assertEquals(grid.get(7).row(20, 59, dir.resolve("scratch")).tsv(), tsv.get(8), "the line is setting 7's own from seed 59");
        assertEquals(3, Files.readAllLines(run.resolve("raw/design.tsv")).size());
        JsonNode m = new ObjectMapper().readTree(run.resolve("manifest.json").toFile());
        assertEquals("tiny", m.path("run_id").asText());
        assertTrue(m.path("command").asText().startsWith("./lab coverage --runs 20"), m.toString());
        assertEquals(52, m.path("seed").asInt());
        String nb = Files.readString(run.resolve("NOTEBOOK.md"));
        assertTrue(nb.contains("Stein") && nb.contains("1945"), nb);
        assertTrue(nb.contains("| quick | normal | 0.010 | 1.025 | 20 | "), nb);
        assertTrue(nb.contains("## Gaps\n\nNone"), nb);
        assertTrue(Files.readString(run.resolve("summary.json")).contains("\"settings\""));
        assertTrue(err.toString().contains("lab: coverage [28/28] "), err.toString());
        assertFalse(Files.exists(dir.resolve(".tiny.partial")));
        err.reset();
        assertEquals(0, Lab.run("notebook", "--check", run.toString()), err.toString());
    }
}
