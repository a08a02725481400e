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
    /** Slot 1: the holder; slots 2..5: borrowed by constructors, which run several at once. */
    static final Rcu RCU = new Rcu(6);
    static final SpareSlots SPARE = new SpareSlots(2, 4);

    final AtomicInteger releases = new AtomicInteger();
    final PercpuRef ref = new PercpuRef(RCU, releases::incrementAndGet);

    public PercpuRefPutAcrossKillTest() {
        int slot = SPARE.take();
        ref.get(slot); // taken in percpu mode on another slot before the race; no one is online yet
        SPARE.give(slot);
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
