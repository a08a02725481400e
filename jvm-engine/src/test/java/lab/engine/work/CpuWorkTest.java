package lab.engine.work;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lab.engine.block.Bio;
import lab.engine.block.BioEndIo;
import lab.engine.block.Bioset;
import lab.engine.block.BlkStatus;
import lab.engine.block.NullBlk;
import lab.engine.block.RamDisk;
import lab.engine.zram.Compressor;
import lab.engine.zram.GuardKind;
import lab.engine.zram.Zram;
import lab.engine.count.SharedLines;
import org.junit.jupiter.api.Test;

class CpuWorkTest {

    @Test
    void zeroNsIsNoWorkAndMakesNoObject() {
        long made = CalibratedWork.made();
        assertSame(CpuWork.NONE, CpuWork.forNs(0));
        assertSame(CpuWork.NONE, NullBlk.immediate("nullb0", 1 << 20, 512).work());
        assertSame(CpuWork.NONE, new RamDisk("ram0", 1 << 20).work());
        assertSame(CpuWork.NONE, new Zram(GuardKind.NONE, Compressor.LZO_RLE, 1).work());
        assertEquals(made, CalibratedWork.made(), "base_ns=0 calibrates nothing");
        assertEquals(0, CpuWork.NONE.ns());
        assertThrows(IllegalArgumentException.class, () -> CpuWork.forNs(-1));
    }

    @Test
    void workIsTokensFromAMeasurementNotAConstant() {
        CalibratedWork w = assertInstanceOf(CalibratedWork.class, CpuWork.forNs(2000));
        assertEquals(2000, w.ns());
        assertTrue(w.nsPerToken() > 0.05 && w.nsPerToken() < 50, "ns per token " + w.nsPerToken());
        double plain = 2000 / w.nsPerToken();
        assertTrue(Math.abs(w.tokens() - plain) <= 0.1 * plain, w.tokens() + " tokens, " + plain + " by ns per token");
        assertTrue(w.measuredNs() > 1600 && w.measuredNs() < 2500, w.toString());
        CalibratedWork shortWork = assertInstanceOf(CalibratedWork.class, CpuWork.forNs(100));
        assertTrue(shortWork.measuredNs() > 60 && shortWork.measuredNs() < 160, "per-call overhead corrected: " + shortWork);
    }

    /**
     * The correction's ratio is taken within rounds that time both call sizes: the long calls
     * against themselves are 1 to within the rounds' noise (a round-to-round slowdown, which the
     * old correction took for overhead, would show here as a ratio away from 1).
     */
    @Test
    void theCallRatioOfTheLongCallsToThemselvesIsOne() {
        CalibratedWork.measureNsPerToken(); // warm, as construction does
        double same = CalibratedWork.callRatio(CalibratedWork.TOKENS);
        assertTrue(same > 0.95 && same < 1.05, "long calls against themselves: " + same);
    }

    /** One I/O on a null_blk in irqmode=0: allocate, submit (completes inline), free. */
    private static long perIo(NullBlk dev, Bioset set, BioEndIo done, int n, long sector) {
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            Bio bio = set.alloc(0, done);
            bio.sector = (sector + i * 8L) & ((1 << 11) - 8);
            bio.size = 4096;
            dev.submitBio(bio);
            set.free(bio);
        }
        return (System.nanoTime() - t0) / n;
    }

    /**
     * base_ns=2000 adds about 2 us per I/O: the fastest round of each device, interleaved, differ
     * by 1.5..3 us. The fastest round is the one least disturbed by anything else on the machine.
     */
    @Test
    void aDeviceWithBaseNsSpendsItPerIo() {
        NullBlk plain = NullBlk.immediate("nullb0", 1 << 20, 512, CpuWork.NONE);
        NullBlk loaded = NullBlk.immediate("nullb1", 1 << 20, 512, CpuWork.forNs(2000));
        long[] ok = new long[1];
        BioEndIo done = bio -> ok[0] += bio.status == BlkStatus.OK ? 1 : 0;
        long bestPlain = Long.MAX_VALUE;
        long bestLoaded = Long.MAX_VALUE;
        try (Bioset set = new Bioset(1, 0)) {
            for (int round = 0; round < 25; round++) {
                bestPlain = Math.min(bestPlain, perIo(plain, set, done, 2000, round));
                bestLoaded = Math.min(bestLoaded, perIo(loaded, set, done, 500, round));
            }
        }
        assertEquals(25 * 2500, ok[0]);
        long added = bestLoaded - bestPlain;
        assertTrue(added >= 1500 && added <= 3000,
                "base_ns=2000 added " + added + " ns per I/O (" + bestPlain + " -> " + bestLoaded + "; " + loaded.work() + ")");
    }

    @Test
    void theEnginesDevicesTakeTheirWorkAtConstruction() {
        CpuWork w = CpuWork.forNs(100);
        assertSame(w, NullBlk.timer("nullb0", 1 << 20, 512, 1000, 1, w).work());
        assertSame(w, new RamDisk("ram0", 1 << 20, w).work());
        assertSame(w, new Zram(GuardKind.RWSEM, Compressor.LZO_RLE, 1, w, SharedLines.NONE).work());
    }
}
