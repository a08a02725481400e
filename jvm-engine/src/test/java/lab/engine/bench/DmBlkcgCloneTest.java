package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import lab.engine.iosched.RequestQueue;
import org.junit.jupiter.api.Test;

/**
 * The experiment end to end, short windows: buffered writes through a thin volume follow the
 * weights only with {@code transfer}; with {@code lost} the disk sees one group (the flushers'
 * root) and the writers split it evenly. Bounds are wide: these are shares of a device, not
 * speeds, but the windows are short.
 */
class DmBlkcgCloneTest {

    @Test
    void transferFollowsTheWeightsLostDoesNot() throws InterruptedException {
        DmBlkcgClone.Result t = DmBlkcgClone.run(new DmBlkcgClone.Config("transfer", "thin", "buffered", 1000, 500, 1000, 150, 400));
        DmBlkcgClone.Result l = DmBlkcgClone.run(new DmBlkcgClone.Config("lost", "thin", "buffered", 1000, 500, 1000, 150, 400));
        assertEquals(2.0, t.ratio(), 0.3, "transfer: " + t);
        assertEquals(1.0, l.ratio(), 0.15, "lost: " + l);
        assertEquals(0, t.errors() + l.errors());
        RequestQueue.Charge ta = t.charged().get("/a");
        assertEquals(ta.bios(), ta.tagged(), "transfer: a's bios carried a's cgroup");
        assertEquals(0, t.charged().get("/").bytes(), "transfer: nothing charged to the root");
        assertEquals(l.bytesA() + l.bytesB(), l.charged().get("/").bytes(), 4L << 20, "lost: everything in the root group");
        assertTrue(t.timeline().size() > 10);
        assertTrue(t.convergeMs() >= 0, "converged within the run: " + t.timeline());
    }

    @Test
    void directWritesThroughLinearAreChargedToTheirTaskEitherWay() throws InterruptedException {
        DmBlkcgClone.Result l = DmBlkcgClone.run(new DmBlkcgClone.Config("lost", "linear2", "direct", 1000, 500, 1000, 150, 400));
        assertEquals(2.0, l.ratio(), 0.3, "lost, direct, linear: " + l);
        assertEquals(0, l.charged().get("/a").tagged(), "no association: charged by task");
        assertEquals(0, l.charged().get("/").bytes());
    }

    /** Through thin the worker issues the write: a 2016 direct bio (no association) is the root's either way; one associated at submit (today) keeps its cgroup only with transfer. */
    @Test
    void directWritesThroughThinNeedAnAssociationAndTransfer() throws InterruptedException {
        DmBlkcgClone.Result old = DmBlkcgClone.run(new DmBlkcgClone.Config("transfer", "thin", "direct", 1000, 500, 1000, 150, 400));
        DmBlkcgClone.Result today = DmBlkcgClone.run(new DmBlkcgClone.Config("transfer", "thin", "direct-assoc", 1000, 500, 1000, 150, 400));
        DmBlkcgClone.Result lost = DmBlkcgClone.run(new DmBlkcgClone.Config("lost", "thin", "direct-assoc", 1000, 500, 1000, 150, 400));
        // the root's two writers share alike: 1.0, within 0.25 (a rehearsal of ./lab test on 2026-12-07 read 1.153 over
        // this 400 ms window with the other test forks running: bytes 181 MiB to 157 MiB), still far from the 2.0 of weights
        assertEquals(1.0, old.ratio(), 0.25, "transfer, direct (2016): " + old);
        assertEquals(2.0, today.ratio(), 0.3, "transfer, direct-assoc: " + today);
        assertEquals(1.0, lost.ratio(), 0.25, "lost, direct-assoc: " + lost);
        assertEquals(today.charged().get("/a").bios(), today.charged().get("/a").tagged());
    }

    @Test
    void badConfigsAreRefused() {
        for (Runnable r : List.<Runnable>of(
                () -> new DmBlkcgClone.Config("percpu", "thin", "buffered", 1000, 500, 1000, 0, 100),
                () -> new DmBlkcgClone.Config("lost", "linear4", "buffered", 1000, 500, 1000, 0, 100),
                () -> new DmBlkcgClone.Config("lost", "thin", "mmap", 1000, 500, 1000, 0, 100),
                () -> new DmBlkcgClone.Config("lost", "thin", "buffered", 1001, 500, 1000, 0, 100),
                () -> new DmBlkcgClone.Config("lost", "thin", "buffered", 1000, 500, 0, 0, 100))) {
            assertThrows(IllegalArgumentException.class, r::run);
        }
    }
}
