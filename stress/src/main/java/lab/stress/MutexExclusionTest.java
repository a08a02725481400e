package lab.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import lab.engine.sync.Mutex;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * mutex: two plain increments under the lock are never lost.
 */
@JCStressTest
@Outcome(id = "2", expect = ACCEPTABLE, desc = "both increments kept")
@Outcome(expect = FORBIDDEN, desc = "two holders overlapped")
@State
public class MutexExclusionTest {
    final Mutex mutex = new Mutex();
    int n;

    @Actor
    public void locker1() {
        mutex.lock();
        n++;
        mutex.unlock();
    }

    @Actor
    public void locker2() {
        mutex.lock();
        n++;
        mutex.unlock();
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = n;
    }
}
