package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.analysis.estimate.Estimate;
import lab.results.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** refscale beside the JVM's kinds, from hand-made files: each figure worked from the files. */
class LabKernelPrimitivesTest {
    @TempDir
    Path run;

    private RunDir open() throws Exception {
        return LabKernelPartTest.empty(run);
    }

    private Path dir() {
        return run.resolve("raw/lab-kernel");
    }

    /** A JMH file of Primitives.getPut at {@code threads}: shared at {@code shared} ns, private at {@code priv}. */
    private void jmh(String prefix, int round, int threads, double shared, double priv) throws Exception {
        Files.createDirectories(dir().resolve("jvm"));
        Files.writeString(dir().resolve("jvm").resolve(prefix + "-r" + round + "-t" + threads + ".json"),
                "[" + entry("shared", threads, shared) + ", " + entry("private", threads, priv) + "]");
    }

    /** refscale.tsv with {@code rows} under its header, and refscale.txt with {@code jvmKinds} as its jvm_kinds line. */
    private void refscale(String rows, String jvmKinds) throws Exception {
        Files.createDirectories(dir());
        Files.writeString(dir().resolve("refscale.tsv"), "type\treaders\trun\tns_per_op\n" + rows);
        Files.writeString(dir().resolve("refscale.txt"), "kernel: 6.1.0-lab+ (lab-6.1-x)\naccel: tcg\nvcpus: 2\nnruns: 3\nloops: 100000\n"
                + "jvm_kinds: " + jvmKinds + "\njvm: JMH ...\n");
    }

    /** A JMH file of Primitives.baseline at {@code threads}: {@code ns}, no params (it reads none). */
    private void baseline(String prefix, int round, int threads, double ns) throws Exception {
        Files.createDirectories(dir().resolve("jvm"));
        Files.writeString(dir().resolve("jvm").resolve(prefix + "-baseline-r" + round + "-t" + threads + ".json"),
                "[{\"benchmark\": \"lab.engine.bench.Primitives.baseline\", \"mode\": \"avgt\", \"threads\": " + threads + ", \"forks\": 0,"
                + " \"primaryMetric\": {\"score\": " + ns + ", \"scoreError\": 0.0, \"scoreUnit\": \"ns/op\", \"rawData\": [[" + ns
                + "]]}, \"secondaryMetrics\": {}}]");
    }

    /**
     * refscale.txt's jvm_kinds line as kernel/refscale.sh writes it: its default types, each with its JVM_KIND ({@code -}:
     * none), read from the script itself, the one place the pairing is stated.
     */
    static String jvmKindsOfRefscaleSh() throws Exception {
        String sh = Files.readString(Path.of("../kernel-scripts/kernel/refscale.sh"));
        Matcher types = Pattern.compile("LAB_REFSCALE_TYPES:-([a-z -]+)}").matcher(sh);
        Matcher map = Pattern.compile("declare -A JVM_KIND=\\(([^)]*)\\)").matcher(sh);
        assertTrue(types.find() && map.find(), "kernel/refscale.sh's default types and JVM_KIND");
        Map<String, String> kinds = new java.util.HashMap<>();
        Matcher e = Pattern.compile("\\[([a-z-]+)]=([a-z-]+)").matcher(map.group(1));
        while (e.find()) {
            kinds.put(e.group(1), e.group(2));
        }
        StringBuilder b = new StringBuilder();
        for (String t : types.group(1).trim().split(" +")) {
            b.append(b.isEmpty() ? "" : " ").append(t).append('=').append(kinds.getOrDefault(t, "-"));
        }
        return b.toString();
    }

    private static String entry(String line, int threads, double ns) {
        return "{\"benchmark\": \"lab.engine.bench.Primitives.getPut\", \"mode\": \"avgt\", \"threads\": " + threads + ", \"forks\": 0,"
                + " \"params\": {\"primitive\": \"atomic-refcount\", \"line\": \"" + line + "\", \"gapNs\": \"0\", \"userGapNs\": \"0\"},"
                + " \"primaryMetric\": {\"score\": " + ns + ", \"scoreError\": 0.0, \"scoreUnit\": \"ns/op\", \"rawData\": [[" + ns + ", "
                + ns + ", " + ns + "]]}, \"secondaryMetrics\": {}}";
    }

    @Test
    void absentWithoutRefscaleTsv() throws Exception {
        RunDir r = open();
        assertTrue(LabKernelPrimitives.read(r).isEmpty());
        assertEquals(List.of(), r.gaps());
    }

    @Test
    void eachTypeAndReaderCountHasTheKernelsAndTheJvmsFiguresAndTheirRatio() throws Exception {
        refscale("refcnt\t1\t1\t20.0\nrefcnt\t1\t2\t22.0\nrefcnt\t1\t3\t24.0\n"
                + "refcnt\t2\t1\t40.0\nrefcnt\t2\t2\t44.0\nrefcnt\t2\t3\t48.0\n"
                + "lock\t1\t1\t30.0\nlock\t1\t2\t30.0\n", "refcnt=atomic-refcount lock=-");
        jmh("jvm-guest-atomic-refcount", 1, 1, 30.0, 15.0);
        jmh("jvm-guest-atomic-refcount", 2, 1, 33.0, 15.0);
        jmh("jvm-guest-atomic-refcount", 3, 1, 36.3, 15.0);
        jmh("jvm-guest-atomic-refcount", 1, 2, 60.0, 16.0);
        jmh("jvm-guest-atomic-refcount", 2, 2, 66.0, 16.0);
        jmh("jvm-guest-atomic-refcount", 3, 2, 72.6, 16.0);
        jmh("jvm-host-atomic-refcount", 1, 1, 6.0, 5.0);
        jmh("jvm-host-atomic-refcount", 2, 1, 6.0, 5.0);
        RunDir r = open();
        LabKernelPrimitives p = LabKernelPrimitives.read(r).orElseThrow();
        assertEquals(List.of(), r.gaps());
        assertEquals(3, p.rows().size());
        LabKernelPrimitives.Row one = p.rows().get(0);
        assertEquals("refcnt", one.type());
        assertEquals("atomic-refcount", one.kind());
        assertEquals(1, one.readers());
        // the kernel's 20, 22, 24 ns: logs 2.9957322736, 3.0910424534, 3.1780538303, mean 3.0882761858 (∛10560 =
        // 21.9392262097), sd (2 df) 0.0911922513, h = 4.303 × 0.0911922513 / √3 = 0.2265523942: [17.4916529275–27.5176764984]
        Estimate k = one.kernel();
        assertEquals(21.9392262097, k.value(), 1e-9);
        assertEquals(17.4916529275, k.lo(), 1e-9);
        assertEquals(27.5176764984, k.hi(), 1e-9);
        // the guest's shared 30, 33, 36.3 ns (× 1.1 a round): the mean log ln 33, sd ln 1.1 = 0.0953101798, h = 4.303 ×
        // 0.0953101798 / √3 = 0.2367827213: 33 [26.0423703415–41.8164700724]
        assertEquals(33.0, one.guestShared().value(), 1e-9);
        assertEquals(26.0423703415, one.guestShared().lo(), 1e-9);
        assertEquals(41.8164700724, one.guestShared().hi(), 1e-9);
        assertEquals(15.0, one.guestPrivate().value(), 1e-9);
        // the host's two rounds: the value, no interval
        assertEquals(6.0, one.hostShared().value(), 1e-9);
        assertEquals("2 rounds: no interval", one.hostShared().noInterval());
        assertEquals(5.0, one.hostPrivate().value(), 1e-9);
        // the guest's shared over the kernel's, bounded by the ratio of the ends: 33 / 21.9392262097 = 1.5041551459,
        // 26.0423703415 / 27.5176764984 = 0.9463869649, 41.8164700724 / 17.4916529275 = 2.3906528586
        assertEquals(1.5041551459, one.jvmOverKernel().ratio(), 1e-9);
        assertEquals(0.9463869649, one.jvmOverKernel().lo(), 1e-9);
        assertEquals(2.3906528586, one.jvmOverKernel().hi(), 1e-9);
        LabKernelPrimitives.Row two = p.rows().get(1);
        assertEquals(2, two.readers());
        assertEquals(66.0, two.guestShared().value(), 1e-9);
        assertNull(two.hostShared(), "the host ran 1 thread only here");
        assertNull(one.loopRemoved(), "no empty type in this run: nothing to take out");
        LabKernelPrimitives.Row lock = p.rows().get(2);
        assertNull(lock.kind());
        assertNull(lock.guestShared());
        assertNull(lock.jvmOverKernel());
        assertEquals("2 rounds: no interval", lock.kernel().noInterval(), "the lock's two refscale runs");
        String md = p.text();
        assertTrue(md.contains("| refcnt | atomic-refcount | 1 |"), md);
        assertTrue(md.contains("| lock | — | 1 |"), md);
        assertTrue(md.contains("| JVM / kernel (guest) |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n"), "no empty type, no new column: " + md);
        assertFalse(md.contains("loop removed"), md);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> card = (List<Map<String, Object>>) p.summary().get("scorecard");
        assertEquals(3, card.size());
        assertEquals(1.5041551459, (Double) card.get(0).get("jvm_over_kernel"), 1e-6);
    }

    /** refscale.sh pairs each type with the JVM kind doing the same operation, and the empty type with none. */
    @Test
    void refscaleShPairsEachTypeWithTheSameOperation() throws Exception {
        assertEquals("refcnt=atomic-refcount rwsem=rwsem-read lock=mutex mutex=mutex srcu=srcu acqrel=acqrel-slot empty=-",
                jvmKindsOfRefscaleSh());
    }

    /**
     * With refscale's empty type and the JVM's baseline: each row's figures less its loop, worked from the files. The pairing
     * is refscale.sh's own (acqrel with acqrel-slot); padded-slot's files lie beside it at another price, so a row read from
     * them shows.
     */
    @Test
    void theLoopIsTakenOutOfBothSidesAndTheRatioIsOfWhatIsLeft() throws Exception {
        refscale("refcnt\t1\t1\t20.0\nrefcnt\t1\t2\t22.0\nrefcnt\t1\t3\t24.0\n"
                + "acqrel\t1\t1\t10.0\nacqrel\t1\t2\t11.0\nacqrel\t1\t3\t12.0\n"
                + "empty\t1\t1\t2.0\nempty\t1\t2\t2.5\nempty\t1\t3\t3.0\n", jvmKindsOfRefscaleSh());
        double[] shared = {30, 33, 37};
        double[] priv = {28, 29, 30};
        double[] base = {10, 12, 12};
        for (int r = 1; r <= 3; r++) {
            jmh("jvm-guest-acqrel-slot", r, 1, shared[r - 1], priv[r - 1]);
            baseline("jvm-guest-acqrel-slot", r, 1, base[r - 1]);
            jmh("jvm-guest-padded-slot", r, 1, 60, 60);
            baseline("jvm-guest-padded-slot", r, 1, 1);
        }
        jmh("jvm-host-acqrel-slot", 1, 1, 6.0, 5.0);
        jmh("jvm-host-acqrel-slot", 2, 1, 6.5, 5.0);
        baseline("jvm-host-acqrel-slot", 1, 1, 2.0);
        baseline("jvm-host-acqrel-slot", 2, 1, 2.5);
        RunDir run = open();
        LabKernelPrimitives p = LabKernelPrimitives.read(run).orElseThrow();
        assertEquals(List.of(), run.gaps());
        assertEquals(List.of("refcnt", "acqrel"), p.rows().stream().map(LabKernelPrimitives.Row::type).toList(), "empty is no row");
        LabKernelPrimitives.Row acqrel = p.rows().get(1);
        assertEquals("acqrel-slot", acqrel.kind(), "acqrel's twin is acqrel-slot");
        // raw, as before: the kernel's 10, 11, 12 ns (geometric mean ∛1320 = 10.9696131049), the guest's shared 30, 33, 37
        assertEquals(10.9696131049, acqrel.kernel().value(), 1e-9);
        assertEquals(Math.cbrt(30 * 33 * 37), acqrel.guestShared().value(), 1e-9, "the raw guest figure is acqrel-slot's");
        LabKernelPrimitives.LoopRemoved x = acqrel.loopRemoved();
        // the loops raw: empty's 2, 2.5, 3 ns (∛15 = 2.4662120743), the guest baseline's 10, 12, 12 (∛1440)
        assertEquals(2.4662120743, x.kernelEmpty().value(), 1e-9);
        assertEquals(Math.cbrt(1440), x.guestBaseline().value(), 1e-9);
        assertEquals(Math.sqrt(2.0 * 2.5), x.hostBaseline().value(), 1e-9);
        // the kernel less empty: means 11 and 2.5, sds 1 and 0.5 over 3 runs each: se² = 1/3 + 0.25/3, se 0.6454972244;
        // Welch's ν = (1.25/3)² / ((1/3)²/2 + (0.25/3)²/2) = 2.9411764706, ⌊ν⌋ = 2, t 4.303: 8.5 ± 2.7775745565
        assertEquals(8.5, x.kernel().value(), 1e-9);
        assertEquals(5.7224254435, x.kernel().lo(), 1e-9);
        assertEquals(11.2775745565, x.kernel().hi(), 1e-9);
        assertEquals(2, x.kernel().df());
        // the guest's shared less the baseline of the same JVM, round by round: 20, 21, 25: mean 22, sd √7 = 2.6457513111,
        // h = 4.303 × 2.6457513111 / √3 = 6.5729410718
        assertEquals(22.0, x.guestShared().value(), 1e-9);
        assertEquals(15.4270589282, x.guestShared().lo(), 1e-9);
        assertEquals(28.5729410718, x.guestShared().hi(), 1e-9);
        // private: 18, 17, 18
        assertEquals(53.0 / 3, x.guestPrivate().value(), 1e-9);
        // the host's two rounds: 6 - 2, 6.5 - 2.5: 4, no interval
        assertEquals(4.0, x.hostShared().value(), 1e-9);
        assertEquals("2 rounds: no interval", x.hostShared().noInterval());
        // JVM over kernel, loop removed: 22 / 8.5 = 2.5882352941, bounded by the ends: 15.4270589282 / 11.2775745565 =
        // 1.3679412050, 28.5729410718 / 5.7224254435 = 4.9931521789
        assertEquals(2.5882352941, x.jvmOverKernel().ratio(), 1e-9);
        assertEquals(1.3679412050, x.jvmOverKernel().lo(), 1e-9);
        assertEquals(4.9931521789, x.jvmOverKernel().hi(), 1e-9);
        // refcnt: its kind ran no JVM here; the kernel less empty alone: means 22 and 2.5, sds 2 and 0.5: se² = 4/3 + 0.25/3,
        // ν = 2.2490272374, ⌊ν⌋ = 2: 19.5 ± 4.303 × 1.1902380714
        LabKernelPrimitives.LoopRemoved refcnt = p.rows().get(0).loopRemoved();
        assertEquals(19.5, refcnt.kernel().value(), 1e-9);
        assertEquals(14.3784055787, refcnt.kernel().lo(), 1e-9);
        assertEquals(24.6215944213, refcnt.kernel().hi(), 1e-9);
        assertNull(refcnt.guestShared());
        assertNull(refcnt.jvmOverKernel());
        String md = p.text();
        assertTrue(md.contains(" | JVM / kernel (guest) | kernel empty | JVM guest baseline | kernel − empty | JVM guest shared − baseline"
                + " | JVM / kernel, loop removed |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"), md);
        assertTrue(md.contains("| acqrel | acqrel-slot | 1 | 11.0 [8.7–13.8] | 33.2 [25.6–43.1] | 29.0 [26.6–31.6] | 6.2 | 5.0 | 3.03x [1.86–4.93]"
                + " | 2.5 [1.5–4.1] | 11.3 [8.7–14.7] | 8.5 [5.7–11.3] | 22.0 [15.4–28.6] | 2.59x [1.37–4.99] |\n"), md);
        assertTrue(md.contains("| refcnt | atomic-refcount | 1 | 21.9 [17.5–27.5] | — | — | — | — | — | 2.5 [1.5–4.1] | — | 19.5 [14.4–24.6] | — | — |\n"), md);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> card = (List<Map<String, Object>>) p.summary().get("scorecard");
        @SuppressWarnings("unchecked")
        Map<String, Object> less = (Map<String, Object>) card.get(1).get("loop_removed");
        assertEquals(2.5882352941, (Double) less.get("jvm_over_kernel"), 1e-9);
        assertEquals(List.of(1.3679412050, 4.9931521789), ((List<?>) less.get("jvm_over_kernel_bounds")).stream()
                .map(v -> Math.round((Double) v * 1e10) / 1e10).toList());
    }

    @Test
    void aBadRefscaleLineIsAGapNamingIt() throws Exception {
        Files.createDirectories(dir());
        Files.writeString(dir().resolve("refscale.tsv"), "type\treaders\trun\tns_per_op\nrefcnt\t1\t1\t-3\n");
        RunDir r = open();
        assertTrue(LabKernelPrimitives.read(r).isEmpty());
        assertEquals(1, r.gaps().size());
        assertTrue(r.gaps().toString().contains("line 2"), r.gaps().toString());
    }
}
