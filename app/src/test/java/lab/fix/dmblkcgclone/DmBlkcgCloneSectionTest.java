package lab.fix.dmblkcgclone;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.fix.Fixes;
import lab.notebook.Notebook;
import lab.results.RunDir;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dm-blkcg-clone section from the hand-made run of {@link Fixture}, each figure worked out there. */
class DmBlkcgCloneSectionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    Path run;
    Path kernel;

    @BeforeEach
    void fixture() throws Exception {
        run = Fixture.run(tmp);
        kernel = run.resolve("raw/dm-blkcg-clone/kernel");
    }

    private JsonNode fix() throws Exception {
        return JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path("dm-blkcg-clone");
    }

    /** env.txt's per-side values: "native: X | guest: Y" gives each side its own; a value for both sides is both's. */
    @Test
    void envFactsAreTakenPerSide() throws Exception {
        DmBlkcgCloneKernel k = DmBlkcgCloneKernel.read(RunDir.open(run), kernel);
        assertEquals("null_blk devices, 32 MiB/s", k.fact(DmBlkcgCloneKernel.GUEST, "bottom"));
        assertEquals("loop devices over files in a tmpfs", k.fact(DmBlkcgCloneKernel.NATIVE, "bottom"));
        assertEquals("v1 blkio at /sys/fs/cgroup/blkio", k.nativeFact("cgroup"));
        assertEquals("bfq", k.fact(DmBlkcgCloneKernel.GUEST, "scheduler"));
        assertNull(k.fact(DmBlkcgCloneKernel.GUEST, "no-such-key"));
        // guest thin direct: every byte charged to a or b, yet 1:1; thin buffered holds, native buffered is the root's
        assertEquals(List.of("guest thin direct 1000:500"), k.chargedButNotHeld(DmBlkcgClone.SEED_WEIGHTS).stream()
                .map(c -> c.env() + " " + c.stack() + " " + c.path() + " " + c.weights()).toList());
    }

    @Test
    void theHeadlineHasTheModelRawCalibratedLostPredictedAndTheGuestsFigure() throws Exception {
        Notebook.Written w = Fixes.notebook(run);
        assertTrue(w.gaps().isEmpty(), w.gaps().toString());
        JsonNode h = fix().path("headline");
        assertEquals(1.92, h.path("seed").asDouble());
        // calibrated transfer, thin, buffered, 1000:500: 1.8 then 2.0; raw 2.0 then 1.9: geometric means, t over 2 rounds
        assertEquals(Math.sqrt(1.8 * 2.0), h.path("jvm").asDouble(), 1e-6);
        assertEquals(Math.sqrt(1.8 * 2.0), h.path("jvm_calibrated").path("value").asDouble(), 1e-6);
        assertTrue(h.path("jvm_calibrated").path("ci95").get(0).asDouble() < 1.8, h.toString());
        assertEquals(Math.sqrt(2.0 * 1.9), h.path("jvm_raw").path("value").asDouble(), 1e-6);
        assertEquals(2, h.path("jvm_raw").path("rounds").asInt());
        // lost 1.0 then 1.02 in either set
        assertEquals(Math.sqrt(1.02), h.path("jvm_lost").asDouble(), 1e-6);
        assertEquals(Math.sqrt(1.02), h.path("jvm_lost_raw").path("value").asDouble(), 1e-6);
        assertTrue(h.path("jvm_lost_calibrated").path("ci95").get(1).asDouble() > 1.02, h.toString());
        assertEquals(2.0, h.path("predicted").asDouble(), "every byte tagged to the writers' groups: the weights' 2.0");
        // the guest's thin, buffered, 1000:500: 20 / 10 then 21 / 10 MiB/s
        assertEquals(Math.sqrt(2.0 * 2.1), h.path("kernel").asDouble(), 1e-6);
        assertEquals(2, h.path("kernel_estimate").path("ci95").size());
        assertTrue(h.path("kernel_note").isNull(), h.toString());
        assertEquals("native (loop); guest VM, tcg, qemu -smp 2 (linear thin), guest kernel 6.1.0-57-amd64, bottom device: null_blk devices,"
                + " 32 MiB/s", h.path("kernel_environment").asText());
        assertTrue(h.path("aa").path("value").isNumber() && h.path("aa_raw").path("value").isNumber(), h.toString());
        assertEquals(h.path("noise_floor").asDouble(), fix().path("jvm").path("calibrated_noise_floor").asDouble());
        assertEquals(295, fix().path("jvm").path("calibrated_mib_per_sec").asDouble());
        assertTrue(h.path("base_ns").isNull(), "the base is a bandwidth, not ns per I/O");
        assertTrue(h.path("base_source").asText().startsWith("the disk's bandwidth, 295.0 MiB/s: today's kernel natively (6.18.44), loop"
                + " devices over files in a tmpfs: fio rw=write bs=1M direct=1"), h.toString());
    }

    @Test
    void theSectionRendersEveryTableFromTheRawFilesAndRegeneratesByteIdentically() throws Exception {
        Fixes.notebook(run);
        String md = Files.readString(run.resolve("NOTEBOOK.md"));
        byte[] first = Files.readAllBytes(run.resolve("NOTEBOOK.md"));
        byte[] summary = Files.readAllBytes(run.resolve("summary.json"));
        Fixes.notebook(run);
        assertArrayEquals(first, Files.readAllBytes(run.resolve("NOTEBOOK.md")));
        assertArrayEquals(summary, Files.readAllBytes(run.resolve("summary.json")));
        assertTrue(md.contains("## dm-blkcg-clone: stacked dm devices copy the bio's blkcg association to their clones"), md);
        assertTrue(md.contains("| buffered, 6 GB vs 3 GB | 1000:500 | 29.9 MB/s | 15.6 MB/s | 1.92x |"), md);
        // (1) the model: thin buffered 1000:500, lost holding 1, transfer 2.0 and 1.9 (t over 2 rounds), the check holds, all in root / tagged
        assertTrue(md.contains("| thin | buffered | 1000:500 | 1.01 [0.89–1.15]x (holds 1) | 1.95 [1.41–2.70]x | 2.00x | yes | 10 [10–10] / 10"
                + " [10–10] | 0% / 0% / 100% | 66% / 34% / 0%, tagged |"), md);
        // direct through linear keeps the weights either way, by task; through thin loses them either way, to the root group
        assertTrue(md.contains("| linear1 | direct | 1000:500 | 2.00 [2.00–2.00]x | 2.00 [2.00–2.00]x | 2.00x | no: `lost` keeps the weights"
                + " too, its bios charged"
                + " by task"), md);
        assertTrue(md.contains("| thin | direct | 1000:500 |"), md);
        assertTrue(md.contains("no: `transfer` loses them too, every byte charged to the root group"), md);
        assertTrue(md.contains("holds at linear1 buffered 1000:500, thin buffered 1000:500; not at linear1 direct 1000:500, thin direct"
                + " 1000:500"), md);
        // (2) calibrated beside raw, and the prediction
        assertTrue(md.contains("the disk's bandwidth set to the kernel's, 295.0 MiB/s (today's kernel natively (6.18.44), loop devices"
                + " over files in a tmpfs: fio rw=write bs=1M direct=1, one job in each of two cgroups at blkio weights 500:500, the two jobs' write bandwidths"
                + " (fio's bw_bytes) summed, median of 2 round(s)): the real device's time per 1 MiB write, at linear1, thin, every path,"
                + " 1000:500, 500:500, 2 round(s); the model's two writers together reached 1160 [1120–1200] MiB/s of it at thin,"
                + " buffered, 1000:500"), md);
        assertTrue(md.contains("| thin | buffered | 1000:500 | 1.00x | 1.01 [0.89–1.15]x (holds 1) |"), md);
        assertTrue(md.contains("| 2.00x | 1.95 [1.41–2.70]x | 1.90 [0.97–3.71]x (holds 1) | 100% / 100% |"), md);
        // (3) the kernel
        assertTrue(md.contains("| guest | thin | buffered | 1000:500 | 2.05 [1.50–2.79]x | held | 20.5 | 10.0 | 60% / 30% / 10% | 2 |"), md);
        assertTrue(md.contains("| native | loop | buffered | 1000:500 | 1.00x | lost (1:1) | 10.0 | 10.0 | — | 1 |"), md);
        assertTrue(md.contains("| native | loop | direct | 500:500 | 0.97 [0.62–1.50]x | 1:1 as asked | 145.0 | 150.0 | — | 2 |"), md);
        assertTrue(md.contains("- cgroup: native: v1 blkio at /sys/fs/cgroup/blkio"), md);
        // (4) the charts, each with its command
        assertTrue(md.contains("![the cumulative a/b ratio over time, thin buffered 1000:500, both variants, round 1]"
                + "(charts/dm-blkcg-clone-converge.svg)\n\nData: `./lab pair dm-blkcg-clone --rounds 2 --id dbc-run`"), md);
        assertTrue(Files.exists(run.resolve("charts/headline-dm-blkcg-clone.svg")));
        // (5) the reading, and no flamegraph said once with its reason
        assertTrue(md.contains("Today's kernel at 1000:500 (the table above; its environment in env.txt): native loop buffered 1.00x"
                + " (lost (1:1)); guest thin direct 1.00x (lost (1:1)); guest thin buffered 2.05 [1.50–2.79]x (held). Natively the"
                + " cgroups are v1 (env.txt), which has no cgroup writeback"), md);
        assertTrue(md.contains("(the root's share at most 1%) and still did not split as the weights ask (guest thin direct), the"
                + " association survived the stack"), md);
        assertTrue(md.contains("The model, thin volume, 1000:500: buffered `lost` 1.01 [0.89–1.15]x, `transfer` 1.95 [1.41–2.70]x; direct"
                + " `lost` 1.01 [0.89–1.15]x, `transfer` 1.01 [0.89–1.15]x; direct through one dm-linear `lost` 2.00 [2.00–2.00]x,"
                + " `transfer` 2.00 [2.00–2.00]x."), md);
        assertFalse(md.contains("`direct-assoc`, thin, 1000:500"), "the run has no direct-assoc: nothing said of it");
        assertTrue(md.contains("CPU flamegraphs: none"), md);
        assertTrue(md.contains("Every figure of this section: `./lab pair dm-blkcg-clone`"), md);
    }

    @Test
    void withoutAKernelSideThereIsNoCalibrationAndTheNotebookSaysWhy() throws Exception {
        try (var s = Files.walk(kernel)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        for (int r = 1; r <= 2; r++) {
            Files.delete(DmBlkcgCloneRaw.file(run.resolve("raw/dm-blkcg-clone"), DmBlkcgCloneRaw.CALIBRATED, r));
        }
        Fixes.notebook(run);
        String md = Files.readString(run.resolve("NOTEBOOK.md"));
        assertTrue(md.contains("No calibrated model in this run (`raw/dm-blkcg-clone/calibrated-rK.json`): the kernel side did not run."), md);
        assertTrue(md.contains("No kernel table in this run: the kernel side did not run."), md);
        JsonNode h = fix().path("headline");
        assertEquals(Math.sqrt(2.0 * 1.9), h.path("jvm").asDouble(), 1e-6, "the raw figure where there is no calibrated one");
        assertTrue(h.path("jvm_calibrated").isNull());
        assertTrue(h.path("kernel").isNull());
        assertEquals("the kernel side did not run", h.path("kernel_note").asText());
        assertTrue(h.path("aa_raw").isMissingNode(), "one A/A, the raw one: " + h);
    }

    @Test
    void aMalformedRunsTsvIsAGapAndTheModelIsStillRendered() throws Exception {
        Files.writeString(kernel.resolve("runs.tsv"), Files.readString(kernel.resolve("runs.tsv")) + "guest\tthin\n");
        Notebook.Written w = Fixes.notebook(run);
        assertEquals(1, w.gaps().size(), w.gaps().toString());
        assertTrue(w.gaps().getFirst().contains("`raw/dm-blkcg-clone/kernel/runs.tsv`: line 8: 2 tab-separated fields, not 12"),
                w.gaps().toString());
        String md = Files.readString(run.resolve("NOTEBOOK.md"));
        assertTrue(md.contains("No kernel table in this run: raw/dm-blkcg-clone/kernel/runs.tsv could not be read (line 8:"), md);
        assertTrue(md.contains("| thin | buffered | 1000:500 |"), "the model's table is still there");
        assertTrue(fix().path("headline").path("kernel").isNull());
    }

    @Test
    void aMissingFioFileIsAGapAndItsRowIsLeftOut() throws Exception {
        Files.delete(kernel.resolve("guest-thin-buffered-1000-500-r2-a.fio.json"));
        Notebook.Written w = Fixes.notebook(run);
        assertEquals(1, w.gaps().size(), w.gaps().toString());
        assertTrue(w.gaps().getFirst().contains("guest-thin-buffered-1000-500-r2-a.fio.json"), w.gaps().toString());
        assertEquals(2.0, fix().path("headline").path("kernel").asDouble(), 1e-9, "round 1 alone");
    }

    @Test
    void theKernelsBandwidthCalibratesTheModel() throws Exception {
        DmBlkcgCloneKernel k = DmBlkcgCloneKernel.read(RunDir.open(run), kernel);
        DmBlkcgCloneKernel.Bandwidth bw = k.bandwidth();
        assertNotNull(bw);
        assertEquals(295, bw.mibPerSec(), 1e-9, "150 + 150 and 140 + 150 MiB/s: the median of 300 and 290");
        Files.writeString(kernel.resolve("runs.tsv"), Fixture.HEADER + "\n");
        Files.writeString(kernel.resolve("env.txt"), "native_why: cgroup v1 has no io.weight here\n");
        DmBlkcgCloneKernel none = DmBlkcgCloneKernel.read(RunDir.open(run), kernel);
        assertNull(none.bandwidth());
        assertEquals("no native loop direct 500:500 row in runs.tsv (native: cgroup v1 has no io.weight here)", none.whyNoBandwidth());
        assertFalse(none.whyNoFigure().isEmpty());
    }

    /** The section of {@code md}: from its "## dm-blkcg-clone" heading to the next section's. */
    private static String section(String md) {
        int from = md.indexOf("## dm-blkcg-clone");
        int to = md.indexOf("\n## ", from + 1);
        return md.substring(from, to < 0 ? md.length() : to);
    }

    /**
     * Where the host kernel has device-mapper every stack runs natively: the headline's kernel figure
     * is the native thin buffered 1000:500 row (19 / 10 and 20 / 10 MiB/s: 1.95 [1.90–2.00]), said to be
     * native; the section says the dm stacks ran natively and never that anything ran in the guest VM.
     */
    @Test
    void nativelyTheHeadlineTakesTheNativeThinRowAndNothingIsCalledGuest() throws Exception {
        Fixture.nativeKernel(kernel, false);
        Notebook.Written w = Fixes.notebook(run);
        assertTrue(w.gaps().isEmpty(), w.gaps().toString());
        JsonNode h = fix().path("headline");
        assertEquals(Math.sqrt(1.9 * 2.0), h.path("kernel").asDouble(), 1e-6);
        assertEquals(2, h.path("kernel_estimate").path("rounds").asInt());
        assertTrue(h.path("kernel_note").isNull(), h.toString());
        assertEquals("native, kernel 6.18.44, bottom device: loop devices over files in a tmpfs", h.path("kernel_environment").asText());
        assertTrue(h.path("note").asText().endsWith("kernel: today's kernel, which has the fix, natively (kernel_environment)"),
                h.toString());
        // the calibration's disk is still the native loop direct 500:500: 295 MiB/s
        assertEquals(295, DmBlkcgCloneKernel.read(RunDir.open(run), kernel).bandwidth().mibPerSec(), 1e-9);
        String s = section(Files.readString(run.resolve("NOTEBOOK.md")));
        assertTrue(s.contains("natively on a loop device (no dm: whether weights work here at all), and natively through dm-linear and a"
                + " thin volume."), s);
        assertTrue(s.contains("| native | thin | buffered | 1000:500 | " + lab.analysis.estimate.Estimator.of(List.of(1.9, 2.0)).format(2) + "x | held | 19.5 | 10.0 | 65% / 33% / 2% | 2 |"), s);
        assertTrue(s.contains("| native | linear | buffered | 1000:500 | 1.80x | held | 18.0 | 10.0 | 64% / 35% / 1% | 1 |"), s);
        assertTrue(s.contains("- modules: native: loaded by the lab, unloaded after: dm_thin_pool, dm_mod"), s);
        assertTrue(s.contains("native thin buffered " + lab.analysis.estimate.Estimator.of(List.of(1.9, 2.0)).format(2) + "x (held)"), s);
        for (String word : List.of("in the guest VM", "guest thin", "emulat", "TCG")) {
            assertFalse(s.contains(word), word + ": " + s);
        }
    }

    /**
     * With a native and a guest thin row (here the guest under KVM) the headline takes the native one
     * (1.95, not the guest's 2.05) and says the guest's is in the section; the section says the dm
     * stacks ran natively and in the guest VM, and calls nothing emulated.
     */
    @Test
    void withNativeAndGuestThinRowsTheHeadlinePrefersTheNativeAndSaysSo() throws Exception {
        Fixture.nativeKernel(kernel, true);
        Fixes.notebook(run);
        JsonNode h = fix().path("headline");
        assertEquals(Math.sqrt(1.9 * 2.0), h.path("kernel").asDouble(), 1e-6);
        assertEquals("native, kernel 6.18.44, bottom device: loop devices over files in a tmpfs; the guest VM's thin buffered"
                + " 1000:500 row is in the section", h.path("kernel_environment").asText());
        String s = section(Files.readString(run.resolve("NOTEBOOK.md")));
        assertTrue(s.contains("and natively and in the guest VM through dm-linear and a thin volume."), s);
        assertTrue(s.contains("| guest | thin | buffered | 1000:500 | 2.05 [1.50–2.79]x | held |"), s);
        assertFalse(s.contains("emulation speed") || s.contains("TCG"), s);
    }

    /**
     * Where the host kernel has no BFQ every stack runs in the guest VM: the section says the loop
     * stack ran there, the model is not calibrated to the guest's loop (and says why), and the
     * headline's kernel figure is the guest's thin row.
     */
    @Test
    void withoutBfqHereTheLoopStackRunsInTheGuestAndCalibratesNothing() throws Exception {
        Fixture.guestOnlyKernel(kernel);
        DmBlkcgCloneKernel k = DmBlkcgCloneKernel.read(RunDir.open(run), kernel);
        assertNull(k.bandwidth());
        assertEquals("no native loop direct 500:500 row in runs.tsv (native: loop, linear, thin: this kernel has no bfq I/O scheduler);"
                + " the guest VM's loop row is a VM's disk, not this host's: the model is not calibrated to it", k.whyNoBandwidth());
        Fixes.notebook(run);
        assertEquals(Math.sqrt(2.0 * 2.1), fix().path("headline").path("kernel").asDouble(), 1e-6);
        String s = section(Files.readString(run.resolve("NOTEBOOK.md")));
        assertTrue(s.contains("started together; in the guest VM on a loop device (no dm: whether weights work here at all), and in the"
                + " guest VM through dm-linear and a thin volume."), s);
        assertTrue(s.contains("| guest | loop | direct | 500:500 | 1.00x | 1:1 as asked |"), s);
        assertFalse(s.contains("natively on a loop device"), s);
    }

    /** Without either thin row the headline has no kernel figure, and says what each side's env.txt gave for it. */
    @Test
    void withoutAThinRowTheHeadlineSaysWhyForBothSides() throws Exception {
        Fixture.nativeKernel(kernel, false);
        Files.writeString(kernel.resolve("runs.tsv"), Files.readAllLines(kernel.resolve("runs.tsv")).stream()
                .filter(l -> !l.contains("\tthin\t")).collect(java.util.stream.Collectors.joining("\n", "", "\n")));
        Fixes.notebook(run);
        JsonNode h = fix().path("headline");
        assertTrue(h.path("kernel").isNull());
        assertEquals("no thin buffered 1000:500 row in runs.tsv, native or guest (native: none: linear and thin ran natively (this kernel"
                + " has dm-mod and dm-thin-pool); guest: not needed: this kernel has dm-mod and dm-thin-pool (linear and thin ran natively))",
                h.path("kernel_note").asText());
        assertTrue(h.path("kernel_environment").isNull(), h.toString());
    }
}
