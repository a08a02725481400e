package lab.fix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import lab.analysis.JmhResult;
import lab.analysis.fidelity.Calibration;
import lab.notebook.KernelRuns;
import lab.results.RunDir;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * Derives a fix's {@link Calibration} during its pairing: the kernel's CPU per I/O for the fix's
 * job, from this run's kernel side (which {@code pair} runs before the JVM side for this reason),
 * or, where it could not run, from the newest committed run of the fix that has one, in the
 * run's results folder or else the lab's own results/ (said so in the source); less the model's
 * own uncontended ns per I/O, from a short JMH pre-run at one thread
 * ({@code raw/<fix>/calibration-prerun.json}).
 */
public final class Calibrations {
    private Calibrations() {}

    /** The pre-run's file under {@code raw/<fix>/}. */
    public static final String PRERUN = "calibration-prerun.json";

    /**
     * The kernel's figure for the calibration: ns of task-clock per I/O, where it came from, and
     * the share of it spent outside the device (NaN: the fix spends all of its base in the device;
     * see {@link Calibration}).
     */
    public record KernelFigure(double nsPerIo, String source, double userShare, double lo, double hi) {
        public KernelFigure(double nsPerIo, String source) {
            this(nsPerIo, source, Double.NaN);
        }

        public KernelFigure(double nsPerIo, String source, double userShare) {
            this(nsPerIo, source, userShare, Double.NaN, Double.NaN);
        }

        /** The median of the rounds' {@code ns} with the 95% interval of their estimate (NaN ends with one round). */
        public static KernelFigure of(List<Double> ns, String source, double userShare) {
            lab.analysis.estimate.Estimate e = lab.analysis.estimate.Estimator.of(ns);
            return new KernelFigure(lab.analysis.Stats.median(ns), source, userShare, e.lo(), e.hi());
        }
    }

    /** How a fix picks its kernel figure from a kernel folder's runs; null when none fits. */
    @FunctionalInterface
    public interface Pick {
        KernelFigure from(KernelRuns runs);
    }

    /**
     * The calibration of the fix {@code id} in run {@code c}, written to {@code raw/<fix>/calibration.json};
     * null (and the reason printed) when no kernel figure exists here or in a committed run.
     *
     * @param preRun the model's one-thread JMH pre-run without base (options without output: the file is added here)
     * @param modelSource what the pre-run measures, in words
     */
    public static Calibration derive(Pairing.Ctx c, String id, Pick pick, ChainedOptionsBuilder preRun, String modelSource)
            throws Exception {
        KernelFigure k = null;
        Path kdir = c.raw().resolve("kernel");
        if (Files.isDirectory(kdir)) {
            k = pick.from(KernelRuns.read(RunDir.open(c.runDir()), kdir));
        }
        if (k == null) {
            k = committed(c.runDir().getParent(), id, pick);
        }
        Path own = labResults();
        if (k == null && !own.equals(c.runDir().toAbsolutePath().normalize().getParent())) {
            k = committed(own, id, pick); // a run written elsewhere (--results; a fleet host's) still finds the lab's
        }
        if (k == null) {
            c.progress().println("lab: " + id + ": no kernel CPU per I/O in this run or a committed one: no calibrated model");
            return null;
        }
        Path pre = c.raw().resolve(PRERUN);
        new Runner(JmhOptions.toJson(preRun, pre).build()).run();
        List<JmhResult> r = JmhResult.read(pre);
        Calibration cal = Calibration.of(k.nsPerIo(), k.userShare(), k.source(), r.getFirst().score(), modelSource, k.lo(), k.hi());
        cal.write(c.raw());
        c.progress().println("lab: " + id + ": calibrated base " + cal.describe());
        return cal;
    }

    /** The lab's own results/ ({@code -Dlab.root}, which {@code ./lab} passes), where its committed runs are. */
    private static Path labResults() {
        return Path.of(System.getProperty("lab.root", ".")).toAbsolutePath().normalize().resolve("results");
    }

    /** The figure from the newest committed {@code pair-<id>-*} run under {@code results} whose kernel side ran. */
    private static KernelFigure committed(Path results, String id, Pick pick) throws IOException {
        for (Path run : committedKernelRuns(results, id)) {
            KernelFigure k = pick.from(KernelRuns.read(RunDir.open(run), run.resolve("raw").resolve(id).resolve("kernel")));
            if (k != null) {
                return new KernelFigure(k.nsPerIo(), k.source() + "; taken from the committed run " + run.getFileName()
                        + ", as this run's kernel side did not run", k.userShare(), k.lo(), k.hi());
            }
        }
        return null;
    }

    /**
     * The committed {@code pair-<id>-*} runs under {@code results} that have a kernel side
     * ({@code raw/<id>/kernel/} and a manifest), newest first: where a run without its own kernel
     * figure looks for one (and what {@code ./lab fleet} ships of results/: the newest).
     */
    public static List<Path> committedKernelRuns(Path results, String id) throws IOException {
        if (results == null || !Files.isDirectory(results)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(results)) {
            return s.filter(p -> p.getFileName().toString().startsWith("pair-" + id + "-"))
                    .filter(p -> Files.isDirectory(p.resolve("raw").resolve(id).resolve("kernel"))
                            && Files.exists(p.resolve("manifest.json")))
                    .sorted(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed()).toList();
        }
    }
}
