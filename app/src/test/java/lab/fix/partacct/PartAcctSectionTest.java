package lab.fix.partacct;

import lab.notebook.Fmt;
import lab.notebook.Notebook;
import lab.fix.Fixes;
import lab.fix.HandWorked.Interval;
import lab.fix.HandWorked.Jvm;
import lab.fix.HandWorked.Predicted;
import lab.fix.KernelFiles;
import static lab.fix.HandWorked.near;
import static lab.fix.HandWorked.pin;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static lab.fix.JmhJson.entry;
import static lab.fix.JmhJson.metric;
import static lab.fix.JmhJson.write;
import org.junit.jupiter.api.io.TempDir;

/**
 * The part-acct section from a hand-made run folder: JMH JSON of the variant table, the crossover
 * grid and the sum benchmark (3 rounds, threads 1 and 2), and kernel files for zram and loop, 3
 * rounds (one of them broken, the guest skipped, zram without a partition). Every number asserted is
 * worked out by hand from the fixture's figures, written next to it.
 */
public class PartAcctSectionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String IO = "lab.engine.bench.PartAcct.io";
    private static final String SUM = "lab.engine.bench.PartInFlightSum.sum";
    private static final List<String> VARIANTS = PartAcct.VARIANTS;

    @TempDir
    Path tmp;
    Path run;
    Path raw;
    Path kernel;

    /** ns per I/O per thread of the variant table, bios to the whole disk, [threads-1][round-1][variant]. */
    private static final double[][][] DISK = {
        {{100, 95, 90, 85, 80}, {102, 96, 92, 86, 81}, {101, 95, 91, 85, 80}},
        {{200, 170, 160, 150, 120}, {210, 168, 152, 140, 126}, {205, 169, 156, 145, 123}},
    };


    private static Map<String, String> p(String variant, String target, String hz, String slots) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("hz", hz);
        m.put("slots", slots);
        m.put("target", target);
        m.put("variant", variant);
        return m;
    }


    /** A fio JSON of one group-reported job: numjobs 2, 3 s each (job_runtime 6000 ms). */
    private static void fio(Path kernel, String name, double iops, long ios) throws IOException {
        String json = String.format(Locale.ROOT, """
                {"fio version": "fio-3.33", "jobs": [{"jobname": "%s", "groupid": 0, "error": 0, "elapsed": 4,
                  "job options": {"numjobs": "2"},
                  "read": {"iops": %.1f, "total_ios": %d, "runtime": 3000},
                  "write": {"iops": 0, "total_ios": 0, "runtime": 0},
                  "job_runtime": 6000, "usr_cpu": 20.0, "sys_cpu": 70.0, "ctx": 10}]}
                """, name, iops, ios);
        Files.writeString(kernel.resolve(name + ".fio.json"), json);
    }

    /** The perf stat CSV (task-clock in ms) and /sys/block stat snapshots with {@code statIos} reads in between. */
    private void perfAndStat(String name, double taskClockMs, long statIos) throws IOException {
        perfAndStat(kernel, name, taskClockMs, statIos);
    }

    private static void perfAndStat(Path kernel, String name, double taskClockMs, long statIos) throws IOException {
        Files.writeString(kernel.resolve(name + ".fio.perf.csv"), String.format(Locale.ROOT,
                "# started on Mon Nov 30 06:03:48 2026\n\n%.2f,msec,task-clock,%d,100.00,2.000,CPUs utilized\n"
                        + "120,,context-switches,%d,100.00,40.0,/sec\n<not supported>,,cycles,0,100.00,,\n",
                taskClockMs, (long) (taskClockMs * 1e6), (long) (taskClockMs * 1e6)));
        Files.writeString(kernel.resolve(name + ".fio.before.stat"), "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
        Files.writeString(kernel.resolve(name + ".fio.after.stat"), statIos + " 0 " + statIos * 8 + " 100 0 0 0 0 0 100 100 0 0 0 0 0 0\n");
    }

    /** One kernel run: fio JSON, perf, stat (the stat moves only when {@code statMoves}). */
    private void job(String name, double iops, long ios, double taskClockMs, boolean statMoves) throws IOException {
        job(kernel, name, iops, ios, taskClockMs, statMoves);
    }

    private static void job(Path kernel, String name, double iops, long ios, double taskClockMs, boolean statMoves) throws IOException {
        fio(kernel, name, iops, ios);
        perfAndStat(kernel, name, taskClockMs, statMoves ? ios : 0);
    }

    @BeforeEach
    void fixture() throws IOException {
        run = run(tmp);
        raw = run.resolve("raw/part-acct");
        kernel = raw.resolve("kernel");
    }

    /** The run folder of the class comment under {@code dir}, uncalibrated ({@link #calibrate} adds the calibration); its path. */
    public static Path run(Path dir) throws IOException {
        Path run = dir.resolve("pa-run");
        Path raw = run.resolve("raw/part-acct");
        Path kernel = raw.resolve("kernel");
        Files.createDirectories(kernel);
        Files.writeString(run.resolve("manifest.json"),
                "{\"run_id\": \"pa-run\", \"command\": \"./lab pair part-acct --rounds 3 --id pa-run\", \"cores\": 2}");
        for (int t = 1; t <= 2; t++) {
            for (int r = 1; r <= 3; r++) {
                List<Object> table = new ArrayList<>();
                for (String target : List.of("part", "disk")) {
                    for (int v = 0; v < VARIANTS.size(); v++) {
                        double ns = DISK[t - 1][r - 1][v] * (target.equals("part") ? 1.2 : 1.0);
                        // lazy-ticks allocates 24 B per I/O to a partition at 2 threads: the notebook must say so
                        double bytes = t == 2 && target.equals("part") && v == 3 ? 24.0 : 0.02;
                        table.add(entry(IO, t, p(VARIANTS.get(v), target, PartAcct.HZ, PartAcct.SLOTS), ns, bytes));
                    }
                }
                write(raw.resolve("part-acct-r" + r + "-t" + t + ".json"), table);
                write(raw.resolve("part-acct-grid-r" + r + "-t" + t + ".json"), grid(t, r));
            }
            // ns per sum = 10 + 0.5 x slots in round 1, 2 ns more in round 2, 1 more in round 3: medians 11 + 0.5 x slots
            for (int r = 1; r <= 3; r++) {
                List<Object> sum = new ArrayList<>();
                for (int slots : new int[] {2, 16, 64, 256}) {
                    sum.add(entry(SUM, 1, Map.of("slots", Integer.toString(slots)), 10 + 0.5 * slots + (r == 2 ? 2 : r == 3 ? 1 : 0), 0));
                }
                write(raw.resolve("part-acct-sum-r" + r + ".json"), sum);
            }
        }
        Files.writeString(kernel.resolve("env.txt"), "environment: native\nkernel: 6.18.44-test\ncores: 2\nrounds: 3\nperf_repeats: 1\n"
                + "span: 128M from 1M on a disk target, the whole partition 1 (the same sectors) on a part target\n"
                + "guest: skipped: no guest kernel cached (offline)\n");
        Files.writeString(kernel.resolve("perf-missing.txt"), "cycles\n");
        // zram, whole disk, 2 jobs: on/off 400k/500k (r1), 420k/500k (r2), 410k/500k (r3): 0.80, 0.84 and 0.82.
        // task-clock per I/O: on 6000 ms / 1.2M = 5000 ns, off 6000 ms / 1.5M = 4000 ns (r1);
        // on 6615 ms / 1.26M = 5250 ns, off 4000 ns (r2); on 6273 ms / 1.23M = 5100 ns, off 4000 ns (r3): the accounting
        // costs 1000, 1250 and 1100 ns per I/O.
        job(kernel, "zram-disk-iostats1-j2-r1", 400000, 1_200_000, 6000, true);
        job(kernel, "zram-disk-iostats0-j2-r1", 500000, 1_500_000, 6000, false);
        job(kernel, "zram-disk-iostats1-j2-r2", 420000, 1_260_000, 6615, true);
        job(kernel, "zram-disk-iostats0-j2-r2", 500000, 1_500_000, 6000, false);
        job(kernel, "zram-disk-iostats1-j2-r3", 410000, 1_230_000, 6273, true);
        job(kernel, "zram-disk-iostats0-j2-r3", 500000, 1_500_000, 6000, false);
        // zram, 1 job: the stat moves with iostats=0, which the notebook must flag
        job(kernel, "zram-disk-iostats1-j1-r1", 250000, 750_000, 3000, true);
        job(kernel, "zram-disk-iostats0-j1-r1", 250000, 750_000, 3000, true);
        // loop: disk on/off 100k/110k in every round; partition 90k/104.5k (r1), 95k and a broken off file (r2), 92k/104.5k (r3)
        for (int r = 1; r <= 3; r++) {
            job(kernel, "loop-disk-iostats1-j2-r" + r, 100000, 300_000, 3000, true);
            job(kernel, "loop-disk-iostats0-j2-r" + r, 110000, 330_000, 3000, false);
        }
        job(kernel, "loop-part-iostats1-j2-r1", 90000, 270_000, 3000, true);
        job(kernel, "loop-part-iostats0-j2-r1", 104500, 313_500, 3000, false);
        job(kernel, "loop-part-iostats1-j2-r2", 95000, 285_000, 3000, true);
        job(kernel, "loop-part-iostats0-j2-r2", 104500, 313_500, 3000, false);
        job(kernel, "loop-part-iostats1-j2-r3", 92000, 276_000, 3000, true);
        job(kernel, "loop-part-iostats0-j2-r3", 104500, 313_500, 3000, false);
        Path broken = kernel.resolve("loop-part-iostats0-j2-r2.fio.json");
        Files.writeString(broken, Files.readString(broken).substring(0, 60));
        return run;
    }

    /**
     * The grid at 2 threads: all four's ns 100 (r1), 110 (r2) and 105 (r3); percpu-ref's gives the ratios
     * HZ 1000: 1.20, 1.05 / 0.99 / 1.02, 0.90 / 0.94 / 0.99 and HZ 100: 1.20, 1.15, 1.10 at slots 2, 16, 256.
     */
    private static List<Object> grid(int t, int r) {
        double four = r == 1 ? 100 : r == 2 ? 110 : 105;
        Map<String, double[]> two = Map.of(
                "1000", r == 1 ? new double[] {120, 105, 90} : r == 2 ? new double[] {132, 108.9, 103.4} : new double[] {126, 107.1, 103.95},
                "100", r == 1 ? new double[] {120, 115, 110} : r == 2 ? new double[] {132, 126.5, 121} : new double[] {126, 120.75, 115.5});
        String[] slots = {"2", "16", "256"};
        List<Object> out = new ArrayList<>();
        for (String hz : List.of("100", "1000")) {
            for (int i = 0; i < slots.length; i++) {
                out.add(entry(IO, t, p("percpu-ref", "part", hz, slots[i]), t == 1 ? 55 : two.get(hz)[i], 0.01));
                out.add(entry(IO, t, p("percpu-ref+percpu-inflight", "part", hz, slots[i]), t == 1 ? 50 : four, 0.01));
            }
        }
        return out;
    }

    private String notebook() throws IOException {
        Fixes.notebook(run);
        return Files.readString(run.resolve("NOTEBOOK.md"));
    }

    @Test
    void theSeedsFiguresAndTheThreadArgumentAreThere() throws IOException {
        String md = notebook();
        assertTrue(md.contains("## part-acct: partition refcount and in-flight counters become per-cpu"), md);
        assertTrue(md.contains("002_84cddfb167739f27.txt"));
        assertTrue(md.contains("| ~8% (1.08x) |") && md.contains("| ~15% (1.15x) |"), md);
        assertTrue(md.contains("Jens Axboe's objection") && md.contains("Tejun Heo's answer"));
    }

    @Test
    void theVariantTableHasThroughputAndRatiosPerRoundWithSpread() throws IOException {
        String md = notebook();
        // disk, 2 threads, atomic: 2e3/200 = 10.00, 2e3/210 = 9.52 and 2e3/205 = 9.76 M I/O/s; ns 200, 210 and 205; each the
        // estimation stage's geometric mean over rounds with its t interval
        assertTrue(md.contains("| disk | 2 | `atomic` | " + est(2, 10.0, 2e3 / 210, 2e3 / 205) + " | — | " + est(1, 200, 210, 205) + " | 0.020 |"),
                md);
        // all four: 200/160 = 1.25, 210/152 = 1.38 and 205/156 = 1.31, their geometric mean 1.31, t over 3 rounds (JVM.raw():
        // 1.3141 [1.1605–1.4881]): an interval that leaves out 1; 12.50, 13.16 and 12.82 M I/O/s; no A/A in the fixture
        assertTrue(md.contains("| disk | 2 | `percpu-ref+percpu-inflight` | " + est(2, 12.5, 2e3 / 152, 2e3 / 156) + " | 1.31 [1.16–1.49]x | "
                + est(1, 160, 152, 156) + " | 0.020 |"), md);
        assertTrue(md.contains("each with its 95% interval over rounds; no A/A control in this run"), md);
        // partition rows are the disk ones x 1.2 in ns: 114, 115.2 and 114 ns, 8.77, 8.68 and 8.77 M I/O/s; 120/114, 122.4/115.2
        // and 121.2/114
        assertTrue(md.contains("| part | 1 | `percpu-ref` | " + est(2, 1e3 / 114, 1e3 / 115.2, 1e3 / 114) + " | "
                + lab.analysis.estimate.Estimator.of(List.of(120 / 114.0, 122.4 / 115.2, 121.2 / 114)).format(2) + "x |"), md);
        // the gain grows from 1 thread (100/90, 102/92, 101/91: logs 0.1053605157, 0.1031842362, 0.1042610103, mean
        // 0.1042685874 (1.1098985196), s 0.0010881595, h = 4.303 × s/√3 = 0.0027033562: [1.1069021206–1.1129030300]) to 2
        // (1.3141 [1.1605–1.4881]): the two intervals apart, so it grows, with no "within noise" after it
        assertTrue(md.contains("- disk, `percpu-ref+percpu-inflight`: 1.11x at 1 thread -> 1.31x at 2 threads: grows\n"), md);
        assertTrue(md.contains("The hot path is not allocation-free: `lazy-ticks` (part, 24.0 B/op)"), md);
        assertTrue(md.contains("![disk thread sweep](charts/part-acct-sweep-disk.svg)"));
        assertTrue(md.contains("`atomic` -> `percpu-ref+percpu-inflight`:"), "LKP blocks");
    }

    @Test
    void theCrossoverSaysWhereAllFourStopBeatingTheFirstTwoPerHz() throws IOException {
        String md = notebook();
        // HZ 1000, percpu-ref over all four: 1.20 in every round at 2 slots; 1.05, 0.99, 1.02 at 16 (logs 0.0487901642,
        // −0.0100503359, 0.0198026273, mean 0.0195141519: 1.0197057975, s 0.0294213107, h = 4.303 × s/√3 = 0.0730924864:
        // [0.9478316902–1.0970301207]); 0.90, 0.94, 0.99 at 256 (mean −0.0590954184: 0.9426168219, s 0.0477158656, h =
        // 0.1185423481: [0.8372456470–1.0612494387], which holds 1)
        assertTrue(md.contains("| 1000 | 1.20 [1.20–1.20]x | 1.02 [0.95–1.10]x | 0.94 [0.84–1.06]x |"), md);
        assertTrue(md.contains("- HZ 1000: stops beating it at 256 slots (0.94x; it beat it at 16 slots, 1.02x); within noise: its 95% interval"
                + " reaches 1.06x\n"), md);
        assertTrue(md.contains("- HZ 100: none up to 256 slots: all four beat the first two at every slot count measured (1.10x at 256)\n"), md);
        assertTrue(md.contains("![all four over the first two by slots and HZ](charts/part-acct-crossover.svg)"));
        String svg = Files.readString(run.resolve("charts/part-acct-crossover.svg"));
        assertTrue(svg.contains("1.0 = the sum ate the gain") && svg.contains("HZ 100") && svg.contains("HZ 1000"));
    }

    @Test
    void aRatioThatRisesWithTheSlotsIsCalledNoiseNotACrossing() throws IOException {
        // HZ 1000 in every round: all four lose at 2 slots (100 vs 90) and win at 16 and 256
        for (int r = 1; r <= 3; r++) {
            List<Object> g = new ArrayList<>();
            for (String hz : List.of("100", "1000")) {
                for (String slots : List.of("2", "16", "256")) {
                    g.add(entry(IO, 2, p("percpu-ref", "part", hz, slots), hz.equals("1000") && slots.equals("2") ? 90 : 120, 0.01));
                    g.add(entry(IO, 2, p("percpu-ref+percpu-inflight", "part", hz, slots), 100, 0.01));
                }
            }
            write(raw.resolve("part-acct-grid-r" + r + "-t2.json"), g);
        }
        String md = notebook();
        assertTrue(md.contains("- HZ 1000: never beats it: 0.90x already at 2 slots; yet it beats it at 16 slots (1.20x): the ratio does "
                + "not fall with the slots, so this is no crossing, read it as noise\n"), md);
        // no gain at 2 slots, HZ 1000: nothing for the sum to eat
        assertTrue(md.contains("No crossover to find: all four do not beat the first two even at the fewest slots"), md);
    }

    @Test
    void theSumCostItsCpuShareAndTheExtrapolationAreComputedFromTheFit() throws IOException {
        String md = notebook();
        // 12, 19, 43, 139 ns, each − 1, + 1 and + 0 over three rounds: their geometric means; per slot 139 / 256 = 0.54
        assertTrue(md.contains("| 256 | " + est(1, 138, 140, 139) + " | 0.54 |"), md);
        // the fit over the four estimates (each a hair below its median: the geometric mean of x - 1, x + 1 and x)
        lab.analysis.Stats.Line fit = lab.analysis.Stats.line(List.of(new double[] {2, Math.cbrt(11.0 * 13 * 12)},
                new double[] {16, Math.cbrt(18.0 * 20 * 19)}, new double[] {64, Math.cbrt(42.0 * 44 * 43)},
                new double[] {256, Math.cbrt(138.0 * 140 * 139)}));
        assertTrue(md.contains("ns per sum ≈ " + Fmt.f(fit.a(), 2) + " + " + Fmt.f(fit.b(), 3) + " x slots"), md);
        // 1000 HZ x 2 sums x 139 ns = 278 us per second = 0.0278% of a CPU; 100 HZ x 1 x 12 ns = 0.00012%;
        // 250 x 139 ns = 0.003475%, which as a double is 0.0034749999..., so three digits give 0.00347
        assertTrue(md.contains("| 256 | 0.00139% | 0.00278% | 0.00347% | 0.00695% | 0.0139% | 0.0278% |"), md);
        assertTrue(md.contains("| 2 | 0.000120% |"), md);
        // gain at HZ 1000, 2 slots: 120-100 = 20, 132-110 = 22 and 126-105 = 21 ns (mean 21); rates 2e9/100, 2e9/110 and
        // 2e9/105, their geometric mean 2000/∛(100 × 110 × 105) = 19.06 M I/O/s; gain x rate = 4e8 ns per second in every
        // round = 40% of a CPU. Crossover: (4e8 / (HZ x 2) - a) / b
        assertTrue(md.contains("21.0 ns per I/O per thread at 19.06 M I/O/s, i.e. the first two would spend 0.40 CPU-seconds a second more for all four's I/O rate"), md);
        assertTrue(md.contains("an extrapolation of the model, not a measurement"));
        for (int hz : List.of(100, 250, 1000)) {
            assertTrue(md.contains("| " + hz + " | ≈" + String.format(java.util.Locale.ROOT, "%.0f", (4e8 / (hz * 2.0) - fit.a()) / fit.b())
                    + " (beyond the 256 measured) |"), md);
        }
        JsonNode x = JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path("part-acct").path("jvm");
        assertEquals((4e8 / 2000 - fit.a()) / fit.b(), x.path("extrapolated_crossover_slots").path("1000").asDouble(), 1e-6);
        assertEquals(fit.b(), x.path("sum").path("fit_b_ns_per_slot").asDouble(), 1e-12);
        assertEquals(256, x.path("grid").path("stops_beating_at_slots").path("1000").asInt());
        assertTrue(x.path("grid").path("stops_beating_at_slots").path("100").isNull());
    }

    @Test
    void theKernelTableHasOnOffRatiosCostsPartitionAndGaps() throws IOException {
        Notebook.Written w = Fixes.notebook(run);
        String md = Files.readString(run.resolve("NOTEBOOK.md"));
        assertTrue(md.contains("Span read: 128M from 1M on a disk target, the whole partition 1 (the same sectors) on a part target.\n\n"
                + "| device | target |"), md);
        // each figure the estimation stage's: geometric means over rounds (the cost, a difference: the mean), t intervals
        assertTrue(md.contains("| zram (native) | disk | 2 | fio | " + est(1, 400, 420, 410) + " | 500.0 [500.0–500.0] | " + est(3, 0.8, 0.84, 0.82)
                + "x | " + est(0, 5000, 5250, 5100) + " | 4000 [4000–4000] | " + mean(0, 1000, 1250, 1100) + " |"), md);
        // loop part: round 2's off file is broken, so two ratios, 90000 / 104500 and 92000 / 104500: the off's 104.5 and the
        // ratio with no interval (2 rounds)
        assertTrue(md.contains("| loop (native) | part | 2 | fio | " + est(1, 90, 95, 92) + " | 104.5 | " + est(3, 90 / 104.5, 92 / 104.5)
                + "x |"), md);
        assertEquals("0.871x", est(3, 90 / 104.5, 92 / 104.5) + "x", "√(0.8612440 × 0.8803828), no interval");
        // part / disk: 90/100, 95/100 and 92/100 at iostats=1; 104.5 / 110 = 0.95 at iostats=0 (rounds 1 and 3: no interval)
        assertTrue(md.contains("| loop (native) | 2 | fio | " + est(3, 0.9, 0.95, 0.92) + "x | 0.950x |"), md);
        assertTrue(md.contains("**The stat still moved with iostats=0** for zram/disk/j1/fio"), md);
        assertTrue(md.contains("Not in this run: zram part (zram takes no partition table: the scenario reads its whole disk only); nullb disk (guest skipped: no guest kernel cached (offline)); "
                + "nullb part (guest skipped: no guest kernel cached (offline))"), md);
        assertEquals(1, w.gaps().size(), w.gaps().toString());
        assertTrue(w.gaps().get(0).contains("raw/part-acct/kernel/loop-part-iostats0-j2-r2.fio.json"), w.gaps().toString());
    }

    /*
     * The headline, all four over atomic at 2 threads, the whole disk, worked by hand over 3 rounds, h = t(0.975, 2) × s/√3
     * = 4.303 × s/1.7320508076: the raw figure 200/160, 210/152 and 205/156, logs 0.2231435513, 0.3232270099, 0.2731539719,
     * mean 0.2731748444 (1.3141299930), s 0.0500417325, h = 0.1243205882: [1.1605038406–1.4880929971]; calibrated ({@link
     * #calibrate}) 1200/1120, 1210/1130 and 1205/1125, logs 0.0689928715, 0.0684027269, 0.0686965313, mean 0.0686973766
     * (1.0711120165), s 0.0002950732, h = 0.0007330616: [1.0703271131–1.0718974955]; its A/A, atomic over its copy,
     * 1200/1212 = 1/1.01, 1210/1203.95 = 1/0.995 and 1205/1207.41 = 1/1.002, logs −0.0099503309, 0.0050125418,
     * −0.0019980027, mean −0.0023119306 (0.9976907399), s 0.0074863745, h = 0.0185986861: [0.9793064943–1.0164201078], reach
     * 0.0206935057 (the lower end's); the raw table has no A/A of its own.
     */
    public static final Jvm JVM = new Jvm(new Interval(1.3141299929541381, 1.1605038406323014, 1.4880929971250418, 3),
            new Interval(1.0711120164856132, 1.0703271130719816, 1.0718974954927818, 3),
            new Interval(0.9976907398890038, 0.9793064942979202, 1.0164201077558215, 3), null);
    /**
     * The calibrated run's prediction, (T + 10 (4 + store)) / (T + 10 store'), and within each round (that round's T, the
     * stores per I/O of the whole run) 1.0363638141, 1.0362978184 and 1.0363307862; the implied cost T × 0.15 / ((4 +
     * store) − 1.15 store'), within each round 41.2504576, 41.3254584 and 41.2879580 ns; an rmw 10 ns more (the calibrated
     * test works them out).
     */
    public static final Predicted PREDICTION = new Predicted(1.036330895141128,
            new Interval(1.0363308058637448, 1.0362488312815004, 1.0364127869307564, 3), 41.2878342622182,
            new Interval(41.28795803001181, 41.194794313683396, 41.38112174634022, 3), 10);

    @Test
    void theFidelityRowAndTheHeadlineAreTheHandComputedNumbers() throws IOException {
        String md = notebook();
        // model: lazy 150 vs off 120 (r1), 140 vs 126 (r2), 145 vs 123 (r3): throughput 0.800, 0.900 and 0.848, ns 30, 14 and 22
        assertTrue(md.contains("| JVM model | `lazy-ticks` vs `iostats=0`, whole disk, 2 threads | "
                + lab.analysis.estimate.Estimator.of(List.of(0.8, 0.9, 123 / 145.0)).format(3) + "x | "
                + lab.analysis.estimate.Estimator.mean(List.of(30.0, 14.0, 22.0)).format(1) + " |"), md);
        // no null_blk (the guest was skipped): the headline's kernel row is loop's whole disk, 100k / 110k in every round
        assertTrue(md.contains("| kernel | zram (native), disk, 2 jobs, fio | " + est(3, 0.8, 0.84, 0.82) + "x | " + mean(0, 1000, 1250, 1100)
                + " |"), md);
        assertTrue(md.contains("| **kernel** | loop (native), disk, 2 jobs, fio | 0.909 [0.909–0.909]x |"), md);
        JsonNode f = JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path("part-acct");
        JsonNode h = f.path("headline");
        assertEquals(1.15, h.path("seed").asDouble(), 1e-12);
        assertEquals(1.08, h.path("seed_first_two").asDouble(), 1e-12);
        // no calibration in this fixture: jvm is the raw figure
        near(JVM.raw().value(), h.path("jvm").asDouble(), 1e-9, "the raw figure");
        pin(JVM.raw(), h.path("jvm_raw"), "jvm_raw");
        // 1.314 [1.161–1.488] lies beyond +2%; no A/A in the raw table, so nothing gates it
        assertEquals("effect", h.path("verdict").asText());
        assertEquals("an effect of at least +2% (+31.4%, +16.1% to +48.8%)", h.path("verdict_text").asText());
        assertTrue(h.path("jvm_calibrated").isNull() && h.path("predicted").isNull() && h.path("noise_floor").isNull(), h.toString());
        // today's kernel cannot switch the patches off: no kernel figure, the reason and the accounting cost in the note
        assertTrue(h.path("kernel").isNull(), h.toString());
        assertTrue(h.path("kernel_note").asText().startsWith("today's kernel has every patch and cannot switch them off;"), h.toString());
        assertTrue(h.path("kernel_note").asText().contains("is 0.91 [0.91–0.91]x on loop (native) whole disk, fio, 2 jobs (no null_blk run: the"
                + " guest did not run; zram ignored the toggle"), h.toString());
        assertEquals("ratio", h.path("unit").asText());
        assertEquals("loop/disk/j2/fio", f.path("fidelity").path("kernel_row").asText());
        // the kernel cell says why in the whole note (as summary.json has it), the fix's first-screen sentence in the note's
        // first clause only
        assertTrue(md.contains("| `part-acct` | all four patches / before, total throughput | 1.15x | 1.31 [1.16–1.49]x, effect ≥ +2% | — | — | —"
                + " (today's kernel has every patch and cannot switch them off; accounting on/off (iostats=1 / iostats=0) is 0.91"
                + " [0.91–0.91]x on loop (native) whole disk, fio, 2 jobs (no null_blk run: the guest did not run; zram ignored the"
                + " toggle: its /sys stat still counted with iostats=0)) | — |"), md);
        assertTrue(md.contains("- **`part-acct`**: model (raw, 2 cores) **1.31 [1.16–1.49]x, effect ≥ +2%**; seed 1.15x; kernel none (today's"
                + " kernel has every patch and cannot switch them off).\n"), md);
        assertTrue(md.contains("Each metric in full: `part-acct`: all four patches / before, total throughput (seed: fio randread over"
                + " null_blk, dual socket; JVM: bios to the whole disk, HZ 1000, 64 slots, 2 threads on 2 cores)."), md);
        assertTrue(md.contains("![part-acct: seed, model and kernel side by side](charts/headline-part-acct.svg)"), md);
    }

    @Test
    void whereZramIgnoresTheToggleTheHeadlineTakesLoopsWholeDisk() throws IOException {
        // the /sys stat of zram's iostats=0 runs at 2 jobs now counts too: its on/off ratio is not the accounting cost
        perfAndStat("zram-disk-iostats0-j2-r1", 6000, 1_500_000);
        perfAndStat("zram-disk-iostats0-j2-r2", 6000, 1_500_000);
        perfAndStat("zram-disk-iostats0-j2-r3", 6000, 1_500_000);
        String md = notebook();
        assertTrue(md.contains("**The stat still moved with iostats=0** for zram/disk/j1/fio, zram/disk/j2/fio"), md);
        assertTrue(md.contains("| **kernel** | loop (native), disk, 2 jobs, fio | 0.909 [0.909–0.909]x |"), md);
        assertTrue(md.contains("| kernel | zram (native), disk, 2 jobs, fio (toggle ignored: not the accounting cost) | 0.820"), md);
        JsonNode h = JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path("part-acct").path("headline");
        assertTrue(h.path("kernel_note").asText().contains("is 0.91 [0.91–0.91]x on loop (native) whole disk, fio, 2 jobs (no null_blk run: the"
                + " guest did not run; zram ignored the toggle"), h.toString());
    }

    /**
     * A quick run's kernel side (issue 33): the cells zram-disk-j1, loop-disk-j2, loop-part-j2,
     * nullb-disk-j1 and -j2 (null_blk in the guest VM), env.txt's cells and quick_leaves_out. The
     * headline's row (null_blk's whole disk at 2 jobs), the calibration's (zram, 1 job, iostats 1),
     * the partition against the disk (loop at 2 jobs) are there; null_blk's partition is absent
     * because the plan leaves it out, and the section says once what the quick run left out and how
     * to get it; the full run's fixture says nothing of it.
     */
    @Test
    void aQuickRunsCellsRenderWithTheHeadlineAndCalibrationRowsAndSayOnceWhatTheyLeftOut() throws IOException {
        assertFalse(notebook().contains("A quick run"));
        KernelFiles.clear(kernel);
        Files.writeString(kernel.resolve("env.txt"), "environment: native (zram, loop); guest VM (nullb)\nkernel: 6.18.44-test\ncores: 2\n"
                + "rounds: 2\nperf_repeats: 1\nnumjobs: 1 2\ncells: zram-disk-j1 nullb-disk-j1 nullb-disk-jmax loop-disk-jmax loop-part-jmax"
                + " (DEV-TARGET-jN; jmax: the most jobs)\nquick_leaves_out: the cells zram-disk-j2 loop-disk-j1 loop-part-j1 nullb-part-j1"
                + " nullb-part-j2 (DEV-TARGET-jN), and a full run's 3 s runs and 3 rounds (here: 2 s, 2)\n"
                + "guest: ran: null_blk in the guest VM (fio only; guest/ has its console and log)\n"
                + "guest_environment: tcg (qemu -smp 2; absolute figures are emulation speed, use ratios)\nguest_kernel: 6.1.0-28-amd64\n"
                + "guest_part: yes: /dev/labnbX1, 128M from 1M, made by: kernel\n");
        for (int r = 1; r <= 2; r++) {
            job("zram-disk-iostats1-j1-r" + r, 250000, 750_000, 3000, true);
            job("zram-disk-iostats0-j1-r" + r, 260000, 780_000, 3000, false);
            job("loop-disk-iostats1-j2-r" + r, 100000, 300_000, 3000, true);
            job("loop-disk-iostats0-j2-r" + r, 110000, 330_000, 3000, false);
            job("loop-part-iostats1-j2-r" + r, 90000, 270_000, 3000, true);
            job("loop-part-iostats0-j2-r" + r, 99000, 297_000, 3000, false);
            job("nullb-disk-iostats1-j1-r" + r, 40000, 80_000, 2000, true);
            job("nullb-disk-iostats0-j1-r" + r, 50000, 100_000, 2000, false);
            job("nullb-disk-iostats1-j2-r" + r, 80000, 160_000, 2000, true);
            job("nullb-disk-iostats0-j2-r" + r, 100000, 200_000, 2000, false);
        }
        String md = notebook();
        assertTrue(md.contains("| **kernel** | null_blk (guest VM, emulated: qemu TCG, kernel 6.1.0-28-amd64), disk, 2 jobs, fio | 0.800"), md);
        assertTrue(md.contains("| loop (native) | 2 | fio | 0.900"), md);
        assertTrue(md.contains("Not in this run: zram part (zram takes no partition table: the scenario reads its whole disk only); nullb part"
                + " (not among the cells this run ran: zram-disk-j1 nullb-disk-j1 nullb-disk-jmax loop-disk-jmax loop-part-jmax)"), md);
        String note = "A quick run (`--quick`): its kernel side ran only what this section reads, and left out the cells zram-disk-j2";
        assertTrue(md.contains(note) && md.contains("`sudo ./lab pair part-acct` (the kernel side alone: `sudo ./lab kernel run part-acct`)"), md);
        assertEquals(md.indexOf(note), md.lastIndexOf(note), md);
        var fig = PartAcctPairing.kernelFigure(lab.notebook.KernelRuns.read(lab.results.RunDir.open(run), kernel));
        assertTrue(fig.source().startsWith("zram (native), whole disk, fio psync 4k randread, 1 job"), fig.source());
        assertEquals(3000e6 / 750_000, fig.nsPerIo(), 1e-6);
    }

    @Test
    void guestRowsAreLabelledEmulatedWithTheGuestKernel() throws IOException {
        Files.writeString(kernel.resolve("env.txt"), "kernel: 6.18.44-test\ncores: 2\nrounds: 1\nperf_repeats: 1\n"
                + "guest: ran: null_blk in the guest VM\nguest_environment: tcg (qemu -smp 2; absolute figures are emulation speed, use ratios)\n"
                + "guest_kernel: 6.1.0-28-amd64\nguest_part: no: the table counts in 4096-byte blocks, the device has 512\n");
        job("nullb-disk-iostats1-j2-r1", 80000, 160_000, 2000, true);
        job("nullb-disk-iostats0-j2-r1", 100000, 200_000, 2000, false);
        String md = notebook();
        assertTrue(md.contains("| null_blk (guest VM, emulated: qemu TCG, kernel 6.1.0-28-amd64) | disk | 2 | fio | 80.0 | 100.0 | 0.800x |"), md);
        assertTrue(md.contains("nullb part (partition: no: the table counts in 4096-byte blocks, the device has 512)"), md);
        // null_blk, the seed's device, is the headline's kernel row whenever the guest ran
        assertTrue(md.contains("| **kernel** | null_blk (guest VM, emulated: qemu TCG, kernel 6.1.0-28-amd64), disk, 2 jobs, fio | 0.800x |"), md);
        JsonNode h = JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path("part-acct").path("headline");
        assertTrue(h.path("kernel_note").asText().contains("is 0.80x on null_blk (guest VM, emulated: qemu TCG, kernel 6.1.0-28-amd64)"
                + " whole disk"), h.toString());
        assertFalse(h.path("kernel_note").asText().contains("ignored"), h.toString());
    }

    /**
     * The scenario exited 1, its guest part failed (as kernel-scripts write it: env.txt's guest, and
     * PairRun's step line with the scenario's FAILED): the native devices' rows are still the table
     * and the headline's, null_blk's absence says the guest failed and why, and the failed step is
     * a gap beside the broken file.
     */
    @Test
    void aFailedGuestPartKeepsTheNativeRowsAndIsAGapNamingThePartAndWhy() throws IOException {
        String why = "guest.sh run exited 1: guest wrote no exit-status (see guest/console.log)";
        Files.writeString(kernel.resolve("env.txt"), "environment: native (zram, loop)\nkernel: 6.18.44-test\ncores: 2\nrounds: 3\n"
                + "perf_repeats: 1\nguest: failed: " + why + " (guest/guest-run.log has guest.sh's messages)\n");
        Files.writeString(raw.getParent().resolve("steps.tsv"), "part-acct\tkernel\tfailed\tkernel-scripts/lab-kernel.sh run part-acct"
                + " exited 1; failed part(s), raw/part-acct/kernel/FAILED: guest (nullb): " + why
                + "; the other parts' results are kept; see raw/part-acct/kernel/scenario.log\npart-acct\tjvm\tran\tJMH over threads [1, 2]\n");
        Notebook.Written w = Fixes.notebook(run);
        String md = Files.readString(run.resolve("NOTEBOOK.md"));
        assertTrue(md.contains("| zram (native) | disk | 2 | fio | " + est(1, 400, 420, 410) + " | 500.0 [500.0–500.0] |"), md);
        assertTrue(md.contains("| **kernel** | loop (native), disk, 2 jobs, fio | 0.909 [0.909–0.909]x |"), md);
        assertTrue(md.contains("nullb disk (guest failed: " + why + " (guest/guest-run.log has guest.sh's messages))"), md);
        assertTrue(md.contains("| `part-acct` | kernel | failed | kernel-scripts/lab-kernel.sh run part-acct exited 1;"), md);
        assertEquals(2, w.gaps().size(), w.gaps().toString());
        String gap = "`raw/steps.tsv`: `part-acct` kernel failed: kernel-scripts/lab-kernel.sh run part-acct exited 1; failed part(s),"
                + " raw/part-acct/kernel/FAILED: guest (nullb): " + why;
        assertTrue(w.gaps().stream().anyMatch(g -> g.startsWith(gap)), w.gaps().toString());
        assertTrue(md.contains("## Gaps\n\nFiles that could not be used and steps that failed (the rest of the run is rendered without them):\n\n"), md);
        assertTrue(md.contains("- " + gap), md);
        JsonNode gaps = JSON.readTree(run.resolve("summary.json").toFile()).path("gaps");
        assertEquals(2, gaps.size(), gaps.toString());
    }

    @Test
    void regeneratesByteIdentically() throws IOException {
        Fixes.notebook(run);
        byte[] md = Files.readAllBytes(run.resolve("NOTEBOOK.md"));
        byte[] summary = Files.readAllBytes(run.resolve("summary.json"));
        byte[] chart = Files.readAllBytes(run.resolve("charts/part-acct-crossover.svg"));
        Fixes.notebook(run);
        assertArrayEquals(md, Files.readAllBytes(run.resolve("NOTEBOOK.md")));
        assertArrayEquals(summary, Files.readAllBytes(run.resolve("summary.json")));
        assertArrayEquals(chart, Files.readAllBytes(run.resolve("charts/part-acct-crossover.svg")));
    }

    @Test
    void withoutKernelOrGridTheSectionSaysWhatIsAbsentAndStillRenders() throws IOException {
        try (var s = Files.list(raw)) {
            for (Path f : s.filter(f -> f.getFileName().toString().startsWith("part-acct-grid")).toList()) {
                Files.delete(f);
            }
        }
        try (var s = Files.list(kernel)) {
            for (Path f : s.filter(f -> !f.getFileName().toString().equals("env.txt")).toList()) {
                Files.delete(f);
            }
        }
        String md = notebook();
        assertTrue(md.contains("No crossover grid in this run"), md);
        assertTrue(md.contains("It needs both the grid and the sum benchmark, and this run lacks the grid."), md);
        assertTrue(md.contains("Not in this run: the kernel side runs as root (`sudo ./lab pair part-acct`); guest: skipped"), md);
        JsonNode h = JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path("part-acct").path("headline");
        assertTrue(h.path("kernel").isNull(), h.toString());
        assertTrue(h.path("jvm").isNumber(), h.toString());
        assertFalse(md.contains("NaN"), md);
    }

    /**
     * ns per I/O per thread of the calibrated table (+1000 ns), disk, [threads-1][round-1]: atomic, percpu-ref, all four,
     * lazy-ticks, atomic~aa (the A/A's copy of atomic 1% slower in round 1, 0.5% faster in round 2, 0.2% slower in round 3).
     */
    private static final double[][][] CALIBRATED = {
        {{1100, 1090, 1080, 1075, 1111}, {1100, 1090, 1080, 1075, 1094.5}, {1100, 1090, 1080, 1075, 1102.2}},
        {{1200, 1160, 1120, 1100, 1212}, {1210, 1170, 1130, 1110, 1203.95}, {1205, 1165, 1125, 1105, 1207.41}},
    };

    /**
     * A calibration (the kernel's 1080 ns per I/O less the model's 80: base 1000 ns), the calibrated
     * rows with an A/A control, the counts of four variants, and a cost sweep in which one shared
     * operation costs 40 and 30 ns more than a private one at 2 threads and gaps 0 and 100 ns, and
     * 10 ns at 1000 ns in the timed pairs (0 more at 1 thread). {@code userNs} of the base (0: none,
     * and the file has no such key, as before the split) is the submitter's, the rest the device's,
     * and the calibrated rows carry the two as their params.
     */
    private void calibrate(long userNs) throws IOException {
        calibrate(raw, userNs);
    }

    /** {@link #calibrate(long)} of the run whose raw folder is {@code raw}. */
    public static void calibrate(Path raw, long userNs) throws IOException {
        Files.writeString(raw.resolve("calibration.json"), "{\"baseNs\": 1000, " + (userNs == 0 ? "" : "\"userNs\": " + userNs + ", ")
                + "\"kernelNsPerIo\": 1080.0, \"kernelSource\": \"loop (native), test\","
                + " \"modelNsPerIo\": 80.0, \"modelSource\": \"lazy-ticks, test\"}");
        List<String> variants = List.of(PartAcct.BASE, PartAcct.TWO, PartAcct.FOUR, PartAcct.LAZY, PartAcct.BASE + "~aa");
        for (int t = 1; t <= 2; t++) {
            for (int r = 1; r <= 3; r++) {
                Path f = raw.resolve("part-acct-cal-r" + r + "-t" + t + ".json");
                List<Object> table = new ArrayList<>();
                for (int v = 0; v < variants.size(); v++) {
                    Map<String, String> params = new LinkedHashMap<>(p(variants.get(v), "disk", PartAcct.HZ, PartAcct.SLOTS));
                    params.put("baseNs", Long.toString(1000 - userNs));
                    if (userNs > 0) {
                        params.put("userNs", Long.toString(userNs));
                    }
                    table.add(entry(IO, t, params, CALIBRATED[t - 1][r - 1][v], 0.02));
                }
                write(f, table);
                List<Object> costs = new ArrayList<>();
                for (String prim : List.of("atomic-refcount", "cas-refcount")) {
                    for (long gap : new long[] {0, 100, 1000}) {
                        double priv = 20 + gap;
                        double extraPerOp = t == 1 ? 0 : gap == 0 ? 40 : gap == 100 ? 30 : 99; // 99: the score at 1000 ns, not used
                        costs.add(entry("lab.engine.bench.Primitives.getPut", t, Map.of("primitive", prim, "line", "private", "gapNs",
                                Long.toString(gap)), priv, 0));
                        costs.add(entry("lab.engine.bench.Primitives.getPut", t, Map.of("primitive", prim, "line", "shared", "gapNs",
                                Long.toString(gap)), priv + 2 * extraPerOp, 0));
                    }
                }
                write(raw.resolve("part-acct-costs-r" + r + "-t" + t + ".json"), costs);
                // the timed pairs at 1000 ns (the operations alone): 20 ns private, 20 + 2 x 10 shared at 2 threads: 10 ns
                // per operation, where the score sweep's own point at 1000 ns says 99: the timed one is the one used
                List<Object> timed = new ArrayList<>();
                for (String prim : List.of("atomic-refcount", "cas-refcount")) {
                    for (String line : List.of("private", "shared")) {
                        double pair = line.equals("private") || t == 1 ? 20 : 40;
                        Map<String, Object> e = entry("lab.engine.bench.Primitives.timedGetPut", t, Map.of("primitive", prim, "line", line,
                                "gapNs", "1000"), 1020, 0);
                        e.put("secondaryMetrics", Map.of("pairNs", metric(pair * 1e6), "pairs", metric(1e6)));
                        timed.add(e);
                    }
                }
                write(raw.resolve("part-acct-costs-timed-r" + r + "-t" + t + ".json"), timed);
            }
        }
        Map<String, Object> tick = Map.of("part0.stamp", Map.of("store", 1.0));
        write(raw.resolve("counts.json"), List.of(
                count(PartAcct.BASE, Map.of("part0.ref", Map.of("cas", 1.0, "rmw", 1.0), "part0.in_flight", Map.of("rmw", 2.0)), tick),
                count(PartAcct.TWO, Map.of("part0.in_flight", Map.of("rmw", 2.0)), tick),
                count(PartAcct.FOUR, Map.of(), tick),
                count(PartAcct.LAZY, Map.of(), Map.of("part0.stamp", Map.of("cas", 1.0)))));
    }


    private static Map<String, Object> count(String variant, Map<String, Object> perIo, Map<String, Object> perTick) {
        return Map.of("model", "part-acct", "variant", variant, "point", Map.of("target", "disk"), "ios", 100000,
                "perIo", perIo, "ticks", 16, "perTick", perTick);
    }

    /** A base split between the device and the submitter: the section reads the rows run with that split, and says so. */
    @Test
    void aSplitBaseReadsTheRowsRunWithTheSplitAndSaysWhereEachPartIsSpent() throws IOException {
        calibrate(200);
        String md = notebook();
        assertTrue(md.contains("less the model's own 80.0 ns (lazy-ticks, test); of it 200 ns (the tool's user share of the kernel's CPU, 18.5%)"
                + " spent by the submitting thread between a completion and its next submission, the other 800 ns in the device's submit."), md);
        assertTrue(md.contains("| disk | 2 | `percpu-ref+percpu-inflight` | " + est(2, 2e3 / 1120, 2e3 / 1130, 2e3 / 1125) + " | 1.07 [1.07–1.07]x |"),
                md);
    }

    @Test
    void theCalibratedTableThePredictionAndTheImpliedCostAreTheHandComputedNumbers() throws IOException {
        calibrate(0);
        String md = notebook();
        assertTrue(md.contains("Calibration: 1000 ns of uncontended CPU per model I/O: the kernel's 1080 ns of task-clock per I/O (loop (native),"
                + " test) less the model's own 80.0 ns (lazy-ticks, test). The raw model's I/O costs 80.0 ns, the kernel's 1080: uncalibrated,"
                + " the same shared line weighs 14 times more"), md);
        // all four over atomic at 2 threads: 1200/1120 = 1.0714, 1210/1130 = 1.0708 and 1205/1125 = 1.0711, their geometric mean
        double calibrated = Math.cbrt(1200.0 / 1120 * 1210.0 / 1130 * 1205.0 / 1125);
        assertTrue(md.contains("| disk | 2 | `percpu-ref+percpu-inflight` | " + est(2, 2e3 / 1120, 2e3 / 1130, 2e3 / 1125) + " | 1.07 [1.07–1.07]x |"),
                md);
        // per I/O at 2 threads, a tick's store at the variant's rate (2e9 / its ns, the geometric mean of 1200, 1210 and 1205 for
        // atomic, of 1120, 1130 and 1125 for all four)
        double storeAtomic = 1000 * Math.cbrt(1200.0 * 1210 * 1205) / 2e9;
        double storeFour = 1000 * Math.cbrt(1120.0 * 1130 * 1125) / 2e9;
        double tOne = 1000 + Math.cbrt(100.0 * 102 * 101);
        // one T for every variant, atomic's: the base and its raw one-thread ns, 1000 + 101.0 (100, 102 and 101); every kind
        // costs 10 ns more at 2 threads than at 1, at the 1000 ns gap; atomic: cas 1 + rmw 3 + the store
        double predicted = (tOne + 10 * (4 + storeAtomic)) / (tOne + 10 * storeFour);
        assertEquals(PREDICTION.value(), predicted, 1e-12, "(1100.9966996 + 40.0060250) / (1100.9966996 + 0.0056250)");
        // made within each round instead, from that round's T (1000 + 100, + 102, then + 101) and c (the stores as above):
        // 1.0363638141, 1.0362978184 and 1.0363307862; logs 0.0357182541, 0.0356545720, 0.0356863846, mean 0.0356864035
        // (1.0363308059), s 0.0000318410, h = 4.303 × 0.0000318410/√3 = 0.0000791039: [1.0362488313–1.0364127869]
        assertTrue(md.contains("| all four (`percpu-ref+percpu-inflight` / `atomic`) | 1.071 [1.070–1.072]x | 1.036x (1.036 [1.036–1.036]x"
                + " over rounds) | predicts less than measured"), md);
        JsonNode over = JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path("part-acct").path("headline")
                .path("predicted_over_rounds");
        pin(PREDICTION.overRounds(), over, "the prediction within each round");
        // c = T (R - 1) / (m_before - R m_after), T = 1101 (atomic, 1 thread), R = 1.15
        double implied = tOne * 0.15 / ((4 + storeAtomic) - 1.15 * storeFour);
        assertEquals(PREDICTION.implied(), implied, 1e-9);
        // the same made within each round, from that round's T (1100, 1102, then 1101) and c (10 ns in each): 41.2504576,
        // 41.3254584 and 41.2879580, their mean 41.2879580 ± 4.303 × 0.0375004160/√3 = 0.0931637: [41.1947943–41.3811217]
        assertTrue(md.contains("one shared-line operation would have to cost 41.3 ns more than a private one. Here, at 2"
                + " threads and a gap of 1000 ns, a `rmw` costs 10.0 ns more (made within each round instead: implied 41.3 [41.2–41.4]"
                + ", measured 10.0 [10.0–10.0] ns, means over rounds with their 95% intervals)."), md);
        JsonNode h = JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path("part-acct").path("headline");
        near(JVM.calibrated().value(), calibrated, 1e-12, "∛(1200/1120 × 1210/1130 × 1205/1125)");
        near(JVM.calibrated().value(), h.path("jvm").asDouble(), 1e-9, "the calibrated figure");
        pin(JVM.calibrated(), h.path("jvm_calibrated"), "jvm_calibrated");
        pin(JVM.raw(), h.path("jvm_raw"), "jvm_raw");
        pin(PREDICTION.impliedOverRounds(), h.path("implied_op_ns_over_rounds"), "the implied cost within each round");
        pin(new Interval(10, 10, 10, 3), h.path("measured_op_ns_over_rounds"), "10 ns in every round");
        // 1.0711 [1.0703–1.0719] lies beyond +2%, and its A/A holds 1
        assertEquals("effect", h.path("verdict").asText());
        assertEquals("an effect of at least +2% (+7.1%, +7.0% to +7.2%)", h.path("verdict_text").asText());
        assertEquals(predicted, h.path("predicted").asDouble(), 1e-12);
        assertEquals(implied, h.path("implied_op_ns").asDouble(), 1e-9);
        assertEquals(10.0, h.path("measured_op_ns").asDouble(), 1e-12);
        assertEquals(1000.0, h.path("base_ns").asDouble(), 0);
        assertEquals("loop (native), test", h.path("base_source").asText());
        // the A/A: atomic against its copy, 1% slower, 0.5% faster, then 0.2% slower (JVM.aa() above); no raw A/A: the raw table
        // has no copy
        pin(JVM.aa(), h.path("aa"), "the calibrated A/A");
        assertEquals(0.0206935057020798, h.path("noise_floor").asDouble(), 1e-12, h.toString());
        assertEquals("holds 1", h.path("aa").path("self_test").asText());
        assertTrue(h.path("aa_raw").isMissingNode(), h.toString());
        assertTrue(md.contains("| disk | 2 | `atomic` | " + est(2, 2e3 / 1200, 2e3 / 1210, 2e3 / 1205) + " | — (A/A 1.00 [0.98–1.02]x (holds 1)) |"),
                md);
    }

    /**
     * Priced per visit: the counts say atomic and percpu-ref visit the hot line twice per I/O and
     * all four never, and the visits' sweep says a visit costs 50 ns more on the shared line at 2
     * threads (70 against 20 per timed pair) and nothing more at 1; the tick's store stays an
     * operation at the 1000 ns gap (10 ns).
     */
    @Test
    void pricedPerVisitThePredictionIsTheHandComputedNumber() throws IOException {
        calibrate(200);
        Map<String, Object> tick = Map.of("part0.stamp", Map.of("store", 1.0));
        write(raw.resolve("counts.json"), List.of(
                visits(count(PartAcct.BASE, Map.of("part0.ref", Map.of("cas", 1.0, "rmw", 1.0), "part0.in_flight", Map.of("rmw", 2.0)), tick),
                        Map.of("part0", 2.0)),
                visits(count(PartAcct.TWO, Map.of("part0.in_flight", Map.of("rmw", 2.0)), tick), Map.of("part0", 2.0)),
                visits(count(PartAcct.FOUR, Map.of(), tick), Map.of()),
                visits(count(PartAcct.LAZY, Map.of(), Map.of("part0.stamp", Map.of("cas", 1.0))), Map.of())));
        for (int t = 1; t <= 2; t++) {
            for (int r = 1; r <= 3; r++) {
                List<Object> pairs = new ArrayList<>();
                for (String line : List.of("private", "shared")) {
                    double pair = line.equals("private") || t == 1 ? 20 : 70;
                    Map<String, Object> e = entry("lab.engine.bench.Primitives.timedGetPut", t, Map.of("primitive", "atomic-refcount",
                            "line", line, "gapNs", "800", "userGapNs", "200"), 1020, 0);
                    e.put("secondaryMetrics", Map.of("pairNs", metric(pair * 1e6), "pairs", metric(1e6)));
                    pairs.add(e);
                }
                write(raw.resolve("part-acct-costs-visits-r" + r + "-t" + t + ".json"), pairs);
            }
        }
        String md = notebook();
        double storeAtomic = 1000 * Math.cbrt(1200.0 * 1210 * 1205) / 2e9;
        double storeFour = 1000 * Math.cbrt(1120.0 * 1130 * 1125) / 2e9;
        double tOne = 1000 + Math.cbrt(100.0 * 102 * 101);
        double predicted = (tOne + 50 * 2 + 10 * storeAtomic) / (tOne + 10 * storeFour);
        assertEquals(1.0908266928914927, predicted, 1e-12, "(1100.9966996 + 100.0060250) / (1100.9966996 + 0.0056250)");
        // within each round (T 1100, 1102, then 1101): 1.0909089897, 1.0907440014 and 1.0908264206; logs 0.0870112842,
        // 0.0868600335, 0.0869355930, mean 0.0869356369 (1.0908264685), s 0.0000756253, h = 4.303 × 0.0000756253/√3 =
        // 0.0001878789: [1.0906215444–1.0910314311]
        pin(new Interval(1.090826468495391, 1.0906215444187939, 1.0910314310765246, 3), JSON.readTree(run.resolve("summary.json")
                .toFile()).path("fixes").path("part-acct").path("headline").path("predicted_over_rounds"), "per visit, within each round");
        assertTrue(md.contains("| all four (`percpu-ref+percpu-inflight` / `atomic`) | 1.071 [1.070–1.072]x | 1.091x (1.091 [1.091–1.091]x"
                + " over rounds) |"), md);
        assertTrue(md.contains("`atomic` 1101.0 ns at 1 thread (the base and the raw model's), " + Fmt.f(storeAtomic, 3) + " store + 2.000 visit"), md);
        assertTrue(md.contains("Extra ns per shared-line visit or operation at 2 threads over 1, a visit at the I/O's rhythm (800 ns of work after one"
                + " pair, 200 after the next), an operation at a gap of 1000 ns: cas 10.0, store 10.0, visit 50.0."), md);
        double implied = tOne * 0.15 / ((2 + storeAtomic) - 1.15 * storeFour);
        assertEquals(82.57658460203908, implied, 1e-9);
        assertTrue(md.contains("one visit to a shared line would have to cost " + Fmt.f(implied, 1) + " ns more than a private one. Here, at 2"
                + " threads and the I/O's rhythm, a `visit` costs 50.0 ns more (made within each round instead"), md);
        JsonNode h = JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path("part-acct").path("headline");
        assertEquals(predicted, h.path("predicted").asDouble(), 1e-12);
        assertEquals(50.0, h.path("measured_op_ns").asDouble(), 1e-12);
        assertEquals(implied, h.path("implied_op_ns").asDouble(), 1e-9);
    }

    private static Map<String, Object> visits(Map<String, Object> count, Map<String, Double> visits) {
        Map<String, Object> m = new LinkedHashMap<>(count);
        m.put("visitsPerIo", visits);
        return m;
    }

    /** The kernel part of the section: from "### Today's kernel" to the lab kernel's or the end of the section. */
    private static String kernelPart(String md) {
        int from = md.indexOf("### Today's kernel: `queue/iostats`");
        int to = md.indexOf("\n## ", from + 1);
        return md.substring(from, to < 0 ? md.length() : to);
    }

    /**
     * null_blk natively, as the scenario writes it where the host kernel has null_blk: env.txt lists
     * it among the native devices, says why its partition is absent, and has no guest_* keys. Whole
     * disk, 2 jobs, 3 s: on/off 360k/400k (r1), 376k/400k (r2) and 368k/400k (r3): 0.90, 0.94 and
     * 0.92; task-clock per I/O on 2700 ms / 1.08M, 2820 ms / 1.128M and 2760 ms / 1.104M = 2500 ns, off
     * 2400 ms / 1.2M = 2000 ns: 500 ns of accounting per I/O in every round.
     */
    private void nativeNullBlk() throws IOException {
        Files.writeString(kernel.resolve("env.txt"), "environment: native (zram, loop, nullb)\nkernel: 6.18.44-test\ncores: 2\nrounds: 3\n"
                + "perf_repeats: 1\nspan: 128M from 1M on a disk target, the whole partition 1 (the same sectors) on a part target\n"
                + "iostats_default: zram=0 loop=1 nullb=1 (queue/iostats before the lab set it; restored after)\n"
                + "nullb_part: no: sfdisk: cannot write the table (test)\n"
                + "modules: loaded by the lab, unloaded after: null_blk\n"
                + "guest: skipped: not needed: this kernel has null_blk (it ran natively)\n");
        job("nullb-disk-iostats1-j2-r1", 360000, 1_080_000, 2700, true);
        job("nullb-disk-iostats0-j2-r1", 400000, 1_200_000, 2400, false);
        job("nullb-disk-iostats1-j2-r2", 376000, 1_128_000, 2820, true);
        job("nullb-disk-iostats0-j2-r2", 400000, 1_200_000, 2400, false);
        job("nullb-disk-iostats1-j2-r3", 368000, 1_104_000, 2760, true);
        job("nullb-disk-iostats0-j2-r3", 400000, 1_200_000, 2400, false);
    }

    @Test
    void nativeNullBlkRowsAreLabelledNativeAndAreTheHeadlinesKernelRow() throws IOException {
        nativeNullBlk();
        String md = notebook();
        String k = kernelPart(md);
        assertTrue(k.contains("The same 4k randread, natively on zram, loop and null_blk; I/O to partition 1 and to the whole disk; host"
                + " kernel 6.18.44-test (modules: loaded by the lab, unloaded after: null_blk), 2 cores"), k);
        assertTrue(k.contains("| null_blk (native) | disk | 2 | fio | " + est(1, 360, 376, 368) + " | 400.0 [400.0–400.0] | " + est(3, 0.9, 0.94, 0.92)
                + "x"
                + " | 2500 [2500–2500] | 2000 [2000–2000] | 500 [500–500] |"), k);
        // the partition: the native null_blk's reason, not the guest's
        assertTrue(k.contains("nullb part (partition: no: sfdisk: cannot write the table (test))"), k);
        assertFalse(k.contains("nullb disk"), "null_blk's whole disk ran: " + k);
        // the fidelity: null_blk's whole disk is the headline's row; natively its ns are the like-for-like base
        assertTrue(k.contains("| **kernel** | null_blk (native), disk, 2 jobs, fio | " + est(3, 0.9, 0.94, 0.92) + "x | 500 [500–500] |"), k);
        assertTrue(k.contains("the kernel's 2000 ns of task-clock (null_blk (native), whole disk, fio, 2 jobs:"), k);
        for (String word : List.of("emulat", "TCG", "guest", "qemu")) {
            assertFalse(k.contains(word), word + ": " + k);
        }
        JsonNode f = JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path("part-acct");
        assertEquals("nullb/disk/j2/fio", f.path("fidelity").path("kernel_row").asText());
        assertEquals(Math.cbrt(0.9 * 0.94 * 0.92), f.path("fidelity").path("kernel_throughput_ratio").path("value").asDouble(), 1e-6);
        assertEquals(500, f.path("fidelity").path("kernel_ns_per_io").path("value").asDouble(), 1e-6);
        JsonNode h = f.path("headline");
        assertTrue(h.path("kernel_note").asText().endsWith("is " + est(2, 0.9, 0.94, 0.92) + "x on null_blk (native) whole disk, fio, 2 jobs"),
                h.toString());
    }

    @Test
    void guestRowsUnderKvmAreNotCalledEmulated() throws IOException {
        Files.writeString(kernel.resolve("env.txt"), "environment: native (zram, loop); guest VM (nullb)\nkernel: 6.18.44-test\ncores: 2\n"
                + "rounds: 1\nperf_repeats: 1\nguest: ran: null_blk in the guest VM (fio only; guest/ has its console and log)\n"
                + "guest_environment: kvm (qemu -smp 4, cpu host; under KVM: virtualised, not emulated)\nguest_kernel: 6.1.0-28-amd64\n"
                + "guest_part: yes: /dev/labnbX1, 128M from 1M, made by: kernel\n");
        job("nullb-disk-iostats1-j2-r1", 80000, 160_000, 2000, true);
        job("nullb-disk-iostats0-j2-r1", 100000, 200_000, 2000, false);
        String k = kernelPart(notebook());
        assertTrue(k.contains("natively on zram and loop, and on null_blk in a guest VM;"), k);
        assertTrue(k.contains("| null_blk (guest VM, qemu KVM, kernel 6.1.0-28-amd64) | disk | 2 | fio | 80.0 | 100.0 | 0.800x |"), k);
        assertTrue(k.contains("| **kernel** | null_blk (guest VM, qemu KVM, kernel 6.1.0-28-amd64), disk, 2 jobs, fio | 0.800x |"), k);
        assertFalse(k.contains("emulated") || k.contains("TCG"), k);
    }

    /** What the estimation stage prints for a signed figure (a difference) measured {@code x} in each round: the mean and its t interval. */
    private static String mean(int digits, double... x) {
        return lab.analysis.estimate.Estimator.mean(java.util.stream.DoubleStream.of(x).boxed().toList()).format(digits);
    }

    /** What the estimation stage prints for a figure measured {@code x} in each round: the geometric mean and its t interval. */
    private static String est(int digits, double... x) {
        return lab.analysis.estimate.Estimator.of(java.util.stream.DoubleStream.of(x).boxed().toList()).format(digits);
    }
}
