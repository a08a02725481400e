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

    /**
     * Visits, as a calibrated run spaces the operations: the way down (tryget, the clones' gets and probes) is one run of
     * operations on the css line, the way up (every put and probe) another, the disk's work between them; with the worker's
     * work between one I/O's puts and the next one's tryget two visits per I/O, without it the ups and the next downs merge
     * into one. percpu and none visit no shared line.
     */
    @Test
    void aCalibratedIoVisitsTheCssLineOnTheWayDownAndOnTheWayUp() {
        for (String v : new String[] {"atomic", "atomic-cmpxchg"}) {
            assertEquals(Map.of("blkcg.css", 2.0), DmCssRefCounts.of(v, 5, "none", 1000, true, true).visitsPerIo(), v);
            assertEquals(Map.of("blkcg.css", 1.0), DmCssRefCounts.of(v, 5, "none", 1000, true, false).visitsPerIo(), v);
        }
        assertEquals(Map.of(), DmCssRefCounts.of("percpu", 5, "none", 1000, true, true).visitsPerIo());
        assertEquals(null, DmCssRefCounts.of("atomic", 5, "none", 1000).visitsPerIo(), "no marks, no visits");
        assertEquals(perIo("atomic", 5, "none"), DmCssRefCounts.of("atomic", 5, "none", 1000, true, true).perIo(),
                "the marks change no count");
    }
}
