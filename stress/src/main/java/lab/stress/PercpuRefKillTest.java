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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * percpu_ref: a live reader races kill. The reader, if tryGetLive succeeds,
 * must not see the release before its own put; after kill and its grace period
 * tryGetLive fails and the release has run exactly once.
 *
 * <p>Result: (reader got a ref, releases seen while holding it, releases at
 * the end, tryGetLive after kill).
 */
@JCStressTest
@Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "reader got in before the kill; release ran once, after its put")
@Outcome(id = "0, 0, 1, 0", expect = ACCEPTABLE, desc = "kill came first; tryGetLive refused")
@Outcome(expect = FORBIDDEN, desc = "released under a holder, twice or never, or tryGetLive succeeded on a dead ref")
@State
public class PercpuRefKillTest {
    /** Slot 0: the reader; slots 2..5: borrowed by arbiters, which run several at once. */
    static final Rcu RCU = new Rcu(6);
    static final SpareSlots SPARE = new SpareSlots(2, 4);

    final AtomicInteger releases = new AtomicInteger();
    final PercpuRef ref = new PercpuRef(RCU, releases::incrementAndGet);

    @Actor
    public void reader(IIII_Result r) {
        RCU.online(0);
        if (ref.tryGetLive(0)) {
            r.r1 = 1;
            r.r2 = releases.get();
            ref.put(0);
        }
        RCU.offline(0);
    }

    @Actor
    public void killer() {
        ref.kill();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        RCU.barrier(); // the switch to atomic mode has run
        r.r3 = releases.get();
        int slot = SPARE.take();
        r.r4 = ref.tryGetLive(slot) ? 1 : 0;
        SPARE.give(slot);
    }
}
