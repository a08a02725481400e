package lab.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import lab.engine.sync.PercpuCounter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.J_Result;

/**
 * percpu_counter: with a batch of 2 both writers fold into the shared count
 * while the other adds to its slot; once they are quiesced, sum() has every
 * update.
 */
@JCStressTest
@Outcome(id = "5", expect = ACCEPTABLE, desc = "no update lost")
@Outcome(expect = FORBIDDEN, desc = "an update was lost in a fold")
@State
public class PercpuCounterSumTest {
    final PercpuCounter counter = new PercpuCounter(2, 0, 2);

    @Actor
    public void adder0() {
        counter.add(0, 1);
        counter.add(0, 1); // folds
        counter.add(0, 1);
    }

    @Actor
    public void adder1() {
        counter.add(1, 1);
        counter.add(1, -3); // folds
        counter.add(1, 4); // folds
    }

    @Arbiter
    public void arbiter(J_Result r) {
        r.r1 = counter.sum();
    }
}
