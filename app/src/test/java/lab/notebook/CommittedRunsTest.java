package lab.notebook;

import lab.fix.Fixes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every committed run under results/ whose notebook the lab generates regenerates from its raw/
 * byte-identically: the evidence in the repository is what the code computes from the data.
 */
class CommittedRunsTest {
    private static final Path RESULTS = Path.of("../results");

    @TempDir
    Path tmp;

    static List<Path> runs() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(RESULTS)) {
            for (Path d : s.sorted().toList()) {
                Path summary = d.resolve("summary.json");
                if (Files.isDirectory(d.resolve("raw")) && Files.exists(d.resolve("NOTEBOOK.md")) && Files.exists(summary)
                        && !d.getFileName().toString().startsWith("demo-")) {
                    String json = Files.readString(summary);
                    if (json.contains("\"fixes\"") || json.contains("\"compare\"") || json.contains("\"coverage\"")
                            || json.contains("\"scale\"")) {
                        out.add(d);
                    }
                }
            }
        }
        return out;
    }

    @org.junit.jupiter.api.Test
    void thereAreCommittedRunsToCheck() throws IOException {
        assertFalse(runs().isEmpty(), "no committed lab notebooks found under " + RESULTS.toAbsolutePath());
    }

    @ParameterizedTest
    @MethodSource("runs")
    void regeneratesByteIdentically(Path run) throws IOException {
        Path copy = tmp.resolve(run.getFileName().toString());
        lab.results.RunFolder.copyTree(run, copy);
        Fixes.notebook(copy);
        List<String> files = new ArrayList<>(List.of("NOTEBOOK.md", "summary.json"));
        if (Files.exists(run.resolve("profile.json"))) {
            files.add("profile.json");
        }
        if (Files.isDirectory(run.resolve("charts"))) {
            try (Stream<Path> s = Files.list(run.resolve("charts"))) {
                s.forEach(p -> files.add("charts/" + p.getFileName()));
            }
        }
        for (String f : files) {
            assertArrayEquals(Files.readAllBytes(run.resolve(f)), Files.readAllBytes(copy.resolve(f)), run.getFileName() + "/" + f);
        }
    }
}
