package lab.engine.zram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ZramIoTest {
    private static final int NR_PAGES = 64;
    private static final long DISKSIZE = (long) NR_PAGES * Zram.PAGE_SIZE;

    private static Zram device(GuardKind guard, Compressor comp) {
        Zram z = new Zram(guard, comp, 2);
        z.init(DISKSIZE);
        return z;
    }

    private static void assertReads(Zram z, long index, byte[] expected) {
        byte[] got = Pages.garbage();
        assertTrue(z.read(index, got, 1), "read of page " + index);
        assertArrayEquals(expected, got, "page " + index);
    }

    @ParameterizedTest
    @EnumSource(Compressor.class)
    void everyKindOfPageRoundTripsUnderEveryGuard(Compressor comp) {
        byte[] zero = Pages.zero();
        byte[] same = Pages.sameFilled((byte) 0xAB);
        byte[] random = Pages.random(42);
        byte[] half = Pages.halfCompressible(7);
        for (GuardKind guard : GuardKind.values()) {
            Zram z = device(guard, comp);
            assertTrue(z.write(0, zero, 0));
            assertTrue(z.write(1, same, 0));
            assertTrue(z.write(2, random, 0));
            assertTrue(z.write(3, half, 0));
            assertReads(z, 0, zero);
            assertReads(z, 1, same);
            assertReads(z, 2, random);
            assertReads(z, 3, half);

            MmStat s = z.mmStat();
            assertEquals(4, s.pagesStored(), guard + ": " + s);
            assertEquals(4L * Zram.PAGE_SIZE, s.origDataSize(), guard + ": " + s);
            assertEquals(2, s.samePages(), "zero and 0xAB pages are same-filled: " + s);
            assertEquals(1, s.hugePages(), "the random page is stored uncompressed: " + s);
            long halfLen = s.comprDataSize() - Zram.PAGE_SIZE; // huge page counts a whole page
            assertTrue(halfLen > Zram.PAGE_SIZE / 2 - 64 && halfLen < Zram.HUGE_CLASS_SIZE,
                    "half-random page compressed to " + halfLen + " bytes");
            assertTrue(s.comprDataSize() < s.origDataSize(), s.toString());
            assertTrue(s.memUsedTotal() >= s.comprDataSize(), "zsmalloc pages hold the objects: " + s);
        }
    }

    @ParameterizedTest
    @EnumSource(Compressor.class)
    void compressiblePagesTakeLessMemoryAndSurviveStraddlingZspagePages(Compressor comp) {
        Zram z = device(GuardKind.SRCU, comp);
        for (int i = 0; i < 32; i++) {
            assertTrue(z.write(i, Pages.halfCompressible(i + 100), 0));
        }
        for (int i = 0; i < 32; i++) {
            assertReads(z, i, Pages.halfCompressible(i + 100)); // ~2.1 KiB objects: every other one straddles a page
        }
        MmStat s = z.mmStat();
        assertEquals(32, s.pagesStored());
        assertEquals(0, s.samePages());
        assertEquals(0, s.hugePages());
        assertTrue(s.comprDataSize() < s.origDataSize() * 3 / 4, s.toString());
        assertTrue(s.memUsedTotal() > 0 && s.memUsedTotal() < s.origDataSize(), s.toString());
    }

    @ParameterizedTest
    @EnumSource(Compressor.class)
    void overwriteFreesTheOldObject(Compressor comp) {
        Zram z = device(GuardKind.ATOMIC_REF, comp);
        assertTrue(z.write(5, Pages.halfCompressible(1), 0));
        MmStat first = z.mmStat();
        assertTrue(z.write(5, Pages.halfCompressible(1), 0));
        assertEquals(first, z.mmStat(), "rewriting the same data must free the old handle");
        assertTrue(z.write(5, Pages.random(2), 0));
        assertEquals(1, z.mmStat().hugePages());
        assertTrue(z.write(5, Pages.sameFilled((byte) 3), 0));
        MmStat s = z.mmStat();
        assertEquals(new MmStat(Zram.PAGE_SIZE, 0, 0, 1, 0, 1), s, "only the same-filled element is left");
        assertReads(z, 5, Pages.sameFilled((byte) 3));
    }

    @ParameterizedTest
    @EnumSource(Compressor.class)
    void discardFreesEverything(Compressor comp) {
        Zram z = device(GuardKind.RWSEM, comp);
        assertTrue(z.write(0, Pages.random(3), 0));
        assertTrue(z.write(1, Pages.halfCompressible(4), 0));
        assertTrue(z.write(2, Pages.sameFilled((byte) 9), 0));
        assertTrue(z.mmStat().memUsedTotal() > 0);
        for (int i = 0; i < 3; i++) {
            assertTrue(z.discard(i, 0));
        }
        assertEquals(new MmStat(0, 0, 0, 0, 0, 0), z.mmStat(), "discard frees the objects and their zspages");
        for (int i = 0; i < 3; i++) {
            assertReads(z, i, Pages.zero());
        }
        assertTrue(z.discard(3, 0), "discarding a page never written is fine");
        assertEquals(0, z.mmStat().pagesStored());
    }

    @Test
    void outOfRangeAndUninitialisedIoFails() {
        Zram z = new Zram(GuardKind.NONE, Compressor.LZ4, 1);
        byte[] page = Pages.random(5);
        assertFalse(z.write(0, page, 0), "not initialised");
        assertFalse(z.read(0, page, 0), "not initialised");
        assertFalse(z.discard(0, 0), "not initialised");
        assertEquals(0, z.disksize());
        z.init(DISKSIZE);
        assertEquals(DISKSIZE, z.disksize());
        for (long bad : new long[] {NR_PAGES, -1, Long.MAX_VALUE, Long.MIN_VALUE}) {
            assertFalse(z.write(bad, page, 0), "write at " + bad);
            assertFalse(z.read(bad, page, 0), "read at " + bad);
            assertFalse(z.discard(bad, 0), "discard at " + bad);
        }
        assertTrue(z.write(NR_PAGES - 1, page, 0), "the last page is in range");
        assertEquals(1, z.mmStat().pagesStored());
    }

    @Test
    void neverWrittenPagesReadAsZeros() {
        Zram z = device(GuardKind.SRCU, Compressor.LZO_RLE);
        assertReads(z, 0, Pages.zero());
        assertReads(z, NR_PAGES - 1, Pages.zero());
        assertEquals(new MmStat(0, 0, 0, 0, 0, 0), z.mmStat());
    }

    @Test
    void initRoundsUpAndRefusesAnInitialisedDevice() {
        Zram z = new Zram(GuardKind.RWSEM, Compressor.LZ4, 1);
        assertThrows(IllegalArgumentException.class, () -> z.init(0));
        z.init(Zram.PAGE_SIZE + 1);
        assertEquals(2L * Zram.PAGE_SIZE, z.disksize());
        assertThrows(IllegalStateException.class, () -> z.init(DISKSIZE));
        assertTrue(z.write(1, Pages.random(1), 0));
        assertFalse(z.write(2, Pages.random(1), 0));
        assertThrows(IllegalArgumentException.class, () -> z.write(0, new byte[512], 0));
    }

    @Test
    void namesRoundTrip() {
        for (Compressor c : Compressor.values()) {
            assertEquals(c, Compressor.of(c.cliName()));
        }
        for (GuardKind g : GuardKind.values()) {
            assertEquals(g, GuardKind.of(g.cliName()));
        }
        assertEquals(Compressor.LZO_RLE, Compressor.of("lzo-rle"));
        assertEquals(GuardKind.ATOMIC_REF, GuardKind.of("atomic-ref"));
        assertThrows(IllegalArgumentException.class, () -> Compressor.of("zstd"));
        assertThrows(IllegalArgumentException.class, () -> GuardKind.of("rcu"));
    }

    @ParameterizedTest
    @EnumSource(Compressor.class)
    void steadyStateIoAllocatesNothing(Compressor comp) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[][] kinds = {
            Pages.zero(), Pages.sameFilled((byte) 0x11), Pages.halfCompressible(1), Pages.halfCompressible(2),
            Pages.random(3), Pages.random(4),
        };
        byte[] buf = new byte[Zram.PAGE_SIZE];
        for (GuardKind guard : GuardKind.values()) {
            Zram z = device(guard, comp);
            z.open();
            for (byte[] k : kinds) { // every size class grows to hold all NR_PAGES (+1 in flight)
                for (int i = 0; i < NR_PAGES; i++) {
                    assertTrue(z.write(i, k, 0));
                }
            }
            int warm = 10_000;
            int n = 10_000;
            ioLoop(z, kinds, buf, warm);
            long tid = Thread.currentThread().threadId();
            long before = mx.getThreadAllocatedBytes(tid);
            int done = ioLoop(z, kinds, buf, n);
            long bytes = mx.getThreadAllocatedBytes(tid) - before;
            z.release();
            assertEquals(n, done);
            assertTrue(bytes < n, guard + "/" + comp + ": allocated " + bytes + " bytes over " + n + " I/Os");
        }
    }

    private static int ioLoop(Zram z, byte[][] kinds, byte[] buf, int n) {
        int done = 0;
        for (int i = 0; i < n; i++) {
            int index = (i * 7) & (NR_PAGES - 1);
            boolean ok = switch (i % 4) {
                case 0, 1 -> z.write(index, kinds[(i >>> 2) % kinds.length], 0);
                case 2 -> z.read(index, buf, 0);
                default -> z.discard(index, 0);
            };
            done += ok ? 1 : 0;
        }
        return done;
    }
}
