package lab.fix.partacct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import lab.analysis.fidelity.Calibration;
import lab.analysis.fidelity.LineCounts;
import lab.fix.Calibrations;
import lab.fix.CostSweep;
import org.junit.jupiter.api.Test;

/**
 * The raw-file contract against what the pairing and the kernel scenario really wrote: every file
 * of every committed part-acct run is one the contract names, so a scenario or pairing that
 * drifts from {@link PartAcctRaw} shows here, not as a silently empty notebook table.
 */
class PartAcctRawTest {
    private static final Path RESULTS = Path.of("../results");

    private static List<Path> partAcctDirs() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(RESULTS)) {
            for (Path run : s.sorted().toList()) {
                Path d = run.resolve("raw").resolve(PartAcct.ID);
                if (Files.isDirectory(d)) {
                    out.add(d);
                }
            }
        }
        return out;
    }

    @Test
    void everyKernelRunOfTheCommittedRunsIsNamedByTheContract() throws IOException {
        int runs = 0;
        int flamegraphs = 0;
        for (Path dir : partAcctDirs()) {
            try (Stream<Path> s = Files.list(dir.resolve("kernel"))) {
                for (Path f : s.filter(Files::isRegularFile).toList()) {
                    String name = f.getFileName().toString();
                    if (name.startsWith("job-") || name.equals("env.txt") || name.endsWith(".log") || name.endsWith(".txt")) {
                        continue; // the scenario's job files, environment and logs
                    }
                    if (PartAcctRaw.isKernelFlamegraph(name)) {
                        flamegraphs++;
                        continue;
                    }
                    String stem = name.substring(0, name.indexOf('.'));
                    PartAcctRaw.KernelRun run = PartAcctRaw.KernelRun.parse(stem);
                    assertNotNull(run, dir.resolve("kernel").relativize(f) + " is not named as PartAcctRaw says");
                    assertEquals(stem, run.name(), "round trip of " + name);
                    assertTrue(PartAcct.DEVICES.contains(run.dev()) && PartAcct.TARGETS.contains(run.target()), name);
                    runs++;
                }
            }
        }
        assertTrue(runs > 100, "the committed part-acct runs hold kernel files to check, found " + runs);
        assertTrue(flamegraphs > 0, "and kernel flamegraphs");
    }

    @Test
    void everyJmhFileOfTheCommittedRunsIsNamedByTheContract() throws IOException {
        int files = 0;
        for (Path dir : partAcctDirs()) {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path f : s.filter(p -> p.getFileName().toString().endsWith(".json")).toList()) {
                    String name = f.getFileName().toString();
                    boolean named = List.of(LineCounts.FILE, Calibration.FILE, Calibrations.PRERUN, lab.analysis.estimate.AdaptiveLog.FILE).contains(name);
                    for (int r = 1; r <= 64 && !named; r++) { // a full run's headline adds rounds to 24
                        named = name.equals(PartAcctRaw.sum(dir, r).getFileName().toString());
                        for (int t = 1; t <= 64 && !named; t++) {
                            named = name.equals(PartAcctRaw.table(dir, r, t).getFileName().toString())
                                    || name.equals(PartAcctRaw.calibrated(dir, r, t).getFileName().toString())
                                    || name.equals(PartAcctRaw.grid(dir, r, t).getFileName().toString())
                                    || name.equals(CostSweep.file(dir, PartAcctRaw.COSTS, r, t).getFileName().toString())
                                    || name.equals(CostSweep.file(dir, CostSweep.timedPrefix(PartAcctRaw.COSTS), r, t).getFileName().toString())
                                    || name.equals(CostSweep.file(dir, CostSweep.visitsPrefix(PartAcctRaw.COSTS), r, t).getFileName().toString());
                        }
                    }
                    assertTrue(named, f + " is not a file PartAcctRaw names");
                    files++;
                }
            }
        }
        assertTrue(files > 0, "the committed part-acct runs hold JMH files to check");
    }
}
