package lab.fix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.analysis.fidelity.Calibration;
import lab.analysis.fidelity.SwitchSweep;
import lab.analysis.parse.LabAb;
import lab.engine.bench.Variants;
import lab.notebook.KernelRuns;
import lab.notebook.LabKernelPart;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * A fix's model set against its lab-kernel switch at the guest's own CPU per I/O: the fix's
 * benchmark with the variants the switch sets against each other ({@code before}, {@code after},
 * and the after's A/A control), at the seed's point ({@code fixed}), calibrated to G, the after's
 * task-clock per I/O at N = 1 in the same run's A/B ({@code raw/<fix>/lab-kernel/lab-ab.tsv}),
 * on as many threads as the guest has CPUs. Under TCG, G is several times the native kernel's CPU
 * per I/O the model's own calibration uses, and this is what the model says of the fix at it.
 *
 * <p>Writes {@code raw/<fix>/lab-kernel/}{@value LabKernelPart#MODEL}{@code -rR-tT.json} (JMH's)
 * and {@value LabKernelPart#MODEL_FACTS} (key: value: the variants, G and its split, the threads,
 * the rounds), read by {@link LabKernelPart}.
 *
 * @param benchmark the fix's JMH benchmark (an include pattern)
 * @param param     the benchmark's variant parameter ({@code variant}, or zram's {@code guard})
 * @param before    the model's variant for the switch's before
 * @param after     the model's variant for the switch's after
 * @param fixed     the benchmark's other parameters at the seed's point (the base excluded)
 * @param userSplit the benchmark takes {@code userNs} (work in the worker between I/Os): G is then
 *                  split as the run's calibration splits its base; else all of G is the device's
 * @param what      the model's side in words, for the notebook
 */
public record GuestModel(String benchmark, String param, String before, String after, Map<String, String> fixed,
                         boolean userSplit, String what) {
    /** Rounds at least: the A/A needs more than one. */
    static final int MIN_ROUNDS = 3;

    /** The A/A control of {@link #after}. */
    public String control() {
        return Variants.control(after);
    }

    /** Whether {@code fixRaw} has the lab kernel's A/B to calibrate to. */
    public static boolean hasAb(Path fixRaw) {
        return Files.isRegularFile(fixRaw.resolve(LabKernelPart.DIR).resolve(LabAb.TRIALS));
    }

    /** What the step runs, in words, for {@code raw/steps.tsv}. */
    public String step() {
        return "the model (" + before + " vs " + after + ") at the guest's CPU per I/O, on the guest's CPUs";
    }

    /**
     * The guest's point, from the run's lab-kernel A/B: its vCPUs, and G (the after's task-clock per
     * I/O at N = 1) as the model's base, split into the device's and the worker's work as the run's
     * calibration splits its own base ({@code userSplit}), else all of it the device's.
     */
    record Point(int threads, long base, long device, long user, String split) {
        static Point of(Pairing.Ctx c, boolean userSplit) throws IOException {
            Path dir = c.raw().resolve(LabKernelPart.DIR);
            LabAb ab = LabAb.read(dir).orElseThrow(() -> new IOException("no " + LabAb.TRIALS + " in " + dir));
            Map<String, String> facts = KernelRuns.readEnv(dir.resolve(LabAb.FACTS));
            double g = guestNs(SwitchSweep.of(ab, false, null))
                    .orElseThrow(() -> new IOException(LabAb.TRIALS + " has no after at N = 1 with a CPU per I/O"));
            Calibration cal = Calibration.read(c.raw());
            long base = Math.round(g);
            long user = userSplit && cal != null && cal.baseNs() > 0 ? Math.round(g * cal.userNs() / (double) cal.baseNs()) : 0;
            String split = !userSplit ? "all of it device work (the benchmark has no worker work)" : cal == null
                    ? "all of it device work (no calibration in this run to split it by)"
                    : "as the run's calibration splits its " + cal.baseNs() + " ns (" + cal.userNs() + " ns in the worker)";
            return new Point(Integer.parseInt(facts.getOrDefault("cpus", "1").trim()), base, base - user, user, split);
        }

        /**
         * Writes {@code file}, {@code key: value} a line: {@code head}, then the sweep's threads and
         * rounds, this point's work per I/O and its split, and {@code what}.
         */
        void writeFacts(Path file, Map<String, String> head, int rounds, String what) throws IOException {
            Map<String, String> out = new LinkedHashMap<>(head);
            out.put("threads", Integer.toString(threads));
            out.put("rounds", Integer.toString(rounds));
            out.put("base_ns", Long.toString(base));
            out.put("device_ns", Long.toString(device));
            out.put("user_ns", Long.toString(user));
            out.put("split", split);
            out.put("what", what);
            List<String> lines = new ArrayList<>();
            out.forEach((k, v) -> lines.add(k + ": " + v));
            Files.write(file, lines);
        }

        /** {@code o} at this point's work per I/O. */
        ChainedOptionsBuilder apply(ChainedOptionsBuilder o, boolean userSplit) {
            o.param("baseNs", Long.toString(device));
            if (userSplit) {
                o.param("userNs", Long.toString(user));
            }
            return o;
        }
    }

    /** Runs the model at the guest's CPU per I/O into {@code raw/<fix>/lab-kernel/}. */
    public void run(Pairing.Ctx c) throws Exception {
        Path dir = c.raw().resolve(LabKernelPart.DIR);
        Point pt = Point.of(c, userSplit);
        int threads = pt.threads();
        long base = pt.base();
        int rounds = Math.max(MIN_ROUNDS, c.rounds());
        String[] variants = {before, after, control()};
        for (int r = 1; r <= rounds; r++) {
            c.progress().printf("lab: %s model at the guest's %d ns per I/O, round %d/%d, %d thread(s)%n", c.raw().getFileName(), base,
                    r, rounds, threads);
            ChainedOptionsBuilder o = JmhOptions.of(benchmark, c.quick()).threads(threads).param(param, variants);
            fixed.forEach((k, v) -> o.param(k, v));
            JmhOptions.run(pt.apply(o, userSplit), dir.resolve(LabKernelPart.MODEL + "-r" + r + "-t" + threads + ".json"));
        }
        Map<String, String> out = new LinkedHashMap<>();
        out.put("param", param);
        out.put("before", before);
        out.put("after", after);
        out.put("control", control());
        pt.writeFacts(dir.resolve(LabKernelPart.MODEL_FACTS), out, rounds, what);
    }

    /** G: the after's CPU per I/O at N = 1 (median over rounds), where the sweep has it. */
    static Optional<Double> guestNs(SwitchSweep s) {
        return s.counts().stream().filter(x -> x.n() == 1 && x.nsAfter() != null).map(SwitchSweep.Count::nsAfter).findFirst();
    }
}
