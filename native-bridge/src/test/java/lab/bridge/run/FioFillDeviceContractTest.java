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
 * fio 3.33's {@code fill_device} against the bridge's: a size-less sequential write that ends
 * where the space does. On a 1 MiB tmpfs the test mounts (root), the write of a file meets
 * ENOSPC, and the job ends there without an error, in both; on a zram device the test makes, the
 * job covers the device, in both. Each side runs on a fresh file system or device.
 */
class FioFillDeviceContractTest {

    /** A job's writes, error and the bytes its file holds after it. */
    private record Filled(long writes, long error, long bytes) {
    }

    @Test
    void aFileIsWrittenUntilItsFileSystemIsFull() throws Exception {
        BridgeTesting.assumeRoot();
        Path dir = BridgeTesting.freshScratch("fill");
        Filled fio = onTmpfs(dir, true);
        Filled lab = onTmpfs(dir, false);
        System.out.println("1 MiB tmpfs: fio " + fio + ", lab " + lab);
        assertEquals(0, fio.error);
        assertEquals(fio, new Filled(fio.writes, lab.error, lab.bytes), "no error, the same bytes written");
        // fio counts the write that met ENOSPC among its I/Os; the lab counts those that completed
        assertTrue(lab.writes == fio.writes || lab.writes == fio.writes - 1, "fio " + fio + ", lab " + lab);
    }

    private static Filled onTmpfs(Path dir, boolean fio) throws Exception {
        Path mnt = Files.createDirectories(dir.resolve("mnt"));
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt.toString()) == 0, "cannot mount tmpfs");
        try {
            Path file = Files.createFile(mnt.resolve("f"));
            String text = "[f]\nfilename=" + file + "\nrw=write\nbs=4k\nfill_device=1\n";
            long writes;
            long error;
            if (fio) {
                Path jobFile = dir.resolve("job.fio");
                Files.writeString(jobFile, text);
                JsonNode j = BridgeTesting.fioJobs(jobFile).get(0);
                writes = j.get("write").get("total_ios").asLong();
                error = j.get("error").asLong();
            } else {
                FioJob j = lab(dir, text);
                writes = j.write().totalIos();
                error = j.error();
            }
            return new Filled(writes, error, Files.size(file));
        } finally {
            run("umount", mnt.toString());
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
