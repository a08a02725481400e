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

/**
 * Writes a run's {@code NOTEBOOK.md}, {@code charts/*.svg} and {@code summary.json} from its
 * {@code manifest.json} and {@code raw/} alone: offline, and byte-identical each time (no
 * clock, no host lookups, fixed number formats, ordered maps, a fixed-seed bootstrap), so a
 * committed notebook can be checked by regenerating it.
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
     */
    public static Written write(Path runDir, List<Fix> fixes, List<Section> sections) throws IOException {
        RunDir run = RunDir.open(runDir);
        Lineup lineup = new Lineup(fixes, sections.stream().map(Section::id).toList());
        List<Section> all = new ArrayList<>(sections);
        all.add(new BridgeVsFioSection());
        all.add(new CompareSection());
        Map<String, SectionOutput> outs = new LinkedHashMap<>();
        for (Section s : all) {
            Optional<SectionOutput> o = s.render(run);
            o.ifPresent(out -> outs.put(s.id(), out));
        }
        List<Path> charts = writeCharts(runDir.resolve("charts"), outs);
        Path summary = runDir.resolve("summary.json");
        Files.writeString(summary, JSON.writeValueAsString(summary(run, outs, lineup)) + "\n", StandardCharsets.UTF_8);
        Path nb = runDir.resolve("NOTEBOOK.md");
        Files.writeString(nb, markdown(run, outs, lineup), StandardCharsets.UTF_8);
        return new Written(nb, summary, charts, run.gaps());
    }

    /** The fixes in table order, and the ids of those a section renders. */
    private record Lineup(List<Fix> fixes, List<String> modelled) {
        boolean modelled(Fix f) {
            return modelled.contains(f.id());
        }
    }

    private static List<Path> writeCharts(Path dir, Map<String, SectionOutput> outs) throws IOException {
        if (Files.isDirectory(dir)) {
            try (Stream<Path> old = Files.list(dir)) {
                for (Path p : old.filter(p -> p.toString().endsWith(".svg")).toList()) {
                    Files.delete(p);
                }
            }
        }
        List<Path> written = new ArrayList<>();
        for (SectionOutput o : outs.values()) {
            for (var c : o.charts().entrySet()) {
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

    static Map<String, Object> summary(RunDir run, Map<String, SectionOutput> outs, Lineup lineup) {
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

    static String markdown(RunDir run, Map<String, SectionOutput> outs, Lineup lineup) {
        String id = run.id();
        JsonNode m = run.manifest();
        StringBuilder b = new StringBuilder();
        b.append("# Run `").append(id).append("`\n\n");
        b.append("Made by `").append(m.path("command").asText("(command not recorded)")).append("` on ")
                .append(machine(m)).append(". Regenerate this notebook, its charts and summary.json from `raw/` ")
                .append("alone (offline, byte-identical): `./lab notebook results/").append(id).append("`.\n\n");
        if (!isCompare(outs)) {
            b.append(headlines(outs, lineup));
        }
        steps(run, b);
        for (var e : outs.entrySet()) {
            b.append(e.getValue().markdown()).append('\n');
        }
        if (!isCompare(outs)) {
            notInRun(outs, b, lineup);
        }
        b.append("## Gaps\n\n");
        if (run.gaps().isEmpty()) {
            b.append("None: every raw file this notebook looked for was read.\n");
        } else {
            b.append("Files that could not be used (the rest of the run is rendered without them):\n\n");
            run.gaps().forEach(g -> b.append("- ").append(g).append('\n'));
        }
        return b.toString();
    }

    private static String machine(JsonNode m) {
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

    private static String headlines(Map<String, SectionOutput> outs, Lineup lineup) {
        StringBuilder b = new StringBuilder("## Headlines\n\n| fix | metric | seed | JVM model | real kernel |\n|---|---|---:|---:|---:|\n");
        for (Fix f : lineup.fixes()) {
            SectionOutput o = outs.get(f.id());
            if (o == null) {
                b.append("| `").append(f.id()).append("` | ").append(f.seedMetric()).append(" | ")
                        .append(f.seedValue() == null ? "—" : Fmt.ratio(f.seedValue())).append(" | ")
                        .append(lineup.modelled(f) ? "not in this run" : "not yet modelled").append(" | — |\n");
                continue;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> h = (Map<String, Object>) o.summary().get("headline");
            b.append("| `").append(f.id()).append("` | ").append(h.get("metric")).append(" | ")
                    .append(cell(h.get("seed"))).append(" | ").append(cell(h.get("jvm"))).append(" | ")
                    .append(cell(h.get("kernel"))).append(" |\n");
        }
        return b.append('\n').toString();
    }

    private static String cell(Object v) {
        return v instanceof Number n ? Fmt.ratio(n.doubleValue()) : "—";
    }

    /** raw/steps.tsv (written by `./lab pair`): what ran, what was skipped and why. */
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
