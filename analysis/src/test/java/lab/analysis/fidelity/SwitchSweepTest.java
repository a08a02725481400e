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

    /** Rewrites each line of the fixture's lab-ab.tsv, split at tabs, through {@code edit}. */
    private void rewriteTrials(java.util.function.Consumer<String[]> edit) throws Exception {
        Path f = dir.resolve("lab-ab.tsv");
        Files.write(f, Files.readAllLines(f).stream().map(l -> {
            String[] c = l.split("\t");
            edit.accept(c);
            return String.join("\t", c);
        }).toList());
    }

    @Test
    void perCountTheRatioIsAfterOverBeforeOfTheSameRoundEstimatedOverRounds() throws Exception {
        SwitchSweep s = sweep(3, 1, 4, 16, 64);
        assertEquals(List.of(1, 4, 16, 64), s.counts().stream().map(SwitchSweep.Count::n).toList());
        for (SwitchSweep.Count c : s.counts()) {
            int n = c.n();
            // the geometric mean of the rounds' after/before, its interval from their spread
            List<Double> per = List.of(afterIops(1) / beforeIops(n, 1), afterIops(2) / beforeIops(n, 2), afterIops(3) / beforeIops(n, 3));
            lab.analysis.estimate.Estimate want = lab.analysis.estimate.Estimator.of(per);
            assertEquals(want.value(), c.ratio().value(), 1e-9);
            assertEquals(want.lo(), c.ratio().lo(), 1e-9);
            assertEquals(want.hi(), c.ratio().hi(), 1e-9);
            assertEquals(3, c.ratio().rounds());
            assertEquals(1.0, c.aa().value(), 1e-12);
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
        // round 2 at N = 64: the before costs no more than the after
        rewriteTrials(c -> {
            if (c[0].equals("64") && c[1].equals("2") && c[3].equals("before")) {
                c[9] = String.format(java.util.Locale.ROOT, "%.1f", NS_AFTER * LabAbFixture.IOS);
                c[10] = String.format(java.util.Locale.ROOT, "%.3f", NS_AFTER);
            }
        });
        SwitchSweep.Slope sl = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, LabAbFixture.K).slope();
        assertTrue(sl.line().b() > 0, "the medians' line still rises: " + sl.line());
        assertTrue(sl.perRound().min() < 0, "round 2's own slope falls: " + sl.perRound());
        assertFalse(sl.resolved());
        assertNull(sl.delta1());
        assertNull(sl.ratio1());
    }

    @Test
    void oneCountHasNoSlopeAndWithoutAStatedKTheCounterStands() throws Exception {
        assertNull(sweep(2, 1).slope());
        LabAbFixture.iops(dir, 2, 1, 16);
        SwitchSweep s = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, null);
        assertEquals(2.0, s.slope().line().b(), 1e-3, "x is the counter's K·N, so b is the fixture's 2 ns per operation");
        assertEquals(LabAbFixture.K, s.slope().k(), 1e-12);
        assertNull(s.statedK());
    }

    /**
     * A stated K that the counter contradicts (the committed dm-css-ref run stated 2 per I/O, its
     * counter moved 10: five dm layers) loses: the slope is over what the switch counted.
     */
    @Test
    void theCountersOperationsPerIoBeatAStatedK() throws Exception {
        LabAbFixture.iops(dir, 3, 1, 4, 16, 64);
        SwitchSweep s = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, 5 * LabAbFixture.K);
        assertEquals(LabAbFixture.K, s.countedK(), 1e-12);
        assertEquals(5 * LabAbFixture.K, s.statedK(), 1e-12);
        assertEquals(2.0, s.slope().line().b(), 1e-4, "not 2/5: the stated K is not used");
        assertEquals(4.0, s.slope().delta1(), 1e-2, "b times the counter's operations at N = 1");
    }

    /** Where the switch counted nothing (ops_delta 0), the stated K stands in, and without one x is N. */
    @Test
    void withoutACountTheStatedKStandsIn() throws Exception {
        LabAbFixture.iops(dir, 3, 1, 4, 16, 64);
        rewriteTrials(c -> {
            if (!c[0].equals("count")) {
                c[11] = "0";
            }
        });
        SwitchSweep s = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, LabAbFixture.K);
        assertNull(s.countedK());
        assertEquals(LabAbFixture.K, s.k(), 1e-12);
        assertEquals(2.0, s.slope().line().b(), 1e-4);
        assertEquals(2 * LabAbFixture.K, SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, null).slope().line().b(), 1e-3,
                "no count and no K: x = N");
    }

    @Test
    void theAaIsEstimatedOverRoundsAsEveryRatioIs() throws Exception {
        SwitchSweep.Count c = sweep(3, 4).counts().getFirst();
        assertEquals(3, c.floor().rounds());
        assertEquals(0.0, c.floor().floor(), 1e-12, "the fixture's A/A is the after again in every round: its interval is 1 exactly");
        assertTrue(c.ratio().excludes(1), "Δ(4) = 21 ns on 400 is 5%: its interval leaves out 1");
        assertFalse(c.floor().failed());
    }

    @Test
    void aShareIsTheAftersValueWithTheBeforesBeside() throws Exception {
        LabAbFixture.share(dir, 3);
        SwitchSweep s = SwitchSweep.of(LabAb.read(dir).orElseThrow(), true, 1.0);
        assertTrue(s.share());
        SwitchSweep.Count c = s.headline();
        assertTrue(c.ratio().value() > 1.95 && c.ratio().value() < 2.05, c.ratio().toString());
        assertTrue(c.ratio().lo() <= 2.0 && c.ratio().hi() >= 1.95, c.ratio().toString());
        assertEquals(1.0, c.before().median(), 1e-9);
        assertEquals(1.0, c.aa().value(), 1e-9);
        assertNotNull(c.floor());
        assertFalse(c.floor().failed());
        assertEquals(3, c.rounds().size());
        assertEquals("100", c.rounds().getFirst().before().extra().get("root_pct"));
    }

    @Test
    void theSlopeTakesTheBootAsALevel() throws Exception {
        // rounds 1-2 in boot 1 (slope 2 each, the fixture's), rounds 3-4 in boot 2 with Δ doubled (slope 4):
        // MSW = 0 < MSB = 2·1² + 2·1², so the boot is the unit: 3 ± t(1)·sqrt(MSB/4) = 3 ± 12.706
        LabAbFixture.iops(dir, 4, 1, 4, 16);
        rewriteTrials(c -> {
            if (c[0].equals("count")) {
                c[c.length - 1] = c[c.length - 1] + "\tboot";
                return;
            }
            int n = Integer.parseInt(c[0]);
            int r = Integer.parseInt(c[1]);
            if (r > 2 && c[3].equals("before")) {
                c[10] = Double.toString(NS_AFTER + 2 * delta(n));
            }
            c[c.length - 1] = c[c.length - 1] + "\t" + (r > 2 ? 2 : 1);
        });
        SwitchSweep s = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, LabAbFixture.K);
        assertEquals(List.of(1, 2), List.copyOf(s.boots()));
        lab.analysis.estimate.Estimate e = s.slopeEstimate();
        assertEquals(3.0, e.value(), 1e-9);
        assertEquals(3.0 - 12.706, e.lo(), 1e-6);
        assertEquals(3.0 + 12.706, e.hi(), 1e-6);
        assertEquals(4, e.rounds());
        assertEquals(1, s.counts().getFirst().rounds().getFirst().boot());
        assertEquals(2, s.counts().getFirst().rounds().getLast().boot());
    }
}
