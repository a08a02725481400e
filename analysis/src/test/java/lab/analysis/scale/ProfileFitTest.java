package lab.analysis.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import lab.analysis.fidelity.LineQueue;
import org.junit.jupiter.api.Test;

/** A profile's fit recovers the S and M that made its points. */
class ProfileFitTest {
    /** Points of the queue (S, M) at 2, 4, 8 and 16 threads and think times from back to back to 3 µs, each times (1 + noise). */
    static List<LineQueue.Point> points(double s, double m, double noise, Random rnd) {
        LineQueue q = new LineQueue(s, m);
        List<LineQueue.Point> out = new ArrayList<>();
        for (int n : new int[] {2, 4, 8, 16}) {
            for (double z : new double[] {10, 100, 1000, 3000}) {
                out.add(new LineQueue.Point(n, z, q.extraNs(n, z) * (1 + noise * rnd.nextGaussian())));
            }
        }
        return out;
    }

    @Test
    void recoversServiceAndTransferFromExactPoints() {
        LineQueue q = ProfileFit.fitOrZero(points(42, 17, 0, new Random(1)));
        assertEquals(42, q.serviceNs(), 0.42);
        assertEquals(17, q.transferNs(), 0.17);
    }

    @Test
    void twoThreadsAtSeveralGapsTellSAndMApart() {
        // what this 2-core machine can measure: 2 threads only, gaps 0, 100 and 1000 ns
        LineQueue truth = new LineQueue(60, 25);
        List<LineQueue.Point> pts = new ArrayList<>();
        for (double z : new double[] {15, 115, 1015}) {
            pts.add(new LineQueue.Point(2, z, truth.extraNs(2, z)));
        }
        LineQueue q = ProfileFit.fitOrZero(pts);
        assertEquals(60, q.serviceNs(), 0.6);
        assertEquals(25, q.transferNs(), 0.25);
    }

    @Test
    void roundsGiveTheMeanAndAnIntervalThatHoldsTheTruth() {
        Random rnd = new Random(54);
        List<Double> s = new ArrayList<>();
        List<Double> m = new ArrayList<>();
        for (int r = 0; r < 5; r++) {
            LineQueue q = ProfileFit.fitOrZero(points(42, 17, 0.05, rnd));
            s.add(q.serviceNs());
            m.add(q.transferNs());
        }
        CostProfile.Figure fs = ProfileFit.figure(s);
        CostProfile.Figure fm = ProfileFit.figure(m);
        assertTrue(fs.lo() <= 42 && 42 <= fs.hi() && fs.hasInterval(), fs.toString());
        assertTrue(fm.lo() <= 17 && 17 <= fm.hi() && fm.hasInterval(), fm.toString());
        assertEquals(4, fs.df());
        assertTrue(fs.hi() - fs.lo() < 10, "5% noise: a few ns wide, " + fs);
    }

    @Test
    void onePointFitsTheTransferAlone() {
        // 2 threads, 30 ns extra: any (S, M) on a curve fits it; the fit takes M alone, 30 x 2 / 1 = 60
        LineQueue q = ProfileFit.fitOrZero(List.of(new LineQueue.Point(2, 100, 30), new LineQueue.Point(2, 0, -4)));
        assertEquals(0, q.serviceNs());
        assertEquals(60, q.transferNs(), 1e-9);
    }

    @Test
    void aLineThatCostsNothingExtraFitsZeroAndFewRoundsHaveNoInterval() {
        List<LineQueue.Point> none = List.of(new LineQueue.Point(2, 10, -1.3), new LineQueue.Point(2, 100, -0.2));
        assertEquals(new LineQueue(0, 0), ProfileFit.fitOrZero(none));
        assertTrue(!ProfileFit.figure(List.of(10.0, 12.0)).hasInterval(), "two rounds: no interval");
    }
}
