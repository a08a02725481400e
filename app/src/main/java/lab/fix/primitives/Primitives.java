package lab.fix.primitives;

import lab.fix.FixUnit;
import lab.fix.Pairing;
import lab.notebook.Fix;
import lab.notebook.Section;

/** The calibration entry: the sync primitives alone, and today's zram as the per-I/O cost floor. */
public final class Primitives implements FixUnit {
    public static final Fix FIX = new Fix("primitives",
            "calibration: the sync primitives alone, and today's real zram as the per-I/O cost floor",
            null, "atomic-refcount total throughput at the highest thread count over 1 thread", null,
            "no seed: the lab's own calibration (what one shared atomic costs here, against what one I/O costs)");

    @Override
    public Fix fix() {
        return FIX;
    }

    @Override
    public Pairing pairing() {
        return new PrimitivesPairing();
    }

    @Override
    public Section section() {
        return new PrimitivesSection();
    }
}
