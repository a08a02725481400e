package lab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BridgeVsFioReportTest {
    @TempDir
    Path raw;

    /** A one-clone fio-style result: IOPS, I/Os, 1 s of job runtime at usr+sys percent, ctx. */
    static String run(double iops, long ios, double cpuPercent, long ctx) {
        return """
            {"fio version":"fio-3.33","jobs":[{"jobname":"x","groupid":0,"error":0,
              "read":{"io_bytes":%d,"iops":%s,"total_ios":%d},"write":{"iops":0,"total_ios":0},
              "job_runtime":1000,"usr_cpu":%s,"sys_cpu":0,"ctx":%d}]}
            """.formatted(ios * 4096, iops, ios, cpuPercent, ctx);
    }

    void write(String name, String text) throws Exception {
        Files.writeString(raw.resolve(name), text);
    }

    /**
     * Three repetitions of q32: bridge / fio IOPS 0.5, 1.5, 1.0: logs −0.6931471806, 0.4054651081,
     * 0, mean −0.0958940242 (∛0.75 = 0.9085602964), sd (2 df) 0.5555483670, h = 4.303 ×
     * 0.5555483670 / √3 = 1.3801700348: [0.2285354225–3.6120519231], which holds 1 and reaches
     * +261.2%: inconclusive at ±5%, and Stein's rule asks ⌈(4.303 × 0.5555483670 / (ln 1.05 / 2))²⌉ =
     * ⌈9602.45⌉ = 9603 in all, 9600 more. CPU per I/O, bridge / fio: 1.0 / 0.5, 0.25 / 0.5, 0.75 / 0.5
     * s per million: 2.0, 0.5, 1.5, median 1.5.
     */
    @Test
    void ratiosArePairedPerRepetitionAndCpuIsPerMillionIos() throws Exception {
        write("rows.tsv", "q32\tio_uring iodepth 32\nps\tpsync\n");
        write("q32-r1-fio.json", run(200_000, 1_000_000, 50, 100));
        write("q32-r1-bridge.json", run(100_000, 500_000, 50, 100));       // 0.5x IOPS, 2x CPU per I/O
        write("q32-r2-fio.json", run(100_000, 1_000_000, 50, 100));
        write("q32-r2-bridge.json", run(150_000, 1_000_000, 25, 100));     // 1.5x IOPS, 0.5x CPU
        write("q32-r3-fio.json", run(100_000, 1_000_000, 50, 100));
        write("q32-r3-bridge.json", run(100_000, 1_000_000, 75, 100));     // 1x IOPS, 1.5x CPU
        write("q32-r1-fio.time", "1.0 2.0 7.5\n");
        write("q32-r1-bridge.time", "3.0 3.0 9.0\n");
        write("q32-r1-bridge-c1.json", run(300_000, 1_000_000, 50, 100));  // another variant, one repetition
        write("q32-r2-bridge-c1.json", run(100_000, 1_000_000, 50, 100));  // and a second: 1.5x, 1x
        write("ps-r1-fio.json", run(10, 10, 1, 0));                        // no bridge: no pair
        BridgeVsFioReport r = BridgeVsFioReport.read(raw);
        @SuppressWarnings("unchecked")
        Map<String, Object> q = (Map<String, Object>) r.summary().get("q32/bridge");
        assertEquals(3, q.get("reps"));
        assertEquals(Map.of("value", 0.90856, "ci95", List.of(0.228535, 3.612052), "rounds", 3), q.get("iops_ratio"),
                "the geometric mean of 0.5, 1.5 and 1 with its interval");
        assertEquals("inconclusive", q.get("iops_verdict"));
        assertEquals("inconclusive at ±5%: the interval holds 1 and reaches +261.2%; Stein's rule on its spread (2 df) asks 9600 more"
                + " rounds for ±2.5%", q.get("iops_verdict_text"));
        assertEquals(1.5, (double) q.get("cpu_ratio_median"), 1e-9);
        @SuppressWarnings("unchecked")
        Map<String, Object> c1 = (Map<String, Object>) r.summary().get("q32/bridge-c1");
        // 300000 / 200000 = 1.5 and 100000 / 100000 = 1: √1.5, two repetitions, no interval
        assertEquals(Math.sqrt(1.5), (double) ((Map<?, ?>) c1.get("iops_ratio")).get("value"), 1e-6);
        assertEquals("no-interval", c1.get("iops_verdict"));
        assertEquals("2 rounds: no interval", c1.get("iops_verdict_text"));
        String md = r.markdown("bench");
        // the IOPS medians: fio's of 200000, 100000, 100000, the bridge's of 100000, 150000, 100000
        assertTrue(md.contains("| io_uring iodepth 32 | bridge | 3 | 100000 | 100000 | 0.91 [0.23–3.61]x (inconclusive at ±5%: the"
                + " interval holds 1 and reaches +261.2%; Stein's rule on its spread (2 df) asks 9600 more rounds for ±2.5%) |"), md);
        // CPU per I/O: the medians 0.50 and (1.0, 0.25, 0.75) 0.75; the ratio's logs ln 2, −ln 2, ln 1.5: mean 0.1351550 (∛1.5 =
        // 1.1447), sd 0.7316103, h = 4.303 × 0.7316103 / √3 = 1.8175675: [0.1859–7.0478]
        assertTrue(md.contains("| 0.50 / 0.75 | 1.14 [0.19–7.05]x (inconclusive at ±5%: the interval holds 1 and reaches +604.8%;"), md);
        // whole command: fio 3 s / 1M I/O = 3.0 s/M; bridge 6 s / 0.5M = 12.0 s/M (rep 1 only)
        assertTrue(md.contains("| 3.0 / 12.0 |"), md);
        assertTrue(md.contains("| 1.22x (2 rounds: no interval) | 0.50 / 0.50 | 1.00x (2 rounds: no interval) |"), md);
        assertTrue(md.contains("Reproduce: `bench`"), md);
    }

    /**
     * fio's second run in each repetition is the A/A, estimated as every ratio is, and it gates the
     * row's verdicts: a bridge ratio is judged by its own interval at ±5% where the row's A/A holds
     * 1, and is no evidence where it leaves 1 out; the A/A is no bridge variant.
     *
     * <p>The A/A of near and far, 1.02, 0.96, 1.01: logs 0.0198026273, −0.0408219945, 0.0099503309,
     * mean −0.0036896788 (0.9963171197), sd 0.0325326542, h = 4.303 × 0.0325326542 / √3 =
     * 0.0808221159: [0.9189608165–1.0801851235], holding 1, reach 0.0810391835 (the lower end's).
     * near, 0.995, 0.99, 1.005: mean log −0.0033584454, sd 0.0076541796, h 0.0190155708:
     * 0.9966471879 [0.9778744258–1.0157803404], inside ±5% holding 1: no effect. far, 0.90, 0.89,
     * 0.91: mean log −0.1054016705, sd 0.0111116256, h 0.0276050359: 0.8999629614
     * [0.8754592209–0.9251525515], wholly below 0.95: an effect. drift has far's ratios, but its A/A
     * 1.03, 1.04, 1.035 (mean log 0.0343936474, sd 0.0048309602, h 0.0120017389: 1.0349919484
     * [1.0226444890–1.0474884917]) leaves out 1.
     */
    @Test
    void theAaControlGatesEachRowsVerdicts() throws Exception {
        write("rows.tsv", "near\tnear fio\nfar\tfar from fio\ndrift\tdrifting\n");
        Map<String, double[]> aa = Map.of("near", new double[] {1.02, 0.96, 1.01}, "far", new double[] {1.02, 0.96, 1.01},
                "drift", new double[] {1.03, 1.04, 1.035});
        Map<String, double[]> bridge = Map.of("near", new double[] {0.995, 0.99, 1.005}, "far", new double[] {0.90, 0.89, 0.91},
                "drift", new double[] {0.90, 0.89, 0.91});
        for (int rep = 1; rep <= 3; rep++) {
            for (String row : List.of("near", "far", "drift")) {
                write(row + "-r" + rep + "-fio.json", run(100_000, 1_000_000, 50, 0));
                write(row + "-r" + rep + "-fio-aa.json", run(100_000 * aa.get(row)[rep - 1], 1_000_000, 50, 0));
                write(row + "-r" + rep + "-bridge.json", run(100_000 * bridge.get(row)[rep - 1], 1_000_000, 50, 0));
            }
        }
        BridgeVsFioReport r = BridgeVsFioReport.read(raw);
        assertEquals(List.of("bridge"), r.tools("near"));
        assertTrue(r.hasAa());
        assertEquals(0.0810391835, r.iopsFloor("near").floor(), 1e-9);
        assertFalse(r.iopsFloor("near").failed());
        assertTrue(r.iopsFloor("drift").failed());
        assertEquals(0.0, r.cpuFloor("near").floor(), 1e-9, "the A/A's CPU per I/O is fio's own: [1–1]");
        @SuppressWarnings("unchecked")
        Map<String, Object> n = (Map<String, Object>) r.summary().get("near/bridge");
        assertEquals("no-effect", n.get("iops_verdict"));
        assertEquals("no effect larger than ±5%", n.get("iops_verdict_text"));
        assertEquals(3, n.get("aa_reps"));
        assertEquals(Map.of("value", 0.996317, "ci95", List.of(0.918961, 1.080185), "rounds", 3), n.get("aa_iops_ratio"));
        @SuppressWarnings("unchecked")
        Map<String, Object> f = (Map<String, Object>) r.summary().get("far/bridge");
        assertEquals("effect", f.get("iops_verdict"));
        assertEquals("an effect of at least -5% (-10.0%, -12.5% to -7.5%)", f.get("iops_verdict_text"));
        @SuppressWarnings("unchecked")
        Map<String, Object> d = (Map<String, Object>) r.summary().get("drift/bridge");
        assertEquals("control-failed", d.get("iops_verdict"));
        assertEquals("the A/A control failed (1.035 [1.023–1.047]): this figure is not evidence", d.get("iops_verdict_text"));
        String md = r.markdown("bench");
        assertTrue(md.contains("| near fio | bridge | 3 | 100000 | 99500 | 1.00 [0.98–1.02]x (no effect larger than ±5%) | 1.00 [0.92–1.08] |"
                + " 0.50 / 0.50 | 1.00 [1.00–1.00]x (no effect larger than ±5%) |"), md);
        assertTrue(md.contains("| far from fio | bridge | 3 | 100000 | 90000 | 0.90 [0.88–0.93]x (an effect of at least -5% (-10.0%,"
                + " -12.5% to -7.5%)) | 1.00 [0.92–1.08] |"), md);
        assertTrue(md.contains("| drifting | bridge | 3 | 100000 | 90000 | 0.90 [0.88–0.93]x (the A/A control failed (1.035 [1.023–1.047]):"
                + " this figure is not evidence) | 1.03 [1.02–1.05] (excludes 1: drift or order) |"), md);
        assertTrue(md.contains("then fio again"), md);
    }

    /** A run made before the A/A control keeps its table: no A/A column, no claim of one. */
    @Test
    void aRunWithoutAaKeepsItsTable() throws Exception {
        write("rows.tsv", "q\tq\n");
        write("q-r1-fio.json", run(100, 100, 1, 0));
        write("q-r1-bridge.json", run(100, 100, 1, 0));
        BridgeVsFioReport r = BridgeVsFioReport.read(raw);
        assertTrue(!r.hasAa() && r.iopsFloor("q") == null);
        String md = r.markdown("bench");
        assertTrue(md.contains("(ABBA)") && !md.contains("A/A"), md);
        assertTrue(md.contains("| q | bridge | 1 | 100 | 100 | 1.00x (1 round: no interval) |"), md);
    }

    @Test
    void aFailedRunIsNamedNotAveraged() throws Exception {
        write("rows.tsv", "q\tq\n");
        write("q-r1-fio.json", run(1, 1, 1, 1).replace("\"error\":0", "\"error\":95"));
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> BridgeVsFioReport.read(raw));
        assertTrue(e.getMessage().contains("q-r1-fio.json") && e.getMessage().contains("95"), e.getMessage());
    }

    @Test
    void aMissingRowIndexIsNamed() {
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> BridgeVsFioReport.read(raw));
        assertTrue(e.getMessage().contains("rows.tsv"), e.getMessage());
    }
}
