package lab.analysis.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The prediction at n threads, worked by hand for dm-css-ref at the seed's 12 threads. */
class AtScaleTest {
    /** One socket, every kind the same line: S = 40 ns, M = 30 ns (no interval: the arithmetic alone). */
    static CostProfile flat(double s, double m) {
        Map<String, CostProfile.KindCost> k = new java.util.TreeMap<>();
        for (String kind : List.of("rmw", "cas", "rwsem-read", "mutex", "store", "srcu", "percpu-slot")) {
            k.put(kind, new CostProfile.KindCost(CostProfile.Figure.exact(s), CostProfile.Figure.exact(m)));
        }
        return new CostProfile("flat", CostProfile.MEASURED, new CostProfile.Machine("test", 64, 1, 1, 1, null, null), k, Double.NaN, "",
                List.of());
    }

    /** dm-css-ref's counts at depth 5 (results/pair-dm-css-ref-2core-20261204/raw/dm-css-ref/counts.json). */
    static AtScale.Contrast dmCssRef(CostProfile.Figure t) {
        AtScale.Ops cmpxchg = new AtScale.Ops(Map.of("blkcg.css.refcnt", Map.of("cas", 12.0, "rmw", 11.0)), Map.of());
        AtScale.Ops atomic = new AtScale.Ops(Map.of("blkcg.css.refcnt", Map.of("cas", 1.0, "rmw", 11.0)), Map.of());
        return new AtScale.Contrast(cmpxchg, atomic, t, 0);
    }

    /**
     * By hand, T = 6000 ns, S = 40, M = 30, n = 12. Before (`atomic-cmpxchg`): one line, m = 12 + 11
     * = 23 operations per I/O, think time Z = 6000 / 23 = 260.870 ns. Mean-value analysis,
     * R(k) = S (1 + Q(k-1)), Q(k) = k R(k) / (Z + R(k)), k = 1..11:
     * R = 40, 45.318, 51.841, 59.893, 69.876, 82.253, 97.533, 116.197, 138.611, 164.912, 194.927;
     * Q = 0.13295, 0.29601, 0.49734, 0.74689, 1.05633, 1.43832, 1.90492, 2.46528, 3.12281, 3.87316, 4.70428.
     * Extra per operation e = M (n-1)/n + S Q(11) = 27.5 + 188.171 = 215.671 ns; per I/O 23 e = 4960.437 ns.
     * After (`atomic`): m = 12, Z = 500 ns, Q(11) = 1.848216, e = 27.5 + 73.929 = 101.429 ns; per I/O 1217.144 ns.
     * Ratio (throughput after over before) = (6000 + 4960.437) / (6000 + 1217.144) = 1.518667.
     */
    @Test
    void dmCssRefAtTwelveThreadsAsWorkedByHand() {
        CostProfile p = flat(40, 30);
        AtScale.Contrast c = dmCssRef(CostProfile.Figure.exact(6000));
        assertEquals(4960.437, AtScale.extraPerIo(p, c.before(), 12, 6000, 0, CostProfile.FigureDraw.VALUE), 0.001);
        assertEquals(1217.144, AtScale.extraPerIo(p, c.after(), 12, 6000, 0, CostProfile.FigureDraw.VALUE), 0.001);
        AtScale.Ratio r = AtScale.predict(p, c, 12);
        assertEquals(1.518667, r.value(), 1e-6);
        assertEquals(r.value(), r.lo(), 1e-9, "no figure has an interval: neither has the ratio");
        assertEquals(r.value(), r.hi(), 1e-9);
    }

    @Test
    void oneThreadPredictsNothingAndTheIntervalCarriesTheFigures() {
        CostProfile p = flat(40, 30);
        assertEquals(1.0, AtScale.predict(p, dmCssRef(CostProfile.Figure.exact(6000)), 1).value(), 1e-12);
        AtScale.Ratio r = AtScale.predict(p, dmCssRef(new CostProfile.Figure(6000, 4000, 9000, 0)), 12);
        assertEquals(1.518667, r.value(), 1e-6, "the value is the figures' values");
        assertTrue(r.lo() < 1.45 && r.hi() > 1.6, "T's interval widens the ratio's: " + r);
        assertEquals(r, AtScale.predict(p, dmCssRef(new CostProfile.Figure(6000, 4000, 9000, 0)), 12), "fixed seed: the same interval");
    }

    @Test
    void perTickWorkIsPricedAtTheIoRate() {
        // one store per tick at HZ 1000, 2 threads, T = 5000 ns: 2 x 1e9 / 5000 = 400000 I/O per s, 1000 / 400000 = 0.0025 per I/O
        AtScale.Ops ticks = new AtScale.Ops(Map.of(), Map.of("part0.stamp", Map.of("store", 1.0)));
        assertEquals(0.0025, AtScale.lines(ticks, 2, 5000, 1000).get("part0.stamp").get("store"), 1e-12);
    }

    @Test
    void remoteFiguresMixInByTheShareOfThreadsOnTheOtherSocket() {
        CostProfile.KindCost k = new CostProfile.KindCost(CostProfile.Figure.exact(40), CostProfile.Figure.exact(40), CostProfile.Figure.exact(100),
                CostProfile.Figure.exact(100), 0, Double.NaN);
        CostProfile p = new CostProfile("2s", CostProfile.PUBLISHED, new CostProfile.Machine("x", 12, 2, 2, 1, null, null), Map.of("rmw", k),
                Double.NaN, "", List.of());
        // 12 threads over 2 sockets: 6 here, the other 11 threads 6 away: share 6/11
        assertEquals(6.0 / 11, p.remoteShare(12), 1e-12);
        assertEquals(40 + 60 * 6.0 / 11, p.line("rmw", 12, CostProfile.FigureDraw.VALUE)[0], 1e-9);
        assertEquals(0, p.remoteShare(1));
        // 5 threads: 3 on one socket, 2 on the other; a thread of the three sees 2 of its 4 others away
        assertEquals(0.5, p.remoteShare(5), 1e-12);
    }
}
