package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What `pair` prints when a fix lands: its headline from raw/ as the run left it, in words, then seed, model, kernel. */
class PairRunLandedTest {
    private static final Path RUN = Path.of("../results/pair-zram-init-lock-2core-20261204");

    @Test
    void aFinishedFixPrintsItsSentenceAndThreeLines() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PairRun.landed(RUN, "zram-init-lock", new PrintStream(out, true, StandardCharsets.UTF_8));
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(4, lines.length, out.toString(StandardCharsets.UTF_8));
        assertTrue(lines[0].startsWith("lab: zram-init-lock done. `zram-init-lock`, SRCU / rwsem throughput"), lines[0]);
        assertTrue(lines[0].contains("gives 1.04 [1.02–1.06]x, an effect of +3.9%"), lines[0]);
        assertTrue(lines[1].startsWith("lab:   seed:   1.02x"), lines[1]);
        assertTrue(lines[2].startsWith("lab:   model:  raw 1.21 [0.91–1.60]x"), lines[2]);
        assertTrue(lines[3].startsWith("lab:   kernel: no kernel figure: today's kernel has no init_lock"), lines[3]);
    }

    @Test
    void aFixWithNothingInRawSaysSoInOneLine(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("raw"));
        Files.writeString(dir.resolve("manifest.json"), "{}");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PairRun.landed(dir, "zram-init-lock", new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals("lab: zram-init-lock done: no headline from its raw/ (the notebook at the end lists what is missing)\n",
                out.toString(StandardCharsets.UTF_8));
    }
}
