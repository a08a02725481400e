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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * percpu_ref: a caller that is not online in the ref's Rcu (the partition
 * case before any worker registers) takes a reference and drops it while
 * kill switches the ref to atomic mode. Each get/put is a read-side section
 * that leaves the extended quiescent state, so the fold after the grace period
 * sees every slot update, and release runs exactly once, after the put.
 *
 * <p>Result: (got a ref, releases seen while holding it, releases at the end).
 */
@JCStressTest
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "got in before the kill; released once, after the put")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "kill came first; tryGetLive refused")
@Outcome(expect = FORBIDDEN, desc = "released under a holder, twice, or never: a slot update lost by the fold")
@State
public class PercpuRefIdleGetAcrossKillTest {
    static final Rcu RCU = new Rcu(2);

    final AtomicInteger releases = new AtomicInteger();
    final PercpuRef ref = new PercpuRef(RCU, releases::incrementAndGet);

    @Actor
    public void idleCaller(III_Result r) {
        if (ref.tryGetLive(0)) {
            r.r1 = 1;
            r.r2 = releases.get();
            ref.put(0);
        }
    }

    @Actor
    public void killer() {
        ref.kill();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        RCU.barrier(); // the switch to atomic mode has run
        r.r3 = releases.get();
    }
}
