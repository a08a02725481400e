package lab.notebook;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.fidelity.NoiseFloor;
import lab.analysis.fidelity.SwitchSweep;
import lab.analysis.fidelity.SwitchSweep.Count;
import lab.analysis.parse.LabAb;
import lab.analysis.parse.Tsv;
import lab.results.RunDir;

/**
 * A fix's part of the lab kernel in its section: its "before" restored behind a runtime switch
 * and run A/B in one boot ({@code raw/<fix>/lab-kernel/}, {@link LabAb}), as the subsection
 * "The lab kernel" ({@link LabKernelText}), the section's {@code lab_kernel} summary, and the
 * headline's kernel figure: the after/before ratio at N = 1 (for a share, the after's share),
 * with the floor of its own A/A. Knows no fix: the facts come from {@code lab-ab.txt}.
 */
public final class LabKernelPart {
    /** The part's folder under {@code raw/<fix>/}. */
    public static final String DIR = "lab-kernel";
    /** The model at the guest's CPU per I/O: JMH's {@code MODEL-rR-tT.json} (written by the app's GuestModel). */
    public static final String MODEL = "model-guest";
    /** Its facts: key: value lines (param, before, after, control, threads, rounds, base_ns, device_ns, user_ns, split, what). */
    public static final String MODEL_FACTS = "model-guest.txt";
    /** The model amplified as the switch amplifies the kernel: JMH's {@code AMP-rR-tT.json}, its A/A {@code AMP-aa-rR-tT.json} (the app's AmplifiedModel). */
    public static final String AMP = "model-amp";
    /**
     * Its facts: key: value lines (param, variant, control, amp, none, counts, ops_per_count, threads, rounds, base_ns, split,
     * what; and where the switch's after is not the before without its operations, after_variant, after_none, after_counts;
     * ops_per_count_counted and ops_per_io_counted where the engine's counter counted the before).
     */
    public static final String AMP_FACTS = "model-amp.txt";
    /**
     * The same amplified sweep run in the guest, on the vCPUs the kernel's A/B ran on: a folder
     * under {@link #DIR} with the host's file names ({@link #AMP}, {@link #AMP_FACTS}, whose
     * {@code where} line says how it ran), and the guest's own files (console.log, jvm-guest.txt).
     */
    public static final String AMP_GUEST = "amp-guest";
    /**
     * The model's contention counts of the amplified sweep's cells, beside {@link #AMP}'s files
     * (host and guest alike): {@code CONTENTION-rR.json} a round, lab.engine.bench.ContentionMain's
     * (read by {@link ModelContention}); {@link #AMP_FACTS}'s {@code contention_site} says what of
     * them stands for the kernel's lock.
     */
    public static final String CONTENTION = "model-contention";

    /**
     * The model at the guest's CPU per I/O: {@code ratio} after/before per round, its geometric mean
     * and 95% interval (throughput, the estimator of every ratio here), {@code floor} its A/A (the after against its
     * control), {@code facts} what ran.
     */
    public record GuestModelFigure(Estimate ratio, NoiseFloor floor, Map<String, String> facts) {
        String fact(String key) {
            return facts.getOrDefault(key, "?");
        }
    }

    /**
     * The model amplified as the switch amplifies the kernel: {@code slope} ns per I/O over the
     * operations added per I/O, fitted in each round alone, the mean over rounds with its 95%
     * interval; {@code floor} the A/A of today's variant against its control without the
     * operations; {@code facts} what ran; where the after repeats an operation of its own with N
     * ({@link #afterRepeats()}), {@code beforeSlope} and {@code afterSlope} each side's own slope
     * (its ns per I/O at N less at N = 0, fitted alike), else null.
     */
    public record AmplifiedFigure(Estimate slope, NoiseFloor floor, Map<String, String> facts, Estimate beforeSlope,
                                  Estimate afterSlope) {
        String fact(String key) {
            return facts.getOrDefault(key, "?");
        }

        /** The model's operations per I/O per unit of N: the engine's counter's where the facts have it, else the stated one. */
        public double opsPerCount() {
            return counted() ? Double.parseDouble(facts.get("ops_per_count_counted").trim())
                    : Double.parseDouble(facts.get("ops_per_count").trim());
        }

        /** Whether {@link #opsPerCount()} is the engine's counter's. */
        public boolean counted() {
            String c = facts.get("ops_per_count_counted");
            if (c == null) {
                return false;
            }
            try {
                return Double.parseDouble(c.trim()) > 0;
            } catch (NumberFormatException e) {
                return false;
            }
        }

        /** Whether the after repeats an operation of its own with N (after_counts other than after_none, as zram's srcu). */
        boolean afterRepeats() {
            String none = facts.getOrDefault("after_none", facts.get("none"));
            return facts.containsKey("after_counts") && counts(facts.get("after_counts")).values().stream().anyMatch(v -> !v.equals(none));
        }

        /** The switch's after, the cell Δ(N) is taken against: {@code after_variant}, else the before's own variant. */
        String afterVariant() {
            return facts.getOrDefault("after_variant", facts.get("variant"));
        }
    }

    /**
     * Model over kernel, like for like: each slope's estimate, and their ratio with the interval
     * whose ends are the extremes of the ends' ratios (for a model interval above 0, model lo over
     * kernel hi and model hi over kernel lo; an end below 0 is divided by the kernel's other end),
     * where the kernel's interval lies above 0; null ratio otherwise.
     */
    public record Scorecard(Estimate kernel, Estimate model, Double ratio, Double lo, Double hi) {
        static Scorecard of(Estimate kernel, Estimate model) {
            if (kernel == null || model == null) {
                return null;
            }
            boolean bounded = kernel.hasInterval() && model.hasInterval() && kernel.lo() > 0;
            return new Scorecard(kernel, model, kernel.value() > 0 ? model.value() / kernel.value() : null,
                    bounded ? model.lo() / (model.lo() >= 0 ? kernel.hi() : kernel.lo()) : null,
                    bounded ? model.hi() / (model.hi() >= 0 ? kernel.lo() : kernel.hi()) : null);
        }

        /** The ratio's interval leaves [0.5, 2]: model and kernel disagree on the operation's cost beyond a factor of two. */
        public boolean outsideTwofold() {
            return lo != null && (hi < 0.5 || lo > 2);
        }
    }

    private final String fix;
    private final Map<String, String> facts;
    private final SwitchSweep sweep;
    private final GuestModelFigure model;
    private AmplifiedFigure amplified;
    private AmplifiedFigure amplifiedGuest;
    private LabKernelContention contention;
    private ContentionLineup modelContention;

    private LabKernelPart(String fix, Map<String, String> facts, SwitchSweep sweep, GuestModelFigure model) {
        this.fix = fix;
        this.facts = facts;
        this.sweep = sweep;
        this.model = model;
    }

    /**
     * The part of fix {@code fix} from {@code raw/<fix>/lab-kernel/}; empty without
     * {@code lab-ab.tsv}, or when a file is malformed (then a gap of {@code run} names its line).
     */
    public static Optional<LabKernelPart> read(RunDir run, String fix) throws IOException {
        Path dir = run.raw().resolve(fix).resolve(DIR);
        try {
            Optional<LabAb> ab = LabAb.read(dir);
            if (ab.isEmpty()) {
                return Optional.empty();
            }
            if (ab.get().trials().isEmpty()) {
                run.gap(dir.resolve(LabAb.TRIALS), "no trials");
                return Optional.empty();
            }
            Map<String, String> facts = KernelRuns.readEnv(dir.resolve(LabAb.FACTS));
            LabKernelPart p = new LabKernelPart(fix, facts, SwitchSweep.of(ab.get(), "share".equals(facts.get("metric")), k(facts)),
                    estimateModel(run, dir));
            p.amplified = estimateAmplified(run, dir);
            p.amplifiedGuest = Files.isDirectory(dir.resolve(AMP_GUEST)) ? estimateAmplified(run, dir.resolve(AMP_GUEST)) : null;
            p.contention = LabKernelContention.read(run, dir, ab.get()).orElse(null);
            p.modelContention = ContentionLineup.of(ModelContention.read(run, dir).orElse(null),
                    Files.isDirectory(dir.resolve(AMP_GUEST)) ? ModelContention.read(run, dir.resolve(AMP_GUEST)).orElse(null) : null,
                    p.contention, ab.get(), facts);
            return Optional.of(p);
        } catch (Tsv.Malformed e) {
            run.gap(e.file(), "line " + e.line() + ": " + e.problem());
            return Optional.empty();
        }
    }

    /** The model at the guest's CPU per I/O, where the run has it: null without its facts or its JMH files. */
    private static GuestModelFigure estimateModel(RunDir run, Path dir) throws IOException {
        if (!Files.isRegularFile(dir.resolve(MODEL_FACTS))) {
            return null;
        }
        Map<String, String> f = KernelRuns.readEnv(dir.resolve(MODEL_FACTS));
        SweepEstimates s = SweepEstimates.read(dir, MODEL, run::gap);
        if (s.isEmpty() || !f.containsKey("param") || !f.containsKey("threads")) {
            run.gap(dir.resolve(MODEL_FACTS), s.isEmpty() ? "no " + MODEL + "-rR-tT.json beside it" : "no param or threads line");
            return null;
        }
        String param = f.get("param");
        int t = Integer.parseInt(f.get("threads").trim());
        Map<String, String> before = Map.of(param, f.get("before"));
        Map<String, String> after = Map.of(param, f.get("after"));
        return new GuestModelFigure(s.ratio(before, after, t), s.aa(after, Map.of(param, f.get("control")), t), f);
    }

    /**
     * The amplified model, where the run has it: null without its facts; a gap where its files
     * are missing or its facts lack a line. Per round, Δ(N) = ns of the before at N (the facts'
     * variant with counts' value) less ns of the after at N (after_variant with after_counts' value;
     * without them, the variant with none: the switch's after has no operation), fitted over
     * x = ops per count · N for N ≥ 1, the count's ops the counter's where the facts have them
     * ({@link AmplifiedFigure#opsPerCount()}); the A/A is the after at N = 0 against its control.
     */
    private static AmplifiedFigure estimateAmplified(RunDir run, Path dir) throws IOException {
        if (!Files.isRegularFile(dir.resolve(AMP_FACTS))) {
            return null;
        }
        Path file = dir.resolve(AMP_FACTS);
        Map<String, String> f = KernelRuns.readEnv(file);
        SweepEstimates s = SweepEstimates.read(dir, AMP, run::gap);
        SweepEstimates aa = SweepEstimates.read(dir, AMP + "-aa", run::gap);
        for (String k : List.of("param", "variant", "control", "amp", "none", "counts", "ops_per_count", "threads")) {
            if (!f.containsKey(k)) {
                run.gap(file, "no " + k + " line");
                return null;
            }
        }
        if (s.isEmpty()) {
            run.gap(file, "no " + AMP + "-rR-tT.json beside it");
            return null;
        }
        AmplifiedFigure facts = new AmplifiedFigure(null, null, f, null, null);
        int t = Integer.parseInt(f.get("threads").trim());
        double per = facts.opsPerCount();
        String param = f.get("param");
        String amp = f.get("amp");
        String after = facts.afterVariant();
        String afterNone = f.getOrDefault("after_none", f.get("none"));
        Map<Integer, String> before = counts(f.get("counts"));
        Map<Integer, String> afterAt = f.containsKey("after_counts") ? counts(f.get("after_counts")) : Map.of();
        Map<Double, SweepEstimates.Pair> byX = new java.util.TreeMap<>();
        for (Map.Entry<Integer, String> e : before.entrySet()) {
            int n = e.getKey();
            if (n < 1) {
                continue;
            }
            String av = f.containsKey("after_counts") ? afterAt.get(n) : afterNone;
            if (av == null) {
                run.gap(file, "after_counts has no N = " + n);
                return null;
            }
            byX.put(per * n, new SweepEstimates.Pair(Map.of(param, f.get("variant"), amp, e.getValue()), Map.of(param, after, amp, av)));
        }
        Map<String, String> afterAtNone = Map.of(param, after, amp, afterNone);
        NoiseFloor floor = aa.isEmpty() ? null : s.aaAcross(aa, afterAtNone, Map.of(param, f.get("control"), amp, afterNone), t);
        Estimate beforeSlope = null;
        Estimate afterSlope = null;
        if (facts.afterRepeats()) {
            Map<String, String> beforeAtNone = Map.of(param, f.get("variant"), amp, f.get("none"));
            Map<Double, SweepEstimates.Pair> b = new java.util.TreeMap<>();
            Map<Double, SweepEstimates.Pair> a = new java.util.TreeMap<>();
            byX.forEach((x, pair) -> {
                b.put(x, new SweepEstimates.Pair(pair.before(), beforeAtNone));
                a.put(x, new SweepEstimates.Pair(pair.after(), afterAtNone));
            });
            beforeSlope = s.deltaSlope(b, t);
            afterSlope = s.deltaSlope(a, t);
        }
        return new AmplifiedFigure(s.deltaSlope(byX, t), floor, f, beforeSlope, afterSlope);
    }

    /** "N=value N=value ..." as N to value, in N's order. */
    private static Map<Integer, String> counts(String line) {
        Map<Integer, String> m = new java.util.TreeMap<>();
        for (String nv : line.trim().split(" +")) {
            int eq = nv.indexOf('=');
            m.put(Integer.parseInt(nv.substring(0, eq)), nv.substring(eq + 1));
        }
        return m;
    }

    private static Double k(Map<String, String> facts) {
        try {
            return facts.containsKey("ops_per_io") ? Double.valueOf(facts.get("ops_per_io")) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public SwitchSweep sweep() {
        return sweep;
    }

    /** The model at the guest's CPU per I/O; null where the run has none. */
    public GuestModelFigure model() {
        return model;
    }

    /** The model amplified as the switch amplifies the kernel; null where the run has none. */
    public AmplifiedFigure amplified() {
        return amplified;
    }

    /** The model amplified alike, run in the guest on the A/B's vCPUs; null where the run has none. */
    public AmplifiedFigure amplifiedGuest() {
        return amplifiedGuest;
    }

    /** The kernel's own contention on the switched lock (perf lock's traced trials); null where the run has none. */
    public LabKernelContention contention() {
        return contention;
    }

    /** The model's contention at the amplified sweep's cells beside the kernel's; null where the model counted none. */
    public ContentionLineup modelContention() {
        return modelContention;
    }

    /** The kernel's slope beside the amplified model's; null where either is missing (or for a share). */
    public Scorecard scorecard() {
        return sweep.share() || amplified == null ? null : Scorecard.of(sweep.slopeEstimate(), amplified.slope());
    }

    /** The kernel's slope beside the amplified model's in the guest; null where either is missing (or for a share). */
    public Scorecard guestScorecard() {
        return sweep.share() || amplifiedGuest == null ? null : Scorecard.of(sweep.slopeEstimate(), amplifiedGuest.slope());
    }

    /** A fact of {@code lab-ab.txt}, "?" where it is missing. */
    public String fact(String key) {
        return facts.getOrDefault(key, "?");
    }

    String fix() {
        return fix;
    }

    /**
     * The subsection, with the headline's calibration base (set beside the guest's CPU per I/O) and
     * prediction (carried to the guest's CPU per I/O), where it has them.
     */
    public String text(Headline head) {
        return text(head.baseNs(), head.predicted());
    }

    /** The subsection with a calibration base and a prediction given as such (either null: none). */
    public String text(Double baseNs, Double predicted) {
        return new LabKernelText(this).text(baseNs, predicted);
    }

    /**
     * The headline's kernel figure from the switch: the headline count's ratio with its floor and a
     * short note of where it comes from; {@code h} as it was where the run has no ratio.
     */
    public Headline onto(Headline h) {
        Count c = sweep.headline();
        if (c == null || c.ratio() == null) {
            return h;
        }
        StringBuilder note = new StringBuilder("lab kernel ").append(fact("kernel")).append(", ").append(fix).append(" switch ")
                .append(fact("before")).append(" vs ").append(fact("after")).append(", ").append(fact("env")).append(", N=").append(c.n());
        note.append(c.floor() == null ? "; no A/A" : "; A/A " + c.floor().aa().format(3) + (c.floor().failed() ? " (excludes 1)" : ""));
        if (sweep.share()) {
            note.append("; after a/b, before ").append(Fmt.spread(c.before(), 2));
        } else {
            SwitchSweep.Slope s = sweep.slope();
            note.append(s == null ? "; one count, no slope" : "; slope " + Fmt.f(s.line().b(), 2) + " ns/op"
                    + (s.resolved() ? "" : " (not resolved)"));
        }
        return h.kernel(c.ratio(), note.toString()).kernelFloor(c.floor());
    }

    private Map<String, Object> modelSummary() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String k : List.of("before", "after", "threads", "rounds", "base_ns", "device_ns", "user_ns")) {
            m.put(k, model.facts().get(k));
        }
        m.put("ratio", Parts.json(model.ratio()));
        m.put("aa", model.floor() == null ? null : model.floor().aa().json());
        return m;
    }

    /** The section's {@code lab_kernel} entry: the facts, each count's figures, the slope. */
    public Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String k : List.of("kernel", "source", "patches", "env", "cpus", "switch", "before", "after", "default", "metric",
                "workload")) {
            m.put(k, facts.get(k));
        }
        m.put("boots", sweep.boots().size());
        m.put("rounds", sweep.counts().isEmpty() ? 0 : sweep.headline().rounds().size());
        m.put("ops_per_io", sweep.k());
        m.put("ops_per_io_from", sweep.countedK() != null ? "counter" : sweep.statedK() != null ? "stated" : null);
        m.put("ops_per_io_stated", sweep.statedK());
        List<Object> counts = new ArrayList<>();
        for (Count c : sweep.counts()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("n", c.n());
            x.put("ratio", Parts.json(c.ratio()));
            x.put("before", Parts.json(c.before()));
            x.put("after", Parts.json(c.after()));
            x.put("aa", Parts.json(c.aa()));

            x.put("ns_per_io_before", c.nsBefore());
            x.put("ns_per_io_after", c.nsAfter());
            x.put("delta_ns", Parts.json(c.delta()));
            x.put("ops_per_io_before", Parts.json(c.opsBefore()));
            x.put("ops_per_io_after", Parts.json(c.opsAfter()));
            counts.add(x);
        }
        m.put("counts", counts);
        SwitchSweep.Slope s = sweep.slope();
        m.put("slope_ns_per_op", s == null ? null : s.line().b());
        m.put("intercept_ns", s == null ? null : s.line().a());
        m.put("slope_per_round", s == null ? null : Parts.json(s.perRound()));
        m.put("slope_resolved", s == null ? null : s.resolved());
        m.put("derived_delta_ns_n1", s == null ? null : s.delta1());
        m.put("derived_ratio_n1", s == null ? null : s.ratio1());
        Count h = sweep.headline();
        m.put("model_at_guest", model == null ? null : modelSummary());
        Scorecard sc = scorecard();
        if (sc != null) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("kernel_slope_ns_per_op", sc.kernel().json());
            x.put("model_slope_ns_per_op", sc.model().json());
            x.put("model_over_kernel", sc.ratio());
            x.put("model_over_kernel_bounds", sc.lo() == null ? null : List.of(sc.lo(), sc.hi()));
            x.put("model_ops_per_count", amplified.opsPerCount());
            x.put("model_ops_per_count_from", amplified.counted() ? "counter" : "stated");
            x.put("model_ops_per_count_stated", Double.valueOf(amplified.fact("ops_per_count").trim()));
            x.put("kernel_ops_per_count", sweep.k());
            x.put("model_aa", amplified.floor() == null ? null : amplified.floor().aa().json());
            Scorecard g = guestScorecard();
            if (g != null) {
                x.put("model_in_guest_slope_ns_per_op", g.model().json());
                x.put("model_in_guest_over_kernel", g.ratio());
                x.put("model_in_guest_over_kernel_bounds", g.lo() == null ? null : List.of(g.lo(), g.hi()));
                x.put("model_in_guest_aa", amplifiedGuest.floor() == null ? null : amplifiedGuest.floor().aa().json());
                x.put("model_in_guest_where", amplifiedGuest.fact("where"));
            }
            if (amplified.beforeSlope() != null) {
                Map<String, Object> sides = new LinkedHashMap<>();
                for (boolean before : new boolean[] {true, false}) {
                    Map<String, Object> y = new LinkedHashMap<>();
                    y.put("variant", before ? amplified.fact("variant") : amplified.afterVariant());
                    y.put("kernel_slope_ns_per_op", Parts.json(sweep.sideSlopeEstimate(before)));
                    y.put("model_slope_ns_per_op", Parts.json(before ? amplified.beforeSlope() : amplified.afterSlope()));
                    y.put("model_in_guest_slope_ns_per_op", amplifiedGuest == null ? null
                            : Parts.json(before ? amplifiedGuest.beforeSlope() : amplifiedGuest.afterSlope()));
                    sides.put(before ? "before" : "after", y);
                }
                x.put("sides", sides);
            }
            m.put("scorecard", x);
        }
        if (contention != null || modelContention != null) {
            Map<String, Object> c = contention == null ? new LinkedHashMap<>() : new LinkedHashMap<>(contention.summary());
            if (modelContention != null) {
                c.put("model", modelContention.summary());
            }
            m.put("contention", c);
        }
        m.put("headline_n", h.n());
        m.put("headline_resolved", h.ratio() == null || !h.ratio().hasInterval() ? null : h.ratio().excludes(1));
        return m;
    }
}
