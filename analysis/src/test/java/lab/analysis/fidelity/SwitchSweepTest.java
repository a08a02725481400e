package lab.analysis.fidelity;

import static lab.analysis.parse.LabAbFixture.NS_AFTER;
import static lab.analysis.parse.LabAbFixture.afterIops;
import static lab.analysis.parse.LabAbFixture.delta;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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

    /** {@code assertEquals} within {@code rel} of {@code want}'s size. */
    private static void near(double want, double got, double rel, String what) {
        assertEquals(want, got, rel * Math.abs(want), what);
    }

    /**
     * Per round ln(after/before) = ln R − ln(1 + 0.001·(r − 2)), R = (400 + Δ(N)) / 400: ln R plus
     * −ln 0.999 = +0.00100050033, 0, −ln 1.001 = −0.00099950033 in rounds 1 to 3, whatever N. Their
     * mean is ln R − ln(0.999999)/3 = ln R + 3.333335e-7, so the estimate is R·0.999999^(−1/3); their
     * sd (2 df) 0.00100000038, so h = t(0.975, 2)·s/√3 = 4.303 × 0.00100000038 / 1.7320508 =
     * 0.00248433914 and the interval R·0.999999^(−1/3)·exp(∓h). At N = 1, R = 409/400: 1.02250034
     * [1.01996326–1.02504374]. (The before's IOPS are written to 3 decimals: 1e-9 relative.)
     */
    @Test
    void perCountTheRatioIsAfterOverBeforeOfTheSameRoundEstimatedOverRounds() throws Exception {
        SwitchSweep s = sweep(3, 1, 4, 16, 64);
        assertEquals(List.of(1, 4, 16, 64), s.counts().stream().map(SwitchSweep.Count::n).toList());
        double h = 0.00248433914;
        for (SwitchSweep.Count c : s.counts()) {
            int n = c.n();
            double value = (NS_AFTER + delta(n)) / NS_AFTER * Math.pow(0.999999, -1 / 3.0);
            near(value, c.ratio().value(), 1e-9, "N = " + n);
            near(value * Math.exp(-h), c.ratio().lo(), 1e-9, "N = " + n);
            near(value * Math.exp(h), c.ratio().hi(), 1e-9, "N = " + n);
            assertEquals(3, c.ratio().rounds());
            assertEquals(NS_AFTER + delta(n), c.nsBefore(), 1e-3);
            assertEquals(NS_AFTER, c.nsAfter(), 1e-3);
            assertEquals(delta(n), c.delta().median(), 1e-3);
            assertEquals(LabAbFixture.K, c.opsBefore().median(), 1e-12);
            assertEquals(0.0, c.opsAfter().median(), 0);
        }
        SwitchSweep.Count one = s.headline();
        assertEquals(1, one.n());
        near(1.0225003408, one.ratio().value(), 1e-9, "409/400 · 0.999999^(-1/3)");
        near(1.0199632560, one.ratio().lo(), 1e-9, "its lower end");
        near(1.0250437365, one.ratio().hi(), 1e-9, "its upper end");
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

    /**
     * The A/A is the aa trial over the after of the same round, the fixture's 1.004, 0.998, 1.003:
     * logs 0.0039920213, −0.0020020027, 0.0029955090, mean 0.0016618425 (the estimate exp of it,
     * 1.0016632242), sd (2 df) 0.0032118656, h = 4.303 × 0.0032118656 / √3 = 0.0079793603: the
     * interval [0.9937023957–1.0096878290], its farther end from 1 the upper, the floor 0.0096878290.
     * The same at every N: the A/A does not depend on the before.
     */
    @Test
    void theAaIsTheAaTrialOverTheAfterOfTheSameRoundOverRounds() throws Exception {
        for (SwitchSweep.Count c : sweep(3, 1, 4).counts()) {
            assertEquals(3, c.aa().rounds());
            near(1.0016632242, c.aa().value(), 1e-9, "N = " + c.n());
            near(0.9937023957, c.aa().lo(), 1e-9, "N = " + c.n());
            near(1.0096878290, c.aa().hi(), 1e-9, "N = " + c.n());
            assertEquals(3, c.floor().rounds());
            assertEquals(0.0096878290, c.floor().floor(), 1e-10, "the upper end's reach, not the lower's 0.0062976");
            assertEquals("±1.0%", c.floor().format());
        }
    }

    /** The interval's ends decide {@link lab.analysis.estimate.Estimate#excludes}: just outside each end excluded, just inside not. */
    @Test
    void theAasIntervalExcludesJustOutsideItsEndsAndNotJustInside() throws Exception {
        lab.analysis.estimate.Estimate aa = sweep(3, 1).headline().aa();
        assertTrue(aa.excludes(0.9937023957 - 1e-8));
        assertFalse(aa.excludes(0.9937023957 + 1e-8));
        assertFalse(aa.excludes(1.0096878290 - 1e-8));
        assertTrue(aa.excludes(1.0096878290 + 1e-8));
        assertFalse(sweep(3, 1).headline().floor().failed(), "[0.99370–1.00969] holds 1");
    }

    /**
     * An A/A that drifts the same way every round (aa/after 1.010, 1.012, 1.011: logs 0.0099503309,
     * 0.0119285709, 0.0109399400, mean 0.0109396139, sd 0.0009891200, h = 4.303 × 0.0009891200 / √3
     * = 0.0024573087) has the interval [1.0085183819–1.0134870635]: it leaves out 1, the self-test fails.
     */
    @Test
    void anAaThatDriftsOneWayFailsTheSelfTest() throws Exception {
        LabAbFixture.iops(dir, 3, 1);
        double[] drift = {1.010, 1.012, 1.011};
        rewriteTrials(c -> {
            if (c[3].equals("aa")) {
                int r = Integer.parseInt(c[1]);
                c[8] = String.format(java.util.Locale.ROOT, "%.3f", afterIops(r) * drift[r - 1]);
            }
        });
        NoiseFloor f = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, LabAbFixture.K).headline().floor();
        near(1.0085183819, f.aa().lo(), 1e-9, "the lower end");
        near(1.0134870635, f.aa().hi(), 1e-9, "the upper end");
        assertEquals(0.0134870635, f.floor(), 1e-10);
        assertTrue(f.failed(), "[1.0085–1.0135] leaves out 1");
    }

    /** Appends a boot column to the fixture's trials: rounds 1-2 in boot 1, 3-4 in boot 2, 5-6 in boot 3. */
    private void bootsOfTwoRounds(java.util.function.Consumer<String[]> edit) throws Exception {
        rewriteTrials(c -> {
            if (c[0].equals("count")) {
                c[c.length - 1] = c[c.length - 1] + "\tboot";
                return;
            }
            edit.accept(c);
            c[c.length - 1] = c[c.length - 1] + "\t" + ((Integer.parseInt(c[1]) + 1) / 2);
        });
    }

    /** The A/A's factor in boot 1, 2, 3: 1.01, 0.99, 1.02 (its aa IOPS stay whole numbers). */
    private static final double[] AA_BY_BOOT = {1.01, 0.99, 1.02};

    /**
     * The A/A over boots: rounds 1-2 in boot 1 with aa/after 1.01, rounds 3-4 in boot 2 with 0.99,
     * rounds 5-6 in boot 3 with 1.02. The boot is the unit: its mean logs L1 = ln 1.01 =
     * 0.0099503309, L2 = ln 0.99 = −0.0100503359, L3 = ln 1.02 = 0.0198026273; their mean
     * 0.0065675408 (the estimate 1.0065891544); sd (2 df) 0.0152112558, h = t(0.975, 2)·s/√3 =
     * 4.303 × 0.0152112558 / 1.7320508 = 0.0377899040: exp(m ∓ h) = [0.9692600213–1.0453559452]. The
     * six rounds taken as independent would give t(5) = 2.571 on their own sd 0.0136053608:
     * [0.9923169344–1.0210666477], less than half as wide.
     */
    @Test
    void theAaTakesTheBootAsTheUnit() throws Exception {
        LabAbFixture.iops(dir, 6, 1);
        bootsOfTwoRounds(c -> {
            int r = Integer.parseInt(c[1]);
            if (c[3].equals("aa")) {
                c[8] = String.format(java.util.Locale.ROOT, "%.3f", afterIops(r) * AA_BY_BOOT[(r - 1) / 2]);
            }
        });
        SwitchSweep.Count c = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, LabAbFixture.K).headline();
        assertEquals(6, c.aa().rounds());
        assertEquals(3, c.aa().boots());
        assertEquals(2, c.aa().df());
        near(1.0065891544, c.aa().value(), 1e-9, "∛(1.01 × 0.99 × 1.02)");
        near(0.9692600213, c.aa().lo(), 1e-9, "t(2) over the boots");
        near(1.0453559452, c.aa().hi(), 1e-9, "t(2) over the boots");
        assertEquals(0.0453559452, c.floor().floor(), 1e-9);
        assertFalse(c.floor().failed());
    }

    /** Two boots of two rounds (aa/after 1.01 then 0.99): the value √(1.01 × 0.99) = 0.9999499987, and no interval. */
    @Test
    void twoBootsGiveTheAaNoInterval() throws Exception {
        LabAbFixture.iops(dir, 4, 1);
        bootsOfTwoRounds(c -> {
            int r = Integer.parseInt(c[1]);
            if (c[3].equals("aa")) {
                c[8] = String.format(java.util.Locale.ROOT, "%.3f", afterIops(r) * AA_BY_BOOT[(r - 1) / 2]);
            }
        });
        SwitchSweep.Count c = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, LabAbFixture.K).headline();
        assertEquals(4, c.aa().rounds());
        near(0.9999499987, c.aa().value(), 1e-9, "√(1.01 × 0.99)");
        assertEquals("2 boots: no interval", c.aa().noInterval());
        assertTrue(Double.isNaN(c.floor().floor()));
        assertFalse(c.floor().failed());
    }

    /**
     * A share's ratio is the after's share itself, 1.95, 2.00, 2.05: logs 0.6678293726, 0.6931471806,
     * 0.7178397932, mean 0.6929387821 (the estimate ∛7.995 = 1.9995832465), sd 0.0250058616, h =
     * 4.303 × 0.0250058616 / √3 = 0.0621230174: [1.8791428926–2.1277430127]. Its A/A is the aa's share
     * over the after's, 1.97/1.95, 1.99/2.00, 2.06/2.05: logs 0.0102041702, −0.0050125418,
     * 0.0048661897, mean 0.0033526060, sd 0.0077204458, h = 0.0191801984: 1.0033582323
     * [0.9842970057–1.0227885855].
     */
    @Test
    void aShareIsTheAftersValueWithTheBeforesBeside() throws Exception {
        LabAbFixture.share(dir, 3);
        SwitchSweep s = SwitchSweep.of(LabAb.read(dir).orElseThrow(), true, 1.0);
        assertTrue(s.share());
        SwitchSweep.Count c = s.headline();
        near(1.9995832465, c.ratio().value(), 1e-9, "the after's share, not after/before");
        near(1.8791428926, c.ratio().lo(), 1e-9, "its lower end");
        near(2.1277430127, c.ratio().hi(), 1e-9, "its upper end");
        assertEquals(1.0, c.before().median(), 1e-9);
        near(1.0033582323, c.aa().value(), 1e-9, "the aa's share over the after's");
        near(0.9842970057, c.aa().lo(), 1e-9, "its lower end");
        near(1.0227885855, c.aa().hi(), 1e-9, "its upper end");
        assertEquals(0.0227885855, c.floor().floor(), 1e-10);
        assertFalse(c.floor().failed());
        assertEquals(3, c.rounds().size());
        assertEquals("100", c.rounds().getFirst().before().extra().get("root_pct"));
    }

    /**
     * Rounds 1-2 in boot 1 (slope 2 each, the fixture's), rounds 3-4 in boot 2 with Δ doubled (slope
     * 4), rounds 5-6 in boot 3 with Δ times 1.5 (slope 3): the boots' means 2, 4, 3, their mean 3,
     * sd (2 df) √((1 + 1 + 0) / 2) = 1, h = 4.303 × 1 / √3 = 2.4843382: [0.5156618–5.4843382].
     */
    @Test
    void theSlopeTakesTheBootAsTheUnit() throws Exception {
        LabAbFixture.iops(dir, 6, 1, 4, 16);
        double[] times = {1, 2, 1.5};
        bootsOfTwoRounds(c -> {
            int n = Integer.parseInt(c[0]);
            int r = Integer.parseInt(c[1]);
            if (c[3].equals("before")) {
                c[10] = Double.toString(NS_AFTER + times[(r - 1) / 2] * delta(n));
            }
        });
        SwitchSweep s = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, LabAbFixture.K);
        assertEquals(List.of(1, 2, 3), List.copyOf(s.boots()));
        lab.analysis.estimate.Estimate e = s.slopeEstimate();
        assertEquals(3.0, e.value(), 1e-9);
        assertEquals(3.0 - 2.4843382, e.lo(), 1e-6);
        assertEquals(3.0 + 2.4843382, e.hi(), 1e-6);
        assertEquals(6, e.rounds());
        assertEquals(3, e.boots());
        assertEquals(1, s.counts().getFirst().rounds().getFirst().boot());
        assertEquals(3, s.counts().getFirst().rounds().getLast().boot());
    }

    /** The same with boots 1 and 2 alone (slopes 2 and 4): the mean 3, no interval. */
    @Test
    void twoBootsGiveTheSlopeNoInterval() throws Exception {
        LabAbFixture.iops(dir, 4, 1, 4, 16);
        bootsOfTwoRounds(c -> {
            int n = Integer.parseInt(c[0]);
            if (Integer.parseInt(c[1]) > 2 && c[3].equals("before")) {
                c[10] = Double.toString(NS_AFTER + 2 * delta(n));
            }
        });
        lab.analysis.estimate.Estimate e = SwitchSweep.of(LabAb.read(dir).orElseThrow(), false, LabAbFixture.K).slopeEstimate();
        assertEquals(3.0, e.value(), 1e-9);
        assertFalse(e.hasInterval());
        assertEquals("2 boots: no interval", e.noInterval());
    }
}
