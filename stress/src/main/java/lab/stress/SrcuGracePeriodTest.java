package lab.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import lab.engine.sync.Srcu;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * SRCU's guarantee: synchronize() does not return while a reader that entered
 * before it is still inside. The updater stores x, synchronizes, stores y. A
 * reader that sees y = 1 was still inside after synchronize() returned, so it
 * must have entered after synchronize() began, and must see x = 1.
 *
 * <p>Result: (y, x) as the reader saw them inside its critical section.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "reader entirely before the update")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "reader overlaps the grace period")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "reader entirely after the grace period began")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "synchronize returned while an earlier reader was inside")
@State
public class SrcuGracePeriodTest {
    final Srcu srcu = new Srcu(2);
    int x;
    int y;

    @Actor
    public void reader(II_Result r) {
        int idx = srcu.readLock(0);
        r.r1 = y;
        r.r2 = x;
        srcu.readUnlock(0, idx);
    }

    @Actor
    public void updater() {
        x = 1;
        srcu.synchronize();
        y = 1;
    }
}
