package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.jobs;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import lab.bridge.engine.BridgeEngines;
import lab.bridge.ffi.TestZram;
import lab.jobspec.report.FioJob;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * fio 3.33's trims ({@code rw=trim}, {@code randtrim}, {@code trimwrite}, {@code randtrimwrite})
 * against the bridge's: the same job on a 16 MiB zram device the test makes (root), run by fio
 * where fio 3.33 is installed and by the bridge; compared are the trims, writes and reads each
 * did and the job's error. The discards reach the device: after a trim of everything written,
 * zram stores no page ({@code mm_stat}'s {@code orig_data_size} is 0).
 */
class FioTrimContractTest {

    /** One job's reads, writes, trims and error. */
    private record Did(long reads, long writes, long trims, long error) {
    }

    private static Did fio(Path dir, String text, int exit) throws Exception {
        Path jobFile = dir.resolve("job.fio");
        Files.writeString(jobFile, text);
        JsonNode j = BridgeTesting.fioJobs(jobFile, exit).get(0);
        return new Did(j.get("read").get("total_ios").asLong(), j.get("write").get("total_ios").asLong(),
                j.get("trim").get("total_ios").asLong(), j.get("error").asLong());
    }

    private static Did lab(Path dir, String text) throws Exception {
        DeviceOwnership ours = (p, maj, min) -> Optional.empty(); // the test made the device
        FioJob j = BridgeTesting.run(jobs(dir, "lab.fio", text), new BridgeRun.Options(null, false, ours,
                BridgeEngines::open)).report().jobs().getFirst();
        return new Did(j.read().totalIos(), j.write().totalIos(), j.trim().totalIos(), j.error());
    }

    /**
     * Each trim mode, with psync and io_uring (whose trims fio, and the bridge, do in line): the
     * same trims and writes; trimwrite writes each range it trims, and with verify reads the
     * writes back.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "rw=trim bs=64k",
            "rw=randtrim",
            "rw=trimwrite",
            "rw=randtrimwrite bs=16k ioengine=io_uring iodepth=8",
            "rw=trimwrite verify=crc32c",
            "rw=trim bsrange=4k-4k,4k-4k,32k-32k"})
    void trimsAsFios(String options) throws Exception {
        Path dir = BridgeTesting.freshScratch("trim");
        try (TestZram z = TestZram.add("16M")) {
            String text = "[t]\nfilename=" + z.dev + "\nsize=4m\ndirect=1\n" + options.replace(' ', '\n') + "\n";
            Did fio = fio(dir, text, 0);
            Did lab = lab(dir, text);
            System.out.println(options + ": fio " + fio + ", lab " + lab);
            assertEquals(fio, lab, options);
        }
    }

    /** A trim of what was written leaves zram storing nothing: the discards reached the driver. */
    @Test
    void trimsReachTheDevice() throws Exception {
        Path dir = BridgeTesting.freshScratch("trim-reach");
        try (TestZram z = TestZram.add("16M")) {
            lab(dir, "[w]\nfilename=" + z.dev + "\nsize=4m\nrw=write\nbs=64k\ndirect=1\n");
            assertEquals(4L << 20, storedBytes(z), "written: 4 MiB of pages stored");
            Did d = lab(dir, "[t]\nfilename=" + z.dev + "\nsize=4m\nrw=randtrim\nbs=64k\n");
            assertEquals(64, d.trims);
            assertEquals(0, storedBytes(z), "trimmed: none stored");
        }
    }

    /** On a regular file fio's BLKDISCARD fails with ENOTTY and the job stops with it; so does the bridge's. */
    @Test
    void aTrimOfARegularFileFailsWithEnotty() throws Exception {
        Path file = BridgeTesting.sparseFile("trim-file", 1L << 20);
        String text = "[t]\nfilename=" + file + "\nsize=64k\nrw=trim\n";
        Did fio = fio(file.getParent(), text, 1);
        Did lab = lab(file.getParent(), text);
        assertEquals(25, fio.error);
        assertEquals(25, lab.error, lab.toString());
    }

    /** zram's {@code mm_stat} first field: bytes of pages stored. */
    private static long storedBytes(TestZram z) throws Exception {
        return Long.parseLong(Files.readString(z.sys.resolve("mm_stat")).trim().split("\\s+")[0]);
    }
}
