package lab.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import lab.engine.sync.Rcu;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * QSBR RCU, a reader that never goes online: its readLock leaves the extended
 * quiescent state for the section and its readUnlock re-enters it (an
 * interrupt on an idle CPU), so synchronize() must still wait for the section.
 * The updater stores x, synchronizes, stores y; a reader that sees y = 1 was
 * inside after synchronize() returned, so it entered after synchronize() began
 * (store-buffering, [F] against [D]) and must see x = 1.
 *
 * <p>Result: (y, x) as the reader saw them inside its section.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "section entirely before the update")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "section overlaps the grace period")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "section entirely after the grace period began")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "synchronize returned while an idle caller's section was inside")
@State
public class RcuIdleReaderTest {
    static final Rcu RCU = new Rcu(2);
    int x;
    int y;

    @Actor
    public void reader(II_Result r) {
        int token = RCU.readLock(0);
        r.r1 = y;
        r.r2 = x;
        RCU.readUnlock(0, token);
    }

    @Actor
    public void updater() {
        x = 1;
        RCU.synchronize();
        y = 1;
    }
}
