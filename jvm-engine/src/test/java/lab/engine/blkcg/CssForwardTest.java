package lab.engine.blkcg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import lab.engine.block.Bio;
import lab.engine.block.BioEndIo;
import lab.engine.block.Bioset;
import lab.engine.block.BlockDevice;
import lab.engine.block.NullBlk;
import lab.engine.count.SharedLines;
import lab.engine.dm.LinearStack;
import lab.engine.dm.MappedDevice;
import lab.engine.inject.Injection;
import lab.engine.sync.Rcu;
import lab.engine.sync.RefCount;
import lab.engine.sync.Workers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How bios and their clones hold their cgroup; each test fails, not hangs, within 120 s. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CssForwardTest {
    private static final long MIB = 1 << 20;

    /** Checks at every level that a clone carries its source's cgroup, then completes it. */
    private static final class Carrying implements BlockDevice {
        final Blkcg expected;
        int seen;

        Carrying(Blkcg expected) {
            this.expected = expected;
        }

        @Override public String name() { return "carrying"; }
        @Override public long capacitySectors() { return MIB >> 9; }
        @Override public int logicalBlockSize() { return 512; }

        @Override
        public void submitBio(Bio bio) {
            seen++;
            if (bio.blkcgAssociation != expected) {
                throw new AssertionError("the bottom clone carries " + bio.blkcgAssociation + ", not " + expected);
            }
            Bio.bioEndio(bio);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "atomic", "atomic-cmpxchg", "percpu"})
    void everyCloneCarriesTheCgroupExceptWithNone(String id) {
        CssForward f = CssForward.of(id);
        Rcu rcu = new Rcu(1);
        Blkcg cg = Blkcg.root(f, rcu, SharedLines.NONE).child("fio", rcu, SharedLines.NONE);
        Carrying bottom = new Carrying(f == CssForward.NONE ? null : cg);
        List<MappedDevice> s = LinearStack.over(bottom, 4, 1, rcu, f, Injection.NONE).layers();
        try (Bioset set = new Bioset(1, 4096)) {
            Bio bio = set.alloc(0, b -> { });
            bio.size = 512;
            f.associate(bio, cg, 0);
            assertSame(f == CssForward.NONE ? null : cg, bio.blkcgAssociation);
            s.getLast().submitBio(bio);
            f.disassociate(bio, 0);
            assertNull(bio.blkcgAssociation);
            set.free(bio);
        }
        assertEquals(1, bottom.seen);
        if (f == CssForward.ATOMIC || f == CssForward.ATOMIC_CMPXCHG) {
            assertEquals(1, ((RefCount) cg.ref()).read(), "every get has had its put: back to the initial reference");
        }
    }

    /**
     * Many threads through a stack, every variant: afterwards the cgroup is still alive (no put too
     * many), and killing it releases it exactly once (no get without its put).
     */
    @ParameterizedTest
    @ValueSource(strings = {"none", "atomic", "atomic-cmpxchg", "percpu"})
    void everyReferenceIsDroppedExactlyOnce(String id) throws Exception {
        int n = 4;
        CssForward f = CssForward.of(id);
        Rcu rcu = new Rcu(n);
        Blkcg root = Blkcg.root(f, rcu, SharedLines.NONE);
        Blkcg cg = root.child("fio", rcu, SharedLines.NONE);
        List<MappedDevice> s = LinearStack.over(NullBlk.immediate("nullb0", MIB, 512), 5, n, rcu, f, Injection.NONE).layers();
        MappedDevice top = s.getLast();
        try (Bioset set = new Bioset(n, 4096)) {
            Workers.run(n, cpu -> {
                rcu.online(cpu);
                top.cpuOnline(cpu);
                BioEndIo ignore = b -> { };
                for (int i = 0; i < 20_000; i++) {
                    Bio bio = set.alloc(cpu, ignore);
                    bio.sector = i % 128;
                    bio.size = 512;
                    f.associate(bio, cg, cpu);
                    top.submitBio(bio);
                    f.disassociate(bio, cpu);
                    set.free(bio);
                }
                top.cpuOffline(cpu);
                if (rcu.isOnline(cpu)) {
                    rcu.offline(cpu);
                }
            });
        }
        assertFalse(cg.released(), "released while the creator's reference stands: a put too many");
        if (f == CssForward.ATOMIC || f == CssForward.ATOMIC_CMPXCHG) {
            assertEquals(1, ((RefCount) cg.ref()).read());
        }
        cg.kill();
        rcu.barrier(); // a per-cpu count folds after a grace period
        assertTrue(cg.released(), "not released after kill: a get without its put");
        assertTrue(cg.isZero());
        assertFalse(root.released());
    }

    /**
     * A cgroup removed while clones hold it lives until the last of them completes, then goes once.
     * The clones' references alone: each original lets its cgroup go as soon as it is submitted, and
     * the submitter goes offline (an extended quiescent state) so that a grace period can pass after
     * the kill; only the in-flight clones can then keep the cgroup alive (a clone that took no
     * reference of its own leaves it released at the kill).
     */
    @ParameterizedTest
    @ValueSource(strings = {"atomic", "atomic-cmpxchg", "percpu"})
    void aKilledCgroupIsReleasedOnlyAfterItsLastClone(String id) throws Exception {
        CssForward f = CssForward.of(id);
        Rcu rcu = new Rcu(1);
        Blkcg cg = Blkcg.root(f, rcu, SharedLines.NONE).child("fio", rcu, SharedLines.NONE);
        NullBlk disk = NullBlk.timer("nullb0", MIB, 512, TimeUnit.MILLISECONDS.toNanos(2), 1);
        BlockDevice top = LinearStack.over(disk, 3, 1, rcu, f, Injection.NONE).top();
        CountDownLatch submitted = new CountDownLatch(1);
        CountDownLatch killed = new CountDownLatch(1);
        List<String> seen = new ArrayList<>();
        try (Bioset set = new Bioset(1, 4096)) {
            Thread worker = Thread.ofPlatform().start(() -> {
                try {
                    rcu.online(0);
                    top.cpuOnline(0);
                    int[] done = {0};
                    BioEndIo count = b -> done[0]++;
                    List<Bio> bios = new ArrayList<>();
                    for (int i = 0; i < 8; i++) {
                        Bio bio = set.alloc(0, count);
                        bio.sector = i;
                        bio.size = 512;
                        f.associate(bio, cg, 0);
                        top.submitBio(bio);
                        f.disassociate(bio, 0); // the original's reference goes: its clones hold their own
                        bios.add(bio);
                    }
                    seen.add("submitted, clones in flight: " + (8 - done[0]));
                    rcu.offline(0);
                    submitted.countDown();
                    killed.await();
                    rcu.online(0);
                    while (done[0] < bios.size()) {
                        top.poll(0);
                    }
                    seen.add("clones done, released: " + cg.released());
                    for (Bio bio : bios) {
                        set.free(bio);
                    }
                    top.cpuOffline(0);
                    if (rcu.isOnline(0)) {
                        rcu.offline(0);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertTrue(submitted.await(30, TimeUnit.SECONDS));
            cg.kill();
            rcu.barrier(); // a per-cpu count goes atomic a grace period after the kill
            seen.add("killed, a grace period later, released: " + cg.released());
            killed.countDown();
            worker.join(30_000);
        }
        rcu.barrier();
        assertEquals(List.of("submitted, clones in flight: 8", "killed, a grace period later, released: false",
                "clones done, released: true"), seen);
        assertTrue(cg.released());
    }
}
