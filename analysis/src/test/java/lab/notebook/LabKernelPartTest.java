package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lab.analysis.estimate.Estimate;
import lab.analysis.parse.LabAbFixture;
import lab.results.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lab kernel's part of a section, from {@link LabAbFixture}'s files in a run folder. */
class LabKernelPartTest {
    private static final Fix FIX = new Fix("zram-init-lock", "t", "seed.txt", "after / before", 1.02, "seed");

    @TempDir
    Path run;

    private RunDir open() throws Exception {
        return empty(run);
    }

    /** An empty run folder at {@code run}: raw/ and a manifest, opened. */
    static RunDir empty(Path run) throws Exception {
        Files.createDirectories(run.resolve("raw"));
        Files.writeString(run.resolve("manifest.json"), "{\"run_id\": \"r\"}");
        return RunDir.open(run);
    }

    private Path labDir() {
        return run.resolve("raw/zram-init-lock/lab-kernel");
    }

    @Test
    void absentWithoutTheTrialsFile() throws Exception {
        RunDir r = open();
        assertTrue(LabKernelPart.read(r, "zram-init-lock").isEmpty());
        assertEquals(List.of(), r.gaps());
    }

    @Test
    void aMalformedFileIsAGapNamingItsLineAndThePartIsLeftOut() throws Exception {
        LabAbFixture.iops(labDir(), 2, 1);
        Path f = labDir().resolve("lab-ab.tsv");
        Files.writeString(f, Files.readString(f).replace("\t-\n", "\t-\tsurplus\n"));
        RunDir r = open();
        assertTrue(LabKernelPart.read(r, "zram-init-lock").isEmpty());
        assertEquals(List.of("`raw/zram-init-lock/lab-kernel/lab-ab.tsv`: line 2: 14 fields, the header has 13"), r.gaps());
    }

    @Test
    void theSubsectionHasTheEnvironmentATableRowPerCountTheSlopeAndTheDerivedFigure() throws Exception {
        LabAbFixture.iops(labDir(), 3, 1, 4, 16, 64);
        String md = LabKernelPart.read(open(), "zram-init-lock").orElseThrow().text(3000.0, 1.05);
        assertTrue(md.startsWith("### The lab kernel: zram-init-lock's before behind a switch\n\n"), md);
        assertTrue(md.contains("Lab kernel `6.1.0-lab+` (linux-source-6.1 6.1.192-3, patches `0123abc`), tcg, 2 CPUs"), md);
        assertTrue(md.contains("The switch `/sys/module/zram/parameters/lab_init_lock` (values rwsem srcu none) at `rwsem`"), md);
        assertTrue(md.contains("and at `none` (the stock value)"), md);
        assertTrue(md.contains("3 rounds over N = 1, 4, 16, 64"), md);
        assertFalse(md.contains("future_key"), md);
        // N=1: 409/400 = 1.0225 (rounds 1 and 3 0.1% off); the A/A the fixture's aa/after 1.004, 0.998, 1.003 over rounds,
        // 1.0016632 [0.9937024–1.0096878] (worked in SwitchSweepTest); Δ 9 ns; the before's counter 2 per I/O
        assertTrue(md.contains("| 1 | 1.02 [1.02–1.03]x | 1.002 [0.994–1.010]x |"), md);
        assertTrue(md.contains(" | 409 | 400 | 9 [9–9] | before 2.00, after 0.00 |"), md);
        assertTrue(md.contains("| 64 | 1.65 [1.65–1.66]x |"), md);
        assertTrue(md.contains("b = 2.00 ns per added shared-line operation per I/O, a = 5.0 ns"), md);
        assertTrue(md.contains("Derived from the slope, not measured: the seed's single operation (N = 1) adds Δ(1) = b·x(1) = 4.0 ns"
                + " to the after's 400 ns per I/O, so after/before = 1.01x"), md);
        assertTrue(md.contains("Measured at N = 1: 1.02 [1.02–1.03]x.\n\n"), md);
        assertTrue(md.contains("With the switch at `rwsem` and count N, its counter moved K = 2.00 operations per I/O per unit of N (the stated"
                + " K is 2.00: down_read and up_read on init_lock per I/O); the slope's x is each trial's own count per I/O."), md);
        assertTrue(md.contains("Under TCG the guest emulates the rest of the kernel slowly, which dilutes a contention ratio: the guest's"
                + " I/O costs 400 ns of CPU (after, N = 1), the model's calibration base 3000 ns per I/O. Carried to the guest's CPU"
                + " per I/O, the model's prediction, 1.05x at its base, becomes 1 + (p − 1)·B/G = 1.3750x"), md);
    }

    /**
     * The headline's kernel figure is N = 1's after/before over rounds: per round 409/400 over
     * 0.999, 1, 1.001, so 409/400·0.999999^(−1/3) = 1.0225003408 with h = 4.303 × 0.0010000004 / √3
     * = 0.0024843391: [1.0199632560–1.0250437365]. Its A/A the fixture's aa/after 1.004, 0.998,
     * 1.003: 1.0016632242 [0.9937023957–1.0096878290] (both worked in SwitchSweepTest), holding 1.
     * summary.json rounds each to 6 decimals.
     */
    @Test
    void theHeadlineTakesNEqualsOnesRatioWithItsFloorAndASourceNote() throws Exception {
        LabAbFixture.iops(labDir(), 3, 1, 16);
        LabKernelPart p = LabKernelPart.read(open(), "zram-init-lock").orElseThrow();
        Map<String, Object> h = p.onto(Headline.of(FIX, open()).kernel(null, "today's kernel cannot switch it")).toMap();
        assertEquals(1.0225003408, (Double) h.get("kernel"), 1e-9);
        String note = (String) h.get("kernel_note");
        assertTrue(note.startsWith("lab kernel 6.1.0-lab+, zram-init-lock switch rwsem vs srcu, tcg, N=1; A/A 1.002 [0.994–1.010]; "), note);
        assertTrue(note.endsWith("; slope 2.00 ns/op"), note);
        @SuppressWarnings("unchecked")
        Map<String, Object> aa = (Map<String, Object>) h.get("aa_kernel");
        assertEquals(1.001663, (Double) aa.get("value"), 1e-12);
        assertEquals(List.of(0.993702, 1.009688), aa.get("ci95"));
        assertEquals(3, aa.get("rounds"));
        assertEquals("holds 1", aa.get("self_test"));
        @SuppressWarnings("unchecked")
        Map<String, Object> k = (Map<String, Object>) h.get("kernel_estimate");
        assertEquals(1.0225, (Double) k.get("value"), 1e-12);
        assertEquals(List.of(1.019963, 1.025044), k.get("ci95"));
        assertEquals(3, k.get("rounds"));
        Map<String, Object> s = p.summary();
        assertEquals(2.0, s.get("ops_per_io"));
        assertEquals(2.0, (Double) s.get("slope_ns_per_op"), 1e-4);
        assertEquals(true, s.get("headline_resolved"));
        assertEquals(2, ((List<?>) s.get("counts")).size());
    }

    /** One JMH entry of the model at the guest's base: {@code guard} = {@code v}, ns per op {@code ns} in each of 3 iterations. */
    private static String entry(String v, double ns) {
        return "{\"benchmark\": \"lab.engine.bench.ZramInitLock.io\", \"mode\": \"avgt\", \"threads\": 2, \"forks\": 1,"
                + " \"params\": {\"guard\": \"" + v + "\", \"baseNs\": \"400\"}, \"primaryMetric\": {\"score\": " + ns
                + ", \"scoreError\": 0.0, \"scoreUnit\": \"ns/op\", \"rawData\": [[" + ns + ", " + ns + ", " + ns + "]]},"
                + " \"secondaryMetrics\": {}}";
    }

    @Test
    void theModelAtTheGuestsCpuPerIoIsAParagraphAndASummaryEntryOnlyWithItsFiles() throws Exception {
        LabAbFixture.iops(labDir(), 3, 1, 16);
        assertEquals(null, LabKernelPart.read(open(), "zram-init-lock").orElseThrow().model());
        Files.writeString(labDir().resolve(LabKernelPart.MODEL_FACTS), String.join("\n", "param: guard", "before: rwsem",
                "after: srcu", "control: srcu~aa", "threads: 2", "rounds: 3", "base_ns: 400", "device_ns: 400", "user_ns: 0",
                "split: all of it device work (the benchmark has no worker work)", "what: zram, randrw on zero pages") + "\n");
        // rwsem 440 ns, srcu 400 (1.10x after/before), the A/A 400 and 402: its A/A over rounds
        for (int r = 1; r <= 3; r++) {
            Files.writeString(labDir().resolve(LabKernelPart.MODEL + "-r" + r + "-t2.json"),
                    "[" + entry("rwsem", 440) + ", " + entry("srcu", 400) + ", " + entry("srcu~aa", r == 2 ? 402 : 400) + "]");
        }
        RunDir r = open();
        LabKernelPart p = LabKernelPart.read(r, "zram-init-lock").orElseThrow();
        assertEquals(List.of(), r.gaps());
        assertEquals(1.10, p.model().ratio().value(), 1e-9);
        String md = p.text(3000.0, 1.05);
        assertTrue(md.contains("The model calibrated to the guest's own CPU per I/O (`raw/zram-init-lock/lab-kernel/model-guest-rR-tT.json`):"
                + " zram, randrw on zero pages, at a base of 400 ns per I/O, the after's task-clock per I/O at N = 1 above (split all of"
                + " it device work (the benchmark has no worker work)), on 2 threads (the guest's CPUs), 3 rounds, each with the after's"
                + " A/A: after/before 1.10 [1.10–1.10]x;"), md);
        assertTrue(md.contains("; the lab kernel measured 1.02 [1.02–1.03]x at N = 1.\n\n"), md);
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) p.summary().get("model_at_guest");
        assertEquals("400", m.get("base_ns"));
        assertTrue(m.get("aa") instanceof Map<?, ?>, m.toString());
    }

    private static String ampEntry(String v, String inject, double ns) {
        return entry(v, ns).replace("\"baseNs\": \"400\"}", "\"baseNs\": \"400\", \"inject\": \"" + inject + "\"}");
    }

    /**
     * The model amplified as the switch amplifies the kernel: its slope fitted per round over x =
     * ops_per_count·N (the kernel's fixture: 2 ns per counted operation, every round), estimated
     * over rounds, and the scorecard's ratio with its bounds; nothing of it without its facts.
     */
    /** The control's ns per op in the amplified sweep's A/A, rounds 1 to 4: the A/A (after over control) is 400 over it. */
    private static final double[] AMP_CONTROL_NS = {392, 408, 400, 404};

    /**
     * The amplified sweep's files in {@code dir}, a round a slope (ns per added operation), {@code where} a facts line or null;
     * its A/A's control at {@link #AMP_CONTROL_NS}.
     */
    private static void amplified(Path dir, String where, double... slope) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(LabKernelPart.AMP_FACTS), String.join("\n", "param: guard", "variant: srcu",
                "control: srcu~aa", "amp: inject", "none: none", "counts: 1=a1 4=a4 16=a16", "ops_per_count: 2", "threads: 2",
                "rounds: " + slope.length, "base_ns: 400", "what: N atomics at the switch's site") + "\n"
                + (where == null ? "" : "where: " + where + "\n"));
        for (int r = 1; r <= slope.length; r++) {
            double b = slope[r - 1];
            Files.writeString(dir.resolve(LabKernelPart.AMP + "-r" + r + "-t2.json"), "[" + ampEntry("srcu", "none", 400) + ", "
                    + ampEntry("srcu", "a1", 400 + b * 2) + ", " + ampEntry("srcu", "a4", 400 + b * 8) + ", "
                    + ampEntry("srcu", "a16", 400 + b * 32) + "]");
            Files.writeString(dir.resolve(LabKernelPart.AMP + "-aa-r" + r + "-t2.json"), "[" + ampEntry("srcu~aa", "none", AMP_CONTROL_NS[r - 1]) + "]");
        }
    }

    /**
     * The model's slopes 3.0, 3.3, 2.7: mean 3.0, sd (2 df) 0.3, h = 4.303 × 0.3 / √3 = 0.7453014625:
     * [2.2546985375–3.7453014625]. The kernel's, the fixture's 2 ns per counted operation in every
     * round: 2 [2–2]. Their ratio 1.5, its bounds each end over the kernel's: [1.1273492688–1.8726507312].
     * The model's A/A, 400 ns over the control's 392, 408, 400: logs 0.0202027073, −0.0198026273, 0,
     * mean 0.0001333600, sd 0.0200030007, h = 4.303 × 0.0200030007 / √3 = 0.0496942190:
     * 1.0001333689 [0.9516472401–1.0510898508].
     */
    @Test
    void theAmplifiedModelsSlopeStandsBesideTheKernelsInTheScorecard() throws Exception {
        LabAbFixture.iops(labDir(), 3, 1, 4, 16);
        assertEquals(null, LabKernelPart.read(open(), "zram-init-lock").orElseThrow().scorecard());
        amplified(labDir(), null, 3.0, 3.3, 2.7);
        RunDir r = open();
        LabKernelPart p = LabKernelPart.read(r, "zram-init-lock").orElseThrow();
        assertEquals(List.of(), r.gaps());
        assertEquals(3.0, p.amplified().slope().value(), 1e-9);
        assertEquals(2.2546985375, p.amplified().slope().lo(), 1e-9);
        assertEquals(3.7453014625, p.amplified().slope().hi(), 1e-9);
        LabKernelPart.Scorecard sc = p.scorecard();
        assertEquals(2.0, sc.kernel().value(), 1e-9, "the fixture's kernel: 2 ns per counted operation");
        assertEquals(2.0, sc.kernel().lo(), 1e-9, "the same slope every round: no width");
        assertEquals(2.0, sc.kernel().hi(), 1e-9);
        assertEquals(1.5, sc.ratio(), 1e-9);
        assertEquals(1.1273492688, sc.lo(), 1e-9);
        assertEquals(1.8726507312, sc.hi(), 1e-9);
        assertFalse(sc.outsideTwofold(), "[1.13–1.87] lies inside [0.5, 2]");
        assertEquals(1.0001333689, p.amplified().floor().aa().value(), 1e-9);
        assertEquals(0.9516472401, p.amplified().floor().aa().lo(), 1e-9);
        assertEquals(1.0510898508, p.amplified().floor().aa().hi(), 1e-9);
        String md = p.text(3000.0, 1.05);
        assertTrue(md.contains(" rounds; A/A 1.000 [0.952–1.051]x.\n\n"), md);
        assertTrue(md.contains("| model / kernel | 1.50 [1.13–1.87]"), md);
        assertTrue(md.contains("`srcu` with `inject` over N (1=a1 4=a4 16=a16) against it with `none`, 2 operations per I/O per unit of N"), md);
        @SuppressWarnings("unchecked")
        Map<String, Object> sum = (Map<String, Object>) p.summary().get("scorecard");
        assertEquals(1.5, (Double) sum.get("model_over_kernel"), 1e-4);
        assertEquals(2.0, sum.get("model_ops_per_count"));
        assertEquals("stated", sum.get("model_ops_per_count_from"));
        assertEquals(null, p.guestScorecard());
        assertFalse(sum.containsKey("model_in_guest_over_kernel"));
        assertEquals(null, p.amplified().beforeSlope(), "the after has no operation of its own: no sides");
        assertFalse(sum.containsKey("sides"));
    }

    /**
     * The same sweep run in the guest ({@code amp-guest/}, the host's file names) stands as a row of
     * its own beside the host's, with its ratio to the kernel: here 4 rounds at 8, 9, 7, 8 ns per
     * operation against the fixture kernel's 2, a ratio of 4 outside [0.5, 2], said so. By hand: mean
     * 8, sd (3 df) √(2/3) = 0.8164965809, h = 3.182 × 0.8164965809 / √4 = 1.2990460603:
     * [6.7009539397–9.2990460603], over the kernel's 2 [2–2]: [3.3504769699–4.6495230301]. Its A/A
     * 400 over 392, 408, 400, 404: logs 0.0202027073, −0.0198026273, 0, −0.0099503309, mean
     * −0.0023875627, sd 0.0170928903, h = 3.182 × 0.0170928903 / 2 = 0.0271947884:
     * 0.9976152853 [0.9708509237–1.0251174852].
     */
    @Test
    void theModelInTheGuestStandsBesideTheHostsWithItsOwnRatio() throws Exception {
        LabAbFixture.iops(labDir(), 3, 1, 4, 16);
        amplified(labDir(), null, 3.0, 3.3, 2.7);
        amplified(labDir().resolve(LabKernelPart.AMP_GUEST), "guest: Debian's kernel, one JVM a round", 8, 9, 7, 8);
        RunDir r = open();
        LabKernelPart p = LabKernelPart.read(r, "zram-init-lock").orElseThrow();
        assertEquals(List.of(), r.gaps());
        assertEquals(8.0, p.amplifiedGuest().slope().value(), 1e-9);
        assertEquals(6.7009539397, p.amplifiedGuest().slope().lo(), 1e-9);
        assertEquals(9.2990460603, p.amplifiedGuest().slope().hi(), 1e-9);
        LabKernelPart.Scorecard g = p.guestScorecard();
        assertEquals(4.0, g.ratio(), 1e-9);
        assertEquals(3.3504769699, g.lo(), 1e-9);
        assertEquals(4.6495230301, g.hi(), 1e-9);
        assertTrue(g.outsideTwofold(), "[3.35–4.65] lies above 2");
        assertEquals(1.5, p.scorecard().ratio(), 1e-9, "the host's row is the host's");
        assertEquals(0.9976152853, p.amplifiedGuest().floor().aa().value(), 1e-9);
        assertEquals(0.9708509237, p.amplifiedGuest().floor().aa().lo(), 1e-9);
        assertEquals(1.0251174852, p.amplifiedGuest().floor().aa().hi(), 1e-9);
        String md = p.text(3000.0, 1.05);
        assertTrue(md.contains("| model in the guest (the same sweep on the A/B's vCPUs) | 8.00 ["), md);
        assertTrue(md.contains("| model in the guest / kernel | 4.00 ["), md);
        assertTrue(md.contains("In the guest (`amp-guest/`): guest: Debian's kernel, one JVM a round; 4 rounds; A/A 0.998 [0.971–1.025]x."),
                md);
        assertTrue(md.contains("Its ratio too lies outside [0.5, 2]"), md);
        @SuppressWarnings("unchecked")
        Map<String, Object> sum = (Map<String, Object>) p.summary().get("scorecard");
        assertEquals(4.0, (Double) sum.get("model_in_guest_over_kernel"), 1e-4);
        assertEquals("guest: Debian's kernel, one JVM a round", sum.get("model_in_guest_where"));
    }

    /**
     * A model slope below 0 (zram's in the guest: srcu dearer than rwsem there) keeps its ratio's
     * bounds in order: each end divided by the kernel's end that makes it extreme.
     */
    @Test
    void aNegativeModelSlopesRatioHasItsBoundsInOrder() {
        Estimate kernel = lab.analysis.estimate.Estimator.mean(List.of(2.0, 2.2, 1.8));
        Estimate model = lab.analysis.estimate.Estimator.mean(List.of(-3.0, -3.3, -2.7));
        LabKernelPart.Scorecard sc = LabKernelPart.Scorecard.of(kernel, model);
        assertEquals(-1.5, sc.ratio(), 1e-9);
        assertEquals(model.lo() / kernel.lo(), sc.lo(), 1e-9);
        assertEquals(model.hi() / kernel.hi(), sc.hi(), 1e-9);
        assertTrue(sc.lo() < sc.ratio() && sc.ratio() < sc.hi(), sc.lo() + " " + sc.hi());
        assertTrue(sc.outsideTwofold());
        Estimate across = lab.analysis.estimate.Estimator.mean(List.of(-1.0, 1.5, 0.5));
        LabKernelPart.Scorecard x = LabKernelPart.Scorecard.of(kernel, across);
        assertEquals(across.lo() / kernel.lo(), x.lo(), 1e-9);
        assertEquals(across.hi() / kernel.lo(), x.hi(), 1e-9);
    }

    @Test
    void aGuestFolderWithoutItsJmhFilesIsAGap() throws Exception {
        LabAbFixture.iops(labDir(), 3, 1, 4, 16);
        Files.createDirectories(labDir().resolve(LabKernelPart.AMP_GUEST));
        Files.writeString(labDir().resolve(LabKernelPart.AMP_GUEST).resolve(LabKernelPart.AMP_FACTS), "param: guard\nvariant: srcu\n"
                + "control: c\namp: inject\nnone: none\ncounts: 1=a1\nops_per_count: 2\nthreads: 2\n");
        RunDir r = open();
        assertEquals(null, LabKernelPart.read(r, "zram-init-lock").orElseThrow().amplifiedGuest());
        assertEquals(List.of("`raw/zram-init-lock/lab-kernel/amp-guest/model-amp.txt`: no model-amp-rR-tT.json beside it"), r.gaps());
    }

    private static String sectionsEntry(String v, int sections, double ns) {
        return entry(v, ns).replace("\"baseNs\": \"400\"}", "\"baseNs\": \"400\", \"sections\": \"" + sections + "\"}");
    }

    /**
     * The generalized form, a before/after pair at each N (zram-init-lock: rwsem with N read sections
     * against srcu with N): per round Δ(N) = ns(rwsem, N) - ns(srcu, N) over x = the counter's 2 ops
     * per unit of N (the stated 1 is not used), N ≥ 1. Hand-worked: rwsem = 500 + c + 2bN, srcu =
     * 450 + c + 0.5N (c a round's common drift), so Δ = 50 + (2b - 0.5)N and the slope over x = 2N
     * is b - 0.25: 2.75, 3.05, 2.45 over b = 3.0, 3.3, 2.7; mean 2.75, sd 0.3, t(2) 4.303:
     * ±4.303 × 0.3 / √3 = ±0.7453014625.
     */
    @Test
    void theAmplifiedPairsSlopeIsTheDifferencesOverTheCountersOperations() throws Exception {
        LabAbFixture.iops(labDir(), 3, 1, 4, 16);
        Files.writeString(labDir().resolve(LabKernelPart.AMP_FACTS), String.join("\n", "param: guard", "variant: rwsem",
                "after_variant: srcu", "control: srcu~aa", "amp: sections", "none: 1", "after_none: 1", "counts: 1=1 4=4 16=16",
                "after_counts: 1=1 4=4 16=16", "ops_per_count: 1", "ops_per_count_counted: 2", "ops_per_io_counted: 1=2 2=4",
                "threads: 2", "rounds: 3", "base_ns: 400", "what: N read sections") + "\n");
        double[] b = {3.0, 3.3, 2.7};
        double[] drift = {0, 40, -25};
        for (int r = 1; r <= 3; r++) {
            StringBuilder cells = new StringBuilder("[");
            for (int n : new int[] {1, 4, 16}) {
                cells.append(sectionsEntry("rwsem", n, 500 + drift[r - 1] + 2 * b[r - 1] * n)).append(", ")
                        .append(sectionsEntry("srcu", n, 450 + drift[r - 1] + 0.5 * n)).append(n == 16 ? "]" : ", ");
            }
            Files.writeString(labDir().resolve(LabKernelPart.AMP + "-r" + r + "-t2.json"), cells.toString());
            Files.writeString(labDir().resolve(LabKernelPart.AMP + "-aa-r" + r + "-t2.json"),
                    "[" + sectionsEntry("srcu~aa", 1, (450.5 + drift[r - 1]) * 0.99) + "]");
        }
        RunDir r = open();
        LabKernelPart p = LabKernelPart.read(r, "zram-init-lock").orElseThrow();
        assertEquals(List.of(), r.gaps());
        Estimate slope = p.amplified().slope();
        assertEquals(2.75, slope.value(), 1e-9);
        assertEquals(2.75 - 0.7453014625, slope.lo(), 1e-9);
        assertEquals(2.75 + 0.7453014625, slope.hi(), 1e-9);
        assertEquals(2.0, p.amplified().opsPerCount(), 0);
        assertEquals(1 / 0.99, p.amplified().floor().aa().value(), 1e-9, "the after at N = 0 (srcu, 1 section) against its control");
        LabKernelPart.Scorecard sc = p.scorecard();
        assertEquals(2.75 / 2.0, sc.ratio(), 1e-4);
        String md = p.text(3000.0, 1.05);
        assertTrue(md.contains("`rwsem` with `sections` over N (1=1 4=4 16=16) against `srcu` with it at the same N (1=1 4=4 16=16),"
                + " 2 operations per I/O per unit of N (the engine's counter; stated 1)"), md);
        @SuppressWarnings("unchecked")
        Map<String, Object> sum = (Map<String, Object>) p.summary().get("scorecard");
        assertEquals(2.0, sum.get("model_ops_per_count"));
        assertEquals("counter", sum.get("model_ops_per_count_from"));
        // each side alone: rwsem(N) - rwsem(1) = 2b(N - 1) over x = 2N is b a round; srcu's 0.5(N - 1) is 0.25
        assertEquals(2.75 + 0.25, p.amplified().beforeSlope().value(), 1e-9);
        assertEquals(3.0 - 0.7453014625, p.amplified().beforeSlope().lo(), 1e-9);
        assertEquals(0.25, p.amplified().afterSlope().value(), 1e-9);
        assertEquals(2.0, p.sweep().sideSlopeEstimate(true).value(), 1e-6, "the fixture's before: 2 ns per counted operation");
        assertEquals(0.0, p.sweep().sideSlopeEstimate(false).value(), 1e-6, "the fixture's after is flat");
        assertTrue(md.contains("| before (`rwsem`) | 2.00"), md);
        assertTrue(md.contains("| after (`srcu`) | 0.00"), md);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> sides = (Map<String, Map<String, Object>>) sum.get("sides");
        assertEquals("srcu", sides.get("after").get("variant"));
    }

    @Test
    void aModelFactsFileWithoutItsJmhFilesIsAGap() throws Exception {
        LabAbFixture.iops(labDir(), 3, 1);
        Files.writeString(labDir().resolve(LabKernelPart.MODEL_FACTS), "param: guard\nthreads: 2\n");
        RunDir r = open();
        assertEquals(null, LabKernelPart.read(r, "zram-init-lock").orElseThrow().model());
        assertEquals(List.of("`raw/zram-init-lock/lab-kernel/model-guest.txt`: no model-guest-rR-tT.json beside it"), r.gaps());
    }

    @Test
    void aShareHasATablePerRoundAndNoSlope() throws Exception {
        LabAbFixture.share(run.resolve("raw/dm-blkcg-clone/lab-kernel"), 3);
        LabKernelPart p = LabKernelPart.read(open(), "dm-blkcg-clone").orElseThrow();
        String md = p.text(null, null);
        // the after's share 1.95, 2.00, 2.05: 1.9996 [1.8791–2.1277]; the A/A 1.97/1.95, 1.99/2.00, 2.06/2.05: 1.0034 [0.9843–1.0228]
        // (both worked in SwitchSweepTest)
        assertTrue(md.contains("N = 1: writer a over writer b with the switch at the after 2.00 [1.88–2.13]x, at the before 1.00 [1.00–1.00]x;"
                + " A/A 1.003 [0.984–1.023]x.\n"), md);
        assertTrue(md.contains("| 1 | 1.00 | 1.95 | 1.97 | 100% | 0% |"), md);
        assertTrue(md.contains("| 2 | 1.00 | 2.00 | 1.99 | 100% | 0% |"), md);
        assertFalse(md.contains("Slope"), md);
        assertTrue(md.contains("this run has no model calibration base to set beside it"), md);
        Map<String, Object> h = p.onto(Headline.of(FIX, open())).toMap();
        assertEquals(Math.cbrt(1.95 * 2.0 * 2.05), (Double) h.get("kernel"), 1e-9);
        assertTrue(((String) h.get("kernel_note")).endsWith("; after a/b, before 1.00 [1.00–1.00]"), h.toString());
    }
}
