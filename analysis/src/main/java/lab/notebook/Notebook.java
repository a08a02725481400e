package lab.notebook;

import lab.results.RunDir;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import lab.analysis.Stats;
import lab.analysis.estimate.AdaptiveLog;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.EstimationStage;
import lab.analysis.estimate.EstimationStage.Made;
import lab.analysis.estimate.Verdict;
import lab.analysis.chart.BarChart;
import lab.analysis.fidelity.RoundRatio;

/**
 * Writes a run's {@code NOTEBOOK.md}, {@code charts/*.svg} and {@code summary.json} from its
 * {@code manifest.json} and {@code raw/} alone (the fixes' sections, and the run's own parts:
 * the headlines, what ran, the lab kernel's overhead where the run measured it, the gaps):
 * offline, and byte-identical each time (no clock, no host lookups, fixed number formats,
 * ordered maps, a fixed-seed bootstrap), so a committed notebook can be checked by regenerating it.
 */
public final class Notebook {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .setDefaultPrettyPrinter(new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n")));

    private Notebook() {}

    /** What one regeneration wrote. */
    public record Written(Path notebook, Path summary, List<Path> charts, List<String> gaps) {}

    /**
     * Writes the notebook of {@code runDir} for the lab's {@code fixes} (the headline table's rows, in
     * its order) with {@code sections}, one per modelled fix: a fix is modelled when a section
     * renders it. The lab's generic sections (the bridge against fio, a comparison of runs) follow.
     * A {@code ./lab coverage} run (one with {@code raw/coverage.tsv}) gets its own page instead.
     * Two stages ({@link EstimationStage}): every section, and the lab kernel's own parts, make their
     * figures first; then every page is rendered with estimation forbidden, the headline table from
     * the sections' summaries, and summary.json carries each part's record of what its stage made.
     */
    public static Written write(Path runDir, List<Fix> fixes, List<Section> sections) throws IOException {
        RunDir run = RunDir.open(runDir);
        Optional<CoveragePage> coverage = CoveragePage.read(run);
        if (coverage.isPresent()) {
            return writeCoverage(runDir, run, coverage.get());
        }
        Lineup lineup = new Lineup(fixes, sections.stream().map(Section::id).toList());
        List<Section> all = new ArrayList<>(sections);
        all.add(new BridgeVsFioSection());
        all.add(CompareSection.of(sections));
        Map<String, Made<Estimated>> estimated = new LinkedHashMap<>();
        for (Section s : all) {
            Made<Optional<Estimated>> m = EstimationStage.estimate(() -> s.estimate(run));
            m.value().ifPresent(e -> estimated.put(s.id(), new Made<>(e, m.estimates())));
        }
        Made<Optional<LabKernelOverhead>> overhead = EstimationStage.estimate(() -> LabKernelOverhead.read(run));
        Made<Optional<LabKernelPrimitives>> primitives = EstimationStage.estimate(() -> LabKernelPrimitives.read(run));
        return EstimationStage.rendering(() -> write(run, lineup, estimated, overhead, primitives));
    }

    /**
     * The rendering stage of {@link #write}: every figure is made, each page prints its own, and
     * summary.json carries each section's record of them ({@code estimates}, in the order made).
     */
    private static Written write(RunDir run, Lineup lineup, Map<String, Made<Estimated>> estimated,
                                 Made<Optional<LabKernelOverhead>> overhead, Made<Optional<LabKernelPrimitives>> primitives)
            throws IOException {
        Map<String, SectionOutput> outs = new LinkedHashMap<>();
        for (var e : estimated.entrySet()) {
            SectionOutput o = e.getValue().value().render();
            outs.put(e.getKey(), new SectionOutput(o.markdown(), o.charts(), withEstimates(o.summary(), e.getValue().estimates()),
                    o.estimator()));
        }
        Map<String, String> headlineCharts = new LinkedHashMap<>();
        String md = markdown(run, outs, lineup, headlineCharts, overhead.value(), primitives.value());
        List<Path> charts = writeCharts(run.dir().resolve("charts"), headlineCharts, outs);
        Path summary = run.dir().resolve("summary.json");
        Map<String, Object> root = summary(run, outs, lineup, overhead.value(), primitives.value());
        root.computeIfPresent("lab_kernel_overhead", (k, v) -> withEstimates(v, overhead.estimates()));
        root.computeIfPresent("lab_kernel_primitives", (k, v) -> withEstimates(v, primitives.estimates()));
        Files.writeString(summary, JSON.writeValueAsString(root) + "\n", StandardCharsets.UTF_8);
        Path nb = run.dir().resolve("NOTEBOOK.md");
        Files.writeString(nb, md, StandardCharsets.UTF_8);
        return new Written(nb, summary, charts, run.gaps());
    }

    /**
     * A {@code ./lab coverage} run holds no fixes, only simulated settings: its own page
     * ({@link CoveragePage}) and a summary.json of the run and its settings, and no charts.
     */
    private static Written writeCoverage(Path runDir, RunDir run, CoveragePage page) throws IOException {
        String md = page.markdown();
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("run", run.manifest());
        root.put("coverage", page.summary());
        root.put("gaps", run.gaps());
        Path summary = runDir.resolve("summary.json");
        Files.writeString(summary, JSON.writeValueAsString(root) + "\n", StandardCharsets.UTF_8);
        Path nb = runDir.resolve("NOTEBOOK.md");
        Files.writeString(nb, md, StandardCharsets.UTF_8);
        return new Written(nb, summary, List.of(), run.gaps());
    }

    /**
     * A part's summary entry with its record of estimates last ({@link EstimationStage.Made#estimates});
     * as it was where the part's stage made no figure of a JMH sweep (a comparison of runs, the
     * bridge against fio, dm-blkcg-clone: their estimates are of other files, in their own fields).
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> withEstimates(Object summary, List<Map<String, Object>> estimates) {
        if (estimates.isEmpty()) {
            return (Map<String, Object>) summary;
        }
        Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) summary);
        m.put("estimates", estimates);
        return m;
    }

    /** The fixes in table order, and the ids of those a section renders. */
    private record Lineup(List<Fix> fixes, List<String> modelled) {
        boolean modelled(Fix f) {
            return modelled.contains(f.id());
        }
    }

    private static List<Path> writeCharts(Path dir, Map<String, String> first, Map<String, SectionOutput> outs) throws IOException {
        if (Files.isDirectory(dir)) {
            try (Stream<Path> old = Files.list(dir)) {
                for (Path p : old.filter(p -> p.toString().endsWith(".svg")).toList()) {
                    Files.delete(p);
                }
            }
        }
        List<Path> written = new ArrayList<>();
        List<Map<String, String>> all = new ArrayList<>();
        all.add(first);
        outs.values().forEach(o -> all.add(o.charts()));
        for (Map<String, String> cs : all) {
            for (var c : cs.entrySet()) {
                Files.createDirectories(dir);
                Path p = dir.resolve(c.getKey());
                Files.writeString(p, c.getValue(), StandardCharsets.UTF_8);
                written.add(p);
            }
        }
        return written;
    }

    /** A {@code ./lab compare} run holds no fixes of its own, only the runs it lines up. */
    private static boolean isCompare(Map<String, SectionOutput> outs) {
        return outs.size() == 1 && outs.containsKey("compare");
    }

    static Map<String, Object> summary(RunDir run, Map<String, SectionOutput> outs, Lineup lineup, Optional<LabKernelOverhead> overhead,
                                       Optional<LabKernelPrimitives> primitives) {
        if (isCompare(outs)) {
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("run", run.manifest());
            root.put("compare", outs.get("compare").summary());
            root.put("gaps", run.gaps());
            return root;
        }
        Map<String, Object> fixes = new LinkedHashMap<>();
        for (Fix f : lineup.fixes()) {
            SectionOutput o = outs.get(f.id());
            if (o != null) {
                fixes.put(f.id(), o.summary());
            } else {
                Map<String, Object> absent = new LinkedHashMap<>();
                absent.put("status", lineup.modelled(f) ? "not in this run" : "not yet modelled");
                absent.put("headline", headline(f, null, null, null));
                fixes.put(f.id(), absent);
            }
        }
        outs.forEach((id, o) -> {
            if (!fixes.containsKey(id)) {
                fixes.put(id, o.summary());
            }
        });
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("run", run.manifest());
        root.put("fixes", fixes);
        overhead.ifPresent(o -> root.put("lab_kernel_overhead", o.summary()));
        primitives.ifPresent(p -> root.put("lab_kernel_primitives", p.summary()));
        root.put("gaps", run.gaps());
        return root;
    }

    /** The {@code headline} object of summary.json: seed, JVM and kernel figures of one metric. */
    public static Map<String, Object> headline(Fix f, Double jvm, Double kernel, String note) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("metric", f.seedMetric());
        h.put("seed", f.seedValue());
        h.put("jvm", jvm);
        h.put("kernel", kernel);
        h.put("unit", "ratio");
        if (note != null) {
            h.put("note", note);
        }
        return h;
    }

    static String markdown(RunDir run, Map<String, SectionOutput> outs, Lineup lineup, Map<String, String> headlineCharts,
                           Optional<LabKernelOverhead> overhead, Optional<LabKernelPrimitives> primitives) {
        String id = run.id();
        JsonNode m = run.manifest();
        StringBuilder b = new StringBuilder();
        b.append("# Run `").append(id).append("`\n\n");
        b.append("Made by `").append(m.path("command").asText("(command not recorded)")).append("` on ")
                .append(machine(m)).append(". Regenerate this notebook, its charts and summary.json from `raw/` ")
                .append("alone (offline, byte-identical): `./lab notebook results/").append(id).append("`.\n\n");
        if (!isCompare(outs)) {
            b.append(headlines(outs, lineup, headlineCharts, order(run, outs.keySet()), "Data: `" + m.path("command").asText("./lab pair") + "`; chart: `./lab notebook results/"
                    + id + "`", m.hasNonNull("cores") ? m.get("cores").asText() + " cores" : "this machine"));
        }
        steps(run, b);
        for (var e : outs.entrySet()) {
            b.append(e.getValue().markdown()).append('\n');
        }
        overhead.ifPresent(o -> b.append(o.text(m.path("command").asText("./lab pair"))));
        primitives.ifPresent(p -> b.append(p.text()));
        if (!isCompare(outs)) {
            notInRun(outs, b, lineup);
        }
        b.append("## Gaps\n\n");
        if (run.gaps().isEmpty()) {
            b.append("None: every raw file this notebook looked for was read.\n");
        } else {
            b.append("Files that could not be used and steps that failed (the rest of the run is rendered without them):\n\n");
            run.gaps().forEach(g -> b.append("- ").append(g).append('\n'));
        }
        return b.toString();
    }

    /** The machine a run was made on, in words, from its manifest. */
    static String machine(JsonNode m) {
        List<String> parts = new ArrayList<>();
        if (m.hasNonNull("cores")) {
            parts.add(m.get("cores").asText() + " cores");
        }
        if (m.hasNonNull("cpu_model")) {
            parts.add(m.get("cpu_model").asText());
        }
        if (m.hasNonNull("kernel")) {
            parts.add("kernel " + m.get("kernel").asText());
        }
        if (m.hasNonNull("jdk")) {
            parts.add(m.get("jdk").asText());
        }
        if (m.hasNonNull("commit")) {
            parts.add("lab commit " + m.get("commit").asText().substring(0, Math.min(12, m.get("commit").asText().length()))
                    + (m.path("tree_modified").asBoolean(false) ? " (tree modified)" : ""));
        }
        return parts.isEmpty() ? "an unrecorded machine" : String.join(", ", parts);
    }

    /**
     * The first screen: one sentence per fix in words ({@link HeadlineWords}); then one row per
     * section that ran (the fixes in the table's order, then the lab's own calibrations), seed | model raw | model calibrated | predicted | kernel | A/A, each
     * figure with its 95% interval and the interval's verdict at the run's target in a word (the
     * sentences above say what it means, and where the kernel's figure comes from); a warning under
     * the table for every A/A whose interval leaves out 1 (the method's self-test failed); the fixes
     * that did not run in one line below; the estimator, said once; then one chart per row with
     * those figures side by side.
     */
    private static String headlines(Map<String, SectionOutput> outs, Lineup lineup, Map<String, String> charts, String order,
                                    String commands, String cores) {
        StringBuilder b = new StringBuilder("## Headlines\n\n");
        StringBuilder words = new StringBuilder();
        b.append("| fix | metric | seed | model raw | model calibrated | predicted | kernel | A/A control |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|\n");
        List<String> ran = new ArrayList<>();
        for (Fix f : lineup.fixes()) {
            if (outs.containsKey(f.id())) {
                ran.add(f.id());
            }
        }
        outs.keySet().stream().filter(id -> !ran.contains(id) && !id.equals("compare")).forEach(ran::add);
        List<String> figures = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> metrics = new ArrayList<>();
        boolean baseRange = false;
        for (String id : ran) {
            @SuppressWarnings("unchecked")
            Map<String, Object> h = (Map<String, Object>) outs.get(id).summary().get("headline");
            if (h == null) {
                continue;
            }
            double target = h.get("target") instanceof Number n ? n.doubleValue() : Verdict.target(false);
            Estimate raw = Estimate.fromJson(h.get("jvm_raw"));
            Estimate cal = Estimate.fromJson(h.get("jvm_calibrated"));
            Estimate kernel = Estimate.fromJson(h.get("kernel_estimate"));
            Estimate aa = Estimate.fromJson(h.get("aa"));
            String kernelNote = h.get("kernel_note") instanceof String k ? k : null;
            boolean inLineup = lineup.fixes().stream().anyMatch(f -> f.id().equals(id));
            if (inLineup) {
                words.append("- ").append(HeadlineWords.sentence(id, h, cores)).append('\n');
            }
            String metric = HeadlineWords.metric(h);
            baseRange |= h.get("predicted_range") instanceof List<?> r && r.size() == 2;
            if (h.get("metric") instanceof String full && !full.equals(metric)) {
                metrics.add("`" + id + "`: " + full);
            }
            b.append("| `").append(id).append("` | ").append(metric).append(" | ").append(cell(h.get("seed"))).append(" | ")
                    .append(raw == null ? cell(h.get("jvm")) : Verdict.brief(raw, HeadlineWords.control(h, "aa_raw"), target)).append(" | ")
                    .append(Verdict.brief(cal, HeadlineWords.control(h, "aa"), target)).append(" | ")
                    .append(cell(h.get("predicted"))).append(Estimate.fromJson(h.get("predicted_over_rounds")) instanceof Estimate po
                            && po.hasInterval() ? " [" + Fmt.f(po.lo(), 2) + "–" + Fmt.f(po.hi(), 2) + " over rounds]" : "")
                    .append(h.get("predicted_range") instanceof List<?> pr && pr.size() == 2
                            && pr.get(0) instanceof Number plo && pr.get(1) instanceof Number phi
                            ? String.format(java.util.Locale.ROOT, " (%.2f–%.2f over the base)", plo.doubleValue(),
                            phi.doubleValue()) : "").append(" | ")
                    .append(kernelCell(kernel, Estimate.fromJson(h.get("aa_kernel")), h.get("kernel"), kernelNote, target))
                    .append(" | ")
                    .append(aaCell(aa, h.get("noise_floor"))).append(" |\n");
            for (String key : List.of("aa", "aa_raw", "aa_kernel")) {
                Estimate c = Estimate.fromJson(h.get(key));
                if (Verdict.controlFailed(c)) {
                    failed.add("`" + id + "`'s " + switch (key) {
                        case "aa" -> "model";
                        case "aa_raw" -> "raw model";
                        default -> "kernel";
                    } + " figure (its A/A " + c.format(3) + ")");
                }
            }
            Estimate kernelBar = kernel != null ? kernel : h.get("kernel") instanceof Number n
                    ? new Estimate(n.doubleValue(), Double.NaN, Double.NaN, 1, Double.NaN) : null;
            if (raw != null || cal != null || kernelBar != null) {
                String name = "headline-" + id + ".svg";
                charts.put(name, headlineChart(id, h, raw, cal, kernelBar, aa));
                figures.add("![" + id + ": seed, model and kernel side by side](charts/" + name + ")");
            }
        }
        if (ran.isEmpty()) {
            b.append("| — | nothing ran in this run | | | | | | |\n");
        }
        List<String> legend = new ArrayList<>();
        if (!metrics.isEmpty()) {
            legend.add("Each metric in full: " + String.join("; ", metrics) + ".");
        }
        if (baseRange) {
            legend.add("Predicted: from the counted shared-line operations at the calibrated base; in parentheses, its range across"
                    + " the base's 95% interval.");
        }
        if (!legend.isEmpty()) {
            b.append('\n').append(String.join(" ", legend)).append('\n');
        }
        if (!words.isEmpty()) {
            b.insert("## Headlines\n\n".length(), words.append('\n'));
        }
        if (!failed.isEmpty()) {
            b.append("\n**The A/A control failed** for ").append(String.join(", ", failed)).append(": the base against a copy of itself"
                    + " has an interval that leaves out 1, so the run has drift or a position effect the balanced order did not cancel,"
                    + " and those figures get no verdict: they are not evidence. Run it again.\n");
        }
        List<String> notRun = new ArrayList<>();
        List<String> notModelled = new ArrayList<>();
        for (Fix f : lineup.fixes()) {
            if (!outs.containsKey(f.id())) {
                (lineup.modelled(f) ? notRun : notModelled).add("`" + f.id() + "`");
            }
        }
        if (!notRun.isEmpty() || !notModelled.isEmpty()) {
            b.append("\nNot in this run: ").append(notRun.isEmpty() ? "" : String.join(", ", notRun) + " (modelled: `./lab pair FIX`)")
                    .append(notRun.isEmpty() || notModelled.isEmpty() ? "" : "; ")
                    .append(notModelled.isEmpty() ? "" : String.join(", ", notModelled) + " (not yet modelled)").append(".\n");
        }
        String estimator = ran.stream().map(id -> outs.get(id).estimator()).filter(e -> e != null).findFirst()
                .filter(e -> ran.stream().allMatch(id -> e.equals(outs.get(id).estimator()))).orElse(RoundRatio.DESCRIPTION);
        b.append("\n").append(estimator).append(order.isEmpty() ? "" : " " + order).append("\n\n");
        figures.forEach(f -> b.append(f).append("\n\n").append(commands).append("\n\n"));
        return b.toString();
    }

    /**
     * How the run ordered its variants within a round, from the files it has: a seeded random order
     * balanced over rounds where each fix's {@code raw/<fix>/rounds.tsv} records it; where none
     * does, the run predates it and ran its variants in the same order every round, which the
     * notebook says, since a position effect cannot then be told from a difference; and what each
     * fix's adaptive headline rounds did, where the run has them.
     */
    static String order(RunDir run, java.util.Set<String> fixes) {
        List<String> with = new ArrayList<>();
        List<String> without = new ArrayList<>();
        for (String f : fixes) {
            Path dir = run.raw().resolve(f);
            if (!Files.isDirectory(dir) || f.equals("compare")) {
                continue;
            }
            (Files.exists(dir.resolve("rounds.tsv")) ? with : without).add("`" + f + "`");
        }
        StringBuilder b = new StringBuilder();
        if (!with.isEmpty()) {
            b.append("Order: ").append(String.join(", ", with)).append(" ran its variants in a seeded random order per round,"
                    + " balanced so each takes each position equally often (`raw/<fix>/rounds.tsv`).");
        }
        if (!without.isEmpty()) {
            b.append(b.isEmpty() ? "" : " ").append("Order: ").append(String.join(", ", without)).append(" predates the random order"
                    + " and ran its variants in the same order every round (its A/A copy last), so a position effect there cannot be"
                    + " told from a difference; its A/A shows what one would do to a copy of the base.");
        }
        List<String> adaptive = new ArrayList<>();
        for (String f : fixes) {
            try {
                AdaptiveLog log = AdaptiveLog.read(run.raw().resolve(f));
                if (log != null) {
                    adaptive.add(log.describe(f));
                }
            } catch (IOException e) {
                run.gap(run.raw().resolve(f).resolve(AdaptiveLog.FILE), "not readable (" + e.getMessage().lines().findFirst().orElse("")
                        + ")");
            }
        }
        if (!adaptive.isEmpty()) {
            b.append(b.isEmpty() ? "" : " ").append("Adaptive rounds (`raw/<fix>/adaptive.json`): ").append(String.join(" ", adaptive));
        }
        return b.toString();
    }

    /**
     * The kernel's cell: its figure with its verdict in a few words, gated by its own A/A (a bare
     * figure where the section gave no interval), and its set-up or source note (which names that
     * A/A where it has one); "— (why)" where the kernel has no figure of the fix's. The sentence above the table keeps only the note's first clause: the
     * whole of it is here.
     */
    private static String kernelCell(Estimate kernel, Estimate control, Object bare, String note, double target) {
        String fig = kernel != null ? Verdict.brief(kernel, control, target) : bare instanceof Number n ? Fmt.ratio(n.doubleValue()) : null;
        if (fig == null) {
            return note == null ? "—" : "— (" + note.replace("|", "\\|") + ")";
        }
        return fig + (note == null ? "" : " (" + note.replace("|", "\\|") + ")");
    }

    /** The A/A's estimate, flagged where its interval leaves out 1; a bare floor where a section gave only that. */
    private static String aaCell(Estimate aa, Object floor) {
        if (aa != null) {
            return aa.format(3) + "x" + (aa.excludes(1) ? " **excludes 1: failed**" : aa.hasInterval() ? "" : " (" + aa.noInterval() + ")");
        }
        return floor instanceof Number f ? String.format(java.util.Locale.ROOT, "±%.1f%%", 100 * f.doubleValue()) : "—";
    }

    private static String headlineChart(String id, Map<String, Object> h, Estimate raw, Estimate cal, Estimate kernel, Estimate aa) {
        List<BarChart.Bar> bars = new ArrayList<>();
        bars.add(h.get("seed") instanceof Number n ? BarChart.Bar.of(n.doubleValue()) : BarChart.Bar.missing());
        for (Estimate s : new Estimate[] {raw, cal}) {
            bars.add(bar(s));
        }
        bars.add(h.get("predicted") instanceof Number n ? BarChart.Bar.of(n.doubleValue()) : BarChart.Bar.missing());
        bars.add(bar(kernel));
        BarChart c = new BarChart(id + ": seed, model raw, calibrated, predicted, kernel (95% intervals)", "ratio (x)")
                .categories(List.of("seed", "model raw", "model calibrated", "predicted", "kernel")).series(id, bars)
                .referenceLine(1.0, "1.0 = no change");
        if (aa != null && aa.hasInterval()) {
            c.referenceLine(aa.hi(), "A/A 95% interval").referenceLine(aa.lo(), "");
        }
        return c.toSvg();
    }

    private static BarChart.Bar bar(Estimate e) {
        return e == null ? BarChart.Bar.missing() : e.hasInterval() ? BarChart.Bar.of(e.value(), e.lo(), e.hi()) : BarChart.Bar.of(e.value());
    }

    /** A summary figure as a spread: a {median, min, max, rounds} map, or a bare number (one value). */
    @SuppressWarnings("unchecked")
    private static Stats.Spread spread(Object o) {
        if (o instanceof Map<?, ?> m && m.get("median") instanceof Number med) {
            Map<String, Object> mm = (Map<String, Object>) m;
            return new Stats.Spread(med.doubleValue(), ((Number) mm.get("min")).doubleValue(), ((Number) mm.get("max")).doubleValue(),
                    ((Number) mm.get("rounds")).intValue());
        }
        return o instanceof Number n ? new Stats.Spread(n.doubleValue(), n.doubleValue(), n.doubleValue(), 1) : null;
    }

    private static String cell(Object v) {
        return v instanceof Number n ? Fmt.ratio(n.doubleValue()) : "—";
    }

    /**
     * raw/steps.tsv (written by `./lab pair`): what ran, what was skipped and why. A step that
     * failed is also a gap, with its detail (a kernel scenario's names the part that failed and why).
     */
    private static void steps(RunDir run, StringBuilder b) {
        Path f = run.raw().resolve("steps.tsv");
        if (!Files.exists(f)) {
            return;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(f);
        } catch (IOException e) {
            run.gap(f, "not readable");
            return;
        }
        b.append("## What ran\n\n| fix | step | status | detail |\n|---|---|---|---|\n");
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            String[] c = line.split("\t", 4);
            if (c.length < 3) {
                run.gap(f, "a line with fewer than 3 tab-separated fields: " + line);
                continue;
            }
            b.append("| `").append(c[0]).append("` | ").append(c[1]).append(" | ").append(c[2]).append(" | ")
                    .append(c.length > 3 ? c[3] : "").append(" |\n");
            if (c[2].equals("failed")) {
                run.gap(f, "`" + c[0] + "` " + c[1] + " failed" + (c.length > 3 ? ": " + c[3] : ""));
            }
        }
        b.append('\n');
    }

    private static void notInRun(Map<String, SectionOutput> outs, StringBuilder b, Lineup lineup) {
        List<Fix> absent = lineup.fixes().stream().filter(f -> !outs.containsKey(f.id())).toList();
        if (absent.isEmpty()) {
            return;
        }
        b.append("## Fixes not in this run\n\n");
        for (Fix f : absent) {
            b.append("- `").append(f.id()).append("` (").append(f.title()).append("): ")
                    .append(lineup.modelled(f) ? "modelled; not run here (`./lab pair " + f.id() + "`)" : "**not yet modelled**");
            if (f.seedFile() != null) {
                b.append(". Seed (").append(f.seedFile()).append("): ").append(f.seedText());
            }
            b.append(".\n");
        }
        b.append('\n');
    }
}
