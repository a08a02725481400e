package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import lab.jobspec.report.FioReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lab bridge run}: exit codes and what is (not) written, on a buffered regular file. */
class BridgeCommandTest extends CapturedStreams {
    @TempDir
    Path dir;

    private Path job(String name, String rw) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, "[" + rw + "]\nrw=" + rw + "\nbs=4k\nsize=256k\nverify=crc32c\nioengine=psync\n");
        return f;
    }

    @Test
    void malformedJobFileExits2AndWritesNothing() throws Exception {
        Path f = dir.resolve("bad.fio");
        Files.writeString(f, "[x]\nrw=sideways\nsize=1m\n");
        Path output = dir.resolve("out.json");
        assertEquals(2, Lab.run("bridge", "run", f.toString(), "--filename", dir.resolve("t").toString(),
                "--output", output.toString()));
        assertFalse(Files.exists(output));
        assertTrue(err.toString().contains("rw"), err.toString());
    }

    @Test
    void missingTargetExits2AndWritesNothing() throws Exception {
        Path output = dir.resolve("out.json");
        assertEquals(2, Lab.run("bridge", "run", job("r.fio", "randread").toString(),
                "--filename", dir.resolve("none.img").toString(), "--output", output.toString()));
        assertFalse(Files.exists(output));
        assertEquals("", out.toString());
        assertTrue(err.toString().contains("no such file or device"), err.toString());
    }

    @Test
    void verifyMismatchWritesTheJsonAndExits1() throws Exception {
        Path img = dir.resolve("t.img");
        Files.createFile(img);
        Path output = dir.resolve("w.json");
        assertEquals(0, Lab.run("bridge", "run", job("w.fio", "randwrite").toString(), "--filename", img.toString(),
                "--output", output.toString()), err.toString());
        try (RandomAccessFile f = new RandomAccessFile(img.toFile(), "rw")) {
            f.seek(8192 + 64);
            f.write(new byte[] {1, 2, 3, 4});
        }
        Path read = dir.resolve("r.json");
        assertEquals(1, Lab.run("bridge", "run", job("r.fio", "randread").toString(), "--filename", img.toString(),
                "--output", read.toString()));
        FioReport r;
        try (var in = Files.newInputStream(read)) {
            r = FioReport.readJson(in);
        }
        assertEquals("lab-bridge-0.1.0", r.fioVersion());
        assertEquals(1L, r.jobs().getFirst().lab().verifyMismatches());
        assertTrue(err.toString().contains("offset 8192") && err.toString().contains("failed verification"), err.toString());
    }
}
