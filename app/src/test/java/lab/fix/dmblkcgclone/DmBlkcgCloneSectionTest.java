package lab.fix.dmblkcgclone;

import static lab.fix.HandWorked.near;
import static lab.fix.HandWorked.pin;
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
import lab.fix.HandWorked.Interval;
import lab.fix.HandWorked.Jvm;
import lab.notebook.Notebook;
import lab.results.RunDir;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dm-blkcg-clone section from the hand-made run of {@link Fixture}, each figure worked out there. */
public class DmBlkcgCloneSectionTest {
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

    /*
     * The headline's figures, worked by hand from Fixture: each round's a/b is a's window bytes over b's, 50 increments each
     * of round(r × 4 MiB) over 4 MiB (4194304 bytes), estimated over the 3 rounds: the geometric mean and exp(m ∓ h),
     * h = t(0.975, 2) × s/√3 = 4.303 × s/1.7320508076. transfer, raw: 2, 7969178/4194304 = 1.9000000954 and
     * 8808038/4194304 = 2.0999999046; logs 0.6931471806, 0.6418539364, 0.7419372993, mean 0.6923128054 (1.9983319457),
     * s 0.0500468982, h = 0.1243334215: [1.7646976701–2.2628978510]. transfer, calibrated: 7549747/4194304 = 1.7999999523,
     * 2 and 7969178/4194304; logs 0.5877866384, 0.6931471806, 0.6418539364, mean 0.6409292518 (1.8982440066), s
     * 0.0526863573, h = 0.1308907304: [1.6653553455–2.1637005690]. The calibrated model's A/A, the headline's (transfer,
     * thin, buffered, 500:500, sub-windows, b ±1%): 209715200/210554060 = 0.9960159400, 209715200/208876340 =
     * 1.0040160604 and 209715200/210134630 = 0.9980039920; logs −0.0039920175, 0.0040080176, −0.0019980008, mean
     * −0.0006606669 (0.9993395513), s 0.0041643111, h = 0.0103455571: [0.9890541229–1.0097319405], reach 0.0109458771 (the
     * lower end's). The raw model's (b ±2%): 209715200/211392920, 209715200/208037480 and 209715200/210554060; logs
     * −0.0079681621, 0.0080321640, −0.0039920175, mean −0.0013093385 (0.9986915183), s 0.0083306773, h = 0.0206962198:
     * [0.9782347977–1.0195760272], reach 0.0217652023.
     */
    public static final Jvm JVM = new Jvm(new Interval(1.9983319456964332, 1.7646976700590968, 2.262897850971358, 3),
            new Interval(1.898244006603531, 1.6653553454843555, 2.1637005689967186, 3),
            new Interval(0.9993395513050984, 0.9890541229298999, 1.0097319404971106, 3),
            new Interval(0.9986915182950046, 0.9782347976970648, 1.0195760272098264, 3));
    /**
     * lost, either set: 1, 4278190/4194304 = 1.0199999809 and 4152361/4194304 = 0.9900000095; logs 0, 0.0198026086,
     * −0.0100503262, mean 0.0032507608 (1.0032560502), s 0.0151896351, h = 4.303 × 0.0151896351/√3 = 0.0377361908.
     */
    public static final Interval LOST = new Interval(1.0032560502449779, 0.9661024157100444, 1.0418385110996766, 3);
    /**
     * The guest's thin buffered 1000:500: 20/10, 21/10 and 19.5/10 MiB/s; logs 0.6931471806, 0.7419373447, 0.6678293726,
     * mean 0.7009712993 (2.0157096143), s 0.0376684286, h = 4.303 × 0.0376684286/√3 = 0.0935811163.
     */
    public static final Interval KERNEL_GUEST = new Interval(2.0157096142593436, 1.8356344718822994, 2.2134500693110084, 3);

    @Test
    void theHeadlineHasTheModelRawCalibratedLostPredictedAndTheGuestsFigure() throws Exception {
        Notebook.Written w = Fixes.notebook(run);
        assertTrue(w.gaps().isEmpty(), w.gaps().toString());
        JsonNode h = fix().path("headline");
        assertEquals(1.92, h.path("seed").asDouble());
        // jvm: the calibrated transfer, thin, buffered, 1000:500 (not the raw one: that is jvm_raw)
        near(JVM.calibrated().value(), h.path("jvm").asDouble(), 1e-9, "the calibrated figure");
        pin(JVM.calibrated(), h.path("jvm_calibrated"), "jvm_calibrated");
        pin(JVM.raw(), h.path("jvm_raw"), "jvm_raw");
        near(LOST.value(), h.path("jvm_lost").asDouble(), 1e-9, "lost, calibrated");
        pin(LOST, h.path("jvm_lost_raw"), "jvm_lost_raw");
        pin(LOST, h.path("jvm_lost_calibrated"), "jvm_lost_calibrated");
        // the verdict at the full run's ±2%, gated by the calibrated A/A (which holds 1): 1.898 [1.665–2.164] lies beyond +2%
        assertEquals(0.02, h.path("target").asDouble());
        assertEquals("effect", h.path("verdict").asText());
        assertEquals("an effect of at least +2% (+89.8%, +66.5% to +116.4%)", h.path("verdict_text").asText());
        assertEquals(2.0, h.path("predicted").asDouble(), "every byte tagged to the writers' groups: the weights' 2.0");
        near(KERNEL_GUEST.value(), h.path("kernel").asDouble(), 1e-9, "the guest's √(2.0 × 2.1)");
        pin(KERNEL_GUEST, h.path("kernel_estimate"), "kernel_estimate");
        // the guest's 2.016 [1.836–2.213], no A/A of its own: an effect
        assertEquals("effect", h.path("kernel_verdict").asText());
        assertEquals("an effect of at least +2% (+101.6%, +83.6% to +121.3%)", h.path("kernel_verdict_text").asText());
        assertTrue(h.path("kernel_note").isNull(), h.toString());
        assertEquals("native (loop); guest VM, tcg, qemu -smp 2 (linear thin), guest kernel 6.1.0-57-amd64, bottom device: null_blk devices,"
                + " 32 MiB/s", h.path("kernel_environment").asText());
        // the headline's A/A is the calibrated model's, the raw model's beside it; the noise floor the calibrated one's reach
        pin(JVM.aa(), h.path("aa"), "aa: the calibrated model's A/A");
        pin(JVM.aaRaw(), h.path("aa_raw"), "aa_raw: the raw model's A/A");
        assertEquals("holds 1", h.path("aa").path("self_test").asText());
        assertEquals(JVM.aa().reach(), h.path("noise_floor").asDouble(), 1e-12);
        assertEquals(0.0109458770701001, h.path("noise_floor").asDouble(), 1e-12, "the calibrated A/A's lower end's reach");
        assertEquals(JVM.aa().reach(), fix().path("jvm").path("calibrated_noise_floor").asDouble(), 1e-12);
        assertEquals(0.0217652023029352, fix().path("jvm").path("noise_floor").asDouble(), 1e-12, "the raw A/A's reach");
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
        // (1) the model: thin buffered 1000:500, lost holding 1 (LOST), transfer 2.0, 1.9 and 2.1 (JVM.raw(): t over 3 rounds), the
        // check holds, all in root / tagged (a's share of the three windows' bytes: 6.0 of 9.0 units of b's, 67%)
        assertTrue(md.contains("| thin | buffered | 1000:500 | 1.00 [0.97–1.04]x (holds 1) | 2.00 [1.76–2.26]x | 2.00x | yes | 10 [10–10] / 10"
                + " [10–10] | 0% / 0% / 100% | 67% / 33% / 0%, tagged |"), md);
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
                + " (fio's bw_bytes) summed, median of 3 round(s)): the real device's time per 1 MiB write, at linear1, thin, every path,"
                + " 1000:500, 500:500, 3 round(s); the model's two writers together reached 1160 [1120–1200] MiB/s of it at thin,"
                + " buffered, 1000:500; A/A 1.00 [0.99–1.01]x (holds 1) (the raw model's 1.00 [0.98–1.02]x (holds 1), each ratio with its own"
                + " interval)"), md);
        assertTrue(md.contains("| thin | buffered | 1000:500 | 1.00x | 1.00 [0.97–1.04]x (holds 1) |"), md);
        // the calibrated transfer, 1.8, 2 and 1.9: 1.898 [1.665–2.164], an interval that now leaves out 1 (over two rounds, with
        // t(1), it was [0.97–3.71] and held it)
        assertTrue(md.contains("| 2.00x | 2.00 [1.76–2.26]x | 1.90 [1.67–2.16]x | 100% / 100% |"), md);
        // (3) the kernel: the guest's 20, 21 and 19.5 MiB/s (median 20.0) over 10 (KERNEL_GUEST); the native loop's 150, 140 and
        // 145 over 150: logs 0, −0.0689928715, −0.0339015517, mean −0.0342981411 (0.9662833729), s 0.0344981455, h = 4.303 ×
        // 0.0344981455/√3 = 0.0857050609: [0.8869175968–1.0527511915]
        assertTrue(md.contains("| guest | thin | buffered | 1000:500 | 2.02 [1.84–2.21]x | held | 20.0 | 10.0 | 60% / 30% / 10% | 3 |"), md);
        assertTrue(md.contains("| native | loop | buffered | 1000:500 | 1.00x | lost (1:1) | 10.0 | 10.0 | — | 1 |"), md);
        assertTrue(md.contains("| native | loop | direct | 500:500 | 0.97 [0.89–1.05]x | 1:1 as asked | 145.0 | 150.0 | — | 3 |"), md);
        assertTrue(md.contains("- cgroup: native: v1 blkio at /sys/fs/cgroup/blkio"), md);
        // (4) the charts, each with its command
        assertTrue(md.contains("![the cumulative a/b ratio over time, thin buffered 1000:500, both variants, round 1]"
                + "(charts/dm-blkcg-clone-converge.svg)\n\nData: `./lab pair dm-blkcg-clone --rounds 3 --id dbc-run`"), md);
        assertTrue(Files.exists(run.resolve("charts/headline-dm-blkcg-clone.svg")));
        // the headline's row: each figure with its verdict at ±2% in a word (JVM, KERNEL_GUEST), the calibrated A/A beside them
        assertTrue(md.contains("| 1.92x | 2.00 [1.76–2.26]x, effect ≥ +2% | 1.90 [1.67–2.16]x, effect ≥ +2% | 2.00x | 2.02 [1.84–2.21]x,"
                + " effect ≥ +2% | 0.999 [0.989–1.010]x |"), md);
        // (5) the reading, and no flamegraph said once with its reason
        assertTrue(md.contains("Today's kernel at 1000:500 (the table above; its environment in env.txt): native loop buffered 1.00x"
                + " (lost (1:1)); guest thin direct 1.00x (lost (1:1)); guest thin buffered 2.02 [1.84–2.21]x (held). Natively the"
                + " cgroups are v1 (env.txt), which has no cgroup writeback"), md);
        assertTrue(md.contains("(the root's share at most 1%) and still did not split as the weights ask (guest thin direct), the"
                + " association survived the stack"), md);
        assertTrue(md.contains("The model, thin volume, 1000:500: buffered `lost` 1.00 [0.97–1.04]x, `transfer` 2.00 [1.76–2.26]x; direct"
                + " `lost` 1.00 [0.97–1.04]x, `transfer` 1.00 [0.97–1.04]x; direct through one dm-linear `lost` 2.00 [2.00–2.00]x,"
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
        for (int r = 1; r <= 3; r++) {
            Files.delete(DmBlkcgCloneRaw.file(run.resolve("raw/dm-blkcg-clone"), DmBlkcgCloneRaw.CALIBRATED, r));
        }
        Fixes.notebook(run);
        String md = Files.readString(run.resolve("NOTEBOOK.md"));
        assertTrue(md.contains("No calibrated model in this run (`raw/dm-blkcg-clone/calibrated-rK.json`): the kernel side did not run."), md);
        assertTrue(md.contains("No kernel table in this run: the kernel side did not run."), md);
        JsonNode h = fix().path("headline");
        near(JVM.raw().value(), h.path("jvm").asDouble(), 1e-9, "the raw figure where there is no calibrated one");
        pin(JVM.aaRaw(), h.path("aa"), "the raw model's A/A, the only one");
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
        assertTrue(w.gaps().getFirst().contains("`raw/dm-blkcg-clone/kernel/runs.tsv`: line 10: 2 tab-separated fields, not 12"),
                w.gaps().toString());
        String md = Files.readString(run.resolve("NOTEBOOK.md"));
        assertTrue(md.contains("No kernel table in this run: raw/dm-blkcg-clone/kernel/runs.tsv could not be read (line 10:"), md);
        assertTrue(md.contains("| thin | buffered | 1000:500 |"), "the model's table is still there");
        assertTrue(fix().path("headline").path("kernel").isNull());
    }

    @Test
    void aMissingFioFileIsAGapAndItsRowIsLeftOut() throws Exception {
        Files.delete(kernel.resolve("guest-thin-buffered-1000-500-r2-a.fio.json"));
        Notebook.Written w = Fixes.notebook(run);
        assertEquals(1, w.gaps().size(), w.gaps().toString());
        assertTrue(w.gaps().getFirst().contains("guest-thin-buffered-1000-500-r2-a.fio.json"), w.gaps().toString());
        // rounds 1 and 3, 20/10 and 19.5/10: √(2.0 × 1.95) = √3.9, and under three rounds no interval
        assertEquals(Math.sqrt(3.9), fix().path("headline").path("kernel").asDouble(), 1e-9, "rounds 1 and 3");
        pin(Interval.none(1.9748417658131499, 2), fix().path("headline").path("kernel_estimate"), "2 rounds: no interval");
        assertEquals("no-interval", fix().path("headline").path("kernel_verdict").asText());
        assertEquals("2 rounds: no interval", fix().path("headline").path("kernel_verdict_text").asText());
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
     * is the native thin buffered 1000:500 row (19 / 10, 20 / 10 and 19.5 / 10 MiB/s), said to be
     * native; the section says the dm stacks ran natively and never that anything ran in the guest VM.
     */
    @Test
    void nativelyTheHeadlineTakesTheNativeThinRowAndNothingIsCalledGuest() throws Exception {
        Fixture.nativeKernel(kernel, false);
        Notebook.Written w = Fixes.notebook(run);
        assertTrue(w.gaps().isEmpty(), w.gaps().toString());
        JsonNode h = fix().path("headline");
        // the native thin row: 19/10, 20/10 and 19.5/10 MiB/s; logs 0.6418538862, 0.6931471806, 0.6678293726, mean
        // 0.6676101464 (1.9495725559), s 0.0256473499, h = 4.303 × 0.0256473499/√3 = 0.0637166913
        Interval nativeThin = new Interval(1.949572555882843, 1.829226966837635, 2.077835730369991, 3);
        near(nativeThin.value(), h.path("kernel").asDouble(), 1e-9, "∛(1.9 × 2.0 × 1.95)");
        pin(nativeThin, h.path("kernel_estimate"), "the native thin row");
        assertTrue(h.path("kernel_note").isNull(), h.toString());
        assertEquals("native, kernel 6.18.44, bottom device: loop devices over files in a tmpfs", h.path("kernel_environment").asText());
        assertTrue(h.path("note").asText().endsWith("kernel: today's kernel, which has the fix, natively (kernel_environment)"),
                h.toString());
        // the calibration's disk is still the native loop direct 500:500: 295 MiB/s
        assertEquals(295, DmBlkcgCloneKernel.read(RunDir.open(run), kernel).bandwidth().mibPerSec(), 1e-9);
        String s = section(Files.readString(run.resolve("NOTEBOOK.md")));
        assertTrue(s.contains("natively on a loop device (no dm: whether weights work here at all), and natively through dm-linear and a"
                + " thin volume."), s);
        assertTrue(s.contains("| native | thin | buffered | 1000:500 | " + lab.analysis.estimate.Estimator.of(List.of(1.9, 2.0, 1.95)).format(2) + "x | held | 19.5 | 10.0 | 65% / 33% / 2% | 3 |"), s);
        assertTrue(s.contains("| native | linear | buffered | 1000:500 | 1.80x | held | 18.0 | 10.0 | 64% / 35% / 1% | 1 |"), s);
        assertTrue(s.contains("- modules: native: loaded by the lab, unloaded after: dm_thin_pool, dm_mod"), s);
        assertTrue(s.contains("native thin buffered " + lab.analysis.estimate.Estimator.of(List.of(1.9, 2.0, 1.95)).format(2) + "x (held)"), s);
        for (String word : List.of("in the guest VM", "guest thin", "emulat", "TCG")) {
            assertFalse(s.contains(word), word + ": " + s);
        }
    }

    /**
     * With a native and a guest thin row (here the guest under KVM) the headline takes the native one
     * (1.950, not the guest's 2.016) and says the guest's is in the section; the section says the dm
     * stacks ran natively and in the guest VM, and calls nothing emulated.
     */
    @Test
    void withNativeAndGuestThinRowsTheHeadlinePrefersTheNativeAndSaysSo() throws Exception {
        Fixture.nativeKernel(kernel, true);
        Fixes.notebook(run);
        JsonNode h = fix().path("headline");
        near(1.949572555882843, h.path("kernel").asDouble(), 1e-9, "∛(1.9 × 2.0 × 1.95), the native row's, not the guest's ∛(2.0 × 2.1 × 1.95)");
        assertEquals("native, kernel 6.18.44, bottom device: loop devices over files in a tmpfs; the guest VM's thin buffered"
                + " 1000:500 row is in the section", h.path("kernel_environment").asText());
        String s = section(Files.readString(run.resolve("NOTEBOOK.md")));
        assertTrue(s.contains("and natively and in the guest VM through dm-linear and a thin volume."), s);
        assertTrue(s.contains("| guest | thin | buffered | 1000:500 | 2.02 [1.84–2.21]x | held |"), s);
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
        pin(KERNEL_GUEST, fix().path("headline").path("kernel_estimate"), "the guest's thin row");
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
