package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import lab.analysis.estimate.AdaptiveLog;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.estimate.Stein;
import lab.analysis.estimate.SweepEstimates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stein's design on a headline cell ({@link Adaptive}): the pilot first, then the rounds its spread
 * asks for and no more, whatever the later rounds hold; the budget and the limit as bounds; and
 * the interval read back with the pilot's spread on the pilot's degrees of freedom.
 */
class AdaptiveTest {
    private static final Adaptive.Cell CELL = new Adaptive.Cell("h", "h", 2, "variant", List.of("base", "cand", "base~aa"), Map.of(),
            "base", "cand", "base", "base~aa", v -> null, r -> null);

    /** Round {@code r}'s file: the base at {@code 100 × ratio(r)} ns, the candidate at 100, the A/A copy at the base's {@code × aa(r)}. */
    private static void round(Path raw, int r, double ratio, double aa) throws Exception {
        List<Object> e = List.of(JmhJson.entry("b", 2, Map.of("variant", "base"), 100 * ratio),
                JmhJson.entry("b", 2, Map.of("variant", "cand"), 100.0),
                JmhJson.entry("b", 2, Map.of("variant", "base~aa"), 100 * ratio / aa));
        JmhJson.write(raw.resolve("h-r" + r + ".json"), e);
    }

    /** Runs the design on {@code own} rounds already written, rounds of {@code roundS} seconds, ratios by round. */
    private static AdaptiveLog design(Path raw, int own, boolean quick, long budgetS, double roundS, IntToDoubleFunction ratio,
                                      List<Integer> ran) throws Exception {
        for (int r = 1; r <= own; r++) {
            round(raw, r, ratio.applyAsDouble(r), 1 + 0.01 * ((r % 3) - 1));
        }
        long[] clock = {0};
        Adaptive.Bounds b = Adaptive.Bounds.of(own, quick, budgetS, () -> clock[0], new PrintStream(new ByteArrayOutputStream()));
        return Adaptive.run(raw, CELL, b, (r, order) -> {
            ran.add(r);
            round(raw, r, ratio.applyAsDouble(r), 1 + 0.01 * ((r % 3) - 1));
            clock[0] += (long) (roundS * 1e9);
        });
    }

    private static final double[] PILOT = {1.10, 1.16, 1.04, 1.12, 1.06, 1.09, 1.15, 1.03};

    @Test
    void aFullRunsPilotIsEightRoundsAndItsSpreadFixesTheRest(@TempDir Path raw) throws Exception {
        List<Integer> ran = new ArrayList<>();
        AdaptiveLog log = design(raw, 3, false, 100_000, 1, r -> r <= 8 ? PILOT[r - 1] : 1.5, ran);
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8), log.pilot());
        // the pilot's log spread by hand: logs of the 8 ratios, their sample standard deviation
        double[] x = new double[8];
        double m = 0;
        for (int i = 0; i < 8; i++) {
            x[i] = Math.log(PILOT[i]);
            m += x[i] / 8;
        }
        double ss = 0;
        for (double v : x) {
            ss += (v - m) * (v - m);
        }
        double s0 = Math.sqrt(ss / 7);
        assertEquals(s0, log.pilotSdLog(), 1e-12);
        assertEquals(7, log.pilotDf());
        // N = ceil((t(7) s0 / h)^2) with h = ln(1.02)/2, t(7) = 2.365
        int n = (int) Math.ceil(Math.pow(2.365 * s0 / (Math.log(1.02) / 2), 2));
        assertEquals(Math.min(n, 24), Math.min(log.planned(), 24), "the rounds Stein's rule asks for");
        assertEquals(n, log.planned());
        assertTrue(n > 24, "this spread asks for more than the limit: " + n);
        assertEquals(AdaptiveLog.LIMIT, log.stopped());
        assertEquals(21, ran.size(), "rounds 4-24 added");
    }

    @Test
    void nothingAfterThePilotDecidesHowManyRoundsRun(@TempDir Path a, @TempDir Path b) throws Exception {
        double[] tight = {1.00, 1.03, 0.99, 1.02, 1.01, 0.98, 1.015, 1.005}; // log spread 0.0161: 15 rounds in all
        List<Integer> ranA = new ArrayList<>();
        List<Integer> ranB = new ArrayList<>();
        AdaptiveLog la = design(a, 3, false, 100_000, 1, r -> r <= 8 ? tight[r - 1] : 1.01, ranA);
        AdaptiveLog lb = design(b, 3, false, 100_000, 1, r -> r <= 8 ? tight[r - 1] : (r % 2 == 0 ? 1.5 : 0.7), ranB);
        assertEquals(la.planned(), lb.planned());
        assertEquals(ranA, ranB, "the same pilot, the same rounds, however wild the rounds after it");
        assertEquals(AdaptiveLog.PLANNED, la.stopped());
        assertEquals(15, la.planned());
        assertEquals(la.planned(), ranA.size() + 3);
    }

    @Test
    void aQuickRunsPilotIsFourRoundsAndItsBudgetBoundsIt(@TempDir Path raw) throws Exception {
        List<Integer> ran = new ArrayList<>();
        AdaptiveLog log = design(raw, 1, true, 30, 10, r -> 1.0 + 0.03 * (r % 2), ran);
        assertEquals(List.of(2, 3, 4), ran, "the pilot's three added rounds fit 30 s of 10 s rounds, then the budget is spent");
        assertEquals(List.of(1, 2, 3, 4), log.pilot());
        assertEquals(AdaptiveLog.BUDGET, log.stopped());
        assertTrue(log.planned() > 4);
    }

    @Test
    void aBudgetSpentInThePilotLeavesThePilotItRan(@TempDir Path raw) throws Exception {
        List<Integer> ran = new ArrayList<>();
        AdaptiveLog log = design(raw, 1, true, 30, 20, r -> 1.0 + 0.03 * (r % 2), ran);
        assertEquals(List.of(2, 3), ran, "rounds start at 0 s and 20 s; at 40 s the budget is spent");
        assertEquals(List.of(1, 2, 3), log.pilot());
        assertNull(log.planned(), "no design: the pilot never finished");
        assertEquals(AdaptiveLog.BUDGET, log.stopped());
    }

    @Test
    void theSweepIsReadBackWithThePilotsSpread(@TempDir Path raw) throws Exception {
        design(raw, 3, false, 100_000, 1, r -> r <= 8 ? PILOT[r - 1] : 1.08 + 0.001 * r, new ArrayList<>());
        SweepEstimates est = SweepEstimates.read(raw, "h", e -> {
            throw new AssertionError(e);
        });
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8), est.pilot().stream().sorted().toList());
        Estimate e = est.ratio(Map.of("variant", "base"), Map.of("variant", "cand"), 2);
        assertEquals(24, e.rounds());
        assertEquals(7, e.df(), "the pilot's degrees of freedom, not the 23 of all rounds");
        // by hand: the mean of all 24 logs, t(7) x the pilot's spread / sqrt(24)
        double m = 0;
        for (int r = 1; r <= 24; r++) {
            m += Math.log(r <= 8 ? PILOT[r - 1] : 1.08 + 0.001 * r) / 24;
        }
        double s0 = AdaptiveLog.read(raw).pilotSdLog();
        double h = 2.365 * s0 / Math.sqrt(24);
        assertEquals(Math.exp(m), e.value(), 1e-9);
        assertEquals(Math.exp(m - h), e.lo(), 1e-9);
        assertEquals(Math.exp(m + h), e.hi(), 1e-9);
        assertFalse(Estimator.of(List.of(1.0, 1.1)).hasInterval(), "two rounds give no interval");
        assertTrue(Stein.halfWidth(0.02) < Math.log(1.02), "the design's half-width is under the margin");
    }
}
