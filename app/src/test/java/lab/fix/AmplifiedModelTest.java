package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Each switched fix's model amplified as its lab-kernel switch ({@link AmplifiedModel}): the cells
 * of both sides at every N, the benchmark's parameters it sets, and the operations per I/O per
 * unit of N that the engine's own count run counts, which must be the switch's (the patches'
 * headers: dm-css-ref 2 per dm layer x 5, zram-init-lock 1, part-acct 4, thin-bufio-lock 2 per
 * node x 3 nodes).
 */
class AmplifiedModelTest {
    private static final SortedSet<Integer> NS = new TreeSet<>(List.of(0, 1, 4, 16));

    private static AmplifiedModel of(String id) {
        AmplifiedModel a = Fixes.byId(id).orElseThrow().pairing().amplifiedModel();
        assertNotNull(a, id);
        return a;
    }

    @Test
    void everySwitchedFixIsAmplifiedOnItsBenchmarksParameters() throws Exception {
        for (String id : List.of("dm-css-ref", "zram-init-lock", "part-acct", "thin-bufio-lock")) {
            AmplifiedModel a = of(id);
            Map<String, List<String>> p = GuestModelTest.params(a.benchmark());
            assertTrue(p.get(a.param()).contains(a.variant()), id);
            assertTrue(p.get(a.param()).contains(a.afterVariant()), id);
            assertTrue(p.containsKey(a.amp()), id + ": no @Param " + a.amp());
            assertEquals(a.ampValue().apply(0), p.get(a.amp()).get(0), id + ": N = 0 is the benchmark's default, no operation");
            for (String k : a.fixed().keySet()) {
                assertTrue(p.containsKey(k), id + ": no @Param " + k);
            }
        }
    }

    /**
     * The guest's rounds as lab.engine.bench.JmhBatch reads them: JMH takes every line, the sweep's
     * cells are the host's (the before's and the after's values at every N, the seed's point, G),
     * N ascending in odd rounds and descending in even ones, then the A/A, named as the host's files.
     */
    @Test
    void theGuestsRoundsAreTheHostsCellsAsJmhBatchReadsThem(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        GuestModel.Point pt = new GuestModel.Point(2, 60000, 58000, 2000, "split");
        AmplifiedModel t = of("thin-bufio-lock");
        for (int r : new int[] {1, 2}) {
            java.nio.file.Path f = tmp.resolve("runs-r" + r + ".txt");
            java.nio.file.Files.write(f, t.guestRuns(NS, pt, r));
            List<lab.engine.bench.JmhBatch.Run> runs = lab.engine.bench.JmhBatch.read(f, tmp);
            assertEquals(List.of("warmup-r" + r + "-t2", "model-amp-r" + r + "-t2", "model-amp-aa-r" + r + "-t2"),
                    runs.stream().map(x -> x.name()).toList());
            assertEquals(List.of(r == 1 ? "0" : "16"), List.copyOf(runs.get(0).options().getParameter("amp").get()),
                    "the warm-up runs the round's first cell");
            assertEquals(10, runs.get(0).options().getWarmupIterations().get());
            org.openjdk.jmh.runner.options.Options o = runs.get(1).options();
            assertEquals(r == 1 ? List.of("0", "1", "4", "16") : List.of("16", "4", "1", "0"), List.copyOf(o.getParameter("amp").get()));
            assertEquals(List.of("striped"), List.copyOf(o.getParameter("variant").get()));
            assertEquals(List.of("58000"), List.copyOf(o.getParameter("baseNs").get()));
            assertEquals(List.of("2000"), List.copyOf(o.getParameter("userNs").get()));
            t.fixed().forEach((k, v) -> assertEquals(List.of(v), List.copyOf(o.getParameter(k).get()), k));
            assertEquals(2, o.getThreads().get());
            assertEquals(4, o.getWarmupIterations().get());
            assertEquals(0, o.getForkCount().get());
            org.openjdk.jmh.runner.options.Options aa = runs.get(2).options();
            assertEquals(List.of("striped~aa"), List.copyOf(aa.getParameter("variant").get()));
            assertEquals(List.of("0"), List.copyOf(aa.getParameter("amp").get()));
        }
        AmplifiedModel z = of("zram-init-lock");
        List<String> zl = z.guestRuns(NS, pt, 1);
        assertTrue(zl.get(1).contains(" -P guard=rwsem -P guard=srcu -P sections=1 -P sections=4 -P sections=16 "), zl.get(0));
        java.nio.file.Path f = tmp.resolve("runs-dm.txt");
        java.nio.file.Files.write(f, of("dm-css-ref").guestRuns(NS, pt, 1));
        assertEquals(List.of("none", "clone:atomic:1,end_io:atomic:1", "clone:atomic:4,end_io:atomic:4", "clone:atomic:16,end_io:atomic:16"),
                List.copyOf(lab.engine.bench.JmhBatch.read(f, tmp).get(1).options().getParameter("inject").get()),
                "dm-css-ref's values hold a comma: each stays one value");
        assertTrue(!zl.get(1).contains("userNs") == !z.userSplit(), zl.get(1));
    }

    /**
     * The host's contention rounds (ContentionMain on the sweep's own line): a JSON a round, each
     * with the before's and the after's cells at every N at the sweep's threads and G; the guest's
     * file is the same lines opened by a warm-up, as JmhBatch reads them.
     */
    @Test
    void theAmplifiedStepWritesTheContentionFilesOfItsCells(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        GuestModel.Point pt = new GuestModel.Point(2, 0, 0, 0, "split");
        AmplifiedModel z = of("zram-init-lock");
        SortedSet<Integer> ns = new TreeSet<>(List.of(0, 2));
        z.contention(tmp, ns, pt, 50);
        for (int r = 1; r <= 3; r++) {
            String j = java.nio.file.Files.readString(tmp.resolve("model-contention-r" + r + ".json"));
            assertTrue(j.contains("\"threads\": 2,") && j.contains("\"ios_per_thread\": 50,"), j);
            for (String cell : List.of("\"guard\": \"rwsem\", \"sections\": \"1\"", "\"guard\": \"rwsem\", \"sections\": \"2\"",
                    "\"guard\": \"srcu\", \"sections\": \"1\"", "\"guard\": \"srcu\", \"sections\": \"2\"")) {
                assertTrue(j.contains("{\"params\": {" + cell), cell + " in " + j);
            }
            assertEquals(4, j.split("\"params\"").length - 1, j);
        }
        assertTrue(!java.nio.file.Files.exists(tmp.resolve("model-contention-r4.json")));
        java.nio.file.Path f = tmp.resolve("guest.txt");
        java.nio.file.Files.write(f, z.contentionRuns(ns, pt, true));
        assertEquals(List.of("contention-warmup", "model-contention-r1", "model-contention-r2", "model-contention-r3"),
                lab.engine.bench.JmhBatch.read(f, tmp).stream().map(x -> x.name()).toList());
        assertEquals("zram.init_lock read", z.facts(ns).get("contention_site"));
        assertEquals(AmplifiedModel.LINES, of("dm-css-ref").facts(ns).get("contention_site"));
    }

    @Test
    void theLabSourceIsReadFromTheAbsSourceLine() {
        assertEquals("6.12", AmplifiedModel.labSource("linux-source-6.12 6.12.118-1~deb12u1"));
        assertEquals("6.1", AmplifiedModel.labSource("linux-source-6.1 6.1.158-1"));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> AmplifiedModel.labSource("?"));
        assertTrue(e.getMessage().contains("names no linux-source-V"), e.getMessage());
    }

    @Test
    void theCellsOfBothSidesAtEveryN() {
        Map<String, String> z = of("zram-init-lock").facts(NS);
        assertEquals("rwsem", z.get("variant"));
        assertEquals("srcu", z.get("after_variant"));
        assertEquals("srcu~aa", z.get("control"));
        assertEquals("1", z.get("none"), "N = 0: one section, the guard alone");
        assertEquals("1=1 4=4 16=16", z.get("counts"));
        assertEquals("1=1 4=4 16=16", z.get("after_counts"), "srcu repeats its section as rwsem does");
        assertEquals(List.of("1", "4", "16"), of("zram-init-lock").values(NS));

        Map<String, String> d = of("dm-css-ref").facts(NS);
        assertEquals("percpu", d.get("variant"));
        assertEquals("percpu", d.get("after_variant"));
        assertEquals("none", d.get("after_none"));
        assertEquals("1=none 4=none 16=none", d.get("after_counts"), "the switch's after has no operation");
        assertEquals("1=clone:atomic:1,end_io:atomic:1 4=clone:atomic:4,end_io:atomic:4 16=clone:atomic:16,end_io:atomic:16",
                d.get("counts"));
        assertEquals(List.of("none", "clone:atomic:1,end_io:atomic:1", "clone:atomic:4,end_io:atomic:4",
                "clone:atomic:16,end_io:atomic:16"), of("dm-css-ref").values(NS));
        assertEquals("1=0 4=0 16=0", of("part-acct").facts(NS).get("after_counts"));
        assertEquals("1=1 4=4 16=16", of("thin-bufio-lock").facts(NS).get("counts"));
    }

    /** The engine's count run agrees with the switch's counter per unit of N, and is written beside the stated figure. */
    @Test
    void theCountedOperationsPerUnitOfNAreTheSwitchs() {
        Map<String, Double> expected = Map.of("dm-css-ref", 10.0, "zram-init-lock", 1.0, "part-acct", 4.0, "thin-bufio-lock", 6.0);
        expected.forEach((id, k) -> {
            Map<String, String> f = of(id).facts(new TreeSet<>(List.of(0, 1)));
            assertEquals(k, Double.parseDouble(f.get("ops_per_count_counted")), 1e-9, id + ": " + f);
            assertEquals(k, Double.parseDouble(f.get("ops_per_count")), 1e-9, id + ": the stated count");
        });
    }
}
