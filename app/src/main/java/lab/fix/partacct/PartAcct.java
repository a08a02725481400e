package lab.fix.partacct;

import lab.fix.FixUnit;
import lab.fix.Pairing;
import lab.notebook.Fix;
import lab.notebook.Section;

/** part-acct (seed 002_84cddfb167739f27.txt): partition refcount and in-flight counters become per-cpu. */
public final class PartAcct implements FixUnit {
    public static final Fix FIX = new Fix("part-acct", "partition refcount and in-flight counters become per-cpu",
            "002_84cddfb167739f27.txt", "all four patches / before, fio randread over null_blk", 1.15,
            "fio randread over null_blk, dual socket: first two patches ~8%, all four ~15%; Jens Axboe:"
                    + " the per-cpu sum in part_round_stats (up to once per jiffy) can eat the gain");

    @Override
    public Fix fix() {
        return FIX;
    }

    @Override
    public Pairing pairing() {
        return new PartAcctPairing();
    }

    @Override
    public Section section() {
        return new PartAcctSection();
    }
}
