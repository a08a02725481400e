package lab.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.jobspec.JobFile;
import lab.jobspec.JobFileParser;
import lab.jobspec.JobSpecException;
import lab.jobspec.report.FioDirStats;
import lab.jobspec.report.FioJob;
import lab.jobspec.report.FioReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class WorkloadTest {

    @TempDir
    Path dir;

    private JobFile jobFile(String text) throws IOException, JobSpecException {
        Path f = dir.resolve("job.fio");
        Files.writeString(f, text);
        return JobFileParser.parse(f);
    }

    private static final String RANDRW = """
            [global]
            ioengine=io_uring
            rw=randrw
            rwmixread=70
            bs=4k
            size=8m
            numjobs=2
            iodepth=4
            runtime=300ms
            time_based=1

            [mix]
            """;

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void timeBasedRandrwDoesBothDirections(DeviceKind device) throws Exception {
        ByteArrayOutputStream notes = new ByteArrayOutputStream();
        FioReport r = Workload.run(jobFile(RANDRW), device, new PrintStream(notes, true, StandardCharsets.UTF_8));
        assertEquals("engine ignores ioengine=io_uring\n", notes.toString(StandardCharsets.UTF_8));
        assertEquals(2, r.jobs().size(), "no group_reporting: one entry per clone");
        for (FioJob j : r.jobs()) {
            assertEquals("mix", j.jobname());
            assertEquals(0, j.error());
            FioDirStats rd = j.read();
            FioDirStats wr = j.write();
            assertTrue(rd.iops() > 0 && wr.iops() > 0, device + ": " + rd.iops() + " / " + wr.iops());
            assertEquals(rd.totalIos() * 4096, rd.ioBytes());
            assertEquals(wr.totalIos() * 4096, wr.ioBytes());
            double readFraction = (double) rd.totalIos() / (rd.totalIos() + wr.totalIos());
            assertEquals(0.70, readFraction, 0.03, "rwmixread=70");
            assertTrue(rd.runtime() >= 280 && rd.runtime() <= 1000, "runtime " + rd.runtime() + " ms");
            assertTrue(rd.clatNs().min() <= rd.clatNs().percentile().get("50.000000"));
            assertTrue(rd.clatNs().percentile().get("99.990000") <= rd.clatNs().max() * 1.001 + 1);
            assertTrue(j.usrCpu() + j.sysCpu() > 0);
            assertEquals(device.cliName(), j.lab().device());
        }
        assertEquals(0, r.jobs().get(0).lab().cpus().getFirst());
        assertEquals(1, r.jobs().get(1).lab().cpus().getFirst());
    }

    /**
     * The engine's clone loop paces as the bridge's (lab.jobspec.stats.Pacing, held to fio by the
     * bridge's FioPacingContractTest): rate_iops holds the IOPS, a missed rate_min stops the job
     * with EIO, thinktime adds its pauses, startdelay waits outside the runtime.
     */
    @Test
    void rateThinktimeAndStartdelayPaceTheEngine() throws Exception {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        FioJob rated = Workload.run(jobFile("[r]\nrw=randread\nbs=4k\nsize=8m\ntime_based\nruntime=1\n"
                + "rate_iops=400\n"), DeviceKind.NULL, quiet).jobs().getFirst();
        assertEquals(400, rated.read().iops(), 40, "rate_iops=400");
        FioJob missed = Workload.run(jobFile("[m]\nrw=read\nbs=4k\nsize=8m\ntime_based\nruntime=5\n"
                + "rate_iops=100\nrate_min=1m\n"), DeviceKind.NULL, quiet).jobs().getFirst();
        assertEquals(5, missed.error(), "rate_min not met: EIO");
        assertTrue(missed.jobRuntime() < 4500, "stopped early: " + missed.jobRuntime() + " ms");
        long t0 = System.nanoTime();
        FioJob thought = Workload.run(jobFile("[t]\nrw=read\nbs=4k\nsize=8m\nnumber_ios=200\nthinktime=5ms\n"
                + "thinktime_blocks=10\nstartdelay=500ms\n"), DeviceKind.NULL, quiet).jobs().getFirst();
        long wallMs = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(200, thought.read().totalIos());
        assertTrue(thought.jobRuntime() >= 95, "20 pauses of 5 ms: " + thought.jobRuntime() + " ms");
        assertTrue(wallMs >= 500 + thought.jobRuntime(), "startdelay outside the runtime: wall " + wallMs + " ms");
    }

    /**
     * The engine's clones keep a flow's ratio and stop each other under exitall, with the classes
     * the bridge's FioJobControlContractTest holds to fio (lab.jobspec.stats.Flows, Exits).
     */
    @Test
    void flowsAndExitallControlTheEnginesJobs() throws Exception {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        FioReport flows = Workload.run(jobFile("[global]\nbs=4k\nsize=8m\ntime_based\nruntime=300ms\n"
                + "[one]\nrw=read\nflow=1\n[three]\nrw=randread\nflow=3\n"), DeviceKind.NULL, quiet);
        double ratio = (double) flows.jobs().get(1).read().totalIos() / flows.jobs().get(0).read().totalIos();
        assertEquals(3.0, ratio, 0.3, "flow=3 over flow=1");
        FioReport exits = Workload.run(jobFile("[global]\nbs=4k\nsize=8m\n[short]\nrw=read\nsize=1m\nexitall\n"
                + "[long]\nrw=randread\ntime_based\nruntime=20\n"), DeviceKind.NULL, quiet);
        assertEquals(256, exits.jobs().get(0).read().totalIos());
        assertTrue(exits.jobs().get(1).jobRuntime() < 5000, "long stopped with short: " + exits.jobs().get(1).jobRuntime());
        FioJob steady = Workload.run(jobFile("[s]\nrw=read\nbs=4k\nsize=8m\ntime_based\nruntime=20\nrate_iops=400\n"
                + "ss=iops:10%\nss_dur=2\n"), DeviceKind.NULL, quiet).jobs().getFirst();
        assertTrue(steady.jobRuntime() >= 1900 && steady.jobRuntime() < 6000, "steady state stops it after its 2 s"
                + " window: " + steady.jobRuntime() + " ms");
    }

    /**
     * A write job with verify reads its writes back on every device of the model, as fio's (the
     * counts the bridge's FioVerifyContractTest holds to fio): after the pass, and with a backlog
     * during it, at depth 8, where a read-back waits for its write to complete; with verify_only
     * the writes are counted, not submitted, and read back.
     */
    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void verifyReadsTheWritesBack(DeviceKind device) throws Exception {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        for (String extra : List.of("", "verify_backlog=5\n", "do_verify=0\n", "verify_only=1\n")) {
            FioJob j = Workload.run(jobFile("[v]\nrw=randwrite\nbs=4k\nsize=1m\niodepth=8\nverify=crc32c\n" + extra),
                    device, quiet).jobs().getFirst();
            assertEquals(256, j.write().totalIos(), extra);
            assertEquals(extra.startsWith("do_verify") ? 0 : 256, j.read().totalIos(), device + " " + extra);
            assertEquals(0, j.error());
        }
    }

    /**
     * A trim is a REQ_OP_DISCARD bio down the stack. Neither device of the model does discards (as
     * Linux 6.1's null_blk without memory backing and brd): submit_bio_noacct() ends the first with
     * BLK_STS_NOTSUPP, and the clone stops with EOPNOTSUPP, as fio's job on such a device; through
     * dm-linear too, whose limit is its device's. continue_on_error=write alone does not go on (fio
     * goes on past EIO and EILSEQ only); with ignore_error=,95 (EOPNOTSUPP) as well (a trim's error is a
     * write's to fio) every trim is tried and none is counted done. Reads before go through.
     */
    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void trimsEndWithEopnotsuppOnDevicesWithoutDiscard(DeviceKind device) throws Exception {
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        PrintStream notes = new PrintStream(said, true, StandardCharsets.UTF_8);
        for (StackSpec stack : List.of(StackSpec.PLAIN, new StackSpec(2, lab.engine.blkcg.CssForward.PERCPU, null))) {
            FioJob j = Workload.run(jobFile("[t]\nrw=randtrim\nbs=4k\nsize=1m\n").jobs(), device, stack, notes)
                    .jobs().getFirst();
            assertEquals(95, j.error(), device + " " + stack);
            assertEquals(0, j.trim().totalIos());
        }
        String trim = "[t]\nrw=trim\nbs=4k\nsize=1m\ncontinue_on_error=write\n";
        assertEquals(1, Workload.run(jobFile(trim), device, notes).jobs().getFirst().lab().errors());
        FioJob all = Workload.run(jobFile(trim + "ignore_error=,95\n"), device, notes).jobs().getFirst();
        assertEquals(0, all.trim().totalIos(), "none done");
        assertEquals(256, all.lab().errors(), "every trim tried and failed");
        FioJob mixed = Workload.run(jobFile("[r]\nrw=read\nbs=4k\nsize=1m\n[t]\nstonewall\nrw=trim\nbs=4k\nsize=1m\n"),
                device, notes).jobs().getFirst();
        assertEquals(256, mixed.read().totalIos(), "the reads before are untouched");
        assertTrue(said.toString().contains("each trim ends with EOPNOTSUPP (95)"), said.toString());
    }

    /**
     * latency_target on the model (lab.jobspec.stats.LatencyTarget, held to fio by the bridge's
     * FioPacingContractTest): a target every I/O meets lets the search reach iodepth and end after
     * one more window; one none can meet ends the clone with ETIMEDOUT at depth 1.
     */
    @Test
    void latencyTargetSearchesTheModelsDepth() throws Exception {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        String common = "[l]\nrw=randread\nbs=4k\nsize=64m\niodepth=16\nioengine=libaio\n";
        FioJob met = Workload.run(jobFile(common + "time_based\nruntime=20\nlatency_target=10s\nlatency_window=20ms\n"),
                DeviceKind.NULL, quiet).jobs().getFirst();
        assertEquals(16, met.latencyDepth());
        assertTrue(met.jobRuntime() < 5000, "ends after the search: " + met.jobRuntime() + " ms");
        // base_ns: 5 us of device work per I/O, so no I/O meets 1 us
        FioJob missed = Workload.run(jobFile(common + "latency_target=1\nbase_ns=5000\n"), DeviceKind.NULL, quiet)
                .jobs().getFirst();
        assertEquals(110, missed.error());
        assertEquals(1, missed.latencyDepth());
    }

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void sizeBoundedJobDoesExactlySizePerClone(DeviceKind device) throws Exception {
        FioReport r = Workload.run(jobFile("""
                [seqw]
                rw=write
                bs=8k
                size=4m
                numjobs=3
                iodepth=8
                iodepth_batch_submit=4
                """), device, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(3, r.jobs().size());
        for (FioJob j : r.jobs()) {
            assertEquals(4L << 20, j.write().ioBytes());
            assertEquals(512, j.write().totalIos());
            assertEquals(0, j.read().totalIos());
            assertEquals(0, j.read().runtime());
        }
    }

    /**
     * bsrange, bssplit, io_size and number_ios through the engine: each bio its own size, the
     * report's bytes the sum of the real sizes, the I/O count what the job's sequence gives.
     */
    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void mixedSizesAndIoLimitsCountRealBytes(DeviceKind device) throws Exception {
        JobFile file = jobFile("""
                [map]
                rw=randwrite
                bsrange=4k-32k
                size=2m
                iodepth=4
                [split]
                rw=read
                bssplit=4k/50:64k/50
                size=1m
                io_size=3m
                [few]
                rw=randread
                bssplit=8k/:16k/
                norandommap
                size=4m
                number_ios=100
                """);
        FioReport r = Workload.run(file, device, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));
        for (int i = 0; i < 3; i++) {
            lab.jobspec.IoSequence seq = lab.jobspec.IoSequence.forJob(file.jobs().get(i), 0);
            long ios = 0;
            long bytes = 0;
            while (seq.hasNext()) {
                seq.nextIsRead();
                ios++;
                bytes += seq.length();
            }
            FioDirStats d = i == 0 ? r.jobs().get(i).write() : r.jobs().get(i).read();
            assertEquals(ios, d.totalIos(), file.jobs().get(i).name());
            assertEquals(bytes, d.ioBytes(), file.jobs().get(i).name());
        }
        assertEquals(2L << 20, r.jobs().get(0).write().ioBytes(), "the random map: every byte once");
        assertTrue(r.jobs().get(0).write().totalIos() > 2L * 2048 / 32, "sizes mixed, not all 32k");
        assertEquals(3L << 20, r.jobs().get(1).read().ioBytes(), "io_size: three passes of 1m");
        assertEquals(100, r.jobs().get(2).read().totalIos());
    }

    /** base_ns: the device spends it per bio, the job echoes it, a note says what was spent. */
    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void baseNsIsSpentPerIoAndSaidSo(DeviceKind device) throws Exception {
        String job = """
                [seqw]
                rw=write
                bs=4k
                size=1m
                """;
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        FioJob plain = Workload.run(jobFile(job), device, quiet).jobs().getFirst();
        FioJob loaded = Workload.run(jobFile(job + "base_ns=20000\n"), device, quiet).jobs().getFirst();
        assertFalse(plain.jobOptions().containsKey("base_ns"));
        assertFalse(plain.lab().notes().stream().anyMatch(n -> n.startsWith("base_ns")), plain.lab().notes().toString());
        assertEquals("20000", loaded.jobOptions().get("base_ns"));
        assertTrue(loaded.lab().notes().stream().anyMatch(n -> n.startsWith("base_ns=20000: ")), loaded.lab().notes().toString());
        // 256 writes of at least 20 us of work each: at least 5 ms of runtime
        assertTrue(loaded.write().runtime() >= 5, "runtime " + loaded.write().runtime() + " ms");
    }

    @Test
    void groupReportingGivesOneEntryAndFioFieldNames() throws Exception {
        FioReport r = Workload.run(jobFile(RANDRW.replace("[mix]", "group_reporting=1\nramp_time=100ms\n[mix]")),
                DeviceKind.RAM, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(1, r.jobs().size());
        FioJob j = r.jobs().getFirst();
        assertEquals(2, j.lab().clones());
        // a sum of two clones of about 300 ms each, not the longest one (a clone scheduled late on
        // a loaded machine runs less: its window still ends at the job's)
        assertTrue(j.jobRuntime() >= 1.5 * j.read().runtime() && j.jobRuntime() >= 2 * 150,
                "job_runtime sums the clones: " + j.jobRuntime() + " against the longest clone's " + j.read().runtime());
        assertTrue(j.read().runtime() < 1000, "runtime is the longest clone's, not the sum");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        r.writeJson(out);
        JsonNode root = new ObjectMapper().readTree(out.toByteArray());
        assertTrue(root.get("fio version").asText().startsWith("lab-engine"));
        for (String k : new String[] {"timestamp", "time", "global options", "jobs"}) {
            assertTrue(root.has(k), k);
        }
        JsonNode job = root.get("jobs").get(0);
        assertEquals("randrw", job.get("job options").get("rw").asText(), "one job: every option is the job's");
        assertEquals(0, root.get("global options").size());
        for (String k : new String[] {"jobname", "groupid", "error", "job options", "usr_cpu", "sys_cpu", "ctx", "lab"}) {
            assertTrue(job.has(k), k);
        }
        for (String dir : new String[] {"read", "write"}) {
            JsonNode d = job.get(dir);
            for (String k : new String[] {"io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "total_ios"}) {
                assertTrue(d.has(k), dir + "." + k);
            }
            assertEquals(17, d.get("clat_ns").get("percentile").size());
            assertTrue(d.get("clat_ns").get("percentile").has("99.990000"));
            assertTrue(d.get("lat_ns").get("mean").asDouble() >= d.get("clat_ns").get("mean").asDouble());
            assertFalse(d.get("lat_ns").has("percentile"));
        }
    }

    /**
     * fio's job ordering in the model: the stonewalled read job starts when both write clones have
     * ended, in group 1, and runs its own full runtime from there; a new_group job without
     * stonewall starts at once, in the next group.
     */
    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void stonewallStartsTheReadJobAfterTheWritesEnd(DeviceKind device) throws Exception {
        String text = """
                [global]
                bs=4k
                size=4m
                runtime=150ms
                time_based=1
                verify=md5
                cpus_allowed=0
                ioscheduler=mq-deadline
                [w]
                directory=/nonexistent
                filesize=8m
                rw=randwrite
                numjobs=2
                [r]
                stonewall
                rw=randread
                [n]
                new_group
                rw=read
                """;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        FioReport r = Workload.run(jobFile(text), device, new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertEquals(1, printed.toString(StandardCharsets.UTF_8).split("cpus_allowed/cpumask: no effect in the JVM"
                + " model", -1).length - 1, "said once: " + printed);
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("directory/filesize: no effect in the JVM model"),
                printed.toString());
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("ioscheduler: no effect in the JVM model"),
                printed.toString());
        assertEquals(4, r.jobs().size());
        FioJob w0 = r.jobs().get(0), w1 = r.jobs().get(1), rd = r.jobs().get(2), n = r.jobs().get(3);
        assertEquals(java.util.List.of(0, 0, 1, 2), r.jobs().stream().map(FioJob::groupid).toList());
        assertEquals(0L, w0.lab().startUs());
        long writesEnd = Math.max(w0.lab().endUs(), w1.lab().endUs());
        assertTrue(writesEnd >= 150_000, "writes ran their runtime: " + writesEnd);
        assertTrue(rd.lab().startUs() >= writesEnd, "read started at " + rd.lab().startUs() + " us, writes ended at "
                + writesEnd);
        assertTrue(rd.jobRuntime() >= 150, "read's runtime counts from its own start: " + rd.jobRuntime() + " ms");
        assertTrue(rd.lab().endUs() - rd.lab().startUs() >= 150_000);
        assertTrue(rd.read().totalIos() > 0 && rd.write().totalIos() == 0);
        // n comes after the stonewall job in the file, so it starts with it (fio's run_threads walk)
        assertEquals(rd.lab().startUs(), n.lab().startUs());
        assertEquals("1", rd.jobOptions().get("stonewall"));
        assertEquals("1", n.jobOptions().get("new_group"));
        assertTrue(w0.lab().notes().stream().anyMatch(x -> x.startsWith("verify and verify_pattern not checked")),
                w0.lab().notes().toString());
    }

    /**
     * nrfiles in the model: the same I/O count as one file of the same size (fio's: every file's
     * share once), the files laid end to end, and said once.
     */
    @Test
    void nrfilesKeepsTheJobsIoCountAndSaysSo() throws Exception {
        String job = """
                [w]
                rw=randwrite
                bs=4k
                size=1000k
                directory=/nonexistent
                numjobs=2
                """;
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        FioReport many = Workload.run(jobFile(job + "nrfiles=3\nfile_service_type=roundrobin:2\n"),
                DeviceKind.values()[0], new PrintStream(printed, true, StandardCharsets.UTF_8));
        FioReport one = Workload.run(jobFile(job), DeviceKind.values()[0], quiet);
        // size=1000k over 3 files: 341333 bytes each, 83 blocks of 4k each (fio: the remainder is not done)
        assertEquals(2 * 3 * 83, many.jobs().stream().mapToLong(j -> j.write().totalIos()).sum());
        assertEquals(2 * 250, one.jobs().stream().mapToLong(j -> j.write().totalIos()).sum());
        assertEquals("3", many.jobs().getFirst().jobOptions().get("nrfiles"));
        assertEquals(1, printed.toString(StandardCharsets.UTF_8).split("nrfiles: the JVM model has no files", -1).length
                - 1, printed.toString(StandardCharsets.UTF_8));
        var j = lab.jobspec.JobFileParser.parse(Path.of("t.fio"), job + "nrfiles=3\n").jobs().getFirst();
        assertEquals(java.util.List.of(0L, 344064L, 688128L), java.util.Arrays.stream(JobThread.fileBases(j)).boxed()
                .toList());
        assertEquals(688128L + 341333, JobThread.regionBytes(j));
    }
}
