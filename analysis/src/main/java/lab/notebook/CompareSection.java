package lab.notebook;

import lab.results.RunDir;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import lab.analysis.chart.BarChart;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.RatioOfRatios;
import lab.analysis.estimate.Verdict;

/**
 * {@code ./lab compare}: several runs side by side (machines, kernels), from the copies of their
 * {@code summary.json} in {@code raw/compare/NN-RUNID.summary.json}; {@code ./lab fleet}'s, one run
 * per host, with every host's state in {@code raw/fleet/hosts.tsv} ({@link FleetHosts}).
 *
 * <p>Per fix, one row per run: its JVM figure (calibrated where the run has a calibration, else
 * raw) at the most threads every run has and at its own most ({@link HeadlineByThreads}: where the
 * fix's section writes it per thread count; else the headline itself), and its kernel figure, each
 * with its interval and its verdict as the run's own table gives it. Then the runs against each
 * other: each pair's ratio of one figure ({@link RatioOfRatios}: two independent runs, Welch's
 * interval on the logs), every pair up to {@value #PAIRWISE} runs, each run against the first
 * beyond (summary.json has every pair). The headline chart per fix and the primitives' scaling
 * chart follow.
 */
final class CompareSection implements Section {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The most runs whose every pair the notebook prints; beyond, each run against the reference. */
    static final int PAIRWISE = 8;

    /** Per fix id, where its section's summary holds the headline per thread count (a fix not here: the headline alone). */
    private final Map<String, HeadlineByThreads> keys;

    /** A comparison that knows no section's per-thread keys: each fix's headline alone. */
    CompareSection() {
        this(Map.of());
    }

    CompareSection(Map<String, HeadlineByThreads> keys) {
        this.keys = Map.copyOf(keys);
    }

    /** A comparison with the per-thread keys of {@code sections}. */
    static CompareSection of(List<Section> sections) {
        Map<String, HeadlineByThreads> k = new LinkedHashMap<>();
        for (Section s : sections) {
            if (s.headlineByThreads() != null) {
                k.put(s.id(), s.headlineByThreads());
            }
        }
        return new CompareSection(k);
    }

    @Override
    public String id() { return "compare"; }

    /**
     * Two runs' ratio of one figure, A over B, with the A/A of each side and the margin it is
     * judged at (the larger of the two runs'); null parts where a side has no such figure.
     */
    record Pair(String a, String b, int threads, String kind, RatioOfRatios jvm, Estimate aaA, Estimate aaB, RatioOfRatios kernel,
                Estimate kaaA, Estimate kaaB, double target, boolean sameMachine) {
        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("a", a);
            m.put("b", b);
            m.put("threads", threads <= 0 ? null : threads);
            m.put("figure", kind);
            m.put("target", target);
            if (jvm != null) {
                m.putAll(jvm.json(aaA, aaB, target));
            }
            if (kernel != null) {
                m.put("kernel", kernel.json(kaaA, kaaB, target));
            }
            if (sameMachine) {
                m.put("same_machine", true);
            }
            return m;
        }
    }

    /**
     * One fix across the runs: each run's figures, the thread count they are set side by side at
     * ({@code common}: 0 the headlines' own conditions, -1 none every run has), the reference run,
     * every pair (A before B in the runs' order), and each run against the reference.
     */
    record Lineup(String fix, HeadlineByThreads keys, Map<String, RunFigures> runs, int common, String reference, List<Pair> pairs,
                  Map<String, Pair> vsReference) {
        /** The runs that have the fix's figures (its pairing ran there). */
        List<String> ran() {
            return runs.entrySet().stream().filter(e -> e.getValue().status() == null).map(Map.Entry::getKey).toList();
        }

        RunFigures first() {
            return runs.get(ran().getFirst());
        }
    }

    /** The runs' summaries read and each fix lined up across them: every ratio of two runs made here. */
    @Override
    public Optional<Estimated> estimate(RunDir run) throws IOException {
        Path dir = run.raw().resolve("compare");
        Map<String, JsonNode> runs = new LinkedHashMap<>();
        try (Stream<Path> s = Files.isDirectory(dir) ? Files.list(dir) : Stream.empty()) {
            for (Path f : s.filter(p -> p.getFileName().toString().endsWith(".summary.json")).sorted().toList()) {
                String name = f.getFileName().toString().replace(".summary.json", "").replaceFirst("^\\d+-", "");
                try {
                    JsonNode n = JSON.readTree(f.toFile());
                    if (n == null || !n.has("fixes")) {
                        run.gap(f, "not a lab summary.json (no \"fixes\")");
                        continue;
                    }
                    runs.put(name, n);
                } catch (IOException e) {
                    run.gap(f, "not readable JSON");
                }
            }
        }
        FleetHosts hosts = FleetHosts.read(run.raw().resolve("fleet").resolve("hosts.tsv"));
        if (runs.isEmpty()) {
            if (hosts == null) {
                return Optional.empty();
            }
            Map<String, lab.analysis.scale.CostProfile> profiles = hostProfiles(run);
            if (!profiles.isEmpty()) {
                return Optional.of(() -> profilesPage(run, hosts, profiles));
            }
            return Optional.of(() -> {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("headline", Map.of("metric", "no run to compare"));
                out.put("hosts", hosts.json());
                return new SectionOutput(hosts.table(Map.of(), false) + "No host's pairing finished: nothing to compare.\n", Map.of(), out);
            });
        }
        Map<String, Lineup> lineups = new LinkedHashMap<>();
        for (String fix : fixIds(runs)) {
            Map<String, RunFigures> figures = new LinkedHashMap<>();
            runs.forEach((name, n) -> figures.put(name, RunFigures.read(n, fix, keys.get(fix))));
            lineups.put(fix, estimateLineup(fix, keys.get(fix), figures, hosts));
        }
        return Optional.of(() -> render(run, runs, hosts, lineups));
    }

    /** A profiling fleet's hosts' profiles ({@code raw/profiles/HOST.json}), by host; a file that is not one is a gap. */
    private static Map<String, lab.analysis.scale.CostProfile> hostProfiles(RunDir run) throws IOException {
        Map<String, lab.analysis.scale.CostProfile> out = new LinkedHashMap<>();
        Path dir = run.raw().resolve("profiles");
        try (Stream<Path> s = Files.isDirectory(dir) ? Files.list(dir) : Stream.empty()) {
            for (Path f : s.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                try {
                    out.put(f.getFileName().toString().replaceFirst("\\.json$", ""), lab.analysis.scale.CostProfile.read(f, List.of()));
                } catch (lab.analysis.scale.ProfileFormatException e) {
                    run.gap(f, e.getMessage());
                }
            }
        }
        return out;
    }

    /** A profiling fleet's page: the hosts, then each host's profile, kind by kind, and how to predict on them. */
    private static SectionOutput profilesPage(RunDir run, FleetHosts hosts, Map<String, lab.analysis.scale.CostProfile> profiles) {
        StringBuilder md = new StringBuilder(hosts.table(Map.of(), false));
        md.append("Each host's cost profile (`./lab profile` there; its notebook, with each fix at scale on that host, is in `hosts/HOST/")
                .append(run.id()).append("/`): each kind's line, service S and transfer M in ns with their 95% intervals.\n\n");
        md.append("| host | CPU | CPUs | sockets | sweep, s | kind: S; M |\n|---|---|---|---|---|---|\n");
        Map<String, Object> json = new LinkedHashMap<>();
        profiles.forEach((host, p) -> {
            List<String> kinds = new ArrayList<>();
            p.kinds().forEach((k, c) -> kinds.add("`" + k + "` " + ScalePage.fig(c.service()) + "; " + ScalePage.fig(c.transfer())));
            md.append("| ").append(host).append(" | ").append(p.machine().cpuModel()).append(" | ").append(p.machine().cores()).append(" | ")
                    .append(p.machine().sockets()).append(" | ").append(Double.isFinite(p.tookS()) ? String.format(java.util.Locale.ROOT, "%.0f",
                            p.tookS()) : "—").append(" | ").append(String.join("<br>", kinds)).append(" |\n");
            json.put(host, p.json());
        });
        md.append("\nTo predict every fix at scale on these machines here: `./lab profile");
        profiles.keySet().forEach(h -> md.append(" --profile ").append(run.id()).append("/raw/profiles/").append(h).append(".json"));
        md.append("` (in the results folder; each file is the host's `profile.json`).\n");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("headline", Map.of("metric", "cost profiles of the hosts"));
        out.put("hosts", hosts.json());
        out.put("profiles", json);
        return new SectionOutput(md.toString(), Map.of(), out);
    }

    /**
     * {@code fix} across the runs: the thread count every run that has a JVM figure of it has (the
     * largest), the reference (the first run with a figure there), and the ratio of every two runs'
     * figures of one kind there (calibrated where both have it, else raw) and of their kernel figures.
     */
    static Lineup estimateLineup(String fix, HeadlineByThreads keys, Map<String, RunFigures> runs, FleetHosts hosts) {
        Set<Integer> common = null;
        for (RunFigures f : runs.values()) {
            if (f.status() == null && f.hasJvm()) {
                if (common == null) {
                    common = new TreeSet<>(f.threads());
                } else {
                    common.retainAll(f.threads());
                }
            }
        }
        int t = common == null || common.isEmpty() ? -1 : ((TreeSet<Integer>) common).last();
        List<String> names = runs.entrySet().stream().filter(e -> e.getValue().status() == null).map(Map.Entry::getKey).toList();
        String reference = names.stream().filter(n -> t >= 0 && runs.get(n).at(t) != null).findFirst()
                .orElse(names.stream().filter(n -> runs.get(n).kernel() != null).findFirst().orElse(null));
        List<Pair> pairs = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            for (int j = i + 1; j < names.size(); j++) {
                pairs.add(estimatePair(names.get(i), names.get(j), runs, t, hosts));
            }
        }
        Map<String, Pair> vs = new LinkedHashMap<>();
        if (reference != null && names.size() > PAIRWISE) {
            for (String n : names) {
                if (!n.equals(reference)) {
                    vs.put(n, estimatePair(n, reference, runs, t, hosts));
                }
            }
        }
        return new Lineup(fix, keys, runs, t, reference, List.copyOf(pairs), vs);
    }

    /** Run {@code a} over run {@code b} at {@code t} threads (-1: no JVM figure), JVM and kernel. */
    private static Pair estimatePair(String a, String b, Map<String, RunFigures> runs, int t, FleetHosts hosts) {
        RunFigures fa = runs.get(a);
        RunFigures fb = runs.get(b);
        String kind = t < 0 ? null : fa.of(RunFigures.CALIBRATED, t) != null && fb.of(RunFigures.CALIBRATED, t) != null
                ? RunFigures.CALIBRATED : fa.of(RunFigures.RAW, t) != null && fb.of(RunFigures.RAW, t) != null ? RunFigures.RAW : null;
        RunFigures.Figure ja = kind == null ? null : fa.of(kind, t);
        RunFigures.Figure jb = kind == null ? null : fb.of(kind, t);
        boolean same = hosts != null && hosts.host(a) != null && hosts.host(a).sharesWith().contains(b);
        return new Pair(a, b, t, kind, estimateRatio(ja, a, jb, b), ja == null ? null : ja.aa(), jb == null ? null : jb.aa(),
                estimateRatio(fa.kernel(), a, fb.kernel(), b), fa.kernel() == null ? null : fa.kernel().aa(),
                fb.kernel() == null ? null : fb.kernel().aa(), Math.max(fa.target(), fb.target()), same);
    }

    /** {@code a} over {@code b}: from their estimates, or the bare values where a summary holds no estimate; null where either is missing. */
    private static RatioOfRatios estimateRatio(RunFigures.Figure a, String nameA, RunFigures.Figure b, String nameB) {
        if (a == null || b == null) {
            return null;
        }
        if (a.estimate() != null && b.estimate() != null) {
            return RatioOfRatios.of(a.estimate(), "`" + nameA + "`", b.estimate(), "`" + nameB + "`");
        }
        String why = (a.estimate() == null && b.estimate() == null ? "neither summary holds an estimate"
                : "`" + (a.estimate() == null ? nameA : nameB) + "`'s summary holds no estimate") + ": no interval";
        return RatioOfRatios.unestimated(a.value(), b.value(), why);
    }

    private SectionOutput render(RunDir run, Map<String, JsonNode> runs, FleetHosts hosts, Map<String, Lineup> lineups) {
        StringBuilder md = new StringBuilder();
        if (hosts != null) {
            Map<String, String> calibration = new LinkedHashMap<>();
            boolean another = false;
            for (String name : runs.keySet()) {
                calibration.put(name, calibration(name, lineups));
                another |= lineups.values().stream().anyMatch(l -> l.runs().get(name).committedRun() != null);
            }
            md.append(hosts.table(calibration, another));
        }
        md.append("## Runs compared\n\n| run | cores | CPU | kernel | JDK | made by |\n|---|---:|---|---|---|---|\n");
        runs.forEach((name, n) -> {
            JsonNode m = n.path("run");
            md.append("| `").append(name).append("` | ").append(m.path("cores").asText("?")).append(" | ")
                    .append(m.path("cpu_model").asText("?")).append(" | ").append(m.path("kernel").asText("?")).append(" | ")
                    .append(m.path("jdk").asText("?")).append(" | `").append(m.path("command").asText("?")).append("` |\n");
        });
        md.append("\n## Headlines per run\n\n")
                .append("Per fix, one row per run: its JVM figure (calibrated where the run has a calibration, else raw) at the most")
                .append(" threads every run has and at its own most, and its kernel figure at the headline's conditions; each")
                .append(" `value [95% interval]x, verdict` at that run's margin, gated by the figure's own A/A, as the run's own")
                .append(" table judges it. Then the runs against each other.\n\n");
        List<String> absent = new ArrayList<>();
        Map<String, Object> fixesOut = new LinkedHashMap<>();
        for (Lineup l : lineups.values()) {
            if (l.ran().isEmpty()) {
                String why = l.runs().values().stream().map(RunFigures::status).distinct().sorted().reduce((x, y) -> x + "; " + y).orElse("");
                absent.add("`" + l.fix() + "` (" + why + ")");
                continue;
            }
            md.append(fixText(l));
            fixesOut.put(l.fix(), fixJson(l));
        }
        if (!absent.isEmpty()) {
            md.append("Not in any of these runs: ").append(String.join(", ", absent)).append(".\n\n");
        }
        md.append("A / B: run A's figure over run B's, of one kind (calibrated where both runs have it, else raw), at the thread count")
                .append(" named. The two runs share no round, so the ratio's interval treats them as independent: on logs, the ratio")
                .append(" is the difference of the two figures' logs; each figure's standard error is its interval's log half-width over")
                .append(" t(0.975) at its own degrees of freedom (its rounds − 1); the two add in quadrature, on Welch–Satterthwaite's")
                .append(" degrees of freedom (rounded down). `~`: the interval holds 1, no difference between the two shown at 95%. Its")
                .append(" verdict is at the larger of the two runs' margins, and is \"A/A failed\" where either run's figure failed its")
                .append(" own A/A control (no `~` then); no interval where either figure has none (fewer than three rounds) or its")
                .append(" summary holds no estimate.\n\n");
        Map<String, String> charts = new LinkedHashMap<>();
        for (String fix : lineups.keySet()) {
            String svg = headlineChart(fix, runs);
            if (svg != null) {
                String file = "compare-" + fix + "-headline.svg";
                charts.put(file, svg);
                md.append("![").append(fix).append(" headline per run](charts/").append(file).append(")\n\n");
            }
        }
        String chart = scalingChart(runs);
        if (chart != null) {
            charts.put("compare-primitives-scaling.svg", chart);
            md.append("![primitives scaling per run](charts/compare-primitives-scaling.svg)\n\nChart: `./lab notebook results/")
                    .append(run.id()).append("` (from raw/compare/)\n\n");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("headline", Map.of("metric", "see the runs compared"));
        out.put("runs", new ArrayList<>(runs.keySet()));
        if (hosts != null) {
            out.put("hosts", hosts.json());
        }
        out.put("fixes", fixesOut);
        return new SectionOutput(md.toString(), charts, out);
    }

    /**
     * Where a run's calibrations came from, across the fixes that have one: "own kernel",
     * "**another machine's (run X)**", the fixes named where they differ; "none (raw figures)".
     */
    private static String calibration(String name, Map<String, Lineup> lineups) {
        Map<String, List<String>> bySource = new LinkedHashMap<>();
        for (Lineup l : lineups.values()) {
            RunFigures f = l.runs().get(name);
            if (f != null && f.calibration() != null) {
                bySource.computeIfAbsent(source(f), k -> new ArrayList<>()).add(l.fix());
            }
        }
        if (bySource.isEmpty()) {
            return "none (raw figures)";
        }
        if (bySource.size() == 1) {
            return bySource.keySet().iterator().next();
        }
        List<String> parts = new ArrayList<>();
        bySource.forEach((s, fixes) -> parts.add(s + ": " + String.join(", ", fixes)));
        return String.join("; ", parts);
    }

    /** A run's calibration source in a cell: another machine's in bold, so that it stands out. */
    private static String source(RunFigures f) {
        return f.committedRun() != null ? "**" + f.calibration() + "**" : f.calibration();
    }

    /** The figure's kind in a cell: "calibrated, own kernel", "calibrated, **another machine's (run X)**", "raw". */
    private static String kind(RunFigures f, RunFigures.Figure x) {
        if (x == null) {
            return "—";
        }
        return x.kind().equals(RunFigures.CALIBRATED) && f.calibration() != null ? "calibrated, " + source(f) : x.kind();
    }

    private static String threads(int t) {
        return t + (t == 1 ? " thread" : " threads");
    }

    /** One fix: its runs as rows, then every pair of runs (up to {@link #PAIRWISE}) or each against the reference. */
    private static String fixText(Lineup l) {
        RunFigures first = l.first();
        StringBuilder b = new StringBuilder("### `").append(l.fix()).append("`: ")
                .append(HeadlineWords.clause(first.metric().isEmpty() ? "the headline" : first.metric(), " (", ": "))
                .append(first.seed() == null ? "" : " (seed " + Fmt.ratio(first.seed()) + ")").append("\n\n");
        int t = l.common();
        boolean kernel = l.runs().values().stream().anyMatch(f -> f.kernel() != null);
        boolean vsRef = !l.vsReference().isEmpty();
        String at;
        if (t > 0) {
            at = "at " + threads(t);
            b.append("JVM figure at ").append(threads(t)).append(", the most every run has, and at each run's own most (summary.json: `")
                    .append(where(l.keys())).append("`).");
        } else if (t == 0) {
            at = "headline";
            b.append("Each run's headline at its own conditions (").append(l.keys() == null ? "the fix's headline is no thread sweep's"
                            : "these summaries hold no per-thread figure at `" + where(l.keys()) + "`").append("): ")
                    .append(first.metric()).append('.');
        } else {
            at = "at a common count";
            b.append(l.runs().values().stream().anyMatch(RunFigures::hasJvm) ? "No thread count that every run has: each run at its own"
                    + " most only." : "No JVM figure in these runs.");
        }
        b.append(" Kernel: ").append(kernel ? "the headline's own figure, at its conditions." : "none in these runs.").append("\n\n");
        b.append("| run | figure | ").append(at).append(" | at its most threads |");
        if (kernel) {
            b.append(" kernel |");
        }
        if (vsRef) {
            b.append(" over `").append(l.reference()).append("` ").append(t > 0 ? "at " + threads(t) : "").append(" |");
            if (kernel) {
                b.append(" kernel over `").append(l.reference()).append("` |");
            }
        }
        b.append("\n|---|---|---|---|").append(kernel ? "---|" : "").append(vsRef ? kernel ? "---|---|" : "---|" : "").append('\n');
        l.runs().forEach((name, f) -> {
            b.append("| `").append(name).append("` | ");
            if (f.status() != null) {
                b.append(f.status()).append(" | — | — |").append(kernel ? " — |" : "").append(vsRef ? kernel ? " — | — |" : " — |" : "")
                        .append('\n');
                return;
            }
            RunFigures.Figure c = t >= 0 ? f.at(t) : null;
            int most = f.most();
            RunFigures.Figure own = most >= 0 ? f.at(most) : null;
            b.append(kind(f, c != null ? c : own)).append(" | ").append(c == null ? "—" : c.cell(f.target())).append(" | ");
            if (own == null) {
                b.append("—");
            } else if (most == t) {
                b.append("the same");
            } else {
                b.append(most == 0 ? "headline" : threads(most)).append(c != null && !c.kind().equals(own.kind()) ? ", " + own.kind() : "")
                        .append(": ").append(own.cell(f.target()));
            }
            b.append(" |");
            if (kernel) {
                b.append(' ').append(f.kernel() == null ? "—" : f.kernel().cell(f.target())).append(" |");
            }
            if (vsRef) {
                Pair p = l.vsReference().get(name);
                if (p == null) {
                    b.append(" reference |").append(kernel ? " reference |" : "");
                } else {
                    b.append(' ').append(c != null && p.kind() != null && !p.kind().equals(c.kind()) ? p.kind() + ": " : "")
                            .append(ratioCell(p.jvm(), p.aaA(), p.aaB(), p.a(), p.b(), p.target())).append(" |");
                    if (kernel) {
                        b.append(' ').append(ratioCell(p.kernel(), p.kaaA(), p.kaaB(), p.a(), p.b(), p.target())).append(" |");
                    }
                }
            }
            b.append('\n');
        });
        b.append('\n');
        int n = l.ran().size();
        if (n < 2) {
            return b.append("One run has this fix: nothing to set it against.\n\n").toString();
        }
        if (vsRef) {
            return b.append(n).append(" runs: each against `").append(l.reference()).append("`, the reference (the first run with a figure);")
                    .append(" all ").append(l.pairs().size()).append(" pairs are in summary.json (`compare.fixes.").append(l.fix())
                    .append(".pairs`).\n\n").toString();
        }
        boolean anyKernel = l.pairs().stream().anyMatch(p -> p.kernel() != null);
        b.append("Each pair of runs, A over B:\n\n| A | B | figure | JVM A / B ").append(t > 0 ? "at " + threads(t) : t == 0 ? "(headline)" : "")
                .append(" |").append(anyKernel ? " kernel A / B |" : "").append("\n|---|---|---|---|").append(anyKernel ? "---|" : "")
                .append('\n');
        for (Pair p : l.pairs()) {
            b.append("| `").append(p.a()).append("` | `").append(p.b()).append('`').append(p.sameMachine() ? " (same machine)" : "")
                    .append(" | ").append(p.kind() == null ? "—" : p.kind()).append(" | ")
                    .append(ratioCell(p.jvm(), p.aaA(), p.aaB(), p.a(), p.b(), p.target())).append(" |");
            if (anyKernel) {
                b.append(' ').append(ratioCell(p.kernel(), p.kaaA(), p.kaaB(), p.a(), p.b(), p.target())).append(" |");
            }
            b.append('\n');
        }
        return b.append('\n').toString();
    }

    /** The per-thread keys in words: the calibrated figure's, else the raw one's. */
    private static String where(HeadlineByThreads k) {
        if (k == null) {
            return "headline";
        }
        return k.calibrated() == null ? k.raw() : k.raw() == null ? k.calibrated() : k.calibrated() + "`, else `" + k.raw();
    }

    /**
     * A ratio of two runs in a cell: {@code ~ } where its interval holds 1, the ratio with its
     * interval and verdict at margin {@code m}; "A/A failed" naming the run whose control failed
     * (no {@code ~} then: the interval is no evidence either way); the value alone and why where
     * it has no interval; "—" for none.
     */
    static String ratioCell(RatioOfRatios r, Estimate aaA, Estimate aaB, String a, String b, double m) {
        if (r == null) {
            return "—";
        }
        if (!r.ratio().hasInterval()) {
            return Fmt.ratio(r.ratio().value()) + " (" + r.why() + ")";
        }
        if (r.verdict(aaA, aaB, m) == Verdict.CONTROL_FAILED) {
            List<String> failed = new ArrayList<>();
            if (Verdict.controlFailed(aaA)) {
                failed.add("`" + a + "`");
            }
            if (Verdict.controlFailed(aaB)) {
                failed.add("`" + b + "`");
            }
            return r.ratio().format(2) + "x, A/A failed (" + String.join(", ", failed) + "): not evidence";
        }
        return (r.holdsOne() ? "~ " : "") + Verdict.brief(r.ratio(), m);
    }

    /** The fix's entry of the comparison's summary: each run's figures, the common thread count, the reference, every pair. */
    private static Map<String, Object> fixJson(Lineup l) {
        Map<String, Object> m = new LinkedHashMap<>();
        RunFigures first = l.first();
        m.put("metric", first.metric());
        Map<String, Object> by = new LinkedHashMap<>();
        if (l.keys() != null) {
            by.put(RunFigures.CALIBRATED, l.keys().calibrated());
            by.put(RunFigures.RAW, l.keys().raw());
        }
        m.put("by_threads", l.keys() == null ? null : by);
        m.put("common_threads", l.common() > 0 ? l.common() : null);
        m.put("at", l.common() > 0 ? "common_threads" : l.common() == 0 ? "headline" : "none");
        m.put("reference", l.reference());
        Map<String, Object> runs = new LinkedHashMap<>();
        l.runs().forEach((name, f) -> {
            Map<String, Object> r = new LinkedHashMap<>();
            if (f.status() != null) {
                r.put("status", f.status());
                runs.put(name, r);
                return;
            }
            r.put("target", f.target());
            r.put("calibration", f.calibration());
            r.put("calibration_run", f.committedRun());
            RunFigures.Figure c = l.common() >= 0 ? f.at(l.common()) : null;
            r.put("at_common", c == null ? null : c.json(f.target()));
            int most = f.most();
            r.put("most_threads", most > 0 ? most : null);
            RunFigures.Figure own = most >= 0 ? f.at(most) : null;
            r.put("at_most", own == null ? null : own.json(f.target()));
            r.put("kernel", f.kernel() == null ? null : f.kernel().json(f.target()));
            runs.put(name, r);
        });
        m.put("runs", runs);
        m.put("pairs", l.pairs().stream().map(Pair::json).toList());
        return m;
    }

    /**
     * One fix's headline, the JVM's and the kernel's, per run, with the ci95 of the estimate each
     * is (calibrated or raw; the kernel's); null when no run has a number for the fix.
     */
    private static String headlineChart(String fix, Map<String, JsonNode> runs) {
        List<BarChart.Bar> jvm = new ArrayList<>();
        List<BarChart.Bar> kernel = new ArrayList<>();
        boolean any = false;
        for (JsonNode n : runs.values()) {
            JsonNode h = n.path("fixes").path(fix).path("headline");
            jvm.add(bar(h.path("jvm"), interval(h.path("jvm"), h.path("jvm_calibrated"), h.path("jvm_raw"))));
            kernel.add(bar(h.path("kernel"), interval(h.path("kernel"), h.path("kernel_estimate"))));
            any |= h.path("jvm").isNumber() || h.path("kernel").isNumber();
        }
        if (!any) {
            return null;
        }
        String metric = runs.values().stream().map(n -> n.path("fixes").path(fix).path("headline").path("metric").asText(""))
                .filter(m -> !m.isEmpty()).findFirst().orElse(fix);
        BarChart c = new BarChart(fix + ": " + metric, "ratio").categories(new ArrayList<>(runs.keySet()))
                .referenceLine(1.0, "1.0");
        c.series("JVM", jvm);
        c.series("kernel", kernel);
        return c.toSvg();
    }

    /** The ci95 of whichever estimate ({@code {value, ci95}}) the headline's figure {@code v} is; missing when none is. */
    private static JsonNode interval(JsonNode v, JsonNode... estimates) {
        for (JsonNode e : estimates) {
            if (v.isNumber() && e.path("value").isNumber() && Math.abs(e.path("value").asDouble() - v.asDouble()) < 1e-6) {
                return e.path("ci95");
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private static BarChart.Bar bar(JsonNode v, JsonNode ci) {
        if (!v.isNumber()) {
            return BarChart.Bar.missing();
        }
        return ci.isArray() && ci.size() == 2 && ci.get(0).isNumber() && ci.get(1).isNumber()
                ? BarChart.Bar.of(v.asDouble(), ci.get(0).asDouble(), ci.get(1).asDouble()) : BarChart.Bar.of(v.asDouble());
    }

    private static Set<String> fixIds(Map<String, JsonNode> runs) {
        Set<String> ids = new LinkedHashSet<>();
        for (JsonNode n : runs.values()) {
            n.path("fixes").fieldNames().forEachRemaining(ids::add);
        }
        return ids;
    }

    /** Per primitive, each run's total throughput at its highest thread count over 1 thread. */
    private static String scalingChart(Map<String, JsonNode> runs) {
        List<String> prims = new ArrayList<>();
        Map<String, List<BarChart.Bar>> series = new LinkedHashMap<>();
        for (var e : runs.entrySet()) {
            JsonNode jvm = e.getValue().path("fixes").path("primitives").path("jvm");
            if (!jvm.isObject()) {
                continue;
            }
            jvm.fieldNames().forEachRemaining(p -> {
                if (!prims.contains(p)) {
                    prims.add(p);
                }
            });
        }
        if (prims.isEmpty()) {
            return null;
        }
        for (var e : runs.entrySet()) {
            JsonNode jvm = e.getValue().path("fixes").path("primitives").path("jvm");
            List<BarChart.Bar> bars = new ArrayList<>();
            String maxT = null;
            for (String p : prims) {
                JsonNode byT = jvm.path(p);
                String last = null;
                for (Iterator<String> it = byT.fieldNames(); it.hasNext(); ) {
                    last = it.next();
                }
                maxT = last;
                JsonNode v = last == null ? null : byT.path(last).has("throughput_vs_1_thread") ? byT.path(last).path("throughput_vs_1_thread").path("value")
                        : byT.path(last).path("throughput_vs_1_thread_median");
                bars.add(v == null || !v.isNumber() ? BarChart.Bar.missing() : BarChart.Bar.of(v.asDouble()));
            }
            series.put(e.getKey() + (maxT == null ? "" : " (" + maxT + "t)"), bars);
        }
        BarChart c = new BarChart("Primitives: total throughput at each run's highest thread count over 1 thread", "ratio")
                .categories(prims).referenceLine(1.0, "1.0");
        series.forEach(c::series);
        return c.toSvg();
    }
}
