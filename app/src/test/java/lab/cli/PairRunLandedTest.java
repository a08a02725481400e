package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import lab.fix.Fixes;
import lab.notebook.HeadlineWords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What `pair` prints when a fix lands: its headline from raw/ as the run left it, in words, then seed, model, kernel. */
class PairRunLandedTest {
    private static final Path RUN = Path.of("../results/pair-zram-init-lock-2core-20261204");

    /*
     * The committed run's headline, worked by hand from its raw/zram-init-lock/zram-seed-rR-t2.json files: the calibrated
     * figure is rwsem's ns over srcu's at baseNs 2681, 2 threads, in each of 4 rounds: 3069.070934/2937.855756,
     * 3080.910929/2947.138160, 3008.731317/2945.617567 and 3109.198334/2972.671065 = 1.044664, 1.045391, 1.021426,
     * 1.045927. Its adaptive.json is a log from before Stein's design (stopped: reached), so rounds 1-3 are the pilot: the
     * value is the mean of all 4 logs (0.0436949078, 0.0443907252, 0.0212000053, 0.0449040252: mean 0.0385474159, the
     * estimate 1.0393000065), the interval the pilot's spread on its 2 df over √4: s0 0.0131928913, h = 4.303 ×
     * 0.0131928913/2 = 0.0283845057: [1.0102147279–1.0692226847]. It leaves out 1 and straddles +2%: inconclusive at ±2%,
     * a change whose size the run cannot place against the margin. Its A/A, rwsem over its copy in the same rounds and
     * pilot: 1.0085754797 [0.9853732389–1.0323240557], holding 1, so the verdict stands. The raw figure (baseNs 0, rounds
     * 1-3 only, no pilot to tell apart): 269.942274/251.006019, 266.724755/221.012488 and 260.938219/193.064623, logs
     * 0.0727312203, 0.1879980362, 0.3012587021, mean 0.1873293195 (1.2060243870), s 0.1142652085, h = 4.303 ×
     * 0.1142652085/√3 = 0.2838734234: [0.9079698518–1.6019197326], holding 1 and reaching +60.2%; Stein's rule on that
     * spread asks ⌈(4.303 × 0.1142652085 / (ln 1.02 / 2))²⌉ = ⌈49.6584²⌉ = 2466 rounds in all, 2463 more, for ±1.0%.
     */
    @Test
    void aFinishedFixPrintsItsSentenceAndThreeLines() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PairRun.landed(RUN, "zram-init-lock", new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        String[] lines = text.split("\n");
        assertEquals(4, lines.length, text);
        // the first-screen sentence, its bold left out: the model's figure and verdict, the seed's, the kernel's first clause
        String prefix = "lab: zram-init-lock done. ";
        assertTrue(lines[0].startsWith(prefix + "`zram-init-lock`: model (calibrated, "), lines[0]);
        String sentence = lines[0].substring(prefix.length());
        assertTrue(sentence.contains(" cores) 1.04 [1.01–1.07]x, inconclusive at ±2%; seed 1.02x; kernel none (today's kernel has no"
                + " init_lock on the I/O path to switch on)."), sentence);
        assertTrue(sentence.endsWith(")."), sentence);
        assertTrue(sentence.length() <= HeadlineWords.MAX_SENTENCE, sentence.length() + " characters: " + sentence);
        // the sentence as the notebook has it, bold and all, is one breath too, and the line is it without its bold
        Map<String, Object> h = Fixes.headline(RUN, "zram-init-lock").orElseThrow();
        String cores = Runtime.getRuntime().availableProcessors() + " cores";
        String bold = HeadlineWords.sentence("zram-init-lock", h, cores);
        assertTrue(bold.startsWith("**`zram-init-lock`**: model (calibrated, " + cores + ") **1.04 [1.01–1.07]x, inconclusive at ±2%**;"),
                bold);
        assertTrue(bold.length() <= HeadlineWords.MAX_SENTENCE, bold.length() + " characters: " + bold);
        assertEquals(bold.replace("**", ""), sentence, "the line is the notebook's sentence without its bold");
        assertEquals("inconclusive", h.get("verdict"));
        assertEquals("inconclusive at ±2%: a change (the interval leaves out 1) whose size straddles +2%", h.get("verdict_text"));
        // the three lines: seed, model (raw, calibrated with its verdict in words, predicted, the A/A), kernel
        assertTrue(lines[1].startsWith("lab:   seed:   1.02x ("), lines[1]);
        assertTrue(lines[2].startsWith("lab:   model:  raw 1.21 [0.91–1.60]x (inconclusive at ±2%: the interval holds 1 and reaches +60.2%;"
                + " Stein's rule on its spread (2 df) asks 2463 more rounds for ±1.0%); calibrated 1.04 [1.01–1.07]x (inconclusive at ±2%:"
                + " a change (the interval leaves out 1) whose size straddles +2%); predicted "), lines[2]);
        assertTrue(lines[2].endsWith("; A/A 1.009 [0.985–1.032]x"), lines[2]);
        assertTrue(lines[3].startsWith("lab:   kernel: none (today's kernel has no init_lock"), lines[3]);
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
