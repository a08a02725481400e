package lab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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

    @Test
    void ratiosArePairedPerRepetitionAndCpuIsPerMillionIos() throws Exception {
        write("rows.tsv", "q32\tio_uring iodepth 32\nps\tpsync\n");
        write("q32-r1-fio.json", run(200_000, 1_000_000, 50, 100));
        write("q32-r1-bridge.json", run(100_000, 500_000, 50, 100));       // 0.5x IOPS, 2x CPU per I/O
        write("q32-r2-fio.json", run(100_000, 1_000_000, 50, 100));
        write("q32-r2-bridge.json", run(150_000, 1_000_000, 25, 100));     // 1.5x IOPS, 0.5x CPU
        write("q32-r1-fio.time", "1.0 2.0 7.5\n");
        write("q32-r1-bridge.time", "3.0 3.0 9.0\n");
        write("q32-r1-bridge-c1.json", run(300_000, 1_000_000, 50, 100));  // another variant
        write("ps-r1-fio.json", run(10, 10, 1, 0));                        // no bridge: no pair
        BridgeVsFioReport r = BridgeVsFioReport.read(raw);
        @SuppressWarnings("unchecked")
        Map<String, Object> q = (Map<String, Object>) r.summary().get("q32/bridge");
        assertEquals(2, q.get("reps"));
        lab.analysis.estimate.Estimate e = lab.analysis.estimate.Estimator.of(java.util.List.of(0.5, 1.5));
        assertEquals(e.json(), q.get("iops_ratio"), "the geometric mean of 0.5 and 1.5 with its interval");
        assertTrue(((String) q.get("iops_verdict")).startsWith("inconclusive"), q.toString());
        assertEquals(1.25, (double) q.get("cpu_ratio_median"), 1e-9);
        @SuppressWarnings("unchecked")
        Map<String, Object> c1 = (Map<String, Object>) r.summary().get("q32/bridge-c1");
        assertEquals(1.5, (double) ((Map<?, ?>) c1.get("iops_ratio")).get("value"), 1e-9);
        String md = r.markdown("bench");
        assertTrue(md.contains("| io_uring iodepth 32 | bridge | 2 |"), md);
        assertTrue(md.contains("| " + lab.analysis.estimate.Verdict.cell(e, 0.05) + " |"), md);
        // whole command: fio 3 s / 1M I/O = 3.0 s/M; bridge 6 s / 0.5M = 12.0 s/M (rep 1 only)
        assertTrue(md.contains("| 3.0 / 12.0 |"), md);
        assertTrue(md.contains("| 1.50x (inconclusive: one round, no interval yet) | 0.50 / 0.50 | 1.00x (inconclusive: one round"), md);
        assertTrue(md.contains("Reproduce: `bench`"), md);
    }

    /**
     * fio's second run in each repetition is the A/A, estimated as every ratio is; a bridge ratio
     * is judged by its own interval: an effect where it leaves out 1, parity where it lies inside
     * ±5%; the A/A is no bridge variant.
     */
    @Test
    void theAaControlSetsEachRowsFloor() throws Exception {
        write("rows.tsv", "near\tnear fio\nfar\tfar from fio\n");
        double[] aa = {1.02, 0.96, 1.01};
        double[] near = {0.995, 0.99, 1.005};  // parity within ±5%
        double[] far = {0.90, 0.88, 0.93};     // an effect: its interval leaves out 1
        for (int rep = 1; rep <= 3; rep++) {
            for (String row : new String[] {"near", "far"}) {
                write(row + "-r" + rep + "-fio.json", run(100_000, 1_000_000, 50, 0));
                write(row + "-r" + rep + "-fio-aa.json", run(100_000 * aa[rep - 1], 1_000_000, 50, 0));
                double b = (row.equals("near") ? near : far)[rep - 1];
                write(row + "-r" + rep + "-bridge.json", run(100_000 * b, 1_000_000, 50, 0));
            }
        }
        BridgeVsFioReport r = BridgeVsFioReport.read(raw);
        assertEquals(java.util.List.of("bridge"), r.tools("near"));
        assertTrue(r.hasAa());
        lab.analysis.estimate.Estimate aaE = lab.analysis.estimate.Estimator.of(java.util.List.of(1.02, 0.96, 1.01));
        assertEquals(aaE.reach(), r.iopsFloor("near").floor(), 1e-9);
        assertEquals(0.0, r.cpuFloor("near").floor(), 1e-9);
        @SuppressWarnings("unchecked")
        Map<String, Object> n = (Map<String, Object>) r.summary().get("near/bridge");
        assertEquals("no effect larger than ±5%", n.get("iops_verdict"));
        assertEquals(3, n.get("aa_reps"));
        assertEquals(aaE.json(), n.get("aa_iops_ratio"));
        @SuppressWarnings("unchecked")
        Map<String, Object> f = (Map<String, Object>) r.summary().get("far/bridge");
        assertEquals("effect", f.get("iops_verdict"));
        String md = r.markdown("bench");
        String aaCell = aaE.format(2) + " |";
        assertTrue(md.contains("| near fio | bridge | 3 | 100000 | 99500 | " + lab.analysis.estimate.Verdict.cell(
                lab.analysis.estimate.Estimator.of(java.util.List.of(0.995, 0.99, 1.005)), 0.05) + " | " + aaCell), md);
        assertTrue(md.contains("| far from fio | bridge | 3 | 100000 | 90000 | 0.90 [0.84–0.97]x | " + aaCell), md);
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
        assertTrue(md.contains("| q | bridge | 1 | 100 | 100 | 1.00x (inconclusive: one round"), md);
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
