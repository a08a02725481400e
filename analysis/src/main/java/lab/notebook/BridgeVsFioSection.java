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
import lab.analysis.estimate.Estimate;
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

    /** The report, every figure of it estimated as it is read ({@link BridgeVsFioReport}). */
    @Override
    public Optional<Estimated> estimate(RunDir run) throws IOException {
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
        return Optional.of(() -> render(run, dir, r));
    }

    private static SectionOutput render(RunDir run, Path dir, BridgeVsFioReport r) throws IOException {
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
                for (String metric : List.of("iops", "job_cpu_s_per_million_io", "context_switches_per_io")) {
                    LkpTable.Row x = r.lkpRow(metric, row, tool);
                    if (x != null) {
                        rows.add(x);
                    }
                }
                if (!rows.isEmpty()) {
                    md.append(r.rows().get(row)).append(":\n\n").append(LkpTable.block("fio", tool, rows, true)).append('\n');
                }
                Estimate ratio = r.iopsRatio(row, tool);
                names.add(row + " " + tool);
                bars.add(ratio == null ? BarChart.Bar.missing() : ratio.hasInterval() ? BarChart.Bar.of(ratio.value(), ratio.lo(), ratio.hi())
                        : BarChart.Bar.of(ratio.value()));
            }
        }
        md.append(LkpTable.estimatorLegend()).append('\n');
        Map<String, String> charts = new LinkedHashMap<>();
        charts.put("bridge-vs-fio-iops.svg", new BarChart("The bridge's IOPS over fio's, per row (the estimate and its 95% interval over repetitions)", "bridge / fio IOPS")
                .categories(names).series("bridge / fio", bars).referenceLine(1.0, "1.0 = fio").toSvg());
        md.append("![bridge over fio IOPS](charts/bridge-vs-fio-iops.svg)\n\nData: `").append(data).append("`; chart: `")
                .append(regen).append("`\n");
        md.append(flamegraphs(run));
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("metric", "bridge / fio IOPS, the median over rows of each row's estimate");
        h.put("seed", null);
        h.put("jvm", null);
        h.put("kernel", r.iopsAcrossRows());
        Double floor = r.floorAcrossRows();
        if (floor != null) { // runs made before the A/A control keep the headline they had
            h.put("noise_floor", floor);
            h.put("noise_floor_kernel", floor);
        }
        h.put("unit", "ratio");
        out.put("headline", h);
        out.put("jvm", null);
        out.put("kernel", r.summary());
        return new SectionOutput(md.toString(), charts, out, r.hasAa() ? ESTIMATOR : ESTIMATOR_NO_AA);
    }

    /** Links to the async-profiler flamegraphs of bridge-flamegraphs.sh, when the run has them. */
    private static String flamegraphs(RunDir run) throws IOException {
        String links = run.htmlLinks(run.dir().resolve("flamegraphs"));
        return links.isEmpty() ? "" : "\nCPU flamegraphs of the bridge (async-profiler): " + links + ".\n";
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
