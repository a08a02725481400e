package lab.engine.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LineTallyTest {

    @Test
    void noneCountsNothingWithOneCounterForEverySite() {
        LineCounter a = SharedLines.NONE.counter("part.ref", LineOp.RMW);
        assertSame(a, SharedLines.NONE.counter("zram.init_lock", LineOp.RWSEM_READ), "one stateless counter");
        a.add(); // nothing to observe, nothing to fail
    }

    @Test
    void aTallyCountsBySiteAndKindAndLeavesZerosOut() {
        LineTally t = new LineTally();
        LineCounter rmw = t.counter("part.ref", LineOp.RMW);
        LineCounter cas = t.counter("part.ref", LineOp.CAS);
        t.counter("part.stamp", LineOp.STORE); // asked for, never used
        rmw.add();
        rmw.add();
        cas.add();
        t.counter("part.ref", LineOp.RMW).add(); // the same count again
        assertEquals(Map.of("part.ref", Map.of("rmw", 3L, "cas", 1L)), t.snapshot());
        assertEquals(4, t.total());
        assertEquals(java.util.Set.of("part.ref", "part.stamp"), t.sites());
        t.reset();
        assertEquals(Map.of(), t.snapshot());
        rmw.add();
        assertEquals(Map.of("part.ref", Map.of("rmw", 1L)), t.snapshot(), "counters survive a reset");
        assertThrows(IllegalArgumentException.class, () -> t.counter(" ", LineOp.RMW));
    }

    @Test
    void kindsHaveTheIdsTheCostsAreFiledUnder() {
        assertEquals(java.util.List.of("rmw", "cas", "rwsem-read", "mutex", "store"), LineOp.ids());
        for (LineOp k : LineOp.values()) {
            assertSame(k, LineOp.of(k.id()));
        }
    }

    @Test
    void countsPerIoAddTheTickShareAtARateAndHz() {
        SharedLineCounts c = new SharedLineCounts("part-acct", "atomic", Map.of("target", "disk"), 1000,
                SharedLineCounts.per(Map.of("part0.ref", Map.of("rmw", 1000L, "cas", 1000L),
                        "part0.in_flight", Map.of("rmw", 2000L)), 1000),
                16, Map.of("part0.stamp", Map.of("store", 1.0)));
        assertEquals(1.0, c.perIo("part0.ref", "cas"));
        assertEquals(0.0, c.perIo("part0.ref", "store"));
        assertEquals(4.0, c.totalPerIo());
        assertEquals(Map.of("rmw", 3.0, "cas", 1.0), c.perIoByKind());
        // 1 store per tick at HZ 1000 and 1 M I/O/s: 0.001 per I/O
        assertEquals(Map.of("rmw", 3.0, "cas", 1.0, "store", 0.001), c.byKindAt(1e6, 1000));
        assertEquals(java.util.List.of("part0.in_flight", "part0.ref"), java.util.List.copyOf(c.perIo().keySet()), "sorted");
    }

    /** A visit: operations on one line (the site up to its last dot) with no boundary between them. */
    @Test
    void visitsAreRunsOfOperationsOnOneLineBetweenBoundaries() {
        LineTally t = new LineTally();
        LineCounter ref = t.counter("part0.ref", LineOp.CAS);
        LineCounter inflight = t.counter("part0.in_flight", LineOp.RMW);
        LineCounter stat = t.counter("zram.stats.reads", LineOp.RMW);
        assertEquals("part0", LineTally.lineOf("part0.ref"));
        assertEquals("zram.stats", LineTally.lineOf("zram.stats.reads"));
        assertEquals("lock", LineTally.lineOf("lock"));
        ref.add();
        inflight.add();
        assertEquals(Map.of(), t.visits(), "no boundary yet: no visits to tell apart");
        assertEquals(false, t.marksVisits());
        t.boundary();
        t.reset();
        for (int io = 0; io < 3; io++) {
            ref.add();       // start: two operations on the hot line, one visit
            inflight.add();
            t.boundary();    // the device's work
            inflight.add();  // end: two more, one visit
            ref.add();
            stat.add();      // another line in the same stretch: its own visit
            t.boundary();    // the submitter's work
        }
        assertEquals(Map.of("part0", 6L, "zram.stats", 3L), t.visits());
        assertEquals(Map.of("part0.in_flight", Map.of("rmw", 6L), "part0.ref", Map.of("cas", 6L),
                "zram.stats.reads", Map.of("rmw", 3L)), t.snapshot());
        t.reset();
        ref.add();          // after the submitter's work: a visit
        t.boundary();
        ref.add();          // after the device's: another, and the operation after it in the same one
        ref.add();
        assertEquals(Map.of("part0", 2L), t.visits(), "visits start again from zero at a reset");
        assertEquals(Map.of("part0", 1.0), SharedLineCounts.perVisits(t.visits(), 2));
    }
}
