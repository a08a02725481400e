package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lab.results.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lab kernel against Debian's: three rounds, each boot's two repetitions up to 1% apart either
 * way (the A/A), the lab kernel 0.5% slower give or take 1% from round to round, then 2.5%, 4% and
 * 10% slower; and an A/A whose second repetition is 2-3% faster in every boot (it fails). Each
 * round's lab / debian is the lab factor times the round's jitter 1.01, 0.99, 1.0 (the repetitions
 * cancel in it): logs ln f + 0.0099503309, − 0.0100503359, + 0, sd (2 df) 0.0100003750 whatever f,
 * h = 4.303 × 0.0100003750 / √3 = 0.0248443138, the estimate f·0.9999666656. The A/A's unit is the round: each
 * round's two boots' second repetition over their first, the geometric mean of the two (they share the round's drift).
 */
class LabKernelOverheadTest {
    @TempDir
    Path run;

    /** The repetitions' A/A in rounds 1 to 3: the second over the first, in both kernels' boots. */
    private static final double[] AA_HOLDS_ONE = {1.01, 0.99, 1.0};

    private RunDir write(double lab) throws Exception {
        return write(lab, AA_HOLDS_ONE);
    }

    private RunDir write(double lab, double[] rep2) throws Exception {
        return write(lab, rep2, rep2);
    }

    /** {@code rep2Debian}, {@code rep2Lab}: each kernel's second repetition over its first, rounds 1 to 3. */
    private RunDir write(double lab, double[] rep2Debian, double[] rep2Lab) throws Exception {
        Path dir = Files.createDirectories(run.resolve("raw/lab-kernel"));
        StringBuilder b = new StringBuilder("round\tslot\tkernel\trep\tios\truntime_s\tiops\ttask_clock_ns\tns_per_io\n");
        for (int r = 1; r <= 3; r++) {
            for (String k : r % 2 == 1 ? List.of("debian", "lab") : List.of("lab", "debian")) {
                double jitter = k.equals("lab") ? new double[] {1.01, 0.99, 1.0}[r - 1] : 1.0;
                double base = (k.equals("lab") ? lab * jitter : 1.0) * (100_000 + 1000 * r);
                double[] rep2 = k.equals("lab") ? rep2Lab : rep2Debian;
                for (int rep = 1; rep <= 2; rep++) {
                    double iops = base * (rep == 1 ? 1 : rep2[r - 1]);
                    b.append(r).append('\t').append(k.equals("debian") == (r % 2 == 1) ? 1 : 2).append('\t').append(k).append('\t')
                            .append(rep).append("\t500000\t5\t").append(iops).append('\t').append(1e9 * 5).append('\t')
                            .append(k.equals("lab") ? 5100 : 5000).append('\n');
                }
            }
        }
        Files.writeString(dir.resolve("overhead.tsv"), b);
        Files.writeString(run.resolve("manifest.json"), "{}");
        Files.writeString(dir.resolve("overhead.txt"), "workload: fio randread 4k on brd, 10 s\nenv: tcg\nrounds: 3\n"
                + "debian_kernel: 6.1.0-28-amd64\nlab_kernel: 6.1.0-lab+\n");
        return RunDir.open(run);
    }

    @Test
    void absentWithoutItsFile() throws Exception {
        Files.createDirectories(run.resolve("raw"));
        assertTrue(LabKernelOverhead.read(RunDir.open(run)).isEmpty());
    }

    @Test
    void aRatioWhoseIntervalLiesWithinFivePercentIsNoOverhead() throws Exception {
        LabKernelOverhead o = LabKernelOverhead.read(write(0.995)).orElseThrow();
        String md = o.text("./lab demo");
        assertTrue(md.startsWith("## The lab kernel's overhead\n\nDebian's kernel (`6.1.0-28-amd64`) against the lab kernel"
                + " (`6.1.0-lab+`, every switch at its default), fio randread 4k on brd, 10 s, tcg, 3 rounds"), md);
        assertTrue(md.contains("| 3 | 103000 | 102485 | 0.995x |"), md);
        // 0.995 · 0.9999666656 · exp(∓0.0248443138) = [0.9705–1.0199]
        assertTrue(md.contains("lab / debian: 0.995 [0.971–1.020]x;"), md);
        // the A/A: 1.01, 0.99, 1.0 in both kernels' boots, so each round's geometric mean is that: logs 0.0099503309,
        // −0.0100503359, 0, mean −0.0000333350 (the estimate 0.9999666656), sd (2 df) 0.0100003750, h = 4.303 ×
        // 0.0100003750 / √3 = 0.0248443138: [0.9754292497–1.0251213325] (six pairs as units, 5 df, said [0.991–1.009])
        assertTrue(md.contains("the A/A (the second repetition over the first in one boot, both kernels' in a round together):"
                + " 1.000 [0.975–1.025]x."), md);
        assertTrue(md.contains(" ns. Its interval lies within ±5%: no overhead larger than that.\n\n"), md);
        assertTrue(md.contains("debian 5000 [5000–5000] ns, lab 5100 [5100–5100] ns"), md);
        Map<String, Object> s = o.summary();
        assertEquals(0.995, (Double) ((Map<?, ?>) s.get("ratio")).get("value"), 5e-4);
        assertEquals("no-effect", s.get("verdict"));
        assertEquals("no effect larger than ±5%", s.get("verdict_text"));
        assertEquals(3, s.get("rounds"));
    }

    @Test
    void aRatioWhoseIntervalLeavesOutOneIsAnOverhead() throws Exception {
        // 0.9 · 0.9999666656 · exp(∓0.0248443138) = [0.8779–0.9226]: wholly beyond −5%
        LabKernelOverhead o = LabKernelOverhead.read(write(0.9)).orElseThrow();
        String md = o.text("x");
        assertTrue(md.contains("lab / debian: 0.900 [0.878–0.923]x;"), md);
        assertTrue(md.contains(" ns. An effect of at least -5% (-10.0%, -12.2% to -7.7%): the lab kernel did 10.0% fewer IOPS than"
                + " Debian's here (both sides of each switch's A/B run the lab kernel, so this is not in their ratios).\n\n"), md);
        assertEquals("effect", o.summary().get("verdict"));
    }

    @Test
    void aRatioWhoseIntervalLeavesOutOneInsideFivePercentIsASmallerChange() throws Exception {
        // 0.975 · 0.9999666656 · exp(∓0.0248443138) = [0.9510435185–0.9994932992]: leaves out 1, inside ±5%
        LabKernelOverhead o = LabKernelOverhead.read(write(0.975)).orElseThrow();
        String md = o.text("x");
        assertTrue(md.contains("lab / debian: 0.975 [0.951–0.999]x;"), md);
        assertTrue(md.contains(" ns. A change smaller than ±5% (-2.5%, -4.9% to -0.1%): the lab kernel did 2.5% fewer IOPS than"
                + " Debian's here (both sides"), md);
        assertEquals("small-change", o.summary().get("verdict"));
    }

    @Test
    void aRatioWhoseIntervalStraddlesFivePercentIsInconclusive() throws Exception {
        // 0.96 · 0.9999666656 · exp(∓0.0248443138) = [0.9364120797–0.9841164792]: leaves out 1, reaches past −5%
        LabKernelOverhead o = LabKernelOverhead.read(write(0.96)).orElseThrow();
        String md = o.text("x");
        assertTrue(md.contains("lab / debian: 0.960 [0.936–0.984]x;"), md);
        assertTrue(md.contains(" ns. Inconclusive at ±5%: a change (the interval leaves out 1) whose size straddles -5%.\n\n"), md);
        assertEquals("inconclusive", o.summary().get("verdict"));
    }

    /**
     * The second repetition 2%, 3%, 2.5% faster in every boot, both kernels' the same in a round, so
     * the round's geometric mean is that: logs 0.0198026273, 0.0295588022, 0.0246926126, mean
     * 0.0246846807 (the estimate 1.0249918699), sd (2 df) 0.0048780923, h = 4.303 × 0.0048780923 / √3
     * = 0.0121188311: the A/A [1.0126451316–1.0374891465] leaves out 1 on the round's 2 df too, so the
     * lab kernel's 10% less is no evidence (the repetitions cancel in the ratio, which stays 0.900
     * [0.878–0.923]).
     */
    @Test
    void aFailedAaLeavesTheRatioWithoutAVerdict() throws Exception {
        LabKernelOverhead o = LabKernelOverhead.read(write(0.9, new double[] {1.02, 1.03, 1.025})).orElseThrow();
        String md = o.text("x");
        assertTrue(md.contains("lab / debian: 0.900 [0.878–0.923]x;"), md);
        assertTrue(md.contains("both kernels' in a round together): 1.025 [1.013–1.037]x (excludes 1: drift)."), md);
        assertTrue(md.contains(" ns. The A/A control failed (1.025 [1.013–1.037]): this figure is not evidence.\n\n"), md);
        assertTrue(!md.contains("fewer IOPS"), md);
        Map<String, Object> s = o.summary();
        assertEquals("control-failed", s.get("verdict"));
        assertEquals(List.of(1.012645, 1.037489), ((Map<?, ?>) s.get("aa")).get("ci95"));
        assertEquals(3, ((Map<?, ?>) s.get("aa")).get("rounds"));
    }

    /**
     * The round, not each kernel's pair, is the A/A's unit. Debian's second repetitions 1.02, 0.998
     * and 1.01 of its first, the lab kernel's 1.02, 1.002 and 1.01: logs 0.0198026273, −0.0020020027,
     * 0.0099503309 and 0.0198026273, 0.0019980027, 0.0099503309. Each round's mean log 0.0198026273,
     * −0.0000020000, 0.0099503309: mean 0.0099169860 (the estimate 1.0099663223), sd (2 df)
     * 0.0099023558, h = 4.303 × 0.0099023558 / √3 = 0.0246008008: [0.9854234668–1.0351204397], which
     * holds 1. The six pairs as units would give sd (5 df) 0.0089468052, h = 2.571 × 0.0089468052 / √6
     * = 0.0093906236: [1.0005265010–1.0194952070], a failed control that is pseudo-replication. The
     * ratio per round (each boot's two repetitions averaged) is 0.9 × 1.01 × 2.02/2.02 = 0.909, 0.9 ×
     * 0.99 × 2.002/1.998 = 0.8927837838 and 0.9: logs −0.0954101848, −0.1134108508, −0.1053605157, mean
     * −0.1047271838 (0.9005701792), sd 0.0090170298, h = 4.303 × 0.0090170298 / √3 = 0.0224013517:
     * [0.8806204744–0.9209718276], wholly beyond −5%.
     */
    @Test
    void theAaTakesTheRoundAsItsUnitNotEachKernelsPair() throws Exception {
        LabKernelOverhead o = LabKernelOverhead.read(write(0.9, new double[] {1.02, 0.998, 1.01}, new double[] {1.02, 1.002, 1.01}))
                .orElseThrow();
        String md = o.text("x");
        assertTrue(md.contains("lab / debian: 0.901 [0.881–0.921]x;"), md);
        assertTrue(md.contains("both kernels' in a round together): 1.010 [0.985–1.035]x. CPU per I/O"), md);
        assertTrue(md.contains(" ns. An effect of at least -5% (-9.9%, -11.9% to -7.9%): the lab kernel did 9.9% fewer IOPS"), md);
        Map<String, Object> s = o.summary();
        assertEquals("effect", s.get("verdict"));
        Map<?, ?> aa = (Map<?, ?>) s.get("aa");
        assertEquals(1.009966, (Double) aa.get("value"), 5.01e-7);
        assertEquals(List.of(0.985423, 1.035120), aa.get("ci95"));
        assertEquals(3, aa.get("rounds"));
    }

    @Test
    void aForeignKernelNameIsAGap() throws Exception {
        RunDir r = write(1.0);
        Path f = run.resolve("raw/lab-kernel/overhead.tsv");
        Files.writeString(f, Files.readString(f).replaceFirst("\tlab\t", "\tfreebsd\t"));
        assertTrue(LabKernelOverhead.read(r).isEmpty());
        assertTrue(r.gaps().getFirst().startsWith("`raw/lab-kernel/overhead.tsv`: line "), r.gaps().toString());
    }

    /**
     * The lab kernel also against itself without its tracing block: each round's lab-notrace boot
     * with the lab boot's jitter and 1/0.98 of its IOPS, so lab over lab-notrace is 0.98 in every
     * round (an interval of no width), printed beside the Debian comparison; a run without such
     * boots prints none of it (the other tests).
     */
    @Test
    void theEventsCostWhenOffIsLabOverLabNotrace() throws Exception {
        write(0.995);
        Path tsv = run.resolve("raw/lab-kernel/overhead.tsv");
        StringBuilder b = new StringBuilder();
        for (String line : Files.readAllLines(tsv)) {
            String[] f = line.split("\t");
            if (f[2].equals("lab")) {
                b.append(f[0]).append("\t3\tlab-notrace\t").append(f[3]).append("\t500000\t5\t").append(Double.parseDouble(f[6]) / 0.98)
                        .append("\t5000000000\t5000\n");
            }
        }
        Files.writeString(tsv, b, java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(run.resolve("raw/lab-kernel/overhead.txt"), "notrace_kernel: 6.1.0-lab-notrace\n", java.nio.file.StandardOpenOption.APPEND);
        LabKernelOverhead o = LabKernelOverhead.read(RunDir.open(run)).orElseThrow();
        String md = o.text("x");
        assertTrue(md.contains("| round | debian IOPS | lab IOPS | lab / debian | lab-notrace IOPS | lab / lab-notrace |\n"), md);
        assertTrue(md.contains("| 3 | 103000 | 102485 | 0.995x | 104577 | 0.980x |\n"), md);
        assertTrue(md.contains("The contention events when off (lab over lab-notrace, `6.1.0-lab-notrace`): 0.980 [0.980–0.980]x; "), md);
        assertTrue(md.contains("lab / debian: 0.995 [0.971–1.020]x;"), md);
        assertEquals(0.98, (Double) ((Map<?, ?>) o.summary().get("events_off")).get("value"), 1e-9);
    }
}
