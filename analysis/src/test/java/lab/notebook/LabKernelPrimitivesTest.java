package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
        Files.createDirectories(dir());
        Files.writeString(dir().resolve("refscale.tsv"), "type\treaders\trun\tns_per_op\n"
                + "refcnt\t1\t1\t20.0\nrefcnt\t1\t2\t22.0\nrefcnt\t1\t3\t24.0\n"
                + "refcnt\t2\t1\t40.0\nrefcnt\t2\t2\t44.0\nrefcnt\t2\t3\t48.0\n"
                + "lock\t1\t1\t30.0\nlock\t1\t2\t30.0\n");
        Files.writeString(dir().resolve("refscale.txt"), "kernel: 6.1.0-lab+ (lab-6.1-x)\naccel: tcg\nvcpus: 2\nnruns: 3\nloops: 100000\n"
                + "jvm_kinds: refcnt=atomic-refcount lock=-\njvm: JMH ...\n");
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
        LabKernelPrimitives.Row lock = p.rows().get(2);
        assertNull(lock.kind());
        assertNull(lock.guestShared());
        assertNull(lock.jvmOverKernel());
        assertEquals("2 rounds: no interval", lock.kernel().noInterval(), "the lock's two refscale runs");
        String md = p.text();
        assertTrue(md.contains("| refcnt | atomic-refcount | 1 |"), md);
        assertTrue(md.contains("| lock | — | 1 |"), md);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> card = (List<Map<String, Object>>) p.summary().get("scorecard");
        assertEquals(3, card.size());
        assertEquals(1.5041551459, (Double) card.get(0).get("jvm_over_kernel"), 1e-6);
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
