package lab.notebook;

import static lab.notebook.CompareSectionTest.row;
import static lab.notebook.CompareSectionTest.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.results.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./lab fleet}'s comparison: every host of hosts.tsv with its state, each ok host's figures
 * as a row with its interval and verdict at one thread count every host has and at its own most,
 * the hosts against each other with Welch's interval ({@link lab.analysis.estimate.RatioOfRatios}),
 * a calibration taken from another machine flagged; and at fleet scale, hosts still as rows and
 * each host against a named reference.
 */
class FleetCompareTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HEADER = "host\tstate\treason\tcores\tkernel\tarch\tcpu_model\tvirt\troot\tmachine_id\tboot_id\tshares_with\tleft\n";
    private static final String COMMITTED = "pair-zram-init-lock-2core-20261204";
    /** The sections' own keys ({@code ZramInitLockSection}, {@code DmCssRefSection}), as the app's sections state them. */
    static final Map<String, HeadlineByThreads> KEYS = Map.of(
            "zram-init-lock", new HeadlineByThreads("jvm.seed_point.calibrated.{T}.srcu_vs_rwsem", "jvm.seed_point.raw.{T}.srcu_vs_rwsem"),
            "dm-css-ref", new HeadlineByThreads("jvm.calibrated.{T}.atomic_cmpxchg_vs_atomic", "jvm.raw.{T}.atomic_cmpxchg_vs_atomic"));

    static Map<String, Object> est(double v, double lo, double hi, int rounds) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("value", v);
        m.put("ci95", List.of(lo, hi));
        m.put("rounds", rounds);
        return m;
    }

    static Map<String, Object> cell(String key, Map<String, Object> figure, Map<String, Object> aa) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(key, figure);
        m.put("aa", aa);
        return m;
    }

    /** A zram-init-lock entry: the seed point per thread count ({@code byT}: calibrated), its headline at {@code ht}, the calibration's words. */
    static Map<String, Object> zram(Map<String, Map<String, Object>> byT, String ht, String baseSource, Map<String, Object> kernel) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("metric", "SRCU / rwsem throughput, randrw, zero pages (the seed's job; here: " + ht + " threads)");
        h.put("seed", 1.023);
        h.put("target", 0.05);
        @SuppressWarnings("unchecked")
        Map<String, Object> fig = (Map<String, Object>) byT.get(ht).get("srcu_vs_rwsem");
        h.put("jvm", fig.get("value"));
        h.put("jvm_raw", null);
        h.put("jvm_calibrated", fig);
        h.put("kernel_estimate", kernel);
        h.put("base_source", baseSource);
        h.put("aa", byT.get(ht).get("aa"));
        if (kernel != null) {
            h.put("aa_kernel", est(1.0, 0.99, 1.010101, 5));
        }
        return Map.of("headline", h, "jvm", Map.of("seed_point", Map.of("calibrated", byT)));
    }

    static String summary(int cores, Map<String, Object> fixes) throws Exception {
        Map<String, Object> all = new LinkedHashMap<>(fixes);
        for (String f : List.of("primitives", "part-acct", "dm-blkcg-clone", "thin-bufio-lock", "dm-css-ref", "zram-init-lock")) {
            all.putIfAbsent(f, Map.of("status", "not in this run", "headline", Map.of("metric", "m")));
        }
        return JSON.writeValueAsString(Map.of("run", Map.of("cores", cores, "quick", true, "command", "./lab pair zram-init-lock --quick"),
                "fixes", all));
    }

    /**
     * Three hosts: {@code host-a} (4 cores, its own kernel's calibration) and {@code host-b} (2
     * cores, its calibration from a committed run: not root) finished; {@code host-c} dropped off
     * during the run. zram-init-lock at 2 threads, the most both have: a 1.10 [1.00–1.21] (4
     * rounds), b 1.00 [0.90–1.111111] (6 rounds), so a / b is {@code RatioOfRatiosTest}'s
     * hand-worked 1.10 [0.9756–1.2403], which holds 1. dm-css-ref: b has raw figures only, and
     * its A/A at 2 threads leaves out 1.
     */
    static Path threeHosts(Path dir) throws Exception {
        Files.writeString(dir.resolve("manifest.json"), "{\"command\": \"./lab fleet inventory -- pair zram-init-lock --quick\"}");
        Path fleet = Files.createDirectories(dir.resolve("raw/fleet"));
        Files.writeString(fleet.resolve("hosts.tsv"), HEADER
                + "host-a\tok\t\t4\t6.1.0-28-amd64\tx86_64\tIntel Xeon Gold 6248\tkvm\tyes\tm-a\tb-a\t\t\n"
                + "host-b\tok\tnot root: the JVM side only\t2\t6.12.9\tx86_64\tAMD EPYC 7B13\ttcg\tno\tm-b\tb-b\t\t/var/tmp/contention-lab-fleet (a busy mount)\n"
                + "host-c\tunreachable during the run\tssh: connection closed after 312 s\t8\t6.1.0-28-amd64\tx86_64\tAMD EPYC 9654\tkvm\tyes\tm-c\tb-c\t\t\n");
        Path compare = Files.createDirectories(dir.resolve("raw/compare"));
        Map<String, Object> ok = est(1.0, 0.98, 1.020408, 4);
        Map<String, Map<String, Object>> a = new LinkedHashMap<>();
        a.put("1", cell("srcu_vs_rwsem", est(0.99, 0.97, 1.010412, 4), ok));
        a.put("2", cell("srcu_vs_rwsem", est(1.10, 1.00, 1.21, 4), ok));
        a.put("4", cell("srcu_vs_rwsem", est(1.30, 1.20, 1.408333, 4), ok));
        Map<String, Map<String, Object>> b = new LinkedHashMap<>();
        b.put("1", cell("srcu_vs_rwsem", est(1.01, 0.95, 1.073789, 6), est(1.0, 0.97, 1.030928, 6)));
        b.put("2", cell("srcu_vs_rwsem", est(1.00, 0.90, 1.111111, 6), est(1.0, 0.97, 1.030928, 6)));
        Map<String, Object> cssA = Map.of("headline", Map.of("metric", "time with / time without one more atomic on the css count per clone",
                "seed", 1.74, "target", 0.05, "jvm_calibrated", est(1.05, 1.03, 1.070388, 4), "aa", ok,
                "base_source", "dm-linear x5 over brd (guest VM, tcg)"),
                "jvm", Map.of("raw", Map.of("2", cell("atomic_cmpxchg_vs_atomic", est(1.20, 1.10, 1.309091, 4), ok)),
                        "calibrated", Map.of("2", cell("atomic_cmpxchg_vs_atomic", est(1.05, 1.03, 1.070388, 4), ok))));
        Map<String, Object> cssB = Map.of("headline", Map.of("metric", "time with / time without one more atomic on the css count per clone",
                "seed", 1.74, "target", 0.05, "jvm_raw", est(1.25, 1.15, 1.358696, 4), "aa_raw", est(1.03, 1.01, 1.05, 4)),
                "jvm", Map.of("raw", Map.of("2", cell("atomic_cmpxchg_vs_atomic", est(1.25, 1.15, 1.358696, 4), est(1.03, 1.01, 1.05, 4)))));
        Files.writeString(compare.resolve("01-host-a.summary.json"), summary(4, Map.of(
                "zram-init-lock", zram(a, "4", "zram (native), randrw on zero pages (the seed's job), fio psync 4k, 1 job, task-clock under"
                        + " perf stat", est(1.02, 1.0, 1.0404, 5)),
                "dm-css-ref", cssA)));
        Files.writeString(compare.resolve("02-host-b.summary.json"), summary(2, Map.of(
                "zram-init-lock", zram(b, "2", "zram (native), randrw on zero pages (the seed's job), fio psync 4k, 1 job, task-clock under"
                        + " perf stat; taken from the committed run " + COMMITTED + ", as this run's kernel side did not run",
                        est(0.99, 0.97, 1.010412, 5)),
                "dm-css-ref", cssB)));
        return dir;
    }

    @Test
    void theHostsTableListsEveryHostWithItsStateAndFlagsAnotherMachinesCalibration(@TempDir Path dir) throws Exception {
        String md = new CompareSection(KEYS).render(RunDir.open(threeHosts(dir))).orElseThrow().markdown();
        List<List<String>> hosts = table(md, "## Hosts");
        assertEquals(3, hosts.size(), md);
        // host | state | why | cores | CPU | kernel | KVM/TCG | root | calibration | notes
        assertEquals(List.of("`host-a`", "ok", "—", "4", "Intel Xeon Gold 6248 (x86_64)", "6.1.0-28-amd64", "KVM", "yes", "own kernel", ""),
                row(hosts, "`host-a`"), md);
        List<String> b = row(hosts, "`host-b`");
        assertEquals("not root: the JVM side only", b.get(2));
        assertEquals("TCG", b.get(6));
        assertEquals("no", b.get(7));
        assertEquals("**another machine's (run " + COMMITTED + ")**", b.get(8), md);
        assertEquals("left on the host: /var/tmp/contention-lab-fleet (a busy mount)", b.get(9));
        List<String> c = row(hosts, "`host-c`");
        assertEquals("unreachable during the run", c.get(1));
        assertEquals("ssh: connection closed after 312 s", c.get(2));
        assertEquals("—", c.get(8));
        assertTrue(md.contains("Only the hosts whose pairing finished (state ok) are compared below: 2 of 3."), md);
        assertTrue(md.contains("A calibration marked **another machine's** was not measured on the host"), md);
        // the unreachable host is no row of any fix's table
        assertFalse(table(md, "### `zram-init-lock`").stream().anyMatch(r -> r.getFirst().equals("`host-c`")), md);
    }

    @Test
    void eachHostsFigureHasItsIntervalAndVerdictAtTheCommonAndItsOwnThreadCount(@TempDir Path dir) throws Exception {
        String md = new CompareSection(KEYS).render(RunDir.open(threeHosts(dir))).orElseThrow().markdown();
        assertTrue(md.contains("JVM figure at 2 threads, the most every run has"), md);
        List<List<String>> zram = table(md, "### `zram-init-lock`");
        // run | figure | at 2 threads | at its most threads | kernel
        assertEquals(List.of("`host-a`", "calibrated, own kernel", "1.10 [1.00–1.21]x, inconclusive at ±5%",
                "4 threads: 1.30 [1.20–1.41]x, effect ≥ +5%", "1.02 [1.00–1.04]x, no effect > ±5%"), row(zram, "`host-a`"), md);
        List<String> b = row(zram, "`host-b`");
        assertEquals("calibrated, **another machine's (run " + COMMITTED + ")**", b.get(1), md);
        assertEquals("1.00 [0.90–1.11]x, inconclusive at ±5%", b.get(2), md);
        assertEquals("the same", b.get(3), md);
    }

    @Test
    void thePairsRatioHasTheHandWorkedIntervalAndItsMarks(@TempDir Path dir) throws Exception {
        SectionOutput out = new CompareSection(KEYS).render(RunDir.open(threeHosts(dir))).orElseThrow();
        String md = out.markdown();
        List<List<String>> pairs = table(md.substring(md.indexOf("### `zram-init-lock`")), "Each pair of runs");
        assertEquals(1, pairs.size(), md);
        // A | B | figure | JVM A / B | kernel A / B
        assertEquals("`host-b`", pairs.getFirst().get(1));
        assertEquals("calibrated", pairs.getFirst().get(2));
        assertEquals("~ 1.10 [0.98–1.24]x, inconclusive at ±5%", pairs.getFirst().get(3), md);
        // dm-css-ref: host-b has raw figures alone, so the pair is raw against raw, and host-b's A/A at 2 threads failed
        List<List<String>> css = table(md.substring(md.indexOf("### `dm-css-ref`")), "Each pair of runs");
        assertEquals("raw", css.getFirst().get(2), md);
        assertTrue(css.getFirst().get(3).endsWith("A/A failed (`host-b`): not evidence"), md);
        assertFalse(css.getFirst().get(3).startsWith("~"), "no ~ on a ratio that is no evidence: " + css.getFirst().get(3));
        assertTrue(row(table(md, "### `dm-css-ref`"), "`host-b`").get(2).endsWith("A/A failed: not evidence"), md);

        @SuppressWarnings("unchecked")
        Map<String, Object> zram = (Map<String, Object>) ((Map<String, Object>) out.summary().get("fixes")).get("zram-init-lock");
        assertEquals(2, zram.get("common_threads"));
        assertEquals("host-a", zram.get("reference"));
        @SuppressWarnings("unchecked")
        Map<String, Object> pair = ((List<Map<String, Object>>) zram.get("pairs")).getFirst();
        assertEquals(List.of(0.975567, 1.240305), pair.get("ci95"));
        assertEquals(7, pair.get("df"));
        assertEquals(true, pair.get("holds_1"));
        assertEquals("inconclusive", pair.get("verdict"));
        @SuppressWarnings("unchecked")
        Map<String, Object> runB = (Map<String, Object>) ((Map<String, Object>) zram.get("runs")).get("host-b");
        assertEquals(COMMITTED, runB.get("calibration_run"));
        @SuppressWarnings("unchecked")
        Map<String, Object> common = (Map<String, Object>) runB.get("at_common");
        assertEquals(2, common.get("threads"));
        assertEquals("inconclusive", common.get("verdict"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> hosts = (List<Map<String, Object>>) out.summary().get("hosts");
        assertEquals("unreachable during the run", hosts.get(2).get("state"));
    }

    /**
     * 50 hosts, 45 of them ok: hosts stay rows, the pairs (990) are not printed but each host is
     * against the first, named; summary.json has every pair; the page stays a readable size.
     */
    @Test
    void fiftyHostsStayRowsAgainstANamedReference(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("manifest.json"), "{\"command\": \"./lab fleet inventory -- pair zram-init-lock --quick\"}");
        Path fleet = Files.createDirectories(dir.resolve("raw/fleet"));
        Path compare = Files.createDirectories(dir.resolve("raw/compare"));
        StringBuilder tsv = new StringBuilder(HEADER);
        List<String> bad = List.of("failed", "timed out", "unreachable", "cannot run", "check failed");
        int n = 0;
        for (int i = 1; i <= 50; i++) {
            String host = String.format("host-%02d", i);
            boolean ok = i % 10 != 5;
            tsv.append(host).append('\t').append(ok ? "ok" : bad.get(i / 10)).append('\t').append(ok ? "" : "exit 1: the last line")
                    .append("\t4\t6.1.0-28-amd64\tx86_64\tAMD EPYC 7B13\tkvm\tyes\tm-").append(i).append("\tb\t\t\n");
            if (ok) {
                double v = 1.0 + 0.01 * (i % 7);
                Map<String, Map<String, Object>> byT = new LinkedHashMap<>();
                byT.put("1", cell("srcu_vs_rwsem", est(v, v / 1.04, v * 1.04, 4), est(1.0, 0.98, 1.020408, 4)));
                byT.put("2", cell("srcu_vs_rwsem", est(v, v / 1.05, v * 1.05, 4), est(1.0, 0.98, 1.020408, 4)));
                if (i % 2 == 0) {
                    byT.put("4", cell("srcu_vs_rwsem", est(v * 1.1, v, v * 1.21, 4), est(1.0, 0.98, 1.020408, 4)));
                }
                Files.writeString(compare.resolve(String.format("%02d-%s.summary.json", ++n, host)), summary(4, Map.of("zram-init-lock",
                        zram(byT, i % 2 == 0 ? "4" : "2", "zram (native), fio psync 4k, 1 job", null))));
            }
        }
        Files.writeString(fleet.resolve("hosts.tsv"), tsv);
        SectionOutput out = new CompareSection(KEYS).render(RunDir.open(dir)).orElseThrow();
        String md = out.markdown();
        assertEquals(50, table(md, "## Hosts").size(), md);
        assertTrue(md.contains("45 of 50"), md);
        List<List<String>> zram = table(md, "### `zram-init-lock`");
        assertEquals(45, zram.size(), md);
        assertTrue(md.contains("| run | figure | at 2 threads | at its most threads | over `host-01` at 2 threads |"), md);
        assertEquals("reference", row(zram, "`host-01`").get(4), md);
        // host-02 (1.02) over host-01 (1.01), each ±5% on 4 rounds: the interval holds 1
        assertTrue(row(zram, "`host-02`").get(4).startsWith("~ 1.01 ["), md);
        assertTrue(row(zram, "`host-02`").get(3).startsWith("4 threads: 1.12 ["), md);
        assertFalse(md.contains("Each pair of runs"), md);
        assertTrue(md.contains("45 runs: each against `host-01`, the reference (the first run with a figure); all 990 pairs are in"
                + " summary.json"), md);
        @SuppressWarnings("unchecked")
        Map<String, Object> f = (Map<String, Object>) ((Map<String, Object>) out.summary().get("fixes")).get("zram-init-lock");
        assertEquals(990, ((List<?>) f.get("pairs")).size());
        assertEquals(2, f.get("common_threads"));
        assertTrue(md.length() < 60_000, "the page's size: " + md.length());
        assertTrue(md.lines().count() < 200, "the page's lines: " + md.lines().count());
        assertTrue(JSON.writeValueAsString(out.summary()).length() < 600_000, "summary size");
    }

    /** A host that shares its machine is said so, in the hosts table and beside its pairs. */
    @Test
    void hostsThatShareAMachineAreNotedAndTheirPairMarked(@TempDir Path dir) throws Exception {
        threeHosts(dir);
        Path tsv = dir.resolve("raw/fleet/hosts.tsv");
        Files.writeString(tsv, Files.readString(tsv).replace("m-a\tb-a\t\t", "m-a\tb-a\thost-b\t").replace("m-b\tb-b\t\t", "m-a\tb-b\thost-a\t"));
        String md = new CompareSection(KEYS).render(RunDir.open(dir)).orElseThrow().markdown();
        assertEquals("shares its machine (and CPUs) with `host-b`", row(table(md, "## Hosts"), "`host-a`").get(9), md);
        assertTrue(md.contains("Hosts that share a machine"), md);
        assertEquals("`host-b` (same machine)", table(md.substring(md.indexOf("### `zram-init-lock`")), "Each pair of runs").getFirst().get(1));
    }

    /** Without hosts.tsv (a comparison made by hand) there is no hosts table, and the runs are still rows. */
    @Test
    void aComparisonByHandHasNoHostsTable(@TempDir Path dir) throws Exception {
        threeHosts(dir);
        Files.delete(dir.resolve("raw/fleet/hosts.tsv"));
        SectionOutput out = new CompareSection(KEYS).render(RunDir.open(dir)).orElseThrow();
        assertFalse(out.markdown().contains("## Hosts"));
        assertNull(out.summary().get("hosts"));
        assertEquals(2, table(out.markdown(), "### `zram-init-lock`").size());
    }
}
