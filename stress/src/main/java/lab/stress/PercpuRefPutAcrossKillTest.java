package lab.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.atomic.AtomicInteger;
import lab.engine.sync.PercpuRef;
import lab.engine.sync.Rcu;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * percpu_ref: a reference taken in percpu mode on one slot is dropped on
 * another while kill switches the ref to atomic mode: the drop may land in a
 * slot (folded after the grace period) or on the atomic count (against the
 * bias). Either way release runs exactly once and only after the drop.
 *
 * <p>Result: (releases seen by the holder just before its put, releases at the end).
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "released once, after the last put")
@Outcome(expect = FORBIDDEN, desc = "released under a holder, twice, or never")
@State
public class PercpuRefPutAcrossKillTest {
    static final Rcu RCU = new Rcu(2);

    final AtomicInteger releases = new AtomicInteger();
    final PercpuRef ref = new PercpuRef(RCU, releases::incrementAndGet);

    public PercpuRefPutAcrossKillTest() {
        ref.get(0); // taken in percpu mode by slot 0 before the race; no one is online yet
    }

    @Actor
    public void holder(II_Result r) {
        RCU.online(1);
        r.r1 = releases.get();
        ref.put(1);
        RCU.offline(1);
    }

    @Actor
    public void killer() {
        ref.kill();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        RCU.barrier();
        r.r2 = releases.get();
    }
}
