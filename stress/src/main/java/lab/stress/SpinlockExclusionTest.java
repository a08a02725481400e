package lab.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import lab.engine.sync.Spinlock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * spinlock: two plain increments under the lock are never lost.
 */
@JCStressTest
@Outcome(id = "2", expect = ACCEPTABLE, desc = "both increments kept")
@Outcome(expect = FORBIDDEN, desc = "two holders overlapped")
@State
public class SpinlockExclusionTest {
    final Spinlock lock = new Spinlock();
    int n;

    @Actor
    public void locker1() {
        lock.lock();
        n++;
        lock.unlock();
    }

    @Actor
    public void locker2() {
        lock.lock();
        n++;
        lock.unlock();
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = n;
    }
}
