package lab.notebook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import lab.analysis.JmhSweep;
import lab.analysis.Stats;
import lab.analysis.chart.LineChart;
import lab.analysis.estimate.Estimate;
import lab.analysis.fidelity.Calibration;
import lab.analysis.fidelity.LineCost;
import lab.analysis.fidelity.LineCounts;
import lab.analysis.scale.AtScale;
import lab.analysis.scale.CostProfile;
import lab.analysis.scale.FixScale;
import lab.analysis.scale.ProfileFit;
import lab.analysis.scale.ProfileFormatException;
import lab.results.RunDir;

/**
 * The page of a {@code ./lab profile} run (one with {@code raw/profile/}): this machine's cost
 * profile fitted from its sweep, and for each contention fix what the profile predicts its
 * headline to be at 1 to 64 threads, on this machine and on every other profile the run holds
 * ({@code raw/profiles/*.json}: the published ones of the seeds' machine classes, and those given
 * with {@code --profile}); the check at two threads against the measured figures of the run the
 * fix's inputs came from; the seed's figure against the prediction at the seed's scale; and the
 * shared-line operations today's kernel still does per I/O, ranked by what they cost at 16 and 64
 * threads. Every figure is made in {@link #read} ({@link AtScale}, {@link ProfileFit}); the
 * methods that write print them.
 *
 * <p>Raw files: {@code raw/profile/costs-rR-tT.json} and {@code costs-timed-rR-tT.json} (the cost
 * sweep, {@link LineCost}'s format), {@code raw/profile/lscpu.json} ({@code lscpu -J}); per fix
 * {@code raw/inputs/<fix>/counts.json} and {@code calibration.json}, copied from the committed run named
 * in {@code raw/inputs/<fix>/source.json} with that run's headline, and {@code kernel.json}, the
 * headline of the newest committed run with the kernel's own figure (the fixes' own raw/ folders
 * are their pairings' and keep their contracts).
 */
public final class ScalePage {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The sweep's files under raw/profile: PREFIX-rR-tT.json, PREFIX-timed-rR-tT.json. */
    public static final String PREFIX = "costs";
    public static final String TIMED_PREFIX = PREFIX + "-timed";
    /** Where a profile run keeps each fix's inputs: raw/inputs/<fix>/. */
    public static final String INPUTS = "inputs";
    /** The thread counts of the list of what is left. */
    static final List<Integer> LEFT_AT = List.of(16, 64);

    private final RunDir run;
    private final CostProfile here;
    private final Map<String, List<Kind>> measured;
    private final List<CostProfile> others;
    private final List<FixFigures> fixes;
    private final List<Left> left;
    private final CostProfile manyCore;

    /** A kind's measured extra ns per operation at one thread count and gap, median [min–max] over rounds. */
    record Kind(int threads, long gap, Stats.Spread extra) {}

    /** One fix's figures: its contrast, the curves by profile, the check at two threads, the seed's row. */
    record FixFigures(FixScale fix, String source, JsonNode headline, double t, CostProfile.Figure tFig, AtScale.Contrast contrast,
                      Map<String, List<AtScale.Ratio>> curves, AtScale.Ratio atTwo, Estimate measuredTwo, Estimate kernel,
                      SeedRow seed, String missing, JsonNode kernelRun, AtScale.Ops today) {}

    /** The seed against the prediction at its scale on its class's profile (profile null: none, {@code why}). */
    record SeedRow(CostProfile profile, Integer threads, AtScale.Ratio predicted, String why, List<Integer> holdsAt) {}

    /** A line today's kernel still touches per I/O, with its extra ns per I/O at {@link #LEFT_AT} on this machine and the many-core profile. */
    record Left(String fixId, String today, String line, Map<String, Double> kinds, double t, double[] here, double[] many) {}

    private ScalePage(RunDir run, CostProfile here, Map<String, List<Kind>> measured, List<CostProfile> others, List<FixFigures> fixes,
                      List<Left> left, CostProfile manyCore) {
        this.run = run;
        this.here = here;
        this.measured = measured;
        this.others = others;
        this.fixes = fixes;
        this.left = left;
        this.manyCore = manyCore;
    }

    private static final ObjectMapper OUT = new ObjectMapper().enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
            .setDefaultPrettyPrinter(new com.fasterxml.jackson.core.util.DefaultPrettyPrinter()
                    .withObjectIndenter(new com.fasterxml.jackson.core.util.DefaultIndenter("  ", "\n")));

    /**
     * Writes the run's {@code NOTEBOOK.md}, {@code charts/<fix>-at-scale.svg}, {@code summary.json} and
     * {@code profile.json} (this machine's profile) from raw/ alone, in the lab's two stages: every
     * figure made first ({@link #read}), then the page printed with estimation forbidden.
     */
    public static Notebook.Written write(Path runDir, Map<String, LineCost.Probe> probes, List<FixScale> scales) throws IOException {
        ScalePage page = lab.analysis.estimate.EstimationStage.estimate(() -> read(runDir, probes, scales)).value();
        return lab.analysis.estimate.EstimationStage.rendering(() -> page.writeFiles(runDir));
    }

    private Notebook.Written writeFiles(Path runDir) throws IOException {
        Path charts = runDir.resolve("charts");
        Files.createDirectories(charts);
        List<Path> written = new ArrayList<>();
        for (var c : charts().entrySet()) {
            Path f = charts.resolve(c.getKey());
            Files.writeString(f, c.getValue(), java.nio.charset.StandardCharsets.UTF_8);
            written.add(f);
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("run", run.manifest());
        root.put("scale", summary());
        root.put("gaps", run.gaps());
        Path summary = runDir.resolve("summary.json");
        Files.writeString(summary, OUT.writeValueAsString(root) + "\n", java.nio.charset.StandardCharsets.UTF_8);
        Files.writeString(runDir.resolve("profile.json"), OUT.writeValueAsString(here.json()) + "\n", java.nio.charset.StandardCharsets.UTF_8);
        Path nb = runDir.resolve("NOTEBOOK.md");
        Files.writeString(nb, markdown(), java.nio.charset.StandardCharsets.UTF_8);
        return new Notebook.Written(nb, summary, written, run.gaps());
    }

    /** Whether {@code runDir} is a profile run. */
    public static boolean isProfileRun(Path runDir) {
        return Files.isDirectory(runDir.resolve("raw").resolve("profile"));
    }

    /**
     * Every figure of the page, from raw/ alone: the fit of {@code probes}' kinds, the other
     * profiles (each must price every kind), and each of {@code scales}' fixes whose inputs the run holds.
     */
    public static ScalePage read(Path runDir, Map<String, LineCost.Probe> probes, List<FixScale> scales) throws IOException {
        RunDir run = RunDir.open(runDir);
        Path raw = run.raw().resolve("profile");
        LineCost costs = LineCost.of(JmhSweep.read(raw, PREFIX, run::gap), JmhSweep.read(raw, TIMED_PREFIX, run::gap), null, probes);
        CostProfile here = new CostProfile("this machine: " + machine(run).cpuModel(), CostProfile.MEASURED, machine(run),
                ProfileFit.of(costs), run.manifest().path("took_s").asDouble(Double.NaN), method(run, costs), List.of());
        Map<String, List<Kind>> measured = new LinkedHashMap<>();
        for (String kind : probes.keySet()) {
            List<Kind> ks = new ArrayList<>();
            for (int n : costs.threadCounts()) {
                for (long g : costs.gaps()) {
                    Stats.Spread e = costs.extra(kind, n, g);
                    if (e != null && n >= 2) {
                        ks.add(new Kind(n, g, e));
                    }
                }
            }
            measured.put(kind, ks);
        }
        List<CostProfile> others = new ArrayList<>();
        Path dir = run.raw().resolve("profiles");
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path f : s.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                    try {
                        CostProfile p = CostProfile.read(f, probes.keySet());
                        String stem = f.getFileName().toString().replaceFirst("\\.json$", "");
                        // a measured profile is named for its machine ("this machine: ..."): the file tells two apart
                        others.add(p.published() ? p : new CostProfile(stem + " (" + p.name().replaceFirst("^this machine: ", "") + ")",
                                p.source(), p.machine(), p.kinds(), p.tookS(), p.method(), p.sources()));
                    } catch (ProfileFormatException e) {
                        run.gap(f, e.getMessage());
                    }
                }
            }
        }
        CostProfile many = others.stream().filter(CostProfile::published).max(java.util.Comparator.comparingInt(p -> p.machine().cores()))
                .orElse(null);
        List<FixFigures> figures = new ArrayList<>();
        List<Left> left = new ArrayList<>();
        for (FixScale f : scales) {
            FixFigures ff = fix(run, f, here, others);
            figures.add(ff);
            if (ff.missing() == null) {
                left.addAll(left(f, ff.today(), ff.t(), here, many));
            }
        }
        left.sort(java.util.Comparator.comparingDouble((Left l) -> -l.here()[1]).thenComparing(Left::fixId).thenComparing(Left::line));
        return new ScalePage(run, here, measured, others, figures, left, many);
    }

    /** The machine from {@code raw/profile/lscpu.json} ({@code lscpu -J}) and the manifest. */
    static CostProfile.Machine machine(RunDir run) throws IOException {
        Map<String, String> f = new TreeMap<>();
        Path p = run.raw().resolve("profile").resolve("lscpu.json");
        if (Files.exists(p)) {
            for (JsonNode n : JSON.readTree(p.toFile()).path("lscpu")) {
                f.put(n.path("field").asText().replace(":", "").trim(), n.path("data").asText());
            }
        }
        int cpus = parse(f.get("CPU(s)"), run.manifest().path("cores").asInt(1));
        return new CostProfile.Machine(f.getOrDefault("Model name", run.manifest().path("cpu_model").asText("unknown")), cpus,
                parse(f.get("Socket(s)"), 1), parse(f.get("NUMA node(s)"), 1), parse(f.get("Thread(s) per core"), 1),
                run.manifest().path("kernel").asText(null), f.getOrDefault("Architecture", null));
    }

    private static int parse(String s, int otherwise) {
        try {
            return s == null ? otherwise : Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static String method(RunDir run, LineCost costs) {
        return "lab.engine.bench.Primitives (getPut, timedGetPut from " + 1000 + " ns) on a shared and a private line, threads "
                + costs.threadCounts() + ", gaps " + costs.gaps() + " ns, " + costs.roundNumbers().size() + " round(s); each kind's"
                + " LineQueue with transfer fitted within each round, S and M the mean over rounds with its t interval";
    }

    private static FixFigures fix(RunDir run, FixScale f, CostProfile here, List<CostProfile> others) throws IOException {
        Path dir = run.raw().resolve(INPUTS).resolve(f.fixId());
        LineCounts counts = LineCounts.read(dir);
        Path cal = dir.resolve("calibration.json");
        Path src = dir.resolve("source.json");
        if (counts == null || !Files.exists(cal) || !Files.exists(src)) {
            return new FixFigures(f, null, null, Double.NaN, null, null, Map.of(), null, null, null, null,
                    "no inputs in this run (raw/" + INPUTS + "/" + f.fixId() + "/counts.json, calibration.json, source.json)", null, null);
        }
        LineCounts.Entry before = counts.get(f.before(), f.point());
        LineCounts.Entry after = counts.get(f.after(), f.point());
        if (before == null || after == null) {
            return new FixFigures(f, null, null, Double.NaN, null, null, Map.of(), null, null, null, null,
                    "counts.json has no `" + (before == null ? f.before() : f.after()) + "` at " + new TreeMap<>(f.point()), null, null);
        }
        JsonNode s = JSON.readTree(src.toFile());
        CostProfile.Figure t = oneThread(Calibration.read(dir));
        AtScale.Contrast contrast = new AtScale.Contrast(ops(before), ops(after), t, f.hz());
        CostProfile seedProfile = seedProfile(f, others);
        Integer seedN = f.seedThreads() != null || seedProfile == null ? f.seedThreads() : Integer.valueOf(seedProfile.machine().cores());
        // every prediction the page shows is a point of these curves, made once
        Map<String, List<AtScale.Ratio>> curves = new LinkedHashMap<>();
        for (CostProfile p : all(here, others)) {
            List<AtScale.Ratio> rs = new ArrayList<>();
            for (int n : AtScale.curve(seedN)) {
                rs.add(AtScale.predict(p, contrast, n));
            }
            curves.put(p.name(), rs);
        }
        JsonNode h = s.path("headline");
        LineCounts.Entry today = counts.get(f.today(), f.point());
        return new FixFigures(f, s.path("run").asText(), h, t.value(), t, contrast, curves, at(curves.get(here.name()), 2),
                Estimate.fromJson(JSON.convertValue(h.path("jvm_calibrated"), Map.class)),
                Estimate.fromJson(JSON.convertValue(h.path("kernel_estimate"), Map.class)), seed(f, seedProfile, seedN, curves), null,
                Files.exists(dir.resolve("kernel.json")) ? JSON.readTree(dir.resolve("kernel.json").toFile()) : null,
                today == null ? null : ops(today));
    }

    /** The point of {@code curve} at {@code n} threads; null where the curve has none. */
    private static AtScale.Ratio at(List<AtScale.Ratio> curve, int n) {
        return curve.stream().filter(r -> r.threads() == n).findFirst().orElse(null);
    }

    /** The published profile of the seed's machine class among the run's profiles; null for none. */
    private static CostProfile seedProfile(FixScale f, List<CostProfile> others) {
        String name = f.seedProfile() == null ? null : f.seedProfile().replaceFirst("\\.json$", "");
        return others.stream().filter(o -> o.published() && fileName(o).equals(name)).findFirst().orElse(null);
    }

    /** The seed against its class's curve: the point at the seed's {@code n}, and the thread counts whose interval holds the seed. */
    private static SeedRow seed(FixScale f, CostProfile p, Integer n, Map<String, List<AtScale.Ratio>> curves) {
        if (f.seedProfile() == null) {
            return new SeedRow(null, f.seedThreads(), null, f.seedClass(), List.of());
        }
        if (p == null) {
            return new SeedRow(null, f.seedThreads(), null, "its class's profile (" + f.seedProfile() + ") is not in this run's raw/profiles",
                    List.of());
        }
        List<AtScale.Ratio> curve = curves.get(p.name());
        List<Integer> holds = curve.stream().filter(r -> r.holds(f.seed())).map(AtScale.Ratio::threads).toList();
        return new SeedRow(p, n, at(curve, n), f.seedClass(), holds);
    }

    /** A published profile's file name is its name in the lab's list: the machine class, lower case, dashes. */
    static String fileName(CostProfile p) {
        return p.name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    private static List<CostProfile> all(CostProfile here, List<CostProfile> others) {
        List<CostProfile> out = new ArrayList<>();
        out.add(here);
        out.addAll(others);
        return out;
    }

    /** T: the calibration's base plus the model's own ns per I/O, with the base's interval ({@link Calibration#baseInterval}) where it has one. */
    static CostProfile.Figure oneThread(Calibration c) {
        double m = c.modelNsPerIo();
        double[] ci = c.baseInterval();
        return ci == null || !(ci[1] > ci[0]) ? CostProfile.Figure.exact(c.baseNs() + m)
                : new CostProfile.Figure(c.baseNs() + m, Math.min(ci[0], c.baseNs()) + m, Math.max(ci[1], c.baseNs()) + m, 0);
    }

    static AtScale.Ops ops(LineCounts.Entry e) {
        return new AtScale.Ops(e.perIo(), e.perTick());
    }

    private static List<Left> left(FixScale f, AtScale.Ops today, double t, CostProfile here, CostProfile many) {
        List<Left> out = new ArrayList<>();
        if (today == null) {
            return out;
        }
        for (var line : AtScale.lines(today, 1, t, f.hz()).entrySet()) {
            double[] h = new double[LEFT_AT.size()];
            double[] m = new double[LEFT_AT.size()];
            for (int i = 0; i < LEFT_AT.size(); i++) {
                int n = LEFT_AT.get(i);
                Map<String, Double> kinds = AtScale.lines(today, n, t, f.hz()).get(line.getKey());
                h[i] = AtScale.lineExtra(here, kinds, n, t, CostProfile.FigureDraw.VALUE);
                m[i] = many == null ? Double.NaN : AtScale.lineExtra(many, kinds, n, t, CostProfile.FigureDraw.VALUE);
            }
            out.add(new Left(f.fixId(), f.today(), line.getKey(), line.getValue(), t, h, m));
        }
        return out;
    }

    /** This machine's fitted profile, as {@code profile.json} holds it. */
    public CostProfile profile() {
        return here;
    }

    public List<String> gaps() {
        return run.gaps();
    }

    // ---- rendering: prints what read() made ----

    /** The page's markdown. */
    public String markdown() {
        StringBuilder b = new StringBuilder();
        CostProfile.Machine m = here.machine();
        b.append("# Cost profile and the fixes at scale: ").append(run.id()).append("\n\n");
        b.append(String.format(Locale.ROOT, "%s, %d CPU(s), %d socket(s), %d NUMA node(s), %d thread(s) per core, kernel %s. The sweep"
                + " took %.0f s. Reproduce: `%s`. This machine's profile is `profile.json` beside this page.%n%n", m.cpuModel(), m.cores(),
                m.sockets(), m.numaNodes(), m.threadsPerCore(), m.kernel(), here.tookS(), run.manifest().path("command").asText()));
        profileTable(b);
        for (FixFigures f : fixes) {
            fixSection(b, f);
        }
        seedsTable(b);
        leftTable(b);
        b.append("## What the prediction leaves out\n\n").append(LEAVES_OUT).append("\n");
        if (!run.gaps().isEmpty()) {
            b.append("\n## Gaps\n\n");
            run.gaps().forEach(g -> b.append("- ").append(g).append("\n"));
        }
        return b.toString();
    }

    static final String LEAVES_OUT = """
            - **The counts are the model's.** Each variant's shared-line operations per I/O are what the JVM model counts on the \
            fix's path (`counts.json`, one thread, 100000 I/Os); an operation the model does not have is not priced, and the \
            rest of the I/O is the calibration's T, the same for both variants.
            - **A line is a queue with its operations spread evenly through the I/O** (think time T / m per operation); the \
            kernel's come in bursts (a get and a put close together), which queue more than even spacing does. Lines are \
            independent queues: two lines on one cache line (false sharing) are not modelled.
            - **A lock is its line.** The profile's mutex and rwsem are measured with an empty critical section: work done under \
            the lock (dm-bufio's btree lookup under the client mutex) is not in S, and a sleeping waiter's wake-up is not in \
            M. Where the lock is held for longer than a line transfer, the prediction is low.
            - **T is this lab's calibrated I/O** (the kernel's CPU per I/O measured here, native or scaled from the guest), not \
            the other machine's: a faster I/O there makes the same contention a larger share.
            - **Published profiles** price every kind from one figure, the latency of a modified line moved between cores, \
            with the operation's own line transfers (an rwsem read pair and a mutex pair are two); a processor's atomic \
            throughput under contention (arbitration, back-off) is not in it.
            - **Sockets:** n threads are taken as spread evenly over the sockets, a line's transfer as remote in the share of \
            the other threads on another socket.
            """;

    private void profileTable(StringBuilder b) {
        b.append("## This machine's profile\n\n");
        b.append("Each kind: the extra ns per operation on a line every thread shares over the same on a line of each thread's own"
                + " (median [min–max] over rounds), at each thread count and gap measured; and the queue fitted to them"
                + " (`LineQueue`: service S, transfer M; the mean over rounds with its 95% interval). ").append(here.method()).append(".\n\n");
        b.append("| kind | measured extra ns per op (threads, gap ns) | S ns | M ns | points | rms rel. error |\n|---|---|---|---|---|---|\n");
        for (var e : here.kinds().entrySet()) {
            StringBuilder pts = new StringBuilder();
            for (Kind k : measured.getOrDefault(e.getKey(), List.of())) {
                pts.append(pts.isEmpty() ? "" : "; ").append(String.format(Locale.ROOT, "%d t, %d: %.1f [%.1f–%.1f]", k.threads(), k.gap(),
                        k.extra().median(), k.extra().min(), k.extra().max()));
            }
            CostProfile.KindCost k = e.getValue();
            b.append("| `").append(e.getKey()).append("` | ").append(pts.isEmpty() ? "—" : pts).append(" | ").append(fig(k.service()))
                    .append(" | ").append(fig(k.transfer())).append(" | ").append(k.points()).append(" | ")
                    .append(Double.isFinite(k.rmsRelErr()) ? String.format(Locale.ROOT, "%.2f", k.rmsRelErr()) : "—").append(" |\n");
        }
        b.append("\nOther profiles in this run (`raw/profiles/`):\n\n");
        if (others.isEmpty()) {
            b.append("- none\n");
        }
        for (CostProfile p : others) {
            b.append(String.format(Locale.ROOT, "- **%s** (%s; %s, %d cores, %d socket(s)): `rmw` S %s, M %s", p.name(), p.source(),
                    p.machine().cpuModel(), p.machine().cores(), p.machine().sockets(), fig(p.kinds().get("rmw").service()),
                    fig(p.kinds().get("rmw").transfer())));
            CostProfile.KindCost r = p.kinds().get("rmw");
            if (r.remoteTransfer() != null) {
                b.append(", across sockets M ").append(fig(r.remoteTransfer()));
            }
            b.append(". ").append(p.method());
            for (CostProfile.Citation c : p.sources()) {
                b.append(" Source: ").append(c.document()).append(", ").append(c.where()).append(c.url().isBlank() ? "" : " (" + c.url() + ")")
                        .append(c.quote().isBlank() ? "" : ": \"" + c.quote() + "\"").append(".");
            }
            b.append("\n");
        }
        b.append("\n");
    }

    private void fixSection(StringBuilder b, FixFigures f) {
        FixScale s = f.fix();
        b.append("## ").append(s.fixId()).append(": at scale\n\n");
        if (f.missing() != null) {
            b.append("Not in this run: ").append(f.missing()).append(".\n\n");
            return;
        }
        b.append(String.format(Locale.ROOT, "%s, predicted from the model's counted shared-line operations per I/O (`%s` against `%s` at %s,"
                        + " `raw/inputs/%s/counts.json`) priced on each profile, over T = %s ns per I/O (the calibration of `%s`: %s)."
                        + " Counts per I/O: before %s; after %s.%n%n", s.label(), s.after(), s.before(), new TreeMap<>(s.point()), s.fixId(), fig(f.tFig()),
                f.source(), f.headline().path("base_source").asText("its calibration.json"), lines(f.contrast().before()),
                lines(f.contrast().after())));
        List<String> names = new ArrayList<>(f.curves().keySet());
        b.append("| threads |");
        names.forEach(n -> b.append(" ").append(n).append(" |"));
        b.append("\n|---|");
        names.forEach(n -> b.append("---|"));
        b.append("\n");
        List<AtScale.Ratio> first = f.curves().get(names.getFirst());
        for (int i = 0; i < first.size(); i++) {
            b.append("| ").append(first.get(i).threads()).append(" |");
            for (String n : names) {
                b.append(" ").append(ratio(f.curves().get(n).get(i))).append(" |");
            }
            b.append("\n");
        }
        b.append("\n![").append(s.fixId()).append(" at scale](charts/").append(s.fixId()).append("-at-scale.svg)\n\n");
        b.append("**Checked here, at 2 threads:** predicted ").append(ratio(f.atTwo())).append("; the model measured, calibrated, ")
                .append(f.measuredTwo() == null ? "—" : f.measuredTwo().format(3)).append(", the kernel ")
                .append(f.kernel() == null ? "— (" + f.headline().path("kernel_note").asText("no kernel figure") + ")" : f.kernel().format(3))
                .append(" (`").append(f.source()).append("`: ").append(f.headline().path("metric").asText()).append("). ")
                .append(agreement(f.atTwo(), f.measuredTwo())).append("\n\n");
        if (f.kernel() == null && f.kernelRun() != null) {
            JsonNode kh = f.kernelRun().path("headline");
            Estimate k = Estimate.fromJson(JSON.convertValue(kh.path("kernel_estimate"), Map.class));
            b.append("**The kernel's own figure** of the same contrast is in `").append(f.kernelRun().path("run").asText())
                    .append("`: the lab kernel with the fix switched off and on, in the guest under TCG on this machine's 2 vCPUs, ")
                    .append(k == null ? String.format(Locale.ROOT, "%.3f", kh.path("kernel").asDouble()) : k.format(3))
                    .append(k != null && !k.hasInterval() ? " (" + k.noInterval() + ")" : "")
                    .append(" (its model, calibrated to the guest: ").append(kh.path("jvm_calibrated").isObject()
                            ? Estimate.fromJson(JSON.convertValue(kh.path("jvm_calibrated"), Map.class)).format(3) : "—")
                    .append("). Under TCG a line transfer is emulated, not this machine's: the profile above does not price it,"
                            + " so it is set beside the prediction, not judged by it.\n\n");
        }
        b.append("**On a machine with more cores:** none was measured for this run (no host past ").append(here.machine().cores())
                .append(" CPUs was available): the curves past ").append(here.machine().cores())
                .append(" threads are predictions only, and nothing here stands in for a measurement.\n\n");
    }

    /** A variant's operations in words: "`line` 12 cas + 11 rmw; per tick `line` 1 store", or "none". */
    static String lines(AtScale.Ops ops) {
        List<String> out = new ArrayList<>();
        ops.perIo().forEach((line, kinds) -> out.add("`" + line + "` " + kinds(kinds)));
        ops.perTick().forEach((line, kinds) -> out.add("per tick `" + line + "` " + kinds(kinds)));
        return out.isEmpty() ? "none" : String.join("; ", out);
    }

    private static String kinds(Map<String, Double> kinds) {
        List<String> k = new ArrayList<>();
        kinds.forEach((kind, n) -> k.add(String.format(Locale.ROOT, "%.4g %s", n, kind)));
        return String.join(" + ", k);
    }

    private static String agreement(AtScale.Ratio p, Estimate m) {
        if (m == null) {
            return "No measured figure to check against.";
        }
        if (!m.hasInterval()) {
            return "The measurement has no interval (" + m.noInterval() + "): not judged.";
        }
        boolean overlap = p.hi() >= m.lo() && p.lo() <= m.hi();
        return overlap ? "The intervals overlap: agrees." : (p.hi() < m.lo() ? "The prediction lies below the measurement."
                : "The prediction lies above the measurement.");
    }

    private void seedsTable(StringBuilder b) {
        b.append("## Against the seeds\n\n");
        b.append("Each seed's figure beside the prediction at the seed's scale on a profile of its machine class, built from published"
                + " latencies (cited above, marked `published`); no constant is fitted to a seed. A seed's figure is one published"
                + " measurement with no interval.\n\n");
        b.append("| fix | seed | seed's scale | profile (source) | threads | predicted | seed inside? | threads whose interval holds the seed |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (FixFigures f : fixes) {
            FixScale s = f.fix();
            SeedRow r = f.seed();
            if (f.missing() != null || r == null) {
                b.append("| ").append(s.fixId()).append(" | ").append(String.format(Locale.ROOT, "%.3f", s.seed())).append(" | ")
                        .append(s.seedScale()).append(" | — | — | — | not in this run | — |\n");
                continue;
            }
            String profile = r.profile() == null ? "no profile: " + r.why() : r.profile().name() + " (" + r.profile().source() + ")";
            String threads = r.threads() == null ? "—" : r.threads() + (s.seedThreads() == null ? " (" + s.classThreads() + ")" : "");
            String pred = r.predicted() == null ? "—" : ratio(r.predicted());
            String inside = r.predicted() == null ? "no profile" : r.predicted().holds(s.seed()) ? "inside"
                    : s.seed() > r.predicted().hi() ? "outside (above)" : "outside (below)";
            b.append("| ").append(s.fixId()).append(" | ").append(String.format(Locale.ROOT, "%.3f", s.seed())).append(" | ")
                    .append(s.seedScale()).append(" | ").append(profile).append(" | ").append(threads).append(" | ").append(pred)
                    .append(" | ").append(inside).append(" | ").append(r.profile() == null ? "—" : r.holdsAt().isEmpty() ? "none of "
                    + AtScale.curve(r.threads()) : r.holdsAt().toString()).append(" |\n");
        }
        b.append("\nWhy each class: ");
        for (FixFigures f : fixes) {
            b.append("**").append(f.fix().fixId()).append("**: ").append(f.fix().seedClass()).append(" ");
        }
        b.append("\n\n");
    }

    private void leftTable(StringBuilder b) {
        b.append("## What is left: today's kernel as the model has it\n\n");
        b.append("The shared-line operations per I/O that remain on each fix's path with every fix applied (the variant that is"
                + " today's kernel), each line's predicted extra ns per I/O at ").append(LEFT_AT).append(" threads on this machine's"
                + " profile").append(manyCore == null ? "" : " and on " + manyCore.name() + " (published)")
                .append(", and as a share of that fix's T; most costly here at ").append(LEFT_AT.getLast())
                .append(" threads first. A line not listed is not touched per I/O by today's variant.\n\n");
        b.append("| fix (today) | line | ops per I/O | here, ns per I/O | ").append(manyCore == null ? "many-core" : manyCore.name())
                .append(", ns per I/O |\n|---|---|---|---|---|\n");
        if (left.isEmpty()) {
            b.append("| — | none: no shared line left on these paths | | | |\n");
        }
        for (Left l : left) {
            b.append("| ").append(l.fixId()).append(" (`").append(l.today()).append("`) | `").append(l.line()).append("` | ");
            List<String> ks = new ArrayList<>();
            l.kinds().forEach((k, v) -> ks.add(String.format(Locale.ROOT, "%.4g %s", v, k)));
            b.append(String.join(", ", ks)).append(" | ").append(atEach(l.here(), l.t())).append(" | ").append(atEach(l.many(), l.t()))
                    .append(" |\n");
        }
        b.append("\n");
    }

    private static String atEach(double[] ns, double t) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ns.length; i++) {
            out.add(Double.isFinite(ns[i]) ? String.format(Locale.ROOT, "%d t: %.1f (%.2f%%)", LEFT_AT.get(i), ns[i], 100 * ns[i] / t) : "—");
        }
        return String.join("; ", out);
    }

    static String ratio(AtScale.Ratio r) {
        return r == null ? "—" : String.format(Locale.ROOT, "%.3f [%.3f–%.3f]", r.value(), r.lo(), r.hi());
    }

    static String fig(CostProfile.Figure f) {
        return f == null ? "—" : f.hasInterval() ? String.format(Locale.ROOT, "%.1f [%.1f–%.1f]", f.value(), f.lo(), f.hi())
                : String.format(Locale.ROOT, "%.1f", f.value());
    }

    /** The charts: each fix's predicted ratio against threads, one series per profile, the seed's scale marked. */
    public Map<String, String> charts() {
        Map<String, String> out = new LinkedHashMap<>();
        for (FixFigures f : fixes) {
            if (f.missing() != null) {
                continue;
            }
            LineChart c = new LineChart(f.fix().fixId() + ": " + f.fix().label() + ", predicted", "threads", "throughput after / before")
                    .log2X().yFromZero(false);
            f.curves().forEach((name, rs) -> c.series(name, rs.stream().map(r -> LineChart.Point.of(r.threads(), r.value(), r.lo(), r.hi()))
                    .toList()));
            if (f.seed() != null && f.seed().threads() != null) {
                c.markX(f.seed().threads(), "seed " + String.format(Locale.ROOT, "%.2f", f.fix().seed()));
            }
            c.markY(1, "1");
            out.put(f.fix().fixId() + "-at-scale.svg", c.toSvg());
        }
        return out;
    }

    /** summary.json's entry: the profile, and per fix its curves, its check at two threads and its seed row; what is left. */
    public Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("profile", here.json());
        m.put("profiles", others.stream().map(CostProfile::name).toList());
        Map<String, Object> fx = new LinkedHashMap<>();
        for (FixFigures f : fixes) {
            Map<String, Object> e = new LinkedHashMap<>();
            if (f.missing() != null) {
                e.put("missing", f.missing());
                fx.put(f.fix().fixId(), e);
                continue;
            }
            e.put("before", f.fix().before());
            e.put("after", f.fix().after());
            e.put("source", f.source());
            e.put("t_ns", f.tFig().json());
            Map<String, Object> curves = new LinkedHashMap<>();
            f.curves().forEach((n, rs) -> curves.put(n, rs.stream().map(ScalePage::ratioJson).toList()));
            e.put("curves", curves);
            Map<String, Object> two = new LinkedHashMap<>();
            two.put("predicted", ratioJson(f.atTwo()));
            two.put("model_calibrated", f.measuredTwo() == null ? null : f.measuredTwo().json());
            two.put("kernel", f.kernel() == null ? null : f.kernel().json());
            two.put("kernel_run", f.kernelRun() == null ? null : f.kernelRun().path("run").asText());
            e.put("at_2_threads", two);
            Map<String, Object> seed = new LinkedHashMap<>();
            seed.put("seed", f.fix().seed());
            seed.put("threads", f.seed().threads());
            seed.put("profile", f.seed().profile() == null ? null : f.seed().profile().name());
            seed.put("predicted", f.seed().predicted() == null ? null : ratioJson(f.seed().predicted()));
            seed.put("inside", f.seed().predicted() == null ? null : f.seed().predicted().holds(f.fix().seed()));
            seed.put("why", f.seed().why());
            seed.put("holds_at_threads", f.seed().holdsAt());
            e.put("seed", seed);
            fx.put(f.fix().fixId(), e);
        }
        m.put("fixes", fx);
        List<Object> l = new ArrayList<>();
        for (Left x : left) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("fix", x.fixId());
            e.put("today", x.today());
            e.put("line", x.line());
            e.put("ops_per_io", x.kinds());
            e.put("threads", LEFT_AT);
            e.put("here_ns_per_io", round(x.here()));
            e.put("many_core_ns_per_io", round(x.many()));
            l.add(e);
        }
        m.put("left", l);
        m.put("many_core_profile", manyCore == null ? null : manyCore.name());
        return m;
    }

    private static List<Double> round(double[] v) {
        List<Double> out = new ArrayList<>();
        for (double x : v) {
            out.add(Double.isFinite(x) ? Math.round(x * 1e3) / 1e3 : null);
        }
        return out;
    }

    private static Map<String, Object> ratioJson(AtScale.Ratio r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("threads", r.threads());
        m.put("value", Math.round(r.value() * 1e6) / 1e6);
        m.put("ci95", List.of(Math.round(r.lo() * 1e6) / 1e6, Math.round(r.hi() * 1e6) / 1e6));
        return m;
    }

}
