package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.results.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model's contention files (lab.engine.bench.ContentionMain's, a round a file) read into
 * estimates per N and variant at the facts' site, the added split between two counts, and the
 * factor-1.5 verdict against the kernel's.
 */
class ModelContentionTest {
    @TempDir
    Path run;

    /** A cell of ContentionMain's JSON: the sweep's variant and amp, the site's counts per I/O, two lines' handoffs. */
    private static String cell(String amp, double acq, double cont, double wait) {
        return "{\"params\": {\"variant\": \"striped\", \"amp\": \"" + amp + "\", \"target\": \"thin\"}, \"ios\": 4000, \"locksPerIo\":"
                + " {\"bufio.lock\": {\"mutex\": {\"lockAcquired\": " + acq + ", \"lockContended\": " + cont + ", \"lockWaitNs\": " + wait
                + "}}, \"bufio.tree\": {\"read\": {\"lockAcquired\": 9.0, \"lockContended\": 7.0, \"lockWaitNs\": 7000.0}}},"
                + " \"handoffsPerIo\": {\"bufio.lock\": 1.0, \"thin.root_lock\": 0.5}}";
    }

    private Path dir(String site) throws Exception {
        Path d = run.resolve("raw/thin-bufio-lock/lab-kernel");
        Files.createDirectories(d);
        Files.writeString(d.resolve("model-amp.txt"), "param: variant\nvariant: striped\nafter_variant: striped\namp: amp\nnone: 0\n"
                + "after_none: 0\ncounts: 1=1 4=4\nafter_counts: 1=0 4=0\ncontention_site: " + site + "\nthreads: 2\n");
        for (int r = 1; r <= 3; r++) {
            Files.writeString(d.resolve("model-contention-r" + r + ".json"), "{\"benchmark\": \"lab.engine.bench.ThinBufioLock.io\","
                    + " \"threads\": 2, \"ios_per_thread\": 2000, \"cells\": [" + cell("0", 6, 0, 0) + ", " + cell("1", 12, 0.5, 100)
                    + ", " + cell("4", 30, 0.5 + 1.8 * r, 100 + 360 * r) + "]}");
        }
        return d;
    }

    private static void assertMean(List<Double> perRound, Estimate e) {
        double m = perRound.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double ss = perRound.stream().mapToDouble(x -> (x - m) * (x - m)).sum();
        double h = Estimator.t975(perRound.size() - 1) * Math.sqrt(ss / (perRound.size() - 1)) / Math.sqrt(perRound.size());
        assertEquals(m, e.value(), 1e-12, e.toString());
        assertEquals(m - h, e.lo(), 1e-12, e.toString());
        assertEquals(m + h, e.hi(), 1e-12, e.toString());
        assertEquals(perRound.size(), e.rounds());
    }

    @Test
    void perNAndVariantTheSitesCountsOverRounds() throws Exception {
        Path d = dir("bufio.lock mutex");
        ModelContention m = ModelContention.read(RunDir.open(run), d).orElseThrow();
        assertEquals("bufio.lock mutex", m.site());
        assertEquals(2, m.threads());
        assertEquals(List.of(0, 1, 4), m.counts());
        ModelContention.Cell b4 = m.cell(4, "before");
        assertMean(List.of(2.3, 4.1, 5.9), b4.contendedPerIo());
        assertMean(List.of(460.0, 820.0, 1180.0), b4.waitNsPerIo());
        assertEquals(30, b4.acquiredPerIo().value(), 1e-12);
        assertEquals(1.5, b4.handoffsPerIo().value(), 1e-12, "every line's handoffs");
        ModelContention.Cell a4 = m.cell(4, "after");
        assertEquals(0, a4.contendedPerIo().value(), 1e-12, "the after at N = 4 is amp 0: " + a4);
        assertEquals(6, a4.acquiredPerIo().value(), 1e-12);
        assertEquals(0.5, m.cell(1, "before").contendedPerIo().value(), 1e-12);
    }

    @Test
    void theAddedSplitPerRoundOverTheAddedAcquisitions() throws Exception {
        Path d = dir("bufio.lock mutex");
        ModelContention m = ModelContention.read(RunDir.open(run), d).orElseThrow();
        ModelContention.Added a = m.estimateAddedBefore(1, 4);
        assertMean(List.of(0.1, 0.2, 0.3), a.frequency());
        assertMean(List.of(20.0, 40.0, 60.0), a.waitPerOpNs());
        assertEquals(List.of("before"), m.estimateAdded(1, 4).stream().map(ModelContention.Added::variant).toList(),
                "the after's acquisitions do not grow: no split");
        assertNull(m.estimateAddedBefore(1, 1));
    }

    @Test
    void noFilesNoModelAndNoSiteAGap() throws Exception {
        Path d = dir("bufio.lock mutex");
        Files.writeString(d.resolve("model-amp.txt"), Files.readString(d.resolve("model-amp.txt")).replace("contention_site: bufio.lock mutex\n", ""));
        RunDir r = RunDir.open(run);
        assertTrue(ModelContention.read(r, d).isEmpty());
        assertTrue(r.gaps().toString().contains("no contention_site line"), r.gaps().toString());
        assertTrue(ModelContention.read(RunDir.open(run), run).isEmpty());
    }

    @Test
    void anAtomicSwitchsSiteIsEveryLinesHandoffs() throws Exception {
        Path d = dir("lines");
        ModelContention m = ModelContention.read(RunDir.open(run), d).orElseThrow();
        assertTrue(m.lines());
        assertEquals(1.5, m.cell(4, "before").handoffsPerIo().value(), 1e-12);
        assertEquals(0, m.cell(4, "before").contendedPerIo().value(), 1e-12);
    }

    private static ContentionLineup.Within within(double lo, double hi, int rounds) {
        LabKernelContention.Added k = new LabKernelContention.Added("before", 1, 4, new Estimate(1.0, 0.9, 1.1, 3, Double.NaN), null, null, 1000, 1000, Double.NaN);
        ModelContention.Added m = new ModelContention.Added("before", 1, 4, new Estimate((lo + hi) / 2, lo, hi, rounds, Double.NaN), null);
        return ContentionLineup.agreement("host", m, k).within();
    }

    @Test
    void withinAFactorOfOneAndAHalfByTheIntervals() {
        assertEquals(ContentionLineup.Within.INSIDE, within(0.95, 1.05, 3), "0.95/1.1 to 1.05/0.9: 0.86 to 1.17");
        assertEquals(ContentionLineup.Within.OUTSIDE, within(0.1, 0.2, 3), "up to 0.2/0.9 = 0.22");
        assertEquals(ContentionLineup.Within.OUTSIDE, within(1.8, 2.0, 3), "from 1.8/1.1 = 1.64");
        assertEquals(ContentionLineup.Within.UNDECIDED, within(0.5, 1.0, 3), "0.45 to 1.11: straddles 1/1.5");
        assertEquals(ContentionLineup.Within.UNDECIDED, within(0.95, 1.05, 2), "two rounds: no interval");
        ContentionLineup.Agreement a = ContentionLineup.agreement("guest",
                new ModelContention.Added("before", 1, 4, new Estimate(1.0, 0.95, 1.05, 3, Double.NaN), null),
                new LabKernelContention.Added("before", 1, 4, new Estimate(1.0, 0.9, 1.1, 3, Double.NaN), null, null, 1000, 1000, Double.NaN));
        assertEquals(0.95 / 1.1, a.lo(), 1e-12);
        assertEquals(1.05 / 0.9, a.hi(), 1e-12);
    }

    @Test
    void neitherSideContendedIsItsOwnAnswerNotUndecided() {
        LabKernelContention.Added none = new LabKernelContention.Added("before", 1, 128, new Estimate(0, 0, 0, 3, Double.NaN), null, null,
                56_000_000, 0, 3.0 / 56_000_000);
        ModelContention.Added zero = new ModelContention.Added("before", 1, 128, new Estimate(0, 0, 0, 3, Double.NaN), null);
        assertEquals(ContentionLineup.Within.NEITHER, ContentionLineup.agreement("host", zero, none).within());
        ModelContention.Added some = new ModelContention.Added("before", 1, 128, new Estimate(1e-4, 0, 2e-4, 3, Double.NaN), null);
        assertEquals(ContentionLineup.Within.UNDECIDED, ContentionLineup.agreement("host", some, none).within(),
                "the model found some in a round: not the same answer");
        ModelContention.Added two = new ModelContention.Added("before", 1, 128, new Estimate(0, 0, 0, 2, Double.NaN), null);
        assertEquals(ContentionLineup.Within.UNDECIDED, ContentionLineup.agreement("host", two, none).within(),
                "two rounds: no interval, no answer");
        LabKernelContention.Added some0 = new LabKernelContention.Added("before", 1, 128, new Estimate(0, 0, 0, 3, Double.NaN), null, null,
                56_000_000, 2, Double.NaN);
        assertEquals(ContentionLineup.Within.UNDECIDED, ContentionLineup.agreement("host", zero, some0).within(),
                "the kernel counted some: no bound, no answer");
    }
}
