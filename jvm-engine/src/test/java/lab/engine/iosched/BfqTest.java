package lab.engine.iosched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lab.engine.blkcg.Blkcg;
import lab.engine.blkcg.CssForward;
import lab.engine.block.Bio;
import lab.engine.block.Bioset;
import lab.engine.count.SharedLines;
import lab.engine.sync.Rcu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** BFQ's shares, on a clock the test drives: no thread, no timing. */
class BfqTest {
    private static final int MIB = 1 << 20;
    private static final long BUDGET = 8192; // 4 MiB
    private static final long IDLE = 2_000_000;

    private final Rcu rcu = new Rcu(1);
    private final Blkcg root = Blkcg.root(CssForward.TRANSFER, rcu, SharedLines.NONE);
    private final Bioset bios = new Bioset(1, 0);

    private Bio bio() {
        Bio b = bios.alloc(0, x -> {});
        b.size = MIB;
        return b;
    }

    private Blkcg cgroup(String name, int weight) {
        Blkcg cg = root.child(name, rcu, SharedLines.NONE);
        cg.setWeight(weight);
        return cg;
    }

    /** Both groups always have bios queued: the device's bytes split as the weights. */
    @ParameterizedTest
    @CsvSource({"1000,500", "500,500", "1000,100", "100,1000"})
    void backloggedGroupsShareByWeight(int wa, int wb) {
        Bfq bfq = new Bfq(BUDGET, IDLE);
        BfqGroup a = bfq.group(cgroup("a", wa));
        BfqGroup b = bfq.group(cgroup("b", wb));
        for (int i = 0; i < 8; i++) {
            bfq.insert(bio(), a);
            bfq.insert(bio(), b);
        }
        long now = 0;
        for (int i = 0; i < 4400; i++) {
            Bio d = bfq.dispatch(now);
            BfqGroup g = bfq.inService();
            bfq.insert(bio(), g); // a deep queue: as many as were taken
            now += 1_000_000;
            bfq.completed(now);
            assertTrue(d != null);
        }
        double ratio = (double) a.bytes / b.bytes;
        assertEquals((double) wa / wb, ratio, 0.02 * wa / wb, "a " + a.bytes + " B, b " + b.bytes + " B");
        assertEquals(0, a.tagged + b.tagged, "bios made without an association are counted untagged");
    }

    /**
     * One bio in flight per group (dd oflag=direct): the group in service is empty after every
     * completion; its next bio, within slice_idle, keeps the device, so the weights still hold.
     */
    @ParameterizedTest
    @CsvSource({"1000,500", "1000,100"})
    void idlingKeepsTheSharesOfSyncWriters(int wa, int wb) {
        Bfq bfq = new Bfq(BUDGET, IDLE);
        BfqGroup a = bfq.group(cgroup("a", wa));
        BfqGroup b = bfq.group(cgroup("b", wb));
        bfq.insert(bio(), a);
        bfq.insert(bio(), b);
        long now = 0;
        for (int i = 0; i < 4400; i++) {
            Bio d = bfq.dispatch(now);
            BfqGroup g = bfq.inService();
            now += 1_000_000;
            bfq.completed(now);
            assertNull(bfq.dispatch(now), "the empty group in service idles");
            now += 50_000; // the writer's next bio, well within slice_idle
            bfq.insert(bio(), g);
            assertTrue(d != null);
        }
        assertEquals((double) wa / wb, (double) a.bytes / b.bytes, 0.03 * wa / wb, "a " + a.bytes + " B, b " + b.bytes + " B");
    }

    /** A group that stays empty past slice_idle loses the device to the next. */
    @Test
    void anEmptyGroupExpiresAfterSliceIdle() {
        Bfq bfq = new Bfq(BUDGET, IDLE);
        BfqGroup a = bfq.group(cgroup("a", 1000));
        BfqGroup b = bfq.group(cgroup("b", 100));
        bfq.insert(bio(), a);
        bfq.insert(bio(), b);
        bfq.dispatch(0);
        assertSame(a, bfq.inService());
        bfq.completed(1_000_000);
        assertNull(bfq.dispatch(1_000_000 + IDLE - 1), "still idling for a");
        Bio d = bfq.dispatch(1_000_000 + IDLE);
        assertSame(b, bfq.inService());
        assertEquals(1, b.bios);
        assertTrue(d != null);
    }

    /** A bio with no cgroup of its own goes to the root group; nothing is dispatched while the device has one. */
    @Test
    void theRootGroupAndOneAtATime() {
        Bfq bfq = new Bfq(BUDGET, IDLE);
        BfqGroup r = bfq.group(null);
        bfq.insert(bio(), r);
        bfq.insert(bio(), r);
        Bio first = bfq.dispatch(0);
        assertNull(bfq.dispatch(0), "the device is busy");
        bfq.completed(10);
        Bio second = bfq.dispatch(10);
        assertTrue(first != null && second != null && first != second);
        assertEquals(2, r.bios);
        assertEquals("/", r.name());
        assertEquals(2, bfq.groups().get(0).bios);
    }
}
