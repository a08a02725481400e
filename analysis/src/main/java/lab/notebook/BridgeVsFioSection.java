package lab.notebook;

import lab.results.RunDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.analysis.BridgeVsFioReport;
import lab.analysis.MalformedResultException;
import lab.analysis.Stats;
import lab.analysis.chart.BarChart;
import lab.analysis.compare.LkpTable;
import lab.analysis.compare.Sample;

/**
 * A calibration of the native bridge: the same job files through fio and through the bridge on
 * one device (native-bridge/bench/bridge-vs-fio.sh), from {@code raw/rows.tsv} and its runs.
 */
final class BridgeVsFioSection implements Section {
    @Override
    public String id() { return "bridge-vs-fio"; }

    @Override
    public Optional<SectionOutput> render(RunDir run) throws IOException {
        Path dir = run.rawFor("bridge-vs-fio");
        if (!Files.exists(dir.resolve("rows.tsv"))) {
            return Optional.empty();
        }
        BridgeVsFioReport r;
        try {
            r = BridgeVsFioReport.read(dir);
        } catch (MalformedResultException e) {
            run.gap(e);
            return Optional.empty();
        }
        String data = run.manifest().path("command").asText("native-bridge/bench/bridge-vs-fio.sh");
        String regen = "./lab notebook results/" + run.id();
        StringBuilder md = new StringBuilder("## bridge-vs-fio: calibration of the native bridge\n\n");
        Path device = dir.resolve("device.txt");
        if (Files.exists(device)) {
            md.append("Device: ").append(Files.readString(device).trim()).append("\n\n");
        }
        md.append(r.markdown(data).replace("## The bridge beside fio: same job file, same device\n\n", "")).append('\n');
        md.append("### LKP layout: fio (base) against the bridge, per row\n\n");
        List<String> names = new ArrayList<>();
        List<BarChart.Bar> bars = new ArrayList<>();
        for (String row : r.rows().keySet()) {
            for (String tool : r.tools(row)) {
                List<LkpTable.Row> rows = new ArrayList<>();
                add(rows, "iops", r.iops(row, "fio"), r.iops(row, tool), r.iopsRatios(row, tool));
                add(rows, "job_cpu_s_per_million_io", r.cpuPerMillion(row, "fio"), r.cpuPerMillion(row, tool), r.cpuRatios(row, tool));
                add(rows, "context_switches_per_io", r.ctxPerIo(row, "fio"), r.ctxPerIo(row, tool), r.ctxRatios(row, tool));
                if (!rows.isEmpty()) {
                    md.append(r.rows().get(row)).append(":\n\n").append(LkpTable.block("fio", tool, rows, true)).append('\n');
                }
                List<Double> ratio = r.iopsRatios(row, tool);
                names.add(row + " " + tool);
                if (ratio.isEmpty()) {
                    bars.add(BarChart.Bar.missing());
                } else {
                    Stats.Spread s = Stats.spread(ratio);
                    bars.add(BarChart.Bar.of(s.median(), s.min(), s.max()));
                }
            }
        }
        md.append(LkpTable.estimatorLegend()).append('\n');
        Map<String, String> charts = new LinkedHashMap<>();
        charts.put("bridge-vs-fio-iops.svg", new BarChart("The bridge's IOPS over fio's, per row (median, min–max of repetitions)", "bridge / fio IOPS")
                .categories(names).series("bridge / fio", bars).referenceLine(1.0, "1.0 = fio").toSvg());
        md.append("![bridge over fio IOPS](charts/bridge-vs-fio-iops.svg)\n\nData: `").append(data).append("`; chart: `")
                .append(regen).append("`\n");
        md.append(flamegraphs(run));
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("metric", "bridge / fio IOPS, median over rows");
        h.put("seed", null);
        h.put("jvm", null);
        List<Double> medians = new ArrayList<>();
        for (String row : r.rows().keySet()) {
            for (String tool : r.tools(row)) {
                if (!r.iopsRatios(row, tool).isEmpty()) {
                    medians.add(Stats.median(r.iopsRatios(row, tool)));
                }
            }
        }
        h.put("kernel", medians.isEmpty() ? null : Stats.median(medians));
        List<Double> floors = new ArrayList<>();
        for (String row : r.rows().keySet()) {
            if (r.iopsFloor(row) != null) {
                floors.add(r.iopsFloor(row).floor());
            }
        }
        if (!floors.isEmpty()) { // runs made before the A/A control keep the headline they had
            h.put("noise_floor", Stats.median(floors));
            h.put("noise_floor_kernel", Stats.median(floors));
        }
        h.put("unit", "ratio");
        out.put("headline", h);
        out.put("jvm", null);
        out.put("kernel", r.summary());
        return Optional.of(new SectionOutput(md.toString(), charts, out, r.hasAa() ? ESTIMATOR : ESTIMATOR_NO_AA));
    }

    /** Links to the async-profiler flamegraphs of bridge-flamegraphs.sh, when the run has them. */
    private static String flamegraphs(RunDir run) throws IOException {
        String links = run.htmlLinks(run.dir().resolve("flamegraphs"));
        return links.isEmpty() ? "" : "\nCPU flamegraphs of the bridge (async-profiler): " + links + ".\n";
    }

    /** One LKP row: the means ± stddev of each side, the change from the per-repetition ratios' estimate, marked where its interval holds 1. */
    private static void add(List<LkpTable.Row> rows, String metric, List<Double> base, List<Double> cand, List<Double> ratios) {
        List<Double> positive = ratios.stream().filter(x -> x > 0 && Double.isFinite(x)).toList();
        if (!base.isEmpty() && !cand.isEmpty() && !positive.isEmpty()) {
            lab.analysis.estimate.Estimate e = lab.analysis.estimate.Estimator.of(positive);
            rows.add(new LkpTable.Row(metric, new Sample(base), new Sample(cand), 100 * (e.value() - 1), e.hasInterval() && !e.excludes(1)));
        }
    }

    /** The estimator of a run made before the A/A control. */
    static final String ESTIMATOR_NO_AA = "Estimator, everywhere in this notebook: a ratio is taken within each repetition (fio and the"
            + " bridge run the same job back to back on the same device) and reported as the geometric mean over repetitions with its"
            + " 95% interval (one repetition: the ratio alone). This calibration of the bridge has no A/A control, so nothing tests"
            + " the method itself here.";

    /** This notebook's estimator: per repetition, not per round, with fio against itself as the A/A. */
    static final String ESTIMATOR = "Estimator, everywhere in this notebook: a ratio is taken within each repetition (fio and the"
            + " bridge run the same job back to back on the same device) and reported as the geometric mean over repetitions with its"
            + " 95% interval (Student's t on the logs; one repetition: the ratio alone), judged by that interval: parity where it"
            + " lies inside ±5%, a difference where it leaves out 1. The A/A control is fio run twice in each repetition, the bridge"
            + " between, estimated the same way; its interval should hold 1. The headline's floor is the median of the rows' A/A"
            + " reaches from 1, for orientation.";
}
