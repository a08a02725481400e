package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import lab.engine.count.SharedLineCounts;
import org.junit.jupiter.api.Test;

/**
 * The dm-css-ref counts follow from the kernel's logic, per bio of a stack of depth d (the
 * original and its d clones): the submitter's bio takes its reference with a tryget (one cas),
 * each clone a get (one rmw), each bio puts its own (one rmw); the seed's probe adds one cas per
 * clone and one per put; percpu and none touch no shared line. Injections add theirs.
 */
class DmCssRefCountsTest {

    private static Map<String, Map<String, Double>> perIo(String variant, int depth, String inject) {
        SharedLineCounts c = DmCssRefCounts.of(variant, depth, inject, 1000);
        assertEquals("dm-css-ref", c.model());
        assertEquals(Map.of("depth", Integer.toString(depth), "inject", inject), c.point());
        return c.perIo();
    }

    @Test
    void atomicIsOneTrygetThenAGetPerCloneAndAPutPerBio() {
        for (int d : new int[] {0, 1, 5}) {
            assertEquals(Map.of("blkcg.css.refcnt", Map.of("cas", 1.0, "rmw", 2.0 * d + 1)), perIo("atomic", d, "none"), "depth " + d);
        }
    }

    @Test
    void theSeedsProbeAddsACasPerCloneAndPerPut() {
        assertEquals(Map.of("blkcg.css.refcnt", Map.of("cas", 1.0 + 5 + 6, "rmw", 11.0)), perIo("atomic-cmpxchg", 5, "none"));
        assertEquals(Map.of("blkcg.css.refcnt", Map.of("cas", 2.0, "rmw", 1.0)), perIo("atomic-cmpxchg~aa", 0, "none"));
    }

    @Test
    void percpuAndNoneShareNoLine() {
        assertEquals(Map.of(), perIo("percpu", 5, "none"));
        assertEquals(Map.of(), perIo("none", 5, "none"));
    }

    @Test
    void theSeedsExperimentByHandCountsItsCmpxchgPerLayer() {
        assertEquals(Map.of("inject.line", Map.of("cas", 10.0)), perIo("none", 5, "clone:cmpxchg,end_io:cmpxchg"));
        assertEquals(Map.of(), perIo("none", 0, "clone:cmpxchg,end_io:cmpxchg"), "no layer, no clone: nothing fires");
        assertEquals(Map.of("inject.line", Map.of("rmw", 2.0)), perIo("none", 3, "submit:atomic,complete:atomic"));
    }
}
