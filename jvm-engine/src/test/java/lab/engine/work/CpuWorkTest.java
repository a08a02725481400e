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

    @Test
    void aRunsFixedNsPerTokenIsAPositiveNumberOrANamedError() {
        assertTrue(Double.isNaN(CalibratedWork.fixedNsPerToken(null)));
        assertTrue(Double.isNaN(CalibratedWork.fixedNsPerToken(" ")));
        assertEquals(1.86, CalibratedWork.fixedNsPerToken("1.86"), 0);
        for (String bad : new String[] {"fast", "0", "-1", "NaN", "Infinity"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CalibratedWork.fixedNsPerToken(bad));
            assertTrue(e.getMessage().contains(CalibratedWork.NS_PER_TOKEN_PROPERTY), e.getMessage());
        }
    }

    /** A JVM given the run's ns per token spends exactly the tokens that value asks for, whatever this JVM would measure. */
    @Test
    void aJvmGivenTheRunsNsPerTokenSpendsTheTokensItAsksFor() throws Exception {
        String jvm = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(jvm, "-cp", System.getProperty("java.class.path"), "-D" + CalibratedWork.NS_PER_TOKEN_PROPERTY + "=4.0",
                PrintTokens.class.getName(), "40000").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        assertEquals(0, p.waitFor(), out);
        String[] f = out.lines().reduce((a, b) -> b).orElse("").split(" ");
        assertEquals(4.0, Double.parseDouble(f[1]), 0, out);
        // 40000 ns at 4 ns per token: 10000 tokens before the call ratio (about 1 for a call this long)
        long tokens = Long.parseLong(f[0]);
        assertTrue(tokens > 9_000 && tokens < 11_000, out);
    }

    /** Prints a work's tokens and ns per token (a child JVM of {@link #aJvmGivenTheRunsNsPerTokenSpendsTheTokensItAsksFor}). */
    public static final class PrintTokens {
        public static void main(String[] a) {
            CalibratedWork w = (CalibratedWork) CpuWork.forNs(Long.parseLong(a[0]));
            System.out.println(w.tokens() + " " + w.nsPerToken());
        }
    }
}
