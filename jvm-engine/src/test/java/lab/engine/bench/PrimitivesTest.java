package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lab.engine.sync.PrimitiveKind;
import lab.engine.work.CpuWork;
import org.junit.jupiter.api.Test;

/** The benchmark's states: every primitive runs on a shared or a private line, with or without a gap. */
class PrimitivesTest {

    private static Primitives.Shared shared(String primitive, String line, long gapNs) {
        Primitives.Shared s = new Primitives.Shared();
        s.primitive = primitive;
        s.line = line;
        s.gapNs = gapNs;
        s.setUp();
        return s;
    }

    private static Primitives.Cpu cpu(Primitives.Shared s) {
        Primitives.Cpu c = new Primitives.Cpu();
        c.setUp(s);
        return c;
    }

    @Test
    void everyPrimitiveRunsOnASharedAndAPrivateLine() {
        Primitives bench = new Primitives();
        for (String p : PrimitiveKind.ids()) {
            Primitives.Shared sh = shared(p, "shared", 0);
            Primitives.Cpu a = cpu(sh);
            Primitives.Cpu b = cpu(sh);
            assertSame(a.pair, b.pair, p + ": shared is one object");
            Primitives.Shared pr = shared(p, "private", 0);
            Primitives.Cpu c = cpu(pr);
            Primitives.Cpu d = cpu(pr);
            assertNotSame(c.pair, d.pair, p + ": private is one object per thread");
            for (Primitives.Cpu cpu : new Primitives.Cpu[] {a, b, c, d}) {
                for (int i = 0; i < 100; i++) {
                    bench.getPut(cpu);
                }
                cpu.tearDown();
            }
            assertEquals(1, a.gaps.length, "no userGapNs: one gap");
            assertSame(CpuWork.NONE, a.gaps[0], "gapNs=0: no work object");
        }
    }

    @Test
    void aGapIsSpentAfterEachPair() {
        Primitives.Shared s = shared("padded-slot", "shared", 1000);
        assertTrue(s.gaps[0].ns() == 1000, s.gaps[0].toString());
        Primitives.Cpu c = cpu(s);
        Primitives bench = new Primitives();
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 20; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                bench.getPut(c);
            }
            best = Math.min(best, (System.nanoTime() - t0) / 200);
        }
        c.tearDown();
        assertTrue(best >= 500 && best <= 3000, "padded-slot with a 1000 ns gap: " + best + " ns a pair");
    }

    /** userGapNs: pairs take the device's gap and the submitter's in turn, each thread from its first pair. */
    @Test
    void withAUserGapPairsTakeTheTwoGapsInTurn() {
        Primitives.Shared s = new Primitives.Shared();
        s.primitive = "atomic-refcount";
        s.line = "shared";
        s.gapNs = 2000;
        s.userGapNs = 300;
        s.setUp();
        assertEquals(2, s.gaps.length);
        assertEquals(2000, s.gaps[0].ns());
        assertEquals(300, s.gaps[1].ns());
        Primitives.Cpu a = cpu(s);
        Primitives.Cpu b = cpu(s);
        for (Primitives.Cpu c : new Primitives.Cpu[] {a, b}) {
            for (int i = 0; i < 5; i++) {
                assertSame(s.gaps[i % 2], c.gap(), "pair " + i);
            }
            c.tearDown();
        }
    }

    /** acqrel-slot is refscale's acqrel: each pair reads its own slot with acquire and stores it plus one with release. */
    @Test
    void acqrelSlotCountsUpInEachThreadsOwnSlot() {
        Primitives.Shared s = shared("acqrel-slot", "shared", 0);
        Primitives.Cpu a = cpu(s);
        Primitives.Cpu b = cpu(s);
        Primitives bench = new Primitives();
        for (long i = 0; i < 3; i++) {
            assertEquals(i, bench.getPut(a), "a's slot before its pair " + i);
        }
        assertEquals(0, bench.getPut(b), "b's slot is its own: a's three pairs left it at 0");
        a.tearDown();
        b.tearDown();
    }

    /** The baseline is getPut's body on a pair that does nothing and no gap: what a getPut score at gap 0 holds besides the pair. */
    @Test
    void theBaselineRunsGetPutsBodyWithNothingInThePair() {
        Primitives.Bare bare = new Primitives.Bare();
        assertSame(Primitives.NOTHING, bare.pair);
        assertEquals(1, bare.gaps.length);
        assertSame(CpuWork.NONE, bare.gaps[0], "no gap: refscale's loop is back to back");
        Primitives bench = new Primitives();
        for (int i = 0; i < 100; i++) {
            assertEquals(0, bench.baseline(bare), "the slot, for the blackhole");
        }
        assertEquals(100, bare.next, "the gap was taken once a call, as getPut takes it");
    }
}
