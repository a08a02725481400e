package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lab.engine.count.SharedLineCounts;
import org.junit.jupiter.api.Test;

/**
 * The thin-bufio-lock count run against what dm-thin and dm-bufio do per I/O on a provisioned
 * block with the whole tree cached: a lookup visits the device tree's root and the mapping tree's
 * two levels; 6.1's mutex is taken at every node's get and release, rwsem's read lock as often
 * with an atomic hold count each time, rwsem-walk's once per lookup with none, the stripes' as
 * rwsem's on the trees; and in every variant the prison's spinlock four times, all_io_ds's twice,
 * root_lock once. dm-linear does none of it.
 */
class ThinBufioLockCountsTest {
    private static final long IOS = 2000;

    private static double at(SharedLineCounts c, String site, String kind) {
        return c.perIo(site, kind);
    }

    private static void common(SharedLineCounts c) {
        assertEquals(4.0, at(c, "thin.prison", "mutex"), 1e-9, "prison");
        assertEquals(2.0, at(c, "thin.all_io_ds", "mutex"), 1e-9, "all_io_ds");
        assertEquals(1.0, at(c, "thin.root_lock", "rwsem-read"), 1e-9, "root_lock");
    }

    @Test
    void eachLockingTakesItsLocksPerNode() {
        SharedLineCounts mutex = ThinBufioLockCounts.of("mutex", "thin", "whole", IOS);
        int nodes = Integer.parseInt(mutex.point().get("nodes_per_lookup"));
        assertEquals(3, nodes, "a 512 MiB volume: the device tree's node and two mapping levels");
        common(mutex);
        assertEquals(2.0 * nodes, at(mutex, "bufio.lock", "mutex"), 1e-9);
        assertEquals(2.0 * nodes, ThinBufioLockCounts.lockAcquisitionsPerIo(mutex), 1e-9);

        SharedLineCounts rwsem = ThinBufioLockCounts.of("rwsem", "thin", "whole", IOS);
        common(rwsem);
        assertEquals(2.0 * nodes, at(rwsem, "bufio.lock", "rwsem-read"), 1e-9);
        assertEquals(2.0 * nodes, at(rwsem, "bufio.hold", "rmw"), 1e-9);

        SharedLineCounts walk = ThinBufioLockCounts.of("rwsem-walk", "thin", "whole", IOS);
        common(walk);
        assertEquals(1.0, at(walk, "bufio.lock", "rwsem-read"), 1e-9);
        assertEquals(1.0, ThinBufioLockCounts.lockAcquisitionsPerIo(walk), 1e-9);
        assertEquals(0.0, at(walk, "bufio.hold", "rmw"), 1e-9);

        SharedLineCounts striped = ThinBufioLockCounts.of("striped~aa", "thin", "whole", IOS);
        assertEquals("striped", striped.variant(), "a control counts as its variant");
        common(striped);
        assertEquals(2.0 * nodes, at(striped, "bufio.tree", "rwsem-read"), 1e-9);
        assertEquals(0.0, at(striped, "bufio.lock", "mutex"), 1e-9, "no client mutex on hits");
        assertEquals(2.0 * nodes, at(striped, "bufio.hold", "rmw"), 1e-9);
    }

    @Test
    void aSmallCacheMissesAndTheBaselineHasNoBtree() {
        SharedLineCounts small = ThinBufioLockCounts.of("mutex", "thin", "small", IOS);
        int nodes = Integer.parseInt(small.point().get("nodes_per_lookup"));
        assertTrue(at(small, "bufio.lock", "mutex") > 2.0 * nodes, "misses take the lock again: " + small.perIo());
        assertTrue(at(small, "thin.root_lock", "rwsem-read") > 1.0, "a miss looks up again, blocking: " + small.perIo());
        assertTrue(Integer.parseInt(small.point().get("cache_blocks")) < Integer.parseInt(small.point().get("nodes")));

        SharedLineCounts linear = ThinBufioLockCounts.of("mutex", "linear", "whole", IOS);
        assertNull(linear.perIo().get("bufio.lock"));
        assertNull(linear.perIo().get("thin.prison"));
        assertEquals(0.0, ThinBufioLockCounts.lockAcquisitionsPerIo(linear), 1e-9);
    }

    /**
     * The lab switch amplified (6.12/thin-bufio-lock.patch, dm_bufio.lab_client_lock_count N):
     * striped with {@code amp} N takes the client mutex N times at each node's get and release,
     * 2N per node, and changes nothing else; N = 4 adds exactly four times N = 1's.
     */
    @Test
    void ampTakesTheClientMutexNTimesAtEachGetAndRelease() {
        SharedLineCounts none = ThinBufioLockCounts.of("striped", 0, "thin", "whole", IOS, false, false);
        int nodes = Integer.parseInt(none.point().get("nodes_per_lookup"));
        for (int n : new int[] {1, 4}) {
            SharedLineCounts amp = ThinBufioLockCounts.of("striped", n, "thin", "whole", IOS, false, false);
            common(amp);
            assertEquals(2.0 * n * nodes, at(amp, "bufio.lock", "mutex"), 1e-9, "N = " + n);
            assertEquals(at(none, "bufio.tree", "rwsem-read"), at(amp, "bufio.tree", "rwsem-read"), 1e-9);
            assertEquals(at(none, "bufio.hold", "rmw"), at(amp, "bufio.hold", "rmw"), 1e-9);
            assertEquals(Integer.toString(n), amp.point().get("amp"));
        }
        assertThrows(IllegalArgumentException.class, () -> ThinBufioLockCounts.of("mutex", 1, "thin", "whole", 10, false, false),
                "the switch's sites are on 6.12's striped path only");
    }
}
