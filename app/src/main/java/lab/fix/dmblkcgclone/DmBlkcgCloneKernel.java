package lab.fix.dmblkcgclone;

import static lab.fix.dmblkcgclone.DmBlkcgClone.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import lab.analysis.FioResults;
import lab.analysis.MalformedResultException;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.fix.dmblkcgclone.DmBlkcgClone.Weights;
import lab.fix.dmblkcgclone.DmBlkcgCloneRaw.KernelRow;
import lab.jobspec.report.FioJob;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.notebook.Parts;
import lab.results.RunDir;

/**
 * The kernel side of dm-blkcg-clone (scenario {@code dm-blkcg-clone}, {@link DmBlkcgCloneRaw}'s
 * {@code kernel/runs.tsv}): two cgroups at blkio weights a:b, one fio sequential writer (bs=1M)
 * each, on a loop device (no dm: do weights work here at all) natively where the host kernel has
 * BFQ, and through dm-linear and a thin volume, natively where it also has dm-mod and
 * dm-thin-pool, each else in the guest VM (runs.tsv's {@code env} says which of each row), direct and buffered. Per cell (environment,
 * stack, path, weights): writer a's write bandwidth over writer b's within each round (fio's {@code bw_bytes}), and the
 * share of the bottom device's written bytes charged to a, to b and to neither (the root group).
 * Today's kernels carry the fix (and, since 5.0, associate every bio at submission), so this
 * answers whether weights hold below dm today, not the fix's before and after.
 */
final class DmBlkcgCloneKernel {
    static final String NATIVE = "native";
    static final String GUEST = "guest";
    private static final List<String> ENVS = List.of(NATIVE, GUEST);
    private static final List<String> STACKS = List.of("loop", "linear", "thin");

    /** A cell of the table: one environment, stack, path and pair of weights. */
    record Cell(String env, String stack, String path, Weights weights) {
        static final Comparator<Cell> ORDER = Comparator.comparingInt((Cell c) -> ENVS.indexOf(c.env()))
                .thenComparingInt(c -> STACKS.indexOf(c.stack())).thenComparingInt(c -> PATHS.indexOf(c.path()))
                .thenComparingInt(c -> WEIGHTS.contains(c.weights()) ? WEIGHTS.indexOf(c.weights()) : WEIGHTS.size())
                .thenComparingInt(c -> c.weights().a()).thenComparingInt(c -> c.weights().b());

        String label() {
            return env + " " + stack + " " + path + " " + weights;
        }
    }

    /** One measurement: its row and the two writers' write bandwidths (bytes/s, fio's {@code bw_bytes}). */
    record Run(KernelRow row, double aBw, double bBw) {
        double ratio() {
            return aBw / bBw;
        }

        /** The bytes the bottom device charged to a, over all it wrote; NaN where either is unknown. */
        double chargedA() {
            return share(row.aWbytes());
        }

        double chargedB() {
            return share(row.bWbytes());
        }

        /** What was charged to neither a nor b (the root group, or unattributed). */
        double chargedRoot() {
            return row.aWbytes() == null || row.bWbytes() == null || row.devWbytes() == null ? Double.NaN
                    : share(row.devWbytes() - row.aWbytes() - row.bWbytes());
        }

        private double share(Long bytes) {
            Long dev = row.devWbytes();
            return bytes == null || dev == null || dev == 0 ? Double.NaN : (double) bytes / dev;
        }
    }

    /** The calibrated model's disk: its bandwidth (MiB/s) and where it came from. */
    record Bandwidth(double mibPerSec, String source) {}

    /** The cells whose bandwidth calibrates the model: natively, the loop device, direct, equal weights. */
    static final Cell BASE = new Cell(NATIVE, "loop", DIRECT, EQUAL);
    /**
     * The headline's kernel figure: the thin volume, buffered, at the seed's weights, natively where
     * the run has that row, else in the guest VM ({@link #headlineCell}).
     */
    static final List<Cell> HEADLINE = List.of(new Cell(NATIVE, THIN, BUFFERED, SEED_WEIGHTS),
            new Cell(GUEST, THIN, BUFFERED, SEED_WEIGHTS));

    private final Map<String, String> env;
    private final Map<Cell, Map<Integer, Run>> cells = new TreeMap<>(Cell.ORDER);
    /** Why there is no table: no kernel folder, no runs.tsv, or it could not be read; null where it was read. */
    private final String absent;

    private DmBlkcgCloneKernel(Map<String, String> env, String absent) {
        this.env = env;
        this.absent = absent;
    }

    /** Reads {@code dir} (the run's {@code kernel/}); an unreadable runs.tsv or fio file is a gap of {@code run}. */
    static DmBlkcgCloneKernel read(RunDir run, Path dir) throws IOException {
        Map<String, String> env = KernelRuns.readEnv(dir.resolve("env.txt"));
        Path tsv = dir.resolve(DmBlkcgCloneRaw.RUNS);
        if (!Files.exists(tsv)) {
            String step = KernelRuns.stepStatus(run, ID, "kernel");
            return new DmBlkcgCloneKernel(env, (Files.isDirectory(dir) ? "the scenario wrote no " + run.relative(tsv)
                    : "the kernel side did not run") + (step == null ? "" : " (its step " + step + ")"));
        }
        List<KernelRow> rows;
        try {
            rows = DmBlkcgCloneRaw.readRuns(tsv);
        } catch (MalformedResultException e) {
            run.gap(e);
            return new DmBlkcgCloneKernel(env, run.relative(tsv) + " could not be read (" + e.problem() + ")");
        }
        DmBlkcgCloneKernel k = new DmBlkcgCloneKernel(env, null);
        for (KernelRow r : rows) {
            try {
                Run m = new Run(r, writeBw(dir.resolve(r.aJson())), writeBw(dir.resolve(r.bJson())));
                k.cells.computeIfAbsent(new Cell(r.env(), r.stack(), r.path(), r.weights()), c -> new TreeMap<>()).put(r.round(), m);
            } catch (MalformedResultException e) {
                run.gap(e);
            }
        }
        k.estimate();
        return k;
    }

    /** A cell's figures, made once when the side is read: a/b's estimate, and the charges and bandwidths (medians over rounds). */
    private record Figures(Estimate ratio, double chargedA, double chargedB, double chargedRoot, double aBw, double bBw) {}

    private final Map<Cell, Figures> figures = new TreeMap<>(Cell.ORDER);
    /** The calibrated model's disk (MiB/s, the median over the base cell's rounds); NaN where the run has none. */
    private double baseMib = Double.NaN;

    private void estimate() {
        cells.forEach((c, rounds) -> figures.put(c, new Figures(
                Estimator.of(rounds.values().stream().map(Run::ratio).filter(x -> x > 0 && Double.isFinite(x)).toList()),
                estimateMedian(rounds, Run::chargedA), estimateMedian(rounds, Run::chargedB), estimateMedian(rounds, Run::chargedRoot),
                estimateMedian(rounds, Run::aBw), estimateMedian(rounds, Run::bBw))));
        List<Double> mib = runs(BASE).values().stream().map(r -> (r.aBw() + r.bBw()) / (1 << 20)).toList();
        baseMib = mib.isEmpty() ? Double.NaN : Stats.median(mib);
    }

    private static double estimateMedian(Map<Integer, Run> rounds, ToDoubleFunction<Run> f) {
        List<Double> v = rounds.values().stream().map(f::applyAsDouble).filter(Double::isFinite).toList();
        return v.isEmpty() ? Double.NaN : Stats.median(v);
    }

    /** The write bandwidth of a fio JSON file's jobs together, bytes/s; an error or no writes is malformed. */
    private static double writeBw(Path f) throws MalformedResultException {
        double bw = 0;
        for (FioJob j : FioResults.read(f).jobs()) {
            if (j.error() != 0) {
                throw new MalformedResultException(f, "job " + j.jobname() + " ended with error " + j.error());
            }
            bw += j.write() == null ? 0 : j.write().bwBytes();
        }
        if (!(bw > 0)) {
            throw new MalformedResultException(f, "no write bandwidth (write.bw_bytes) in any job");
        }
        return bw;
    }

    boolean isEmpty() {
        return cells.isEmpty();
    }

    Map<String, String> env() {
        return env;
    }

    /** The cells measured, in the table's order. */
    List<Cell> cells() {
        return List.copyOf(cells.keySet());
    }

    private Map<Integer, Run> runs(Cell c) {
        return cells.getOrDefault(c, Map.of());
    }

    /** a's bandwidth over b's within each round of {@code c}, estimated over rounds; null where none. */
    Estimate ratio(Cell c) {
        Figures f = figures.get(c);
        return f == null ? null : f.ratio();
    }

    /** One of {@code c}'s figures, the median over its rounds; NaN where the cell did not run. */
    private double median(Cell c, ToDoubleFunction<Figures> f) {
        Figures x = figures.get(c);
        return x == null ? Double.NaN : f.applyAsDouble(x);
    }

    /**
     * The headline's cell: the thin volume, buffered, 1000:500, natively where the run has that row
     * (the host's own kernel), else the guest VM's; null where it has neither.
     */
    Cell headlineCell() {
        return HEADLINE.stream().filter(c -> ratio(c) != null).findFirst().orElse(null);
    }

    /** The headline cell's a/b ratio ({@link #headlineCell}): the headline's kernel figure; null where the run has none. */
    Estimate figure() {
        Cell c = headlineCell();
        return c == null ? null : ratio(c);
    }

    /** Why the headline has no kernel figure. */
    String whyNoFigure() {
        if (absent != null) {
            return absent;
        }
        List<String> why = new ArrayList<>();
        for (String e : ENVS) {
            if (env.containsKey(e + "_why")) {
                why.add(e + ": " + env.get(e + "_why"));
            }
        }
        return "no " + THIN + " " + BUFFERED + " " + SEED_WEIGHTS + " row in runs.tsv, native or guest"
                + (why.isEmpty() ? "" : " (" + String.join("; ", why) + ")");
    }

    /**
     * Where the headline's kernel figure ran, as env.txt states it: in the guest VM, the environment
     * line with the guest's kernel and bottom device; natively, the host's kernel and bottom device
     * (and, where the guest VM ran the same cell too, that its row is in the section); null where
     * the run has no headline cell.
     */
    String headlineEnvironment() {
        Cell c = headlineCell();
        if (c == null) {
            return null;
        }
        String k = fact(c.env(), "kernel");
        String bottom = fact(c.env(), "bottom");
        if (c.env().equals(GUEST)) {
            String e = env.getOrDefault("environment", "guest VM");
            return e + (k == null ? "" : ", guest kernel " + k) + (bottom == null ? "" : ", bottom device: " + bottom);
        }
        return "native" + (k == null ? "" : ", kernel " + k) + (bottom == null ? "" : ", bottom device: " + bottom)
                + (ratio(HEADLINE.get(1)) == null ? "" : "; the guest VM's " + THIN + " " + BUFFERED + " " + SEED_WEIGHTS
                + " row is in the section");
    }

    /**
     * Where the dm stacks (linear, thin) ran, by the rows: native, guest, or both; where the run has
     * no dm row, by env.txt ({@code native_why} starting "none": natively, else the guest VM).
     */
    List<String> dmEnvironments() {
        List<String> out = environments(false);
        if (!out.isEmpty()) {
            return out;
        }
        return List.of(env.getOrDefault(NATIVE + "_why", "").startsWith("none") ? NATIVE : GUEST);
    }

    /**
     * Where the loop stack ({@code loop}) or the dm stacks (not) ran, by the rows; the loop stack
     * natively where none has (it runs natively where the kernel has BFQ, else in the guest VM).
     */
    private List<String> environments(boolean loop) {
        List<String> out = ENVS.stream().filter(e -> cells.keySet().stream().anyMatch(c -> c.env().equals(e)
                && c.stack().equals("loop") == loop)).toList();
        return loop && out.isEmpty() ? List.of(NATIVE) : out;
    }

    /** The same, in words: "in the guest VM", "natively", "natively and in the guest VM". */
    String dmWhere() {
        return where(dmEnvironments());
    }

    private static String where(List<String> e) {
        return e.size() == 2 ? "natively and in the guest VM" : e.getFirst().equals(NATIVE) ? "natively" : "in the guest VM";
    }

    /**
     * The calibrated model's disk: the two writers' write bandwidths summed within each round of the
     * native loop device, direct, 500:500, median over rounds; null where the run has none.
     */
    Bandwidth bandwidth() {
        Map<Integer, Run> base = runs(BASE);
        if (base.isEmpty()) {
            return null;
        }
        String kernel = nativeFact("kernel");
        String device = nativeFact("bottom");
        return new Bandwidth(baseMib, "today's kernel natively (" + (kernel == null ? "kernel not stated" : kernel) + ")"
                + (device == null ? ", a loop device" : ", " + device) + ": fio rw=write bs=1M direct=1, one job in each of two cgroups"
                + " at blkio weights " + EQUAL + ", the two jobs' write bandwidths (fio's bw_bytes) summed, median of " + base.size()
                + " round(s)");
    }

    /** env.txt's {@code key} for the native runs ({@link #fact}). */
    String nativeFact(String key) {
        return fact(NATIVE, key);
    }

    /**
     * env.txt's {@code key} for {@code side}'s runs: where the scenario wrote one value per side
     * ({@code "native: X | guest: Y"}), that side's; a value for both sides as it is; null where
     * absent or not said for that side.
     */
    String fact(String side, String key) {
        String v = env.get(key);
        if (v == null) {
            return null;
        }
        String[] parts = v.split(" \\| (?=(" + NATIVE + "|" + GUEST + "): )");
        if (!parts[0].startsWith(NATIVE + ": ") && !parts[0].startsWith(GUEST + ": ")) {
            return v;
        }
        for (String p : parts) {
            if (p.startsWith(side + ": ")) {
                return p.substring(side.length() + 2);
            }
        }
        return null;
    }

    /**
     * The cells at {@code w} whose bytes all reached the bottom device charged to their writers'
     * cgroups (the root's share at most 1%) while the bandwidth did not follow the weights.
     */
    List<Cell> chargedButNotHeld(Weights w) {
        List<Cell> out = new ArrayList<>();
        cells.forEach((c, rounds) -> {
            double root = median(c, Figures::chargedRoot);
            Estimate r = ratio(c);
            if (c.weights().equals(w) && r != null && root <= 0.01 && !check(r.value(), w).equals("held")) {
                out.add(c);
            }
        });
        return out;
    }

    /** Why the model has no calibrated disk. */
    String whyNoBandwidth() {
        if (absent != null) {
            return absent;
        }
        String why = env.get(NATIVE + "_why");
        return "no " + BASE.label() + " row in runs.tsv" + (why == null ? "" : " (native: " + why + ")")
                + (runs(new Cell(GUEST, BASE.stack(), BASE.path(), BASE.weights())).isEmpty() ? ""
                : "; the guest VM's loop row is a VM's disk, not this host's: the model is not calibrated to it");
    }

    /** Whether a ratio holds the weights (within {@link DmBlkcgClone#WITHIN} of theirs), is 1:1, or neither. */
    static String check(double ratio, Weights w) {
        if (Math.abs(ratio / w.ratio() - 1) <= WITHIN) {
            return w.a() == w.b() ? "1:1 as asked" : "held";
        }
        return Math.abs(ratio - 1) <= WITHIN ? "lost (1:1)" : "neither";
    }

    /** The table, one row per cell, with env.txt's lines and the parts the scenario skipped. */
    String text(RunDir run, Path dir, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("### The kernel: do weights hold below dm today?\n\n");
        out.put("env", env);
        if (isEmpty()) {
            out.put("cells", null);
            return b.append("No kernel table in this run: ").append(absent != null ? absent : "runs.tsv holds no readable row")
                    .append(". The kernel side runs as root (`sudo ./lab pair ").append(ID).append("`): on a loop device natively where")
                    .append(" the kernel has BFQ, and through dm-linear and a thin volume natively where it also has dm-mod and")
                    .append(" dm-thin-pool, each else in the lab's guest VM (qemu).").append(skipped()).append("\n\n").toString();
        }
        b.append("Two cgroups at blkio weights a:b, one fio sequential writer in each (rw=write bs=1M, one job), started together;")
                .append(" ").append(where(environments(true))).append(" on a loop device (no dm: whether weights work here at all), and ")
                .append(dmWhere())
                .append(" through dm-linear and a thin volume. Writer a's write bandwidth over writer b's within each round (fio's")
                .append(" `bw_bytes`), median")
                .append(" [min–max] over rounds, checked against the weights (within ").append(Math.round(100 * WITHIN))
                .append("% of their ratio: held; of 1: lost); and the share of the bottom device's written bytes the io controller")
                .append(" charged to a, to b, and to neither (the root group, or what the scenario could not attribute), median over")
                .append(" rounds (— where the scenario could not read a cgroup's charge). From [").append(DmBlkcgCloneRaw.RUNS)
                .append("](").append(run.relative(dir.resolve(DmBlkcgCloneRaw.RUNS))).append("):\n\n")
                .append("| env | stack | path | weights a:b | a/b bandwidth | weights | a MiB/s | b MiB/s | charged a / b / root | rounds |\n")
                .append("|---|---|---|---|---:|---|---:|---:|---|---:|\n");
        Map<String, Object> js = new LinkedHashMap<>();
        cells.forEach((c, rounds) -> {
            Estimate r = ratio(c);
            double a = median(c, Figures::chargedA);
            double bb = median(c, Figures::chargedB);
            double root = median(c, Figures::chargedRoot);
            b.append("| ").append(c.env()).append(" | ").append(c.stack()).append(" | ").append(c.path()).append(" | ")
                    .append(c.weights()).append(" | ").append(r.format(2)).append("x | ").append(check(r.value(), c.weights()))
                    .append(" | ").append(Fmt.f(median(c, Figures::aBw) / (1 << 20), 1)).append(" | ")
                    .append(Fmt.f(median(c, Figures::bBw) / (1 << 20), 1)).append(" | ")
                    .append(Double.isNaN(a) ? "—" : pct(a) + " / " + pct(bb) + " / " + pct(root)).append(" | ").append(rounds.size())
                    .append(" |\n");
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ratio", Parts.json(r));
            m.put("weights", check(r.value(), c.weights()));
            m.put("a_mib_per_sec", median(c, Figures::aBw) / (1 << 20));
            m.put("b_mib_per_sec", median(c, Figures::bBw) / (1 << 20));
            m.put("charged_a", Double.isNaN(a) ? null : a);
            m.put("charged_b", Double.isNaN(bb) ? null : bb);
            m.put("charged_root", Double.isNaN(root) ? null : root);
            js.put(c.label().replace(' ', '/'), m);
        });
        out.put("cells", js);
        return b.append('\n').append(envText()).append(skipped()).append("\n\n").toString();
    }

    /** env.txt as the scenario wrote it, one line each (skips said apart, by {@link #skipped}). */
    private String envText() {
        List<String> lines = new ArrayList<>();
        env.forEach((k, v) -> {
            if (!k.endsWith("_why")) {
                lines.add("- " + k + ": " + v);
            }
        });
        return lines.isEmpty() ? "The scenario wrote no env.txt." : "The scenario's environment (env.txt):\n\n" + String.join("\n", lines);
    }

    /** The parts the scenario skipped, and why, from env.txt's {@code native_why} and {@code guest_why}. */
    private String skipped() {
        List<String> s = new ArrayList<>();
        for (String e : ENVS) {
            if (env.containsKey(e + "_why")) {
                s.add(e + ": " + env.get(e + "_why"));
            }
        }
        return s.isEmpty() ? "" : "\n\nSkipped by the scenario: " + String.join("; ", s) + ".";
    }

    private static String pct(double share) {
        return Fmt.f(100 * share, 0) + "%";
    }
}
