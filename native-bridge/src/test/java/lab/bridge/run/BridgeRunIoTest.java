package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.assumeDirect;
import static lab.bridge.run.BridgeTesting.assumeUring;
import static lab.bridge.run.BridgeTesting.jobs;
import static lab.bridge.run.BridgeTesting.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import lab.bridge.engine.BridgeEngines;
import lab.jobspec.Job;
import lab.jobspec.report.FioDirStats;
import lab.jobspec.report.FioJob;
import lab.jobspec.report.FioReport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real runs against a regular file under target/ with O_DIRECT: verify=crc32c randwrite, then
 * randread verify in a second run, for every engine (psync, sync, pvsync, io_uring, libaio); a corrupted block; unwritten blocks.
 */
class BridgeRunIoTest {

    private static final int BS = 4096;
    private static final int SIZE = 4 << 20;

    private Path dir;
    private Path file;

    @BeforeEach
    void file() throws Exception {
        dir = BridgeTesting.scratch("io");
        file = dir.resolve("target.img");
        Files.deleteIfExists(file);
        Files.createFile(file);                 // empty: the write job extends it, as fio lays out a file
        assumeDirect(file);
    }

    private String job(String engine, String rw, int numjobs, String extra) {
        return "[global]\nioengine=" + engine + "\ndirect=1\nverify=crc32c\nbs=4k\nsize=4m\niodepth="
                + (engine.endsWith("sync") ? 1 : 16) + "\nfilename=" + file + "\n" + extra + "\n[" + rw + "]\nrw=" + rw
                + "\nnumjobs=" + numjobs + "\n";
    }

    private BridgeTesting.Outcome runJob(String text) throws Exception {
        List<Job> js = jobs(dir, "job.fio", text);
        return run(js, new BridgeRun.Options(null, false, DeviceOwnership.registry(), BridgeEngines::open));
    }

    private static void assertDir(FioDirStats d, long ios) {
        assertEquals(ios, d.totalIos());
        assertEquals(ios * BS, d.ioBytes(), "io_bytes == total_ios * bs");
        assertTrue(d.iops() > 0, "iops > 0");
        assertTrue(d.clatNs().percentile().get("99.000000") > 0, "clat p99");
        assertEquals(0, d.shortIos());
    }

    @ParameterizedTest
    @ValueSource(strings = {"psync", "sync", "pvsync", "io_uring", "libaio"})
    void randwriteThenRandreadVerifyFindsNoMismatch(String engine) throws Exception {
        if (engine.equals("io_uring")) {
            assumeUring();
        }
        BridgeTesting.Outcome w = runJob(job(engine, "randwrite", 1, ""));
        assertEquals(SIZE, Files.size(file), "extended to offset + size");
        FioJob wj = w.report().jobs().getFirst();
        assertEquals(0, wj.error(), w.notes());
        assertDir(wj.write(), SIZE / BS);
        assertDir(wj.read(), SIZE / BS); // fio's do_verify: every write read back and checked
        assertEquals(0L, wj.lab().verifyMismatches(), w.notes());
        assertTrue(w.notes().contains("extended " + file + " from 0 to " + SIZE), w.notes());

        BridgeTesting.Outcome r = runJob(job(engine, "randread", 2, "group_reporting=1"));
        assertEquals(1, r.report().jobs().size(), "group_reporting: one entry");
        FioJob rj = r.report().jobs().getFirst();
        assertEquals(0, rj.error(), r.notes());
        assertDir(rj.read(), 2L * SIZE / BS);
        assertEquals(0L, rj.lab().verifyMismatches(), r.notes());
        assertEquals(0L, rj.lab().verifyUnwritten(), r.notes());
        assertEquals(2, rj.lab().clones());
        assertEquals("", r.notes(), "a clean read run notes nothing");
    }

    /** bssplit through each engine: buffers hold the largest size, and every byte of each size is counted. */
    @ParameterizedTest
    @ValueSource(strings = {"psync", "io_uring", "libaio"})
    void mixedSizesReachTheDeviceWithTheirOwnLengths(String engine) throws Exception {
        if (engine.equals("io_uring")) {
            assumeUring();
        }
        BridgeTesting.Outcome w = runJob("[w]\nioengine=" + engine + "\niodepth=8\ndirect=1\nsize=4m\nrw=write"
                + "\nbssplit=4k/50:16k/50\nfilename=" + file + "\n");
        FioJob wj = w.report().jobs().getFirst();
        assertEquals(0, wj.error(), w.notes());
        assertEquals(SIZE, wj.write().ioBytes(), "one sequential pass writes the region once");
        long ios = wj.write().totalIos();
        assertTrue(ios > SIZE / (16 * 1024) && ios < SIZE / 4096, "between all-16k and all-4k: " + ios);
        assertEquals(SIZE, Files.size(file));
    }

    /**
     * psync with iodepth=8 and batches of 8 works at depth 1, as fio caps sync engines, and says
     * so once; every I/O is still done.
     */
    @Test
    void psyncDepthAndBatchAreCappedAtOneWithANote() throws Exception {
        runJob(job("psync", "randwrite", 1, ""));
        BridgeTesting.Outcome r = runJob(job("psync", "randread", 1, "iodepth=8\niodepth_batch_submit=8"));
        FioJob rj = r.report().jobs().getFirst();
        assertEquals(0, rj.error(), r.notes());
        assertDir(rj.read(), SIZE / BS);
        assertEquals(1, r.notes().split("ioengine=psync is synchronous: iodepth=8 ", -1).length - 1, r.notes());
    }

    /** A bad block stops the read job with EILSEQ where it lies, as fio's (FioVerifyContractTest holds the count to fio). */
    @Test
    void corruptedBlockStopsTheJobAndIsNamedWithItsOffset() throws Exception {
        BridgeTesting.Outcome w = runJob(job("psync", "randwrite", 1, ""));
        assertEquals(0, w.report().jobs().getFirst().error());
        long victim = 37L * BS;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap("plain java was here".getBytes()), victim + 1000);
            ch.force(true);
        }
        BridgeTesting.Outcome r = runJob(job("psync", "randread", 1, ""));
        FioJob rj = r.report().jobs().getFirst();
        assertEquals(1L, rj.lab().verifyMismatches(), r.notes());
        assertEquals(84, rj.error(), "EILSEQ: " + r.notes());
        assertTrue(rj.read().totalIos() < SIZE / BS, "stopped at the bad block: " + rj.read().totalIos());
        assertTrue(r.notes().contains("verify MISMATCH") && r.notes().contains("offset " + victim)
                && r.notes().contains("crc32c 0x"), r.notes());
        assertTrue(rj.lab().notes().stream().anyMatch(n -> n.contains("offset " + victim)), "in the JSON as well");
    }

    /** A block with no header at all stops the read as fio's bad magic does, counted as unwritten, not a mismatch. */
    @Test
    void aBlockNeverWrittenStopsTheReadAndIsUnwrittenNotAMismatch() throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(0);
            ch.write(ByteBuffer.allocate(SIZE));   // zeros: no header anywhere
        }
        BridgeTesting.Outcome r = runJob(job("psync", "randread", 1, ""));
        FioJob rj = r.report().jobs().getFirst();
        assertEquals(0L, rj.lab().verifyMismatches());
        assertEquals(1L, rj.lab().verifyUnwritten());
        assertEquals(1, rj.read().totalIos());
        assertEquals(84, rj.error());
        assertTrue(r.notes().contains("never written by the lab"), r.notes());
    }

    /** The JSON carries what analysis reads and the lab's additions. */
    @Test
    void jsonHasFioFieldsAndLabAdditions() throws Exception {
        BridgeTesting.Outcome w = runJob(job("psync", "randwrite", 1, ""));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        w.report().writeJson(out);
        JsonNode root = new ObjectMapper().readTree(out.toByteArray());
        assertEquals("lab-bridge-0.1.0", root.get("fio version").asText());
        JsonNode j = root.get("jobs").get(0);
        for (String f : List.of("jobname", "error", "job options", "read", "write", "job_runtime", "usr_cpu",
                "sys_cpu", "ctx", "lab")) {
            assertTrue(j.has(f), f);
        }
        JsonNode wr = j.get("write");
        assertEquals(wr.get("total_ios").asLong() * BS, wr.get("io_bytes").asLong());
        assertTrue(wr.get("clat_ns").get("percentile").has("50.000000"));
        JsonNode lab = j.get("lab");
        assertEquals("native-bridge", lab.get("engine").asText());
        assertEquals(file.toRealPath().toString(), lab.get("target").asText());
        assertEquals(SIZE, lab.get("targetSizeBytes").asLong());
        assertEquals(512, lab.get("logicalBlockSize").asInt());
        assertTrue(lab.get("processUsrNs").asLong() + lab.get("processSysNs").asLong() > 0, "process CPU");
        assertTrue(lab.has("processCtx") && lab.has("verifyMismatches") && lab.has("verifyUnwritten"));
        FioReport back = FioReport.readJson(new java.io.ByteArrayInputStream(out.toByteArray()));
        assertEquals(w.report(), back, "round trip");
    }

    /**
     * One run of two jobs on one file: a sequential write with verify=crc32c, then, stonewalled, a
     * random read verifying it. Had they run together, the reads would have met unwritten blocks.
     */
    @ParameterizedTest
    @ValueSource(strings = {"psync", "io_uring"})
    void stonewalledReadVerifiesWhatTheWriteJobBeforeItWrote(String engine) throws Exception {
        if (engine.equals("io_uring")) {
            assumeUring();
        }
        String text = "[global]\nioengine=" + engine + "\nbuffered=0\nverify=crc32c\nbs=4k\nsize=4m\niodepth=8\n"
                + "filename=" + file + "\n[w]\nrw=write\n[r]\nwait_for_previous\nrw=randread\n";
        BridgeTesting.Outcome o = runJob(text);
        List<FioJob> js = o.report().jobs();
        assertEquals(2, js.size());
        FioJob w = js.get(0), r = js.get(1);
        assertEquals(0, w.groupid());
        assertEquals(1, r.groupid());
        assertDir(w.write(), SIZE / BS);
        assertDir(r.read(), SIZE / BS);
        assertEquals(0L, r.lab().verifyMismatches(), o.notes());
        assertEquals(0L, r.lab().verifyUnwritten(), "every block read was written first: " + o.notes());
        assertEquals(0L, w.lab().startUs());
        assertTrue(r.lab().startUs() >= w.lab().endUs(), "read started at " + r.lab().startUs()
                + " us, before the write ended at " + w.lab().endUs());
        assertTrue(w.lab().notes().getFirst().contains("O_DIRECT"), w.lab().notes().getFirst());
    }
}
