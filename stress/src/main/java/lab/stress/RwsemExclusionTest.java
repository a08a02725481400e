package lab.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import lab.engine.sync.Rwsem;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * rwsem: no reader overlaps a writer. The writer stores a pair under the write
 * lock; a reader under the read lock sees both stores or neither.
 *
 * <p>Result: (a, b) as the reader saw them.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "reader before writer")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "reader after writer")
@Outcome(expect = FORBIDDEN, desc = "reader overlapped the writer")
@State
public class RwsemExclusionTest {
    final Rwsem sem = new Rwsem();
    int a;
    int b;

    @Actor
    public void writer() {
        sem.downWrite();
        a = 1;
        b = 1;
        sem.upWrite();
    }

    @Actor
    public void reader(II_Result r) {
        sem.downRead();
        r.r1 = a;
        r.r2 = b;
        sem.upRead();
    }
}
