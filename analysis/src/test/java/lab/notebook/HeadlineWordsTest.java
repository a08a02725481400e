package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.analysis.estimate.Estimate;
import org.junit.jupiter.api.Test;

/** The first screen's sentence and the landing lines say what the headline's estimates say, and nothing else. */
class HeadlineWordsTest {

    private static Map<String, Object> headline(double cal, double lo, double hi, Double predicted, Double kernel) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("metric", "SRCU / rwsem throughput, randrw (the seed's job; seed: 4 workers)");
        h.put("seed", 1.023);
        h.put("target", 0.02);
        h.put("jvm_raw", new Estimate(1.2, 0.9, 1.6, 3, 0.1).json());
        h.put("jvm_calibrated", new Estimate(cal, lo, hi, 4, 0.01).json());
        h.put("predicted", predicted);
        h.put("kernel_estimate", kernel == null ? null : new Estimate(kernel, kernel - 0.01, kernel + 0.01, 3, 0.01).json());
        h.put("kernel_note", kernel == null ? "today's kernel has no init_lock to switch" : null);
        h.put("aa", new Estimate(1.009, 0.987, 1.03, 4, 0.01).json());
        return h;
    }

    @Test
    void anEffectIsSaidWithItsSizeAndThePredictionsAgreement() {
        String s = HeadlineWords.sentence("zram-init-lock", headline(1.039, 1.020, 1.059, 1.051, null), "2 cores");
        assertEquals("**`zram-init-lock`**, SRCU / rwsem throughput, randrw: on 2 cores the model, calibrated to the kernel's cost per"
                + " I/O, gives **1.04 [1.02–1.06]x, an effect of +3.9% (+2.0% to +5.9%)**; the counted shared-line operations predict 1.05x"
                + " (agrees); the seed measured 1.02x, inside the model's interval; no kernel figure: today's kernel has no init_lock"
                + " to switch.", s);
    }

    @Test
    void noEffectAndInconclusiveAreSaidAsTheVerdictSaysThem() {
        String none = HeadlineWords.sentence("f", headline(0.994, 0.985, 1.003, null, 1.2), "2 cores");
        assertTrue(none.contains("gives **0.99 [0.99–1.00]x, no effect larger than ±2%**;"), none);
        assertTrue(none.contains("the seed measured 1.02x, above the model's interval"), none);
        assertTrue(none.contains("the kernel gives **1.20 [1.19–1.21]x, an effect of +20.0%"), none);
        assertTrue(!none.contains("predict"), "no prediction in the headline, none in words: " + none);
        String open = HeadlineWords.sentence("f", headline(1.02, 0.95, 1.08, 1.0, null), "2 cores");
        assertTrue(open.contains("inconclusive at ±2%: about"), open);
    }

    @Test
    void aPredictionOutsideTheMeasurementIsSaidSo() {
        String s = HeadlineWords.sentence("f", headline(1.019, 1.0001, 1.039, 1.0, null), "2 cores");
        assertTrue(s.contains("predict 1.00x (predicts less than measured"), s);
    }

    @Test
    void theLandingLinesAreSeedModelKernel() {
        List<String> l = HeadlineWords.lines(headline(1.039, 1.020, 1.059, 1.051, null));
        assertEquals(3, l.size());
        assertTrue(l.get(0).startsWith("seed:   1.02x (SRCU / rwsem"), l.get(0));
        assertTrue(l.get(1).startsWith("model:  raw 1.20 [0.90–1.60]x"), l.get(1));
        assertTrue(l.get(1).contains("calibrated 1.04 [1.02–1.06]x (effect); predicted 1.05x (agrees); A/A 1.009 [0.987–1.030]x"), l.get(1));
        assertEquals("kernel: no kernel figure: today's kernel has no init_lock to switch", l.get(2));
    }

    @Test
    void aOneRoundFigureIsSaidBrieflyOnTheTerminal() {
        Map<String, Object> h = headline(1.039, 1.020, 1.059, 1.051, null);
        h.put("jvm_raw", new Estimate(1.74, Double.NaN, Double.NaN, 1, Double.NaN).json());
        assertTrue(HeadlineWords.lines(h).get(1).startsWith("model:  raw 1.74x (inconclusive: one round, no interval yet); calibrated 1.04 [1.02–1.06]x"),
                HeadlineWords.lines(h).get(1));
    }

    @Test
    void aOneRoundFigureIsSaidAsOneRoundInTheSentenceAndTheLinesCarryNoMarkup() {
        Map<String, Object> h = headline(1.039, 1.020, 1.059, 1.051, 1.2);
        h.remove("jvm_calibrated");
        h.put("jvm_raw", new Estimate(0.45, Double.NaN, Double.NaN, 1, Double.NaN).json());
        String s = HeadlineWords.sentence("primitives", h, "2 cores");
        assertTrue(s.contains("the model (raw) gives **0.45x** (one round, no interval yet);"), s);
        HeadlineWords.lines(h).forEach(l -> assertTrue(!l.contains("**"), l));
    }

    @Test
    void aFailedAaIsFlaggedOnTheModelLine() {
        Map<String, Object> h = headline(1.039, 1.020, 1.059, 1.051, null);
        h.put("aa", new Estimate(0.96, 0.94, 0.98, 4, 0.01).json());
        assertTrue(HeadlineWords.lines(h).get(1).contains("EXCLUDES 1"));
    }
}
