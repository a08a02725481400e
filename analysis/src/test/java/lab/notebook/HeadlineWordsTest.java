package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.analysis.estimate.Estimate;
import org.junit.jupiter.api.Test;

/**
 * The first screen's sentence and the landing lines say what the headline's estimates say, each
 * figure's verdict gated by its own A/A, and nothing else. The run's margin here is ±2% (full).
 */
class HeadlineWordsTest {

    /** A figure over three rounds (2 df) with these ends, as summary.json has it. */
    private static Map<String, Object> ci(double value, double lo, double hi) {
        return new Estimate(value, lo, hi, 3, Math.log(hi / lo) / 2 * Math.sqrt(3) / 4.303).json();
    }

    /** The value alone over {@code rounds} rounds (one or two): no interval. */
    private static Map<String, Object> bare(double value, int rounds) {
        return new Estimate(value, Double.NaN, Double.NaN, rounds, Double.NaN).json();
    }

    /**
     * zram-init-lock's shape: the calibrated model an effect of at least +2% (1.04 [1.03–1.05]), the
     * raw one wide, the seed 1.15, the A/A holding 1, the kernel's figure no effect larger than ±2%
     * (1.00 [0.99–1.01]) with its own A/A holding 1 and a note of where it comes from.
     */
    private static Map<String, Object> headline() {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("metric", "SRCU / rwsem throughput, randrw (the seed's job; seed: 4 workers)");
        h.put("seed", 1.15);
        h.put("target", 0.02);
        h.put("jvm_raw", ci(1.2, 0.9, 1.6));
        h.put("jvm_calibrated", ci(1.04, 1.03, 1.05));
        h.put("predicted", 1.041);
        h.put("kernel_estimate", ci(1.0, 0.99, 1.01));
        h.put("kernel_note", "the switch's A/B: srcu over rwsem at N = 1; 3 rounds (tcg)");
        h.put("aa", ci(1.009, 0.987, 1.03));
        h.put("aa_kernel", ci(1.001, 0.996, 1.006));
        return h;
    }

    @Test
    void theSentenceIsTheModelsFigureAndVerdictTheSeedAndTheKernels() {
        String s = HeadlineWords.sentence("zram-init-lock", headline(), "2 cores");
        assertEquals("**`zram-init-lock`**: model (calibrated, 2 cores) **1.04 [1.03–1.05]x, effect ≥ +2%**; seed 1.15x;"
                + " kernel **1.00 [0.99–1.01]x, no effect > ±2%** (the switch's A/B).", s);
    }

    @Test
    void eachVerdictIsSaidInItsShortWords() {
        Map<String, Object> h = headline();
        h.put("jvm_calibrated", ci(1.008, 1.002, 1.014));
        assertTrue(HeadlineWords.sentence("f", h, "2 cores").contains("**1.01 [1.00–1.01]x, change < ±2%**"), "small change");
        h.put("jvm_calibrated", ci(0.999, 0.99, 1.01));
        assertTrue(HeadlineWords.sentence("f", h, "2 cores").contains("**1.00 [0.99–1.01]x, no effect > ±2%**"), "no effect");
        h.put("jvm_calibrated", ci(1.02, 0.98, 1.06));
        assertTrue(HeadlineWords.sentence("f", h, "2 cores").contains("**1.02 [0.98–1.06]x, inconclusive at ±2%**"), "inconclusive");
        h.put("jvm_calibrated", ci(0.96, 0.95, 0.97));
        assertTrue(HeadlineWords.sentence("f", h, "2 cores").contains("**0.96 [0.95–0.97]x, effect ≥ -2%**"), "an effect below 1");
        h.put("target", 0.05);
        assertTrue(HeadlineWords.sentence("f", h, "2 cores").contains("**0.96 [0.95–0.97]x, change < ±5%**"), "the run's own margin");
    }

    @Test
    void aTwoRoundFigureSaysItHasNoInterval() {
        Map<String, Object> h = headline();
        h.put("jvm_calibrated", bare(1.04, 2));
        h.put("kernel_estimate", bare(0.98, 2));
        String s = HeadlineWords.sentence("f", h, "2 cores");
        assertTrue(s.startsWith("**`f`**: model (calibrated, 2 cores) **1.04x, 2 rounds: no interval**; seed 1.15x;"), s);
        assertTrue(s.contains("; kernel **0.98x, 2 rounds: no interval** (the switch's A/B)."), s);
    }

    @Test
    void aOneRoundRawFigureIsTheModelWhereThereIsNoCalibration() {
        Map<String, Object> h = headline();
        h.remove("jvm_calibrated");
        h.put("jvm_raw", bare(0.45, 1));
        String s = HeadlineWords.sentence("primitives", h, "2 cores");
        assertTrue(s.startsWith("**`primitives`**: model (raw, 2 cores) **0.45x, 1 round: no interval**; seed 1.15x;"), s);
        h.remove("jvm_raw");
        assertTrue(HeadlineWords.sentence("primitives", h, "2 cores").startsWith("**`primitives`**: no model figure in this run; seed"));
    }

    @Test
    void aFailedAaReplacesItsFiguresVerdictAndNoOther() {
        Map<String, Object> h = headline();
        h.put("aa", ci(0.96, 0.94, 0.98));
        String model = HeadlineWords.sentence("f", h, "2 cores");
        assertTrue(model.contains("(calibrated, 2 cores) **1.04 [1.03–1.05]x, A/A failed: not evidence**;"), model);
        assertTrue(model.contains("kernel **1.00 [0.99–1.01]x, no effect > ±2%**"), "the kernel has its own A/A: " + model);
        h = headline();
        h.put("aa_kernel", ci(1.006, 1.002, 1.01));
        String kernel = HeadlineWords.sentence("f", h, "2 cores");
        assertTrue(kernel.contains("kernel **1.00 [0.99–1.01]x, A/A failed: not evidence** (the switch's A/B)."), kernel);
        assertTrue(kernel.contains("**1.04 [1.03–1.05]x, effect ≥ +2%**"), "the model has its own A/A: " + kernel);
        // a failed A/A gates even a figure without an interval
        h.put("kernel_estimate", bare(0.98, 2));
        assertTrue(HeadlineWords.sentence("f", h, "2 cores").contains("kernel **0.98x, A/A failed: not evidence**"));
        // the raw model, where there is no calibration, is gated by the headline's A/A
        h = headline();
        h.remove("jvm_calibrated");
        h.put("aa", ci(0.96, 0.94, 0.98));
        assertTrue(HeadlineWords.sentence("f", h, "2 cores").contains("model (raw, 2 cores) **1.20 [0.90–1.60]x, A/A failed: not evidence**"));
        // an A/A without an interval fails nothing
        h.put("aa", bare(0.96, 2));
        assertTrue(HeadlineWords.sentence("f", h, "2 cores").contains("**1.20 [0.90–1.60]x, inconclusive at ±2%**"));
    }

    @Test
    void theSentenceIsAtMostThreeHundredCharactersAndCutsALongNoteAtAWord() {
        String note = "today's kernel has no init_lock to switch, and the lab kernel's patch that would add one is not in this run's"
                + " build because the build step was skipped for want of the source package on this machine, which a later run"
                + " with the source in place and the lab kernel rebuilt would measure as the switch's A/B at every count";
        Map<String, Object> h = headline();
        h.put("kernel_estimate", null);
        h.put("kernel_note", note);
        String s = HeadlineWords.sentence("zram-init-lock", h, "2 cores");
        assertTrue(s.length() <= HeadlineWords.MAX_SENTENCE, s.length() + ": " + s);
        String head = "**`zram-init-lock`**: model (calibrated, 2 cores) **1.04 [1.03–1.05]x, effect ≥ +2%**; seed 1.15x; kernel none (";
        assertTrue(s.startsWith(head) && s.endsWith("…)."), s);
        String kept = s.substring(head.length(), s.length() - "…).".length());
        assertTrue(kept.length() > 100, "the room is used: " + kept);
        assertTrue(note.startsWith(kept + " "), "cut at a word: " + kept);
        // with a kernel figure too, the figure stays whole and the note is cut
        h.put("kernel_estimate", ci(1.0, 0.99, 1.01));
        String both = HeadlineWords.sentence("zram-init-lock", h, "2 cores");
        assertTrue(both.length() <= HeadlineWords.MAX_SENTENCE, both.length() + ": " + both);
        assertTrue(both.contains("; kernel **1.00 [0.99–1.01]x, no effect > ±2%** (today's kernel has no init_lock") && both.endsWith("…)."),
                both);
        // a note's first clause alone where it has several
        h.put("kernel_note", "no kernel figure: the switch was not run (no lab kernel); see the fix's section");
        h.put("kernel_estimate", null);
        assertTrue(HeadlineWords.sentence("f", h, "2 cores").endsWith("; kernel none (no kernel figure)."));
    }

    /**
     * The raw figure's cell: 1.20 [0.90–1.60] over 3 rounds, its spread ln(1.6 / 0.9) / 2 · √3 / 4.303
     * on 2 df; at ±2% Stein's rule asks 3 · (0.2876821 / 0.0099013)² = 3 · 29.0550² = 2532.6, 2533 in
     * all: 2530 more, for ±(√1.02 − 1) = ±1.0%.
     */
    @Test
    void theLandingLinesAreSeedModelKernelWithoutMarkup() {
        List<String> l = HeadlineWords.lines(headline());
        assertEquals(3, l.size());
        assertEquals("seed:   1.15x (SRCU / rwsem throughput, randrw (the seed's job; seed: 4 workers))", l.get(0));
        assertEquals("model:  raw 1.20 [0.90–1.60]x (inconclusive at ±2%: the interval holds 1 and reaches +60.0%; Stein's rule on its"
                + " spread (2 df) asks 2530 more rounds for ±1.0%); calibrated 1.04 [1.03–1.05]x (an effect of at least +2% (+4.0%,"
                + " +3.0% to +5.0%)); predicted 1.04x (agrees); A/A 1.009 [0.987–1.030]x", l.get(1));
        assertEquals("kernel: 1.00 [0.99–1.01]x (no effect larger than ±2%)", l.get(2));
        Map<String, Object> h = headline();
        h.put("kernel_estimate", null);
        h.put("kernel_note", "today's kernel has no init_lock to switch");
        assertEquals("kernel: none (today's kernel has no init_lock to switch)", HeadlineWords.lines(h).get(2));
        h.put("kernel", 1.07);
        assertEquals("kernel: 1.07x (today's kernel has no init_lock to switch)", HeadlineWords.lines(h).get(2));
        h.put("jvm_raw", bare(0.45, 1));
        h.remove("jvm_calibrated");
        HeadlineWords.lines(h).forEach(x -> assertFalse(x.contains("**"), x));
        assertTrue(HeadlineWords.lines(h).get(1).startsWith("model:  raw 0.45x (1 round: no interval); calibrated — (no calibration"),
                HeadlineWords.lines(h).get(1));
    }

    @Test
    void aFailedAaIsFlaggedOnTheModelLineAndTakesTheVerdict() {
        Map<String, Object> h = headline();
        h.put("aa", ci(0.96, 0.94, 0.98));
        h.put("aa_kernel", ci(1.006, 1.002, 1.01));
        List<String> l = HeadlineWords.lines(h);
        assertTrue(l.get(1).contains("; calibrated 1.04 [1.03–1.05]x (the A/A control failed (0.960 [0.940–0.980]): this figure is not"
                + " evidence);"), l.get(1));
        assertTrue(l.get(1).endsWith("; A/A 0.960 [0.940–0.980]x EXCLUDES 1: drift or position bias"), l.get(1));
        assertEquals("kernel: 1.00 [0.99–1.01]x (the A/A control failed (1.006 [1.002–1.010]): this figure is not evidence)", l.get(2));
    }

    @Test
    void thePredictionIsJudgedByTheMeasurementsInterval() {
        Map<String, Object> h = headline();
        h.put("predicted", 1.0);
        assertTrue(HeadlineWords.lines(h).get(1).contains("; predicted 1.00x (predicts less than measured: a cost the counts miss, or c"
                + " underpriced at this gap);"), HeadlineWords.lines(h).get(1));
        h.put("predicted", 1.1);
        assertTrue(HeadlineWords.lines(h).get(1).contains("; predicted 1.10x (predicts more than measured:"), HeadlineWords.lines(h).get(1));
        h.put("jvm_calibrated", bare(1.04, 2));
        assertTrue(HeadlineWords.lines(h).get(1).contains("; predicted 1.10x (2 rounds: no interval to judge by);"),
                HeadlineWords.lines(h).get(1));
        h.remove("predicted");
        assertFalse(HeadlineWords.lines(h).get(1).contains("predicted"), HeadlineWords.lines(h).get(1));
    }
}
