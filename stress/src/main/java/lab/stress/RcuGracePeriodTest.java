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
 * QSBR RCU: synchronize() does not return while an online reader that has not
 * passed a quiescent state since synchronize() began is still in its critical
 * section (here: between online and offline). The updater stores x,
 * synchronizes, stores y. A reader that sees y = 1 was still online after
 * synchronize() returned, so it must have come online after synchronize()
 * began, and must see x = 1.
 *
 * <p>Result: (y, x) as the reader saw them while online.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "reader entirely before the update")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "reader overlaps the grace period")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "reader entirely after the grace period began")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "synchronize returned while an earlier reader was inside")
@State
public class RcuGracePeriodTest {
    static final Rcu RCU = new Rcu(2);
    int x;
    int y;

    @Actor
    public void reader(II_Result r) {
        RCU.online(0);
        r.r1 = y;
        r.r2 = x;
        RCU.offline(0);
    }

    @Actor
    public void updater() {
        x = 1;
        RCU.synchronize();
        y = 1;
    }
}
