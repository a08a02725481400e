package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.assumeRoot;
import static lab.bridge.run.BridgeTesting.jobs;
import static lab.bridge.run.BridgeTesting.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import lab.bridge.engine.BridgeEngines;
import lab.bridge.ffi.TestZram;
import lab.jobspec.Job;
import lab.jobspec.report.FioJob;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * fio 3.33's own example job files ({@code src/test/resources/fio-examples/}, each cut to fit a
 * 64 MiB device; its header says how) run by fio 3.33 and by the bridge on the same zram device,
 * one the test makes: the same reads and writes. As root, where fio 3.33 is installed.
 *
 * <p>Each header says {@code counts: exact} (every I/O's size and number are fixed: the same
 * totals), {@code counts: tolerance} (sizes or directions drawn at random: within
 * {@value #TOLERANCE} of fio's, as {@code FioContractTest}).
 * The size-less files take the device's size on both sides.
 */
class FioExamplesBridgeTest {
    static final double TOLERANCE = 0.15;

    static Stream<Path> examples() throws IOException, URISyntaxException {
        Path d = Path.of(FioExamplesBridgeTest.class.getResource("/fio-examples").toURI());
        try (Stream<Path> files = Files.list(d)) {
            return files.filter(f -> f.toString().endsWith(".fio")).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void theBridgeIssuesWhatFioIssues(Path example) throws Exception {
        assumeRoot();
        String text = Files.readString(example);
        String counts = text.contains("; counts: exact") ? "exact" : text.contains("; counts: tolerance") ? "tolerance"
                : null;
        assertTrue(counts != null, "the header names its counts");
        Path dir = BridgeTesting.freshScratch("examples-" + example.getFileName());
        try (TestZram z = TestZram.add("64M")) {
            Path fioFile = dir.resolve("fio.fio");
            Files.writeString(fioFile, text.replaceAll("(?m)^(\\[(?!global\\])[^\\]]+\\])$", "$1\nfilename=" + z.dev));
            JsonNode fio = BridgeTesting.fioJobs(fioFile).get(0);
            long fioReads = fio.get("read").get("total_ios").asLong();
            long fioWrites = fio.get("write").get("total_ios").asLong();

            List<Job> js = jobs(dir, example.getFileName().toString(), text);
            DeviceOwnership ours = (p, maj, min) -> Optional.empty(); // the test made the device
            BridgeTesting.Outcome b = run(js, new BridgeRun.Options(z.dev, false, ours, BridgeEngines::open));
            FioJob lab = b.report().jobs().getFirst();
            assertEquals(0, lab.error(), b.notes());
            String both = example.getFileName() + ": fio reads " + fioReads + " writes " + fioWrites + ", bridge reads "
                    + lab.read().totalIos() + " writes " + lab.write().totalIos() + "\n" + b.notes();
            System.out.println(both);
            switch (counts) {
                case "exact" -> {
                    assertEquals(fioReads, lab.read().totalIos(), both);
                    assertEquals(fioWrites, lab.write().totalIos(), both);
                }
                default -> {
                    assertNear(fioReads, lab.read().totalIos(), both);
                    assertNear(fioWrites, lab.write().totalIos(), both);
                }
            }
        }
    }

    private static void assertNear(long expected, long actual, String what) {
        double allowed = Math.max(5, TOLERANCE * expected);
        assertTrue(Math.abs(expected - actual) <= allowed, actual + " not within " + allowed + " of " + expected
                + ": " + what);
    }
}
