package lab.analysis.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.analysis.Stats;
import org.junit.jupiter.api.Test;

/** The fidelity arithmetic, each figure worked out by hand beside it. */
class FidelityMathTest {

    /** The seed of dm-css-ref: 23 s -> 40 s (1.74x) from 10 added RMWs per I/O on ~11 µs of CPU per I/O. */
    @Test
    void impliedCostOfTheDmCssRefSeedIsAboutEightHundredNs() {
        double c = SharedLineModel.impliedCost(40.0 / 23.0, 11_000, 10, 0);
        // c = T (R - 1) / (mb - R ma) = 11000 * (17/23) / 10 = 813.04 ns
        assertEquals(11_000 * (17.0 / 23) / 10, c, 1e-9);
        assertTrue(Double.isNaN(SharedLineModel.impliedCost(1.5, 1000, 0, 0)), "no ops differ: no c");
        assertTrue(Double.isNaN(SharedLineModel.impliedCost(1.5, 1000, 0, 2)), "the wrong direction: no c >= 0");
    }

    @Test
    void predictionAddsEachKindsExtraToEachSidesOwnOneThreadTime() {
        // before: 2 rmw + 2 cas per I/O at 1000 ns; after: 0 at 990 ns; e(rmw) = 40, e(cas) = 25
        double r = SharedLineModel.predict(1000, Map.of("rmw", 2.0, "cas", 2.0), 990, Map.of("rmw", 0.0),
                k -> k.equals("rmw") ? 40 : 25);
        assertEquals((1000 + 80 + 50) / 990.0, r, 1e-12);
    }

    @Test
    void theQueueCostsNothingAtOneThreadAboutSAtTwoHammeringAndFallsWithTheGap() {
        LineQueue q = new LineQueue(90);
        assertEquals(0, q.extraNs(1, 5), 1e-12);
        // two threads, think 5: Q(1) = S / (Z + S) = 90/95, extra = S Q(1) = 85.26
        assertEquals(90 * 90 / 95.0, q.extraNs(2, 5), 1e-9);
        assertTrue(q.extraNs(2, 160) < q.extraNs(2, 5) && q.extraNs(2, 2200) < q.extraNs(2, 160));
        assertTrue(q.extraNs(4, 5) > q.extraNs(2, 5), "more threads queue longer");
    }

    @Test
    void theQueueFitRecoversItsServiceTime() {
        LineQueue truth = new LineQueue(70);
        List<LineQueue.Point> pts = new ArrayList<>();
        for (double z : new double[] {5, 100, 1000}) {
            pts.add(new LineQueue.Point(2, z, truth.extraNs(2, z)));
        }
        pts.add(new LineQueue.Point(1, 5, 0.0)); // one thread: not used
        LineQueue fit = LineQueue.fit(pts);
        assertEquals(70, fit.serviceNs(), 1e-3);
        assertEquals(0, fit.rmsRelativeError(pts), 1e-6);
        assertNull(LineQueue.fit(List.of(new LineQueue.Point(1, 5, 3))), "one thread only: nothing to fit");
    }

    @Test
    void withATransferTermTheExtraLevelsOffAndTheFitRecoversBoth() {
        // S = 40, M = 20: at two threads and a long gap the queue's part vanishes and M / 2 = 10 ns is left
        LineQueue truth = new LineQueue(40, 20);
        assertEquals(10, truth.extraNs(2, 1e9), 1e-5); // S^2 / Z = 1.6e-6 of queue left
        assertEquals(20.0 * 3 / 4 + new LineQueue(40).extraNs(4, 100), truth.extraNs(4, 100), 1e-9);
        List<LineQueue.Point> pts = new ArrayList<>();
        for (double z : new double[] {5, 100, 1000, 10_000}) {
            pts.add(new LineQueue.Point(2, z, truth.extraNs(2, z)));
        }
        LineQueue fit = LineQueue.fitWithTransfer(pts);
        assertEquals(40, fit.serviceNs(), 1e-2);
        assertEquals(20, fit.transferNs(), 1e-2);
        assertEquals(0, fit.rmsRelativeError(pts), 1e-4);
        // the pure queue cannot follow the plateau: a large error on the same points
        assertTrue(LineQueue.fit(pts).rmsRelativeError(pts) > 0.3, "the queue alone misses the plateau");
    }

    @Test
    void uslFromTwoThreadCountsIsExactWithNoCoherencyTerm() {
        // X(1) = 10, X(2) = 15: 2*10/15 - 1 = 1/3 = sigma
        Usl u = Usl.fit(List.of(new Usl.Point(1, 10), new Usl.Point(2, 15)));
        assertEquals(1 / 3.0, u.sigma(), 1e-12);
        assertEquals(0, u.kappa());
        assertEquals(1.5, u.capacity(2), 1e-12);
        // three points from a known law: sigma 0.1, kappa 0.02
        Usl truth = new Usl(0.1, 0.02, 3);
        Usl fit = Usl.fit(List.of(new Usl.Point(1, 1), new Usl.Point(2, truth.capacity(2)), new Usl.Point(4, truth.capacity(4))));
        assertEquals(0.1, fit.sigma(), 1e-9);
        assertEquals(0.02, fit.kappa(), 1e-9);
    }

    /**
     * Round 1: a's mean 100, b's 80 → 1.25; round 2: a's 90, b's 100 → 0.9 (the mean of each
     * iteration's ratio would be 0.9023 there); round 3: a's 100, b's 100 → 1 (the iterations'
     * ratios 100/98 and 100/102 average 1.0002). Logs 0.2231435513, −0.1053605157 and 0, mean
     * 0.0392610119: the A/A ∛1.125 = 1.0400419115; deviations 0.1838825394, −0.1446215276,
     * −0.0392610119, sd (2 df) √(0.0562696 / 2) = 0.1677343161, h = 4.303 × 0.1677343161 / √3 =
     * 0.4167087703: [exp(−0.3774477584)–exp(0.4559697822)] = [0.6856090179–1.5777026693], its reach
     * from 1 the upper end's, 0.5777026693. The first two rounds alone: the value √1.125, no interval.
     */
    @Test
    void aFloorFromPerRoundIterationsTakesTheAaFromTheRoundsMeans() {
        List<double[]> a = List.of(new double[] {90, 110}, new double[] {90, 90}, new double[] {100, 100});
        List<double[]> b = List.of(new double[] {80, 80}, new double[] {95, 105}, new double[] {98, 102});
        NoiseFloor f = NoiseFloor.ofIterations(a, b);
        assertEquals(3, f.rounds());
        assertEquals(1.0400419115, f.aa().value(), 1e-9);
        assertEquals(0.6856090179, f.aa().lo(), 1e-9);
        assertEquals(1.5777026693, f.aa().hi(), 1e-9 * 1.58);
        assertEquals(0.5777026693, f.floor(), 1e-9, "the rounds' interval, not the iterations'");
        assertFalse(f.failed(), "[0.69–1.58] holds 1");
        NoiseFloor two = NoiseFloor.ofIterations(a.subList(0, 2), b.subList(0, 2));
        assertEquals(1.0606601718, two.aa().value(), 1e-9);
        assertEquals("2 rounds: no interval", two.aa().noInterval());
        assertTrue(Double.isNaN(two.floor()), "no interval, no reach");
        assertFalse(two.failed(), "no interval fails nothing");
        assertNull(NoiseFloor.ofIterations(List.of(), List.of()), "no round: no floor");
        assertThrows(IllegalArgumentException.class, () -> NoiseFloor.ofIterations(a, List.of(b.getFirst())));
        assertThrows(IllegalArgumentException.class, () -> NoiseFloor.ofIterations(List.of(new double[0]), List.of(new double[] {1})));
    }

    /**
     * Three rounds of a copy 10%, 12%, 11% slower than the base: logs 0.0953101798, 0.1133286853,
     * 0.1043600153, mean 0.1043329601 (1.1099699692), sd (2 df) 0.0090092832, h = 4.303 ×
     * 0.0090092832 / √3 = 0.0223821065: [1.0854024649–1.1350935457], which leaves out 1: the
     * self-test fails, and the floor is the upper end's reach, 0.1350935457.
     */
    @Test
    void aFloorWhoseRoundsAgreeOnAnOffsetFailsTheSelfTest() {
        List<double[]> a = List.of(new double[] {105, 115}, new double[] {112, 112}, new double[] {111, 111});
        List<double[]> b = List.of(new double[] {100, 100}, new double[] {99, 101}, new double[] {100, 100});
        NoiseFloor f = NoiseFloor.ofIterations(a, b);
        assertEquals(3, f.rounds());
        assertEquals(1.1099699692, f.aa().value(), 1e-9);
        assertEquals(1.0854024649, f.aa().lo(), 1e-9);
        assertEquals(1.1350935457, f.aa().hi(), 1e-9);
        assertEquals(0.1350935457, f.floor(), 1e-10);
        assertTrue(f.failed(), "[1.085–1.135] leaves out 1");
    }
}
