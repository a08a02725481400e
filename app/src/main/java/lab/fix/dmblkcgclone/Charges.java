package lab.fix.dmblkcgclone;

import java.util.Map;
import lab.engine.bench.DmBlkcgClone.Result;
import lab.engine.iosched.RequestQueue.Charge;

/**
 * Where the disk charged one measurement's window, as the model counted it (not timed): each
 * cgroup's share of the bytes the disk served, whether its bios carried an association ("tagged",
 * the clone's copy of the writer's or the flusher's) or were charged to the task that submitted
 * them, and each writer's bytes charged to its own cgroup. From them, the ratio BFQ's weights
 * predict: the weights' own where every byte went to the writers' groups, 1.0 where every byte went
 * to the root group (both writers in one queue, served in arrival order at equal depth), none where
 * the charges are mixed.
 *
 * <p>The prediction reads the disk's side only (the root group's share of the bytes it served, at
 * most {@link #CLEAR} or at least 1 - {@link #CLEAR}): a writer's window bytes and the disk's are
 * taken at the same instants but differ by the bios in flight at either edge (up to the dirty limit
 * for buffered writes), a few percent of a window at a slow disk; the writers' fractions are shown
 * beside it.
 *
 * @param a          the bytes charged to cgroup a, over all the disk charged in the window
 * @param b          to cgroup b
 * @param root       to the root group
 * @param tagged     the bios charged to a or b that carried an association, over all charged to a or b (NaN: none)
 * @param ownA       writer a's window bytes charged to cgroup a, over writer a's window bytes
 * @param ownB       writer b's, to cgroup b
 * @param predicted  the ratio a/b the charges predict, or null (mixed charges)
 */
record Charges(double a, double b, double root, double tagged, double ownA, double ownB, Double predicted) {
    /** The root group's share of the disk's bytes at most this (or at least 1 less this): the charges are not mixed. */
    static final double CLEAR = 0.01;

    private static final Charge NONE = new Charge(0, 0, 0);

    static Charges of(Result r) {
        Map<String, Charge> c = r.charged();
        Charge a = c.getOrDefault("/a", NONE);
        Charge b = c.getOrDefault("/b", NONE);
        double all = a.bytes() + b.bytes() + c.getOrDefault("/", NONE).bytes();
        double root = all - a.bytes() - b.bytes();
        long groupBios = a.bios() + b.bios();
        Double predicted = null;
        if (all > 0 && root <= CLEAR * all && a.bytes() > 0 && b.bytes() > 0) {
            predicted = (double) r.config().weightA() / r.config().weightB();
        } else if (all > 0 && root >= (1 - CLEAR) * all) {
            predicted = 1.0;
        }
        return new Charges(share(a.bytes(), all), share(b.bytes(), all), share(root, all),
                share(a.tagged() + b.tagged(), groupBios), share(a.bytes(), r.bytesA()), share(b.bytes(), r.bytesB()), predicted);
    }

    /** {@code part / whole}, NaN for no whole. */
    private static double share(double part, double whole) {
        return whole == 0 ? Double.NaN : part / whole;
    }

    /** How the bios charged to a and b got there: "tagged" (they carried an association), "by task" (none did), "mixed"; null for none. */
    String how() {
        if (Double.isNaN(tagged)) {
            return null;
        }
        return tagged >= 1 - CLEAR ? "tagged" : tagged <= CLEAR ? "by task" : "mixed";
    }
}
