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
import java.util.stream.Stream;
import lab.analysis.chart.BarChart;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Verdict;

/**
 * {@code ./lab compare}: several runs side by side (machines, kernels), from the copies of their
 * {@code summary.json} in {@code raw/compare/NN-RUNID.summary.json}. Each fix's headline per run,
 * the machine it ran on, and the primitives' scaling at each run's highest thread count.
 */
final class CompareSection implements Section {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String id() { return "compare"; }

    /** The runs' summaries, read: a comparison makes no estimate, it prints the runs' own. */
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
        String hosts = hosts(run);
        if (runs.isEmpty()) {
            return hosts.isEmpty() ? Optional.empty() : Optional.of(() -> new SectionOutput(hosts + "No host's pairing finished:"
                    + " nothing to compare.\n", Map.of(), Map.of("headline", Map.of("metric", "no run to compare"))));
        }
        return Optional.of(() -> render(run, runs, hosts));
    }

    private static SectionOutput render(RunDir run, Map<String, JsonNode> runs, String hosts) {
        StringBuilder md = new StringBuilder(hosts);
        md.append("## Runs compared\n\n| run | cores | CPU | kernel | JDK | made by |\n|---|---:|---|---|---|---|\n");
        runs.forEach((name, n) -> {
            JsonNode m = n.path("run");
            md.append("| `").append(name).append("` | ").append(m.path("cores").asText("?")).append(" | ")
                    .append(m.path("cpu_model").asText("?")).append(" | ").append(m.path("kernel").asText("?")).append(" | ")
                    .append(m.path("jdk").asText("?")).append(" | `").append(m.path("command").asText("?")).append("` |\n");
        });
        md.append("\n## Headlines per run\n\n| fix | metric | seed |");
        runs.keySet().forEach(r -> md.append(" `").append(r).append("` JVM | `").append(r).append("` kernel |"));
        md.append("\n|---|---|---:|");
        runs.keySet().forEach(r -> md.append("---:|---:|"));
        md.append('\n');
        for (String fix : fixIds(runs)) {
            JsonNode first = runs.values().stream().map(n -> n.path("fixes").path(fix)).filter(JsonNode::isObject).findFirst().orElseThrow();
            JsonNode h0 = first.path("headline");
            md.append("| `").append(fix).append("` | ").append(h0.path("metric").asText("")).append(" | ").append(cell(h0.path("seed"))).append(" |");
            for (JsonNode n : runs.values()) {
                JsonNode f = n.path("fixes").path(fix);
                String status = f.path("status").asText("");
                if (!status.isEmpty()) {
                    md.append(' ').append(status).append(" | — |");
                } else {
                    JsonNode h = f.path("headline");
                    boolean cal = h.path("jvm_calibrated").isObject();
                    md.append(' ').append(judged(h, cal ? "jvm_calibrated" : "jvm_raw", cal || !h.has("aa_raw") ? "aa" : "aa_raw", h.path("jvm")))
                            .append(" | ").append(judged(h, "kernel_estimate", "aa_kernel", h.path("kernel"))).append(" |");
                }
            }
            md.append('\n');
        }
        md.append("\nA headline's metric names its conditions (thread count, device); runs on machines with different core counts ")
                .append("compare at different thread counts, which the metric text states.\n\n");
        Map<String, String> charts = new LinkedHashMap<>();
        for (String fix : fixIds(runs)) {
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
        return new SectionOutput(md.toString(), charts, out);
    }

    /**
     * {@code ./lab fleet}'s hosts ({@code raw/fleet/hosts.tsv}): every host with its state, and for
     * one that did not finish, why; empty for a comparison made by hand.
     */
    private static String hosts(RunDir run) throws IOException {
        Path tsv = run.raw().resolve("fleet").resolve("hosts.tsv");
        if (!Files.isRegularFile(tsv)) {
            return "";
        }
        StringBuilder md = new StringBuilder("## Hosts\n\n| host | state | why / what it left out | cores | kernel | arch |\n"
                + "|---|---|---|---:|---|---|\n");
        for (String line : Files.readAllLines(tsv).stream().skip(1).toList()) {
            String[] f = line.split("\t", -1);
            md.append("| `").append(f[0]).append("` |");
            for (int i = 1; i < 6; i++) {
                md.append(' ').append(i < f.length && !f[i].isEmpty() ? f[i].replace("|", "\\|") : "—").append(" |");
            }
            md.append('\n');
        }
        return md.append("\nOnly the hosts whose pairing finished (state ok) are compared below.\n\n").toString();
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

    /**
     * A run's headline figure {@code key} with its verdict in a few words, judged as that run's own
     * table judges it ({@link Verdict}: its interval, its own A/A {@code aaKey}, the run's margin);
     * the bare value where the run's summary has no estimate of it.
     */
    @SuppressWarnings("unchecked")
    private static String judged(JsonNode h, String key, String aaKey, JsonNode bare) {
        Estimate e = h.path(key).isObject() ? Estimate.fromJson(JSON.convertValue(h.path(key), Map.class)) : null;
        if (e == null) {
            return cell(bare);
        }
        Estimate aa = h.path(aaKey).isObject() ? Estimate.fromJson(JSON.convertValue(h.path(aaKey), Map.class)) : null;
        return Verdict.brief(e, aa, h.path("target").isNumber() ? h.path("target").asDouble() : Verdict.target(false));
    }

    private static String cell(JsonNode v) {
        return v.isNumber() ? Fmt.ratio(v.asDouble()) : "—";
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
