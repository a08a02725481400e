package lab.fix.dmblkcgclone;

import java.util.List;
import lab.engine.blkcg.CssForward;
import lab.fix.FixUnit;
import lab.fix.Pairing;
import lab.notebook.Fix;
import lab.notebook.Section;

/**
 * dm-blkcg-clone (seed 003_e853cddf414699dc.txt): bio-based stacked devices (dm, LVM thin) cloned
 * bios without the source's blkcg association, so the disk's io controller saw the clones in the
 * root group and blkio.weight did nothing below dm; Mike Snitzer's patch (March 2016) copies the
 * association in {@code __bio_clone_fast}. Nikolay Borisov's test, two containers on LVM-thin at
 * weights 1000 and 500: buffered writes 29.9 vs 15.6 MB/s with the patch, direct writes 20.8 vs
 * 20.0 MB/s ("not yet fixed"). The variants are the engine's clone forwardings ({@link
 * CssForward#cloneIds}: {@code lost} before, {@code transfer} the fix); the experiment is the
 * engine's {@code lab.engine.bench.DmBlkcgClone}. Every fact the pairing and the section share is
 * stated here once.
 */
public final class DmBlkcgClone implements FixUnit {
    static final String ID = "dm-blkcg-clone";

    public static final Fix FIX = new Fix(ID, "stacked dm devices copy the bio's blkcg association to their clones",
            "003_e853cddf414699dc.txt", "throughput ratio of blkio.weight 1000 vs 500 (buffered, with the fix)", 1.92,
            "two containers on LVM-thin, dd bs=1M count=3000, weight 500 vs 1000: with the fix, buffered"
                    + " 29.9 vs 15.6 MB/s (~1.9:1); direct 20.8 vs 20.0 MB/s (not yet fixed)");

    /** The variants, in the engine's order: the association lost on clone (before), transferred (the fix). */
    static final List<String> VARIANTS = CssForward.cloneIds();
    static final String LOST = CssForward.LOST.id();
    static final String TRANSFER = CssForward.TRANSFER.id();

    static final List<String> STACKS = lab.engine.bench.DmBlkcgClone.STACKS;
    static final List<String> PATHS = lab.engine.bench.DmBlkcgClone.PATHS;
    static final String THIN = lab.engine.bench.DmBlkcgClone.THIN;
    static final String LINEAR1 = STACKS.getFirst();
    static final String DIRECT = lab.engine.bench.DmBlkcgClone.DIRECT;
    static final String DIRECT_ASSOC = lab.engine.bench.DmBlkcgClone.DIRECT_ASSOC;
    static final String BUFFERED = lab.engine.bench.DmBlkcgClone.BUFFERED;

    /** Two cgroups' blkio weights, a:b. */
    record Weights(int a, int b) {
        /** The ratio the weights ask for: a's bandwidth over b's. */
        double ratio() {
            return (double) a / b;
        }

        @Override
        public String toString() {
            return a + ":" + b;
        }
    }

    /** The seed's weights (the headline's), equal weights (the A/A control's), and a wide ratio. */
    static final Weights SEED_WEIGHTS = new Weights(1000, 500);
    static final Weights EQUAL = new Weights(500, 500);
    static final List<Weights> WEIGHTS = List.of(SEED_WEIGHTS, EQUAL, new Weights(1000, 100));
    /** The quick run's: the seed's and the control's. */
    static final List<Weights> QUICK_WEIGHTS = List.of(SEED_WEIGHTS, EQUAL);
    /** The quick run's stacks, and the calibrated run's: one dm-linear, and the thin volume (the seed's LVM-thin). */
    static final List<String> SHORT_STACKS = List.of(LINEAR1, THIN);

    /** The headline's point: the seed's, a thin volume, buffered writes, 1000:500. */
    static final String HEAD_STACK = THIN;
    static final String HEAD_PATH = BUFFERED;

    /** A transfer ratio within this of the weights' ratio, a lost one within this of 1: the check. */
    static final double WITHIN = 0.10;
    /** The A/A control's sub-windows: the window cut into spans of this many ms (the round's a/b is their sums'). */
    static final long SUBWINDOW_MS = 100;

    /** The experiment's timing, ms: ramp before the window, the window. */
    record Timing(long rampMs, long runMs) {}

    static final Timing FULL = new Timing(300, 1000);
    static final Timing QUICK = new Timing(200, 500);

    static Timing timing(boolean quick) {
        return quick ? QUICK : FULL;
    }

    @Override
    public Fix fix() {
        return FIX;
    }

    @Override
    public Pairing pairing() {
        return new DmBlkcgClonePairing();
    }

    @Override
    public Section section() {
        return new DmBlkcgCloneSection();
    }
}
