package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.jobs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import lab.bridge.engine.BridgeEngines;
import lab.bridge.ffi.TestZram;
import lab.jobspec.report.FioJob;
import org.junit.jupiter.api.Test;

/**
 * What a job does when its I/O fails, fio 3.33's against the bridge's, on a 1 MiB tmpfs the test
 * mounts (root, fresh for each side): {@code fill_device}, a size-less sequential write that ends
 * where the space does (and on a zram device, the device), and {@code continue_on_error} with
 * {@code ignore_error}, which decide whether a failed write (ENOSPC) or a failed check (EILSEQ)
 * stops the job or is counted ({@code lab.errors}, fio's {@code total_err}) while it goes on.
 */
class FioErrorsContractTest {

    /** A job's writes, error, the bytes its file holds after it, and its failed I/Os. */
    private record Filled(long writes, long error, long bytes, long errors) {
    }

    /** The reads of the last {@link #onTmpfs} run (read-backs with verify). */
    private static long lastReads;

    @Test
    void aFileIsWrittenUntilItsFileSystemIsFull() throws Exception {
        BridgeTesting.assumeRoot();
        Path dir = BridgeTesting.freshScratch("fill");
        Filled fio = onTmpfs(dir, true);
        Filled lab = onTmpfs(dir, false);
        System.out.println("1 MiB tmpfs: fio " + fio + ", lab " + lab);
        assertEquals(0, fio.error);
        assertEquals(fio, new Filled(fio.writes, lab.error, lab.bytes, fio.errors), "no error, the same bytes written");
        // fio counts the write that met ENOSPC among its I/Os; the lab counts those that completed
        assertTrue(lab.writes == fio.writes || lab.writes == fio.writes - 1, "fio " + fio + ", lab " + lab);
    }

    private static Filled onTmpfs(Path dir, boolean fio) throws Exception {
        return onTmpfs(dir, fio, "fill_device=1");
    }

    /** The job {@code rw=write}, {@code bs=4k} and {@code options} on a file of a fresh 1 MiB tmpfs. */
    private static Filled onTmpfs(Path dir, boolean fio, String options) throws Exception {
        Path mnt = Files.createDirectories(dir.resolve("mnt"));
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt.toString()) == 0, "cannot mount tmpfs");
        try {
            Path file = Files.createFile(mnt.resolve("f"));
            String text = "[f]\nfilename=" + file + "\nrw=write\nbs=4k\n" + options.replace(' ', '\n') + "\n";
            long writes;
            long error;
            long errors;
            if (fio) {
                Path jobFile = dir.resolve("job.fio");
                Files.writeString(jobFile, text);
                JsonNode j = BridgeTesting.fioJobs(jobFile, -1).get(0);
                writes = j.get("write").get("total_ios").asLong();
                lastReads = j.get("read").get("total_ios").asLong();
                error = j.get("error").asLong();
                errors = j.path("total_err").asLong(); // fio writes it with continue_on_error only
            } else {
                FioJob j = lab(dir, text);
                writes = j.write().totalIos();
                lastReads = j.read().totalIos();
                error = j.error();
                errors = j.lab().errors();
            }
            return new Filled(writes, error, Files.size(file), errors);
        } finally {
            run("umount", mnt.toString());
        }
    }

    /**
     * 2 MiB written to a 1 MiB tmpfs: with {@code continue_on_error=write} and ENOSPC in the write
     * list ({@code ignore_error=,ENOSPC}, or a list alone, which turns its class on) every write
     * is tried and the 256 past the space are counted; ENOSPC not in the list (by default EIO and
     * EILSEQ) stops the job at the first. fio reports its first error (28) either way.
     */
    @Test
    void continueOnErrorGoesOnAfterTheErrorsItsListNames() throws Exception {
        BridgeTesting.assumeRoot();
        Path dir = BridgeTesting.freshScratch("errors");
        for (String options : java.util.List.of("size=2m continue_on_error=write ignore_error=,ENOSPC",
                "size=2m ignore_error=,28", "size=2m continue_on_error=write")) {
            Filled fio = onTmpfs(dir, true, options);
            Filled lab = onTmpfs(dir, false, options);
            System.out.println(options + ": fio " + fio + ", lab " + lab);
            boolean goesOn = options.contains("ignore_error");
            assertEquals(goesOn ? 256 : 1, fio.errors, "fio " + fio);
            assertEquals(new Filled(goesOn ? 512 : 257, 28, 1L << 20, fio.errors), fio);
            // the lab counts the writes that completed, the failed ones its errors; its file is laid
            // out sparse to size (2 MiB) where fio's stays at what it could write
            assertEquals(new Filled(fio.writes - fio.errors, 28, lab.bytes, fio.errors), lab);
        }
    }

    /**
     * With {@code verify}, a write that failed and was gone past is not read back (fio's
     * {@code io_completed()} unlogs its piece): 256 of the 512 writes land, 256 read-backs, every
     * block checked good, in both. Read back, the failed ones would find no header and stop the
     * job with EILSEQ.
     */
    @Test
    void aWriteThatFailedIsNotReadBack() throws Exception {
        BridgeTesting.assumeRoot();
        Path dir = BridgeTesting.freshScratch("errors-verify");
        String options = "size=2m continue_on_error=write ignore_error=,ENOSPC verify=crc32c";
        Filled fio = onTmpfs(dir, true, options);
        long fioReads = lastReads;
        Filled lab = onTmpfs(dir, false, options);
        System.out.println(options + ": fio " + fio + " reads " + fioReads + ", lab " + lab + " reads " + lastReads);
        assertEquals(new Filled(512, 28, 1L << 20, 256), fio);
        assertEquals(256, fioReads);
        assertEquals(new Filled(256, 28, lab.bytes, 256), lab);
        assertEquals(fioReads, lastReads, "the lab reads back what landed");
    }

    /**
     * A corrupt block: {@code continue_on_error=verify} reads on past it, and counts it, in both;
     * without it the read stops there ({@code FioVerifyContractTest}).
     */
    @Test
    void continueOnErrorVerifyReadsOnPastABadBlock() throws Exception {
        Path file = BridgeTesting.sparseFile("errors-verify", 256L << 10);
        String write = "[w]\nfilename=" + file + "\nsize=256k\nrw=write\nverify=crc32c\ndo_verify=0\n";
        String read = "[r]\nfilename=" + file + "\nsize=256k\nrw=read\nverify=crc32c\ncontinue_on_error=verify\n";
        Path jobFile = file.getParent().resolve("job.fio");
        Files.writeString(jobFile, write);
        BridgeTesting.fioJobs(jobFile);
        corrupt(file, 10 * 4096 + 100);
        Files.writeString(jobFile, read);
        JsonNode fio = BridgeTesting.fioJobs(jobFile, -1).get(0);
        lab(file.getParent(), write);
        corrupt(file, 10 * 4096 + 100);
        FioJob lab = lab(file.getParent(), read);
        assertEquals(64, fio.get("read").get("total_ios").asLong());
        assertEquals(1, fio.path("total_err").asLong());
        assertEquals(84, fio.get("error").asLong());
        assertEquals(64, lab.read().totalIos());
        assertEquals(1, lab.lab().errors());
        assertEquals(84, lab.error());
    }

    private static void corrupt(Path file, long at) throws Exception {
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            f.write(new byte[] {'X', 'X', 'X', 'X'});
        }
    }

    @Test
    void aDeviceIsWrittenToItsEnd() throws Exception {
        Path dir = BridgeTesting.freshScratch("fill-dev");
        try (TestZram z = TestZram.add("8M")) {
            String text = "[f]\nfilename=" + z.dev + "\nrw=write\nbs=64k\ndirect=1\nfill_device=1\n";
            Path jobFile = dir.resolve("job.fio");
            Files.writeString(jobFile, text);
            JsonNode fio = BridgeTesting.fioJobs(jobFile).get(0);
            FioJob lab = lab(dir, text);
            assertEquals(128, fio.get("write").get("total_ios").asLong());
            assertEquals(128, lab.write().totalIos());
            assertEquals(0, lab.error());
        }
    }

    private static FioJob lab(Path dir, String text) throws Exception {
        DeviceOwnership ours = (p, maj, min) -> Optional.empty(); // the test made the device
        return BridgeTesting.run(jobs(dir, "lab.fio", text), new BridgeRun.Options(null, false, ours,
                BridgeEngines::open)).report().jobs().getFirst();
    }

    private static int run(String... command) throws Exception {
        return new ProcessBuilder(command).redirectErrorStream(true).start().waitFor();
    }
}
