package lab.analysis.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CalibrationTest {
    @TempDir
    Path dir;

    /** The base is the kernel's ns less the model's; the submitter's part is the kernel's ns times the user share. */
    @Test
    void theBaseSplitsByTheKernelsUserShare() {
        Calibration c = Calibration.of(2360, 0.12, "zram", 24.8, "model");
        assertEquals(2335, c.baseNs());
        assertEquals(283, c.userNs()); // 2360 x 0.12 = 283.2
        assertEquals(2052, c.deviceNs());
        assertTrue(c.describe().endsWith("of it 283 ns (the tool's user share of the kernel's CPU, 12.0%) spent by the submitting thread"
                + " between a completion and its next submission, the other 2052 ns in the device's submit"), c.describe());
    }

    /** No share (NaN, 0): all of the base in the device, and the words say nothing of a split. */
    @Test
    void withoutAShareAllOfTheBaseIsTheDevices() {
        for (double share : new double[] {Double.NaN, 0}) {
            Calibration c = Calibration.of(3050, share, "zram", 50, "model");
            assertEquals(3000, c.baseNs());
            assertEquals(0, c.userNs());
            assertEquals(3000, c.deviceNs());
            assertTrue(c.describe().endsWith("less the model's own 50.0 ns (model)"), c.describe());
        }
    }

    /** The submitter's part never exceeds the base (a model slower than the kernel has no base to split). */
    @Test
    void theUserPartNeverExceedsTheBase() {
        Calibration c = Calibration.of(100, 0.5, "k", 90, "m");
        assertEquals(10, c.baseNs());
        assertEquals(10, c.userNs());
        assertEquals(0, c.deviceNs());
        assertEquals(0, Calibration.of(50, 0.5, "k", 90, "m").baseNs());
        assertEquals(0, Calibration.of(50, 0.5, "k", 90, "m").userNs());
    }

    /** A file written before the split (no userNs) reads as all in the device; a new one round-trips. */
    @Test
    void filesBeforeTheSplitReadAsAllInTheDevice() throws Exception {
        Files.writeString(dir.resolve(Calibration.FILE), "{\"baseNs\": 1000, \"kernelNsPerIo\": 1080.0, \"kernelSource\": \"k\","
                + " \"modelNsPerIo\": 80.0, \"modelSource\": \"m\"}");
        Calibration old = Calibration.read(dir);
        assertEquals(0, old.userNs());
        assertEquals(1000, old.deviceNs());
        Calibration c = Calibration.of(2360, 0.12, "zram", 24.8, "model");
        c.write(dir);
        assertEquals(c, Calibration.read(dir));
    }
}
