package lab.jobspec.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import lab.jobspec.BlockSizes;
import lab.jobspec.IoEngine;
import lab.jobspec.Job;
import lab.jobspec.RandomGenerator;
import lab.jobspec.Rw;
import lab.jobspec.Verify;
import org.junit.jupiter.api.Test;

class FioReportTest {

    static Job job(String name, Rw rw, int bs, int numjobs, boolean groupReporting) {
        return new Job(name, null, rw, 70, bs, 1L << 20, 0, numjobs, 4, 1, 1, 1,
                300_000_000L, true, 0, true, IoEngine.IO_URING, false, true, 0, false, true, 0x89,
                groupReporting, false, false, false, false, false, false, Verify.NONE, 0, List.of(),
                BlockSizes.fixed(bs), BlockSizes.fixed(bs), 100, 100, false, RandomGenerator.TAUSWORTHE, false, 0, 0,
                "t.fio", 1,
                Job.Order.NONE, null, lab.jobspec.Cpus.ANY, null, 0, null, 1, Job.FileService.ROUNDROBIN,
                Job.Walk.DEFAULT, Job.Pace.NONE, Job.Placement.NONE, false, Job.Checks.DEFAULT,
                Job.OnError.NONE, Job.Dedupe.NONE);
    }

    static FioReport sample() {
        FioLatency clat = new FioLatency(100, 9000, 1500.5, 20.25, 1000,
                FioPercentiles.of(p -> (long) (p * 10)));
        FioDirStats read = FioDirStats.of(4096L * 1000, 1000, 300, FioLatency.none(), clat,
                clat.withoutPercentiles());
        Job j = job("rr", Rw.RANDREAD, 4096, 1, false);
        Map<String, String> global = FioOptions.global(List.of(j, job("rr2", Rw.RANDREAD, 4096, 1, false)));
        FioJob entry = new FioJob("rr", 0, 0, 1, FioOptions.jobOnly(j, global), read, FioDirStats.none(),
                FioDirStats.none(), 300, FioJob.cpuPercent(150_000_000L, 300_000_000L), 3.0, 7, 0, 0,
                new FioLab("jvm-engine", "null", 1, List.of(0), 0, List.of("note")), null);
        Instant t = Instant.ofEpochMilli(1_700_000_000_123L);
        return new FioReport("lab-engine-test", t.getEpochSecond(), t.toEpochMilli(), FioJson.ctime(t),
                global, List.of(entry));
    }

    static byte[] bytes(FioReport r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        r.writeJson(out);
        return out.toByteArray();
    }

    @Test
    void roundTripKeepsEveryValue() throws IOException {
        FioReport r = sample();
        FioReport back = FioReport.readJson(new ByteArrayInputStream(bytes(r)));
        assertEquals(r, back);
    }

    @Test
    void fieldNamesAreFios() throws IOException {
        JsonNode root = new ObjectMapper().readTree(bytes(sample()));
        assertEquals("lab-engine-test", root.get("fio version").asText());
        assertEquals(1_700_000_000L, root.get("timestamp").asLong());
        assertTrue(root.get("time").asText().endsWith("2023"), root.get("time").asText());
        assertTrue(root.get("global options").isObject());
        JsonNode job = root.get("jobs").get(0);
        for (String k : List.of("jobname", "groupid", "error", "job options", "read", "write",
                "job_runtime", "usr_cpu", "sys_cpu", "ctx", "lab")) {
            assertTrue(job.has(k), k);
        }
        JsonNode read = job.get("read");
        assertEquals(4_096_000, read.get("io_bytes").asLong());
        assertEquals(4000, read.get("io_kbytes").asLong());
        assertEquals(13_653_333, read.get("bw_bytes").asLong());   // 1000 * 4096000 / 300
        assertEquals(13_333, read.get("bw").asLong());              // KiB/s
        assertEquals(3333.333, read.get("iops").asDouble(), 0.001);
        assertEquals(300, read.get("runtime").asLong());
        assertEquals(1000, read.get("total_ios").asLong());
        JsonNode clat = read.get("clat_ns");
        assertEquals(100, clat.get("min").asLong());
        assertEquals(9000, clat.get("max").asLong());
        assertEquals(1500.5, clat.get("mean").asDouble());
        assertEquals(20.25, clat.get("stddev").asDouble());
        assertEquals(1000, clat.get("N").asLong());
        List<String> keys = List.of("1.000000", "5.000000", "10.000000", "20.000000", "30.000000",
                "40.000000", "50.000000", "60.000000", "70.000000", "80.000000", "90.000000", "95.000000",
                "99.000000", "99.500000", "99.900000", "99.950000", "99.990000");
        assertEquals(keys, iterable(clat.get("percentile").fieldNames()));
        assertEquals(999, clat.get("percentile").get("99.900000").asLong());
        assertFalse(read.get("lat_ns").has("percentile"));
        JsonNode write = job.get("write");
        assertEquals(0, write.get("runtime").asLong());
        assertEquals(0.0, write.get("iops").asDouble());
        assertFalse(write.get("clat_ns").has("percentile"));
        assertEquals(50.0, job.get("usr_cpu").asDouble(), 1e-9);
        assertEquals("jvm-engine", job.get("lab").get("engine").asText());
    }

    @Test
    void optionsSplitIntoGlobalAndJob() {
        Job a = job("a", Rw.RANDREAD, 4096, 2, false);
        Job b = job("b", Rw.RANDWRITE, 4096, 2, false);
        Map<String, String> global = FioOptions.global(List.of(a, b));
        assertEquals("io_uring", global.get("ioengine"));
        assertEquals("2", global.get("numjobs"));
        assertEquals("300ms", global.get("runtime"));
        assertEquals("1", global.get("direct"));
        assertFalse(global.containsKey("rw"));
        assertFalse(global.containsKey("bs"), "default bs is not listed");
        assertEquals(Map.of("rw", "randread"), FioOptions.jobOnly(a, global));
    }

    /** base_ns, the lab's key, is echoed when set and, like every default, left out when 0. */
    @Test
    void baseNsIsEchoedWhenSet() throws Exception {
        Job with = lab.jobspec.JobFileParser.parse(java.nio.file.Path.of("t.fio"), "[j]\nsize=1m\nbase_ns=2000\n").jobs().get(0);
        Job without = lab.jobspec.JobFileParser.parse(java.nio.file.Path.of("t.fio"), "[j]\nsize=1m\n").jobs().get(0);
        assertEquals("2000", FioOptions.of(with).get("base_ns"));
        assertFalse(FioOptions.of(without).containsKey("base_ns"));
    }

    @Test
    void groupReportingMergesClonesAsFio() {
        Job plain = job("p", Rw.RANDREAD, 4096, 2, false);
        Job grouped = job("g", Rw.RANDREAD, 4096, 3, true);
        List<Job> clones = List.of(plain, plain, grouped, grouped, grouped);
        List<List<Job>> entries = FioGroups.group(List.of(plain, grouped), clones, c -> c);
        assertEquals(2, entries.size());
        assertEquals(1, entries.get(0).size());
        // fio: a group_reporting clone joins the entry before it, whatever that entry was
        assertEquals(4, entries.get(1).size());
        assertEquals(List.of(List.of(grouped, grouped)),
                FioGroups.group(List.of(grouped), List.of(grouped, grouped), c -> c));
    }

    /** fio: group_reporting merges clones within a reporting group only; stonewall opens the next. */
    @Test
    void groupReportingStopsAtAStonewall() throws Exception {
        List<Job> jobs = lab.jobspec.JobFileParser.parse(java.nio.file.Path.of("t.fio"),
                "[global]\nsize=1m\ngroup_reporting\n[w]\nnumjobs=2\n[w2]\n[r]\nstonewall\nnumjobs=2\n").jobs();
        Job w = jobs.get(0), w2 = jobs.get(1), r = jobs.get(2);
        List<List<Job>> entries = FioGroups.group(jobs, List.of(w, w, w2, r, r), c -> c);
        assertEquals(List.of(List.of(w, w, w2), List.of(r, r)), entries);
        assertEquals(Map.of(w, 0, w2, 0, r, 1), Map.copyOf(FioGroups.groupOf(jobs)));
        assertEquals("1", FioOptions.of(r).get("stonewall"));
        assertFalse(FioOptions.of(w).containsKey("stonewall"));
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
