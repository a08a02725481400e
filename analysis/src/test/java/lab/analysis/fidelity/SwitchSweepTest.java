package lab.analysis.fidelity;

import static lab.analysis.parse.LabAbFixture.NS_AFTER;
import static lab.analysis.parse.LabAbFixture.afterIops;
import static lab.analysis.parse.LabAbFixture.beforeIops;
import static lab.analysis.parse.LabAbFixture.delta;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.analysis.parse.LabAb;
import lab.analysis.parse.LabAbFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A switch's A/B over counts, from {@link LabAbFixture}: every figure worked out from the fixture's construction. */
class SwitchSweepTest {
    @TempDir
    Path dir;

    private SwitchSweep sweep(int rounds, int... counts) throws Exception {
        LabAbFixture.iops(dir, rounds, counts);
        return SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, LabAbFixture.K);
    }

    @Test
    void perCountTheRatioIsAfterOverBeforeOfTheSameRoundMedianOverRounds() throws Exception {
        SwitchSweep s = sweep(3, 1, 4, 16, 64);
        assertEquals(List.of(1, 4, 16, 64), s.counts().stream().map(SwitchSweep.Count::n).toList());
        for (SwitchSweep.Count c : s.counts()) {
            int n = c.n();
            // round 2's before is exactly CPU-bound: the median; rounds 1 and 3 are 0.1% off either way
            assertEquals((NS_AFTER + delta(n)) / NS_AFTER, c.ratio().median(), 1e-6);
            assertEquals(afterIops(3) / beforeIops(n, 3), c.ratio().min(), 1e-9);
            assertEquals(afterIops(1) / beforeIops(n, 1), c.ratio().max(), 1e-9);
            assertEquals(3, c.ratio().n());
            assertEquals(1.0, c.aa().median(), 1e-12);
            assertEquals(NS_AFTER + delta(n), c.nsBefore(), 1e-3);
            assertEquals(NS_AFTER, c.nsAfter(), 1e-3);
            assertEquals(delta(n), c.delta().median(), 1e-3);
            assertEquals(LabAbFixture.K, c.opsBefore().median(), 1e-12);
            assertEquals(0.0, c.opsAfter().median(), 0);
        }
        assertEquals(1, s.headline().n());
    }

    @Test
    void theSlopeOfDeltaOverAddedOperationsRecoversTheFixturesLine() throws Exception {
        SwitchSweep.Slope sl = sweep(3, 1, 4, 16, 64).slope();
        assertEquals(2.0, sl.line().b(), 1e-4);
        assertEquals(5.0, sl.line().a(), 1e-2);
        assertEquals(List.of(2.0, 8.0, 32.0, 128.0), sl.points().stream().map(p -> p[0]).toList());
        // Δ(1) = b·K = 2·2 = 4 ns on 400 ns (the intercept, 5, is the fit's offset, not the operation's): 404 / 400
        assertEquals(4.0, sl.delta1(), 1e-2);
        assertEquals((NS_AFTER + 4) / NS_AFTER, sl.ratio1(), 1e-5); // after/before: the before costs Δ more
        assertTrue(sl.resolved());
        assertEquals(2.0, sl.perRound().min(), 1e-4);
        assertEquals(2.0, sl.perRound().max(), 1e-4);
    }

    @Test
    void aSlopeThatOneRoundContradictsDerivesNothing() throws Exception {
        LabAbFixture.iops(dir, 3, 1, 4, 16, 64);
        Path f = dir.resolve("lab-ab.tsv");
        // round 2 at N = 64: the before costs no more than the after
        List<String> lines = Files.readAllLines(f).stream().map(l -> {
            String[] c = l.split("\t");
            if (c[0].equals("64") && c[1].equals("2") && c[3].equals("before")) {
                c[9] = String.format(java.util.Locale.ROOT, "%.1f", NS_AFTER * LabAbFixture.IOS);
                c[10] = String.format(java.util.Locale.ROOT, "%.3f", NS_AFTER);
            }
            return String.join("\t", c);
        }).toList();
        Files.write(f, lines);
        SwitchSweep.Slope sl = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, LabAbFixture.K).slope();
        assertTrue(sl.line().b() > 0, "the medians' line still rises: " + sl.line());
        assertTrue(sl.perRound().min() < 0, "round 2's own slope falls: " + sl.perRound());
        assertFalse(sl.resolved());
        assertNull(sl.delta1());
        assertNull(sl.ratio1());
    }

    @Test
    void oneCountHasNoSlopeAndWithoutKTheLineIsOverN() throws Exception {
        assertNull(sweep(2, 1).slope());
        LabAbFixture.iops(dir, 2, 1, 16);
        SwitchSweep.Slope sl = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, null).slope();
        assertEquals(2 * LabAbFixture.K, sl.line().b(), 1e-3);
        assertNull(sl.k());
    }

    @Test
    void theFloorIsTheBootstrapOfTheAftersAndTheAAsIntervalsPerRound() throws Exception {
        SwitchSweep.Count c = sweep(3, 4).counts().getFirst();
        List<double[]> a = new ArrayList<>();
        List<double[]> b = new ArrayList<>();
        for (int r = 1; r <= 3; r++) {
            double m = afterIops(r);
            double[] it = {m * 0.99, m, m * 1.01};
            a.add(it);
            b.add(it.clone());
        }
        NoiseFloor expected = NoiseFloor.ofIterations(a, b);
        assertEquals(expected.floor(), c.floor().floor(), 1e-6);
        assertTrue(c.floor().floor() > 0.001 && c.floor().floor() < 0.02, "a 1% interval spread gives a floor below 2%: " + c.floor());
        assertTrue(c.floor().resolves(c.ratio().median()), "Δ(4) = 21 ns on 400 is 5%, outside the floor");
        Files.delete(dir.resolve(LabAb.ITERATIONS));
        NoiseFloor rounds = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, 2.0).counts().getFirst().floor();
        assertEquals(0.0, rounds.floor(), 1e-12, "without intervals, the A/A's rounds alone (identical here)");
    }

    @Test
    void theFloorWidensToTheAAsFarthestRoundWhenTrialsDifferMoreThanTheirIntervals() {
        List<double[]> a = List.of(new double[] {100, 101, 99}, new double[] {100, 100, 100});
        List<double[]> b = List.of(new double[] {100, 101, 99}, new double[] {100, 100, 101});
        NoiseFloor boot = NoiseFloor.ofIterations(a, b);
        NoiseFloor f = SwitchSweep.floor(a, b, List.of(1.0, 0.92));
        assertTrue(boot.floor() < 0.02, "the intervals alone: " + boot);
        assertEquals(0.08, f.floor(), 1e-9);
        assertEquals(0.96, f.aa().median(), 1e-9);
        assertEquals(boot.floor(), SwitchSweep.floor(a, b, List.of(1.0, 1.0)).floor(), 1e-12, "the bootstrap where it is wider");
        assertNull(SwitchSweep.floor(List.of(), List.of(), List.of()));
    }

    @Test
    void aShareIsTheAftersValueWithTheBeforesBeside() throws Exception {
        LabAbFixture.share(dir, 3);
        SwitchSweep s = SwitchSweep.of(LabAb.read(dir).orElseThrow(), true, 1.0);
        assertTrue(s.share());
        SwitchSweep.Count c = s.headline();
        assertEquals(2.0, c.ratio().median(), 1e-9);
        assertEquals(1.95, c.ratio().min(), 1e-9);
        assertEquals(1.0, c.before().median(), 1e-9);
        assertEquals(1.0, c.aa().median(), 1e-9);
        assertNotNull(c.floor());
        assertFalse(c.floor().resolves(1.0));
        assertEquals(3, c.rounds().size());
        assertEquals("100", c.rounds().getFirst().before().extra().get("root_pct"));
    }
}
