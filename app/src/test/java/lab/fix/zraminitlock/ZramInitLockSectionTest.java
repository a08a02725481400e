package lab.fix.zraminitlock;

import static lab.fix.HandWorked.near;
import static lab.fix.HandWorked.pin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.fix.Fixes;
import lab.fix.HandWorked.Interval;
import lab.fix.HandWorked.Jvm;
import lab.fix.HandWorked.Predicted;
import lab.fix.KernelFiles;
import lab.notebook.Fmt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static lab.fix.JmhJson.entry;
import static lab.fix.JmhJson.metric;
import static lab.fix.JmhJson.write;
import org.junit.jupiter.api.io.TempDir;

/**
 * The zram-init-lock section from a hand-made run folder: the guard table with its A/A control
 * (randread and randrw on zero pages and compressible50, 1 and 2 threads, 3 rounds), the seed
 * sweep raw and calibrated (+3000 ns) with its own A/A control, the calibration, the guards' counts, a
 * cost sweep and the sweep's log; no kernel side. Every number asserted is worked out by hand beside it.
 */
public class ZramInitLockSectionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String IO = "lab.engine.bench.ZramInitLock.io";

    @TempDir
    Path tmp;
    Path run;
    Path raw;


    private static Map<String, String> p(String guard, String rw, String pattern, String baseNs) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("guard", guard);
        m.put("rw", rw);
        m.put("pattern", pattern);
        m.put("compressor", "lzo-rle");
        m.put("baseNs", baseNs);
        return m;
    }


    /** rwsem's ns at [threads-1][round-1]; the other guards are given as a factor of it. */
    private static final double[][] RWSEM = {{60, 60, 60}, {100, 110, 105}};

    /** srcu's speed-up in round {@code r}: rwsem's ns over srcu's, 100/95, 110/104, then 105/100. */
    private static double speedUp(int r) {
        return r == 1 ? 100.0 / 95 : r == 2 ? 110.0 / 104 : 105.0 / 100;
    }

    @BeforeEach
    void fixture() throws IOException {
        run = run(tmp);
        raw = run.resolve("raw/zram-init-lock");
    }

    /** The calibrated A/A's copy of rwsem by round: 0.2% faster, 0.3% slower, then 0.1% slower. */
    private static final double[] CALIBRATED_AA = {0.998, 1.003, 1.001};

    /**
     * The seed sweep's file for {@code t} threads and round {@code r}: raw as the table's randrw zero; calibrated +3000 ns,
     * srcu 20 ns faster at 2 threads, 2 at 1; the A/A's copy of rwsem 1% slower, 0.5% faster, then 0.2% slower (raw), and
     * {@code calAa} times rwsem's ns calibrated.
     */
    private static void seedSweep(Path raw, int t, int r, double calAa) throws IOException {
        double rw = RWSEM[t - 1][r - 1];
        double cal = 3000 + rw;
        double srcu = t == 1 ? cal - 2 : cal - 20;
        write(raw.resolve("zram-seed-r" + r + "-t" + t + ".json"), List.of(
                entry(IO, t, p("rwsem", "randrw", "zero", "0"), rw),
                entry(IO, t, p("srcu", "randrw", "zero", "0"), rw / speedUp(r)),
                entry(IO, t, p("rwsem~aa", "randrw", "zero", "0"), rw * (r == 1 ? 1.01 : r == 2 ? 0.995 : 1.002)),
                entry(IO, t, p("rwsem", "randrw", "zero", "3000"), cal),
                entry(IO, t, p("srcu", "randrw", "zero", "3000"), srcu),
                entry(IO, t, p("rwsem~aa", "randrw", "zero", "3000"), cal * calAa)));
    }

    /** The run folder of the class comment under {@code dir}; its path. */
    public static Path run(Path dir) throws IOException {
        Path run = dir.resolve("zr-run");
        Path raw = run.resolve("raw/zram-init-lock");
        Files.createDirectories(raw);
        Files.writeString(run.resolve("manifest.json"),
                "{\"run_id\": \"zr-run\", \"command\": \"./lab pair zram-init-lock --rounds 3 --id zr-run\", \"cores\": 2}");
        for (int t = 1; t <= 2; t++) {
            for (int r = 1; r <= 3; r++) {
                double rw = RWSEM[t - 1][r - 1];
                List<Object> table = new ArrayList<>();
                for (String pattern : List.of("zero", "compressible50")) {
                    double scale = pattern.equals("zero") ? 1 : 30;
                    // randrw: srcu about 5% faster in ns (speedUp(r)); randread: 0.2% (inside the floor); atomic-ref and none as rwsem
                    table.add(entry(IO, t, p("rwsem", "randrw", pattern, "0"), rw * scale));
                    table.add(entry(IO, t, p("rwsem~aa", "randrw", pattern, "0"), rw * scale));
                    table.add(entry(IO, t, p("srcu", "randrw", pattern, "0"), rw * scale / speedUp(r)));
                    table.add(entry(IO, t, p("atomic-ref", "randrw", pattern, "0"), rw * scale));
                    table.add(entry(IO, t, p("none", "randrw", pattern, "0"), rw * scale));
                    table.add(entry(IO, t, p("rwsem", "randread", pattern, "0"), rw * scale));
                    table.add(entry(IO, t, p("rwsem~aa", "randread", pattern, "0"), rw * scale));
                    table.add(entry(IO, t, p("srcu", "randread", pattern, "0"), rw * scale / 1.002));
                }
                write(raw.resolve("zram-r" + r + "-t" + t + ".json"), table);
                seedSweep(raw, t, r, CALIBRATED_AA[r - 1]);
                // a shared operation costs 40, 30, 10 and 5 ns more than a private one at gaps 0, 100, 1000 and 3000 (2 threads)
                List<Object> costs = new ArrayList<>();
                for (String prim : List.of("rwsem-read", "atomic-refcount")) {
                    double opsPerCall = prim.equals("rwsem-read") ? 1 : 2;
                    for (long gap : new long[] {0, 100, 1000, 3000}) {
                        double extra = t == 1 ? 0 : gap == 0 ? 40 : gap == 100 ? 30 : gap == 1000 ? 10 : 5;
                        costs.add(entry("lab.engine.bench.Primitives.getPut", t,
                                Map.of("primitive", prim, "line", "private", "gapNs", Long.toString(gap)), 20 + gap));
                        costs.add(entry("lab.engine.bench.Primitives.getPut", t,
                                Map.of("primitive", prim, "line", "shared", "gapNs", Long.toString(gap)), 20 + gap + opsPerCall * extra));
                    }
                }
                write(raw.resolve("zram-costs-r" + r + "-t" + t + ".json"), costs);
            }
        }
        Files.writeString(raw.resolve("calibration.json"), "{\"baseNs\": 3000, \"kernelNsPerIo\": 3050.0, \"kernelSource\": \"zram (native),"
                + " test\", \"modelNsPerIo\": 50.0, \"modelSource\": \"none, test\"}");
        Map<String, String> point = Map.of("rw", "randrw", "pattern", "zero", "compressor", "lzo-rle", "sizeMiB", "1024");
        // randrw on zero pages: half the I/Os write, each bumping same_pages and pages_stored once: 1 rmw per I/O on each
        Map<String, Object> data = Map.of("same_pages", Map.of("rmw", 1.0), "pages_stored", Map.of("rmw", 1.0));
        Map<String, Object> rwsem = new LinkedHashMap<>(data);
        rwsem.put("zram.init_lock", Map.of("rwsem-read", 1.0));
        write(raw.resolve("counts.json"), List.of(
                Map.of("model", "zram", "variant", "rwsem", "point", point, "ios", 100000, "perIo", rwsem, "ticks", 0, "perTick", Map.of()),
                Map.of("model", "zram", "variant", "srcu", "point", point, "ios", 100000, "perIo", data, "ticks", 0, "perTick", Map.of())));
        write(raw.resolve("seed-sweep.json"), Map.of("target", 0.023, "threads", 2, "forks", 3, "maxRounds", 3,
                "rounds", List.of(Map.of("round", 1, "floor", 0.05, "seconds", 100.0), Map.of("round", 2, "floor", 0.04, "seconds", 110.0),
                        Map.of("round", 3, "floor", 0.03, "seconds", 105.0)),
                "stopped", "round limit"));
        return run;
    }

    /**
     * A quick run's kernel side as the scenario writes it (issue 33): fio at one job for every rw on
     * zero and compressible50 pages, the bridge and bridge-uring on the seed's job alone, env.txt's
     * quick_leaves_out. The kernel table has those rows, the model's `none` stands beside the kernel
     * for both patterns, the calibration finds its cell (randrw, zero, fio, 1 job), and the section
     * says once what the quick run left out and how to get it; without quick_leaves_out it says nothing.
     */
    @Test
    void aQuickRunsKernelSideRendersAndSaysOnceWhatItLeftOut() throws IOException {
        Path kernel = raw.resolve("kernel");
        Files.createDirectories(kernel);
        String env = "environment: native\nkernel: 6.18.44-test\ndevice: zram (lzo-rle, 256M)\ncores: 2\nperf_repeats: 1\n"
                + "patterns: zero compressible50\nnumjobs: 1\n";
        Files.writeString(kernel.resolve("env.txt"), env);
        for (String pattern : List.of("zero", "compressible50")) {
            for (String rw : List.of("randread", "randwrite", "randrw")) {
                KernelFiles.fio(kernel, rw + "-" + pattern + "-j1", pattern.equals("zero") ? 2000 : 4000, 200000);
            }
        }
        KernelFiles.run(kernel, "randrw-zero-j1", "bridge", 9000, 150000);
        KernelFiles.run(kernel, "randrw-zero-j1", "bridge-uring", 8000, 160000);
        assertFalse(notebook().contains("A quick run"));
        Files.writeString(kernel.resolve("env.txt"), env + "quick_leaves_out: the random pattern, numjobs 2 and 4 (the cores and the seed's 4"
                + " workers), and the bridge and bridge-uring on every job but randrw-zero-j1 (the seed's)\n");
        String md = notebook();
        assertTrue(md.contains("| randrw-zero-j1 | bridge-uring |") && md.contains("| randread-compressible50-j1 | fio |"), md);
        assertTrue(md.contains("| randrw | zero | ") && md.contains("| randrw | compressible50 | "), md);
        String note = "A quick run (`--quick`): its kernel side ran only what this section reads, and left out the random pattern";
        assertTrue(md.contains(note) && md.contains("`sudo ./lab pair zram-init-lock` (the kernel side alone: `sudo ./lab kernel run zram-init-lock`)"),
                md);
        assertEquals(md.indexOf(note), md.lastIndexOf(note), md);
        var fig = ZramInitLockPairing.kernelFigure(lab.notebook.KernelRuns.read(lab.results.RunDir.open(run), kernel));
        assertEquals(2000, fig.nsPerIo(), 1e-6);
    }

    private String notebook() throws IOException {
        Fixes.notebook(run);
        return Files.readString(run.resolve("NOTEBOOK.md"));
    }

    private JsonNode headline() throws IOException {
        return JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path("zram-init-lock").path("headline");
    }

    @Test
    void theGuardTableIsTheEstimatorWithEachRatiosOwnInterval() throws IOException {
        String md = notebook();
        // randrw zero, 2 threads: srcu 100/95 = 1.053, 110/104 = 1.058 and 105/100 = 1.05, their geometric mean with t over 3 rounds
        // (JVM.raw(): 1.0534 [1.0438–1.0632]); atomic-ref and none cost what rwsem does, exactly, each round: their intervals hold 1;
        // the guard table's A/A is exactly 1 each round (the seed point's is not: see below)
        assertTrue(md.contains("| randrw | zero | 2 | 1.05 [1.04–1.06]x | 1.00 [1.00–1.00]x (holds 1) |"), md);
        assertTrue(md.contains("| 1.00 [1.00–1.00]x (holds 1) | 105 |"), md);
        // randread: srcu 1.002x in every round: a tiny interval that leaves out 1, so it is printed as a change
        assertTrue(md.contains("| randread | zero | 2 | 1.00 [1.00–1.00]x | n/a | n/a |"), md);
        // the seed's table on zero pages: randrw +5.3% [+4.4% – +6.3%] (JVM.raw()), randread +0.2%, randwrite not run
        assertTrue(md.contains("| randrw | +2.30% | +5.3% [+4.4% – +6.3%] | 1.00 [1.00–1.00]x (holds 1) |"), md);
        assertTrue(md.contains("| randread | -0.63% | +0.2% [+0.2% – +0.2%] |"), md);
        assertTrue(md.contains("| randwrite | +1.24% | n/a | — |"), md);
        assertFalse(md.contains("NaN"), md);
    }

    /*
     * The seed point's figures at 2 threads, worked by hand: per round rwsem's ns over the other's, the geometric mean over
     * the 3 rounds with exp(m ∓ h), h = t(0.975, 2) × s/√3 = 4.303 × s/1.7320508076. Raw srcu over rwsem: 100/95, 110/104
     * and 105/100, logs 0.0512932944, 0.0560894667, 0.0487901642, mean 0.0520576417 (1.0534364627), s 0.0037091946, h =
     * 0.0092148938: [1.0437737464–1.0631886314]. Calibrated (+3000 ns): 3100/3080, 3110/3090 and 3105/3085, logs
     * 0.0064725145, 0.0064516353, 0.0064620580, mean 0.0064620693 (1.0064829935), s 0.0000104396, h = 0.0000259355:
     * [1.0064568901–1.0065090975]. The calibrated A/A, the headline's, rwsem over its copy: 1/0.998, 1/1.003 and 1/1.001,
     * logs 0.0020020027, −0.0029955090, −0.0009995003, mean −0.0006643355 (0.9993358851), s 0.0025155580, h = 0.0062494970:
     * [0.9931100131–1.0056007875], its reach 0.0068899869 (the lower end's) the noise floor. The raw A/A: 1/1.01, 1/0.995 and
     * 1/1.002, logs −0.0099503309, 0.0050125418, −0.0019980027, mean −0.0023119306 (0.9976907399), s 0.0074863745, h =
     * 0.0185986861: [0.9793064943–1.0164201078].
     */
    public static final Jvm JVM = new Jvm(new Interval(1.0534364626698236, 1.0437737463859915, 1.0631886313721561, 3),
            new Interval(1.0064829934883328, 1.0064568901484963, 1.0065090975051822, 3),
            new Interval(0.9993358850745985, 0.9931100130537442, 1.0056007874968287, 3),
            new Interval(0.9976907398890038, 0.9793064942979202, 1.0164201077558215, 3));
    /**
     * The prediction (3060 + 5 × 3) / (3060 + 5 × 2) = 3075/3070 and the implied cost 3060 × 0.023 / (3 − 1.023 × 2) =
     * 70.38/0.954 ns, the same in every round (T and c are), so their estimates over the 3 rounds are points; a rwsem-read
     * 5 ns more (the prediction's test works them out).
     */
    public static final Predicted PREDICTION = new Predicted(3075.0 / 3070, new Interval(3075.0 / 3070, 3075.0 / 3070, 3075.0 / 3070, 3),
            70.38 / 0.954, new Interval(70.38 / 0.954, 70.38 / 0.954, 70.38 / 0.954, 3), 5);

    @Test
    void theSeedPointIsRawAndCalibratedAndTheSweepSaysWhatALowerFloorTakes() throws IOException {
        String md = notebook();
        assertTrue(md.contains("Calibration: 3000 ns of uncontended CPU per model I/O: the kernel's 3050 ns"), md);
        // calibrated, 2 threads: 3100/3080, 3110/3090 and 3105/3085, 1.0065 each: a narrow interval that leaves out 1 and lies
        // inside ±2%, so a change smaller than the margin, not an effect of at least it; the calibrated A/A holds 1
        JsonNode h = headline();
        near(JVM.calibrated().value(), h.path("jvm").asDouble(), 1e-9, "the calibrated figure");
        pin(JVM.calibrated(), h.path("jvm_calibrated"), "jvm_calibrated");
        assertEquals("small-change", h.path("verdict").asText());
        assertEquals("a change smaller than ±2% (+0.6%, +0.6% to +0.7%)", h.path("verdict_text").asText());
        assertTrue(h.path("kernel_verdict").isMissingNode(), "no kernel figure, no kernel verdict: " + h);
        pin(JVM.raw(), h.path("jvm_raw"), "jvm_raw");
        pin(JVM.aa(), h.path("aa"), "the calibrated A/A");
        pin(JVM.aaRaw(), h.path("aa_raw"), "the raw A/A");
        assertEquals(0.0068899869462558, h.path("noise_floor").asDouble(), 1e-12, "the calibrated A/A's reach");
        assertEquals("holds 1", h.path("aa").path("self_test").asText(), h.toString());
        // ns per op: the geometric means over the rounds with their t intervals. 3100, 3110 and 3105: logs 8.0391573905,
        // 8.0423780052, 8.0407689944, mean 8.0407681300 (3104.9973162), s 0.0016103075, h = 4.303 × 0.0016103075/√3 =
        // 0.0040005485: [3092.6004375–3117.4438885]; 3080, 3090 and 3085: mean 8.0343060607 (3084.9972988), s 0.0016207471,
        // h = 0.0040264840: [3072.6005807–3097.4440326]; the A/A cells those above
        assertTrue(md.contains("| calibrated (+3000 ns) | 2 | 3105.0 [3092.6–3117.4] | 3085.0 [3072.6–3097.4] | 1.01 [1.01–1.01]x |"
                + " 1.00 [0.99–1.01]x (holds 1) |"), md);
        assertTrue(md.contains("| raw | 2 | ") && md.contains(" | 1.05 [1.04–1.06]x | 1.00 [0.98–1.02]x (holds 1) |"), md);
        // the table's metric in short, the whole of it under the table; each figure's verdict at ±2% in a word: the raw one an
        // effect of at least +2% (its interval starts at 1.044), the calibrated one a change smaller than that
        assertTrue(md.contains("| `zram-init-lock` | SRCU / rwsem throughput, randrw, zero pages | 1.02x | 1.05 [1.04–1.06]x, effect ≥ +2% |"
                + " 1.01 [1.01–1.01]x, change < ±2% |"), md);
        assertTrue(md.contains("Each metric in full: `zram-init-lock`: SRCU / rwsem throughput, randrw, zero pages (the seed's job; seed:"
                + " 4 workers on 4 CPUs; here: 2 threads on 2 cores)."), md);
        // the sweep: 3 rounds of 105 s on average; no count of rounds extrapolated from its floors (they take the spread as known)
        assertTrue(md.contains("The seed sweep ran 3 round(s) of 3 fork(s) per trial, 105 s each; the A/A floor at 2 threads after each round, as the run"
                + " computed it then: ±5.0%, ±4.0%, ±3.0%. It sought a floor below the seed's effect (±2.3%) and stopped at the round limit (3)."),
                md);
        assertFalse(md.contains("would take about"), md);
        assertTrue(h.path("kernel").isNull() && h.path("kernel_note").asText().startsWith("today's kernel has no init_lock"), h.toString());
    }

    /*
     * An A/A that fails: the calibrated copy of rwsem 1%, 1.2% and 1.1% slower in rounds 1 to 3, so rwsem over its copy is
     * 1/1.01, 1/1.012 and 1/1.011 every time below 1. Logs −0.0099503309, −0.0119285709, −0.0109399400: mean −0.0109396139
     * (the estimate 0.9891200061), sd 0.0009891200, h = 4.303 × 0.0009891200/√3 = 0.0024573087: [0.9866924167–0.9915535681],
     * which leaves out 1. The run has drift or a position effect, so the calibrated figure (still 1.006483 [1.006457–
     * 1.006509], as above) gets no verdict: it is not evidence either way.
     */
    @Test
    void aFailedAaControlMakesTheHeadlineNotEvidence() throws IOException {
        double[] slower = {1.01, 1.012, 1.011};
        for (int t = 1; t <= 2; t++) {
            for (int r = 1; r <= 3; r++) {
                seedSweep(raw, t, r, slower[r - 1]);
            }
        }
        String md = notebook();
        JsonNode h = headline();
        Interval failed = new Interval(0.9891200060528804, 0.9866924167228713, 0.9915535680546719, 3);
        pin(failed, h.path("aa"), "the calibrated A/A");
        assertTrue(failed.excludes1(), "worked by hand: it leaves out 1");
        pin(JVM.calibrated(), h.path("jvm_calibrated"), "the figure itself is as before");
        assertEquals("control-failed", h.path("verdict").asText(), h.toString());
        assertEquals("the A/A control failed (0.989 [0.987–0.992]): this figure is not evidence", h.path("verdict_text").asText());
        assertEquals("failed: excludes 1", h.path("aa").path("self_test").asText(), h.toString());
        // the table's calibrated cell and the first-screen sentence say so in a word; below the table, what it means
        assertTrue(md.contains("| `zram-init-lock` | SRCU / rwsem throughput, randrw, zero pages | 1.02x | 1.05 [1.04–1.06]x, effect ≥ +2% |"
                + " 1.01 [1.01–1.01]x, A/A failed: not evidence |"), md);
        assertTrue(md.contains("| 0.989 [0.987–0.992]x **excludes 1: failed** |"), md);
        assertTrue(md.contains("- **`zram-init-lock`**: model (calibrated, 2 cores) **1.01 [1.01–1.01]x, A/A failed: not evidence**;"), md);
        assertTrue(md.contains("**The A/A control failed** for `zram-init-lock`'s model figure (its A/A 0.989 [0.987–0.992]): the base"
                + " against a copy of itself has an interval that leaves out 1"), md);
        // the raw figure has its own A/A, which holds: its verdict stands
        pin(JVM.aaRaw(), h.path("aa_raw"), "the raw A/A");
    }

    @Test
    void thePredictionAndTheImpliedCostAreTheHandComputedNumbers() throws IOException {
        String md = notebook();
        // one T for both guards, rwsem's: the base and its raw one-thread ns, 3000 + 60; at the 3000 ns gap every kind costs
        // 5 ns more at 2 threads than at 1: rwsem 1 rwsem-read + 2 rmw, srcu 2 rmw
        double predicted = (3060 + 5 * 3.0) / (3060 + 5 * 2.0);
        JsonNode h = headline();
        assertEquals(predicted, h.path("predicted").asDouble(), 1e-12);
        assertEquals(PREDICTION.value(), predicted, 1e-15, "3075 / 3070");
        // the same made within each round: T and c are the same in every round, so the interval is the point
        pin(new Interval(predicted, predicted, predicted, 3), h.path("predicted_over_rounds"), "the prediction within each round");
        assertTrue(md.contains("| SRCU / rwsem, randrw, zero pages | 1.006 [1.006–1.007]x | 1.002x (1.002 [1.002–1.002]x over rounds)"
                + " | predicts less than measured"), md);
        // c = T (R - 1) / (m_before - R m_after): 3060 x 0.023 / (3 - 1.023 x 2); the kind the fix removed: rwsem-read, 5 ns here
        double implied = 3060 * 0.023 / (3 - 1.023 * 2);
        assertEquals(PREDICTION.implied(), implied, 1e-12, "70.38 / 0.954");
        assertEquals(73.77358490566036, implied, 1e-12);
        assertEquals(implied, h.path("implied_op_ns").asDouble(), 1e-9);
        assertEquals(5.0, h.path("measured_op_ns").asDouble(), 1e-12);
        assertTrue(md.contains("one shared-line operation would have to cost " + Fmt.f(implied, 1) + " ns more than a private one. Here, at 2"
                + " threads and a gap of 3000 ns, a `rwsem-read` costs 5.0 ns more (made within each round instead: implied"
                + " 73.8 [73.8–73.8], measured 5.0 [5.0–5.0] ns"), md);
        pin(new Interval(implied, implied, implied, 3), h.path("implied_op_ns_over_rounds"), "the implied cost within each round");
        pin(new Interval(5, 5, 5, 3), h.path("measured_op_ns_over_rounds"), "5 ns in every round");
        assertTrue(md.contains("Extrapolated with the better fit (an extrapolation, not a measurement) to the seed's 4 threads"), md);
        assertEquals(3000.0, h.path("base_ns").asDouble(), 0);
    }
}
