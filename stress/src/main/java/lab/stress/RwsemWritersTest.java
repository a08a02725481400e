package lab.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import lab.engine.sync.Rwsem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * rwsem: writers exclude each other; two plain increments under the write
 * lock are never lost.
 */
@JCStressTest
@Outcome(id = "2", expect = ACCEPTABLE, desc = "both increments kept")
@Outcome(expect = FORBIDDEN, desc = "two writers overlapped")
@State
public class RwsemWritersTest {
    final Rwsem sem = new Rwsem();
    int n;

    @Actor
    public void writer1() {
        sem.downWrite();
        n++;
        sem.upWrite();
    }

    @Actor
    public void writer2() {
        sem.downWrite();
        n++;
        sem.upWrite();
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = n;
    }
}
