package lab.fix.zraminitlock;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import lab.engine.load.DataPattern;
import java.util.List;
import lab.analysis.fidelity.Calibration;
import lab.analysis.fidelity.LineCounts;
import lab.fix.Calibrations;
import lab.fix.CostSweep;
import org.junit.jupiter.api.Test;

/** The raw-file contract against the committed zram-init-lock runs: every file is one {@link ZramInitLockRaw} names. */
class ZramInitLockRawTest {
    private static final Path RESULTS = Path.of("../results");

    @Test
    void everyFileOfTheCommittedRunsIsNamedByTheContract() throws IOException {
        int jmh = 0;
        int kernel = 0;
        try (Stream<Path> runs = Files.list(RESULTS)) {
            for (Path run : runs.sorted().toList()) {
                Path dir = run.resolve("raw").resolve(ZramInitLock.ID);
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                try (Stream<Path> s = Files.list(dir)) {
                    for (Path f : s.filter(p -> p.toString().endsWith(".json")).toList()) {
                        String name = f.getFileName().toString();
                        assertTrue(name.matches("(" + String.join("|", ZramInitLockRaw.LZO, ZramInitLockRaw.LZ4, ZramInitLockRaw.SEED,
                                ZramInitLockRaw.COSTS, CostSweep.timedPrefix(ZramInitLockRaw.COSTS)) + ")-r\\d+-t\\d+\\.json")
                                || List.of(LineCounts.FILE, Calibration.FILE, Calibrations.PRERUN, ZramInitLockRaw.SEED_SWEEP,
                                        lab.analysis.estimate.AdaptiveLog.FILE).contains(name),
                                f + " is not a file ZramInitLockRaw names");
                        jmh++;
                    }
                }
                try (Stream<Path> s = Files.list(dir.resolve("kernel"))) {
                    for (Path f : s.filter(p -> p.toString().endsWith(".json")).toList()) {
                        String stem = f.getFileName().toString();
                        stem = stem.substring(0, stem.indexOf('.'));
                        String[] one = ZramInitLockRaw.oneJob(stem.replaceAll("-j\\d+$", "-j1"));
                        assertNotNull(one, f + " is not RW-PATTERN-jN");
                        assertTrue(ZramInitLock.RWS.contains(one[0]) && DataPattern.ids().contains(one[1]), f.toString());
                        kernel++;
                    }
                }
            }
        }
        assertTrue(jmh > 0 && kernel > 0, "the committed zram-init-lock runs hold files to check: " + jmh + " JMH, " + kernel + " kernel");
    }
}
