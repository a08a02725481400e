package lab.fix.partacct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lab.fix.Calibrations;
import lab.notebook.KernelRuns;
import lab.results.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which kernel runs part-acct calibrates to, read from files as kernel-scripts leave them. */
class PartAcctPairingTest {
    @TempDir
    Path run;

    /** One fio run of {@code ios} I/Os in 1 s at usr and sys percent, and perf's task-clock for it. */
    private void fio(Path kdir, String job, long ios, double usr, double sys, double taskClockMs) throws IOException {
        Files.writeString(kdir.resolve(job + ".fio.json"), """
            {"fio version":"fio-3.33","jobs":[{"jobname":"x","groupid":0,"error":0,
              "read":{"io_bytes":%d,"iops":%d,"total_ios":%d},"write":{"iops":0,"total_ios":0},
              "job_runtime":1000,"usr_cpu":%s,"sys_cpu":%s,"ctx":0}]}
            """.formatted(ios * 4096, ios, ios, usr, sys));
        Files.writeString(kdir.resolve(job + ".fio.perf.csv"), taskClockMs + ",msec,task-clock,1000000000,100.00,1.0,CPUs utilized\n");
    }

    private KernelRuns runs(Path kdir) throws IOException {
        return KernelRuns.read(RunDir.open(run), kdir);
    }

    @Test
    void zramWithAccountingAtOneJobIsTheFigureAndFiosUserShareComesWithIt() throws IOException {
        Path kdir = Files.createDirectories(run.resolve("raw/part-acct/kernel"));
        fio(kdir, "zram-disk-iostats1-j1-r1", 1000, 10, 90, 2.3);   // 2300 ns per I/O, user share 0.10
        fio(kdir, "zram-disk-iostats1-j1-r2", 1000, 14, 86, 2.5);   // 2500, 0.14
        fio(kdir, "zram-disk-iostats1-j1-r3", 1000, 12, 88, 2.4);   // 2400, 0.12
        fio(kdir, "zram-disk-iostats0-j1-r1", 1000, 50, 50, 9.0);   // accounting off: not it
        fio(kdir, "zram-disk-iostats1-j2-r1", 1000, 50, 50, 9.0);   // two jobs: not it
        fio(kdir, "zram-part-iostats1-j1-r1", 1000, 50, 50, 9.0);   // the partition: not it
        fio(kdir, "loop-disk-iostats1-j1-r1", 1000, 50, 50, 12.0);  // zram comes first
        Calibrations.KernelFigure k = PartAcctPairing.kernelFigure(runs(kdir));
        assertEquals(2400, k.nsPerIo(), 1e-6);
        assertEquals(0.12, k.userShare(), 1e-9);
        assertTrue(k.source().startsWith("zram (native), whole disk, fio psync 4k randread, 1 job, queue/iostats=1, median of 3 round(s)"),
                k.source());
    }

    @Test
    void withoutZramLoopIsTheFigureAndWithoutEitherThereIsNone() throws IOException {
        Path kdir = Files.createDirectories(run.resolve("raw/part-acct/kernel"));
        fio(kdir, "zram-disk-iostats0-j1-r1", 1000, 50, 50, 9.0);
        assertNull(PartAcctPairing.kernelFigure(runs(kdir)));
        fio(kdir, "loop-disk-iostats1-j1-r1", 1000, 20, 80, 12.0);
        Calibrations.KernelFigure k = PartAcctPairing.kernelFigure(runs(kdir));
        assertEquals(12000, k.nsPerIo(), 1e-6);
        assertEquals(0.2, k.userShare(), 1e-9);
    }

    @Test
    void jmhIncludesMatchOneBenchmarkEach() {
        java.util.function.BiPredicate<String, String> runs = (regex, name) -> java.util.regex.Pattern.compile(regex).matcher(name).find();
        assertTrue(runs.test(PartAcctRaw.IO, "lab.engine.bench.PartAcct.io"));
        assertFalse(runs.test(PartAcctRaw.IO, "lab.engine.bench.PartInFlightSum.sum"));
        assertTrue(runs.test(PartAcctRaw.SUM, "lab.engine.bench.PartInFlightSum.sum"));
        assertFalse(runs.test(PartAcctRaw.SUM, "lab.engine.bench.PartAcct.io"));
    }

    /**
     * Where null_blk ran natively (env.txt lists it among the native devices), the seed's device is
     * the figure, before zram: 3100, 3300, 3200 ns per I/O, median 3200, fio's user share 0.2.
     */
    @Test
    void nativeNullBlkComesBeforeZram() throws IOException {
        Path kdir = Files.createDirectories(run.resolve("raw/part-acct/kernel"));
        Files.writeString(kdir.resolve("env.txt"), "environment: native (zram, loop, nullb)\n"
                + "guest: skipped: not needed: this kernel has null_blk (it ran natively)\n");
        fio(kdir, "zram-disk-iostats1-j1-r1", 1000, 10, 90, 2.3);
        fio(kdir, "nullb-disk-iostats1-j1-r1", 1000, 20, 80, 3.1);
        fio(kdir, "nullb-disk-iostats1-j1-r2", 1000, 20, 80, 3.3);
        fio(kdir, "nullb-disk-iostats1-j1-r3", 1000, 20, 80, 3.2);
        fio(kdir, "nullb-disk-iostats0-j1-r1", 1000, 50, 50, 9.0);  // accounting off: not it
        Calibrations.KernelFigure k = PartAcctPairing.kernelFigure(runs(kdir));
        assertEquals(3200, k.nsPerIo(), 1e-6);
        assertEquals(0.2, k.userShare(), 1e-9);
        assertEquals("null_blk (native), whole disk, fio psync 4k randread, 1 job, queue/iostats=1, median of 3 round(s)", k.source());
    }

    /** In the guest VM null_blk comes last, and is "emulated" under TCG only. */
    @Test
    void aGuestsNullBlkIsEmulatedUnderTcgOnly() throws IOException {
        Path kdir = Files.createDirectories(run.resolve("raw/part-acct/kernel"));
        fio(kdir, "nullb-disk-iostats1-j1-r1", 1000, 20, 80, 30.0);
        Files.writeString(kdir.resolve("env.txt"), "environment: native (zram, loop); guest VM (nullb)\n"
                + "guest_environment: tcg (qemu -smp 2, cpu qemu64; absolute figures are emulation speed: use ratios within the run)\n");
        assertTrue(PartAcctPairing.kernelFigure(runs(kdir)).source().startsWith("null_blk in the guest VM (emulated), whole disk"));
        Files.writeString(kdir.resolve("env.txt"), "environment: native (zram, loop); guest VM (nullb)\n"
                + "guest_environment: kvm (qemu -smp 4, cpu host; under KVM: virtualised, not emulated)\n");
        Calibrations.KernelFigure kvm = PartAcctPairing.kernelFigure(runs(kdir));
        assertEquals(30000, kvm.nsPerIo(), 1e-6);
        assertTrue(kvm.source().startsWith("null_blk in the guest VM (KVM: virtualised, not emulated), whole disk"), kvm.source());
        fio(kdir, "zram-disk-iostats1-j1-r1", 1000, 10, 90, 2.3);
        assertTrue(PartAcctPairing.kernelFigure(runs(kdir)).source().startsWith("zram (native)"), "a guest's null_blk comes after zram");
    }
}
