package lab.fix.primitives;

import lab.notebook.Fix;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.notebook.Notebook;
import lab.notebook.RunDir;
import lab.notebook.Section;
import lab.notebook.SectionOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import lab.analysis.MalformedResultException;
import lab.analysis.PrimitivesReport;
import lab.analysis.Stats;
import lab.analysis.chart.BarChart;
import lab.analysis.chart.LineChart;
import lab.analysis.compare.Comparison;
import lab.analysis.compare.Crossover;
import lab.analysis.compare.LkpTable;
import lab.analysis.compare.Sample;

/**
 * The calibration entry: the sync primitives on the JVM (ns per get+put pair across threads)
 * beside today's real zram as the per-I/O cost floor (kernel-scripts scenario zram-floor).
 *
 * <p>Reads {@code raw/primitives/primitives-rR-tT.json} (or, in older runs, the same files flat
 * in {@code raw/}) and {@code raw/primitives/kernel/}.
 */
final class PrimitivesSection implements Section {
    /** The before/after pairs the five fixes made, as primitives: base, then what replaced it. */
    static final List<String[]> PAIRS = List.of(
            new String[] {"atomic-refcount", "percpu-ref", "dm-css-ref, part-acct (patches 1-2)"},
            new String[] {"atomic-refcount", "percpu-counter", "part-acct in_flight (patches 3-4)"},
            new String[] {"rwsem-read", "srcu", "zram-init-lock"},
            new String[] {"mutex", "rwsem-read", "thin-bufio-lock"},
            new String[] {"unpadded-slot", "padded-slot", "false sharing, everywhere"});

    @Override
    public String id() { return Primitives.FIX.id(); }

    @Override
    public Optional<SectionOutput> render(RunDir run) throws IOException {
        Path dir = run.rawFor("primitives");
        boolean jmh = hasJmh(dir);
        KernelRuns kernel = KernelRuns.read(run, dir.resolve("kernel"));
        if (!jmh && kernel.isEmpty()) {
            return Optional.empty();
        }
        PrimitivesReport report = null;
        if (jmh) {
            try {
                report = PrimitivesReport.read(dir);
            } catch (MalformedResultException e) {
                run.gap(e);
            }
        }
        String id = run.id();
        String data = run.manifest().path("command").asText("./lab pair primitives");
        String regen = "./lab notebook results/" + id;
        StringBuilder md = new StringBuilder("## primitives: calibration\n\n");
        md.append("What one shared cache line costs on this machine, primitive by primitive, and what one real I/O ")
                .append("costs, so each fix's figures can be read against both. No seed: the lab's own calibration.\n\n");
        Map<String, String> charts = new LinkedHashMap<>();
        Map<String, Object> summary = new LinkedHashMap<>();
        Double jvmHeadline = null;
        int maxT = 1;
        if (report != null) {
            maxT = report.threadCounts().last();
            md.append("### JVM: ns per get+put pair, per thread\n\n").append(report.markdown(data).replace("## Primitives: ns per get+put pair, per thread\n\n", ""));
            md.append("\n### The fixes' before/after pairs, LKP layout (ns per pair per thread; lower is better)\n\n");
            for (String[] p : PAIRS) {
                List<Comparison> rows = new ArrayList<>();
                for (int t : report.threadCounts()) {
                    List<Double> a = report.nsSamples(p[0], t);
                    List<Double> b = report.nsSamples(p[1], t);
                    if (!a.isEmpty() && !b.isEmpty()) {
                        rows.add(new Comparison("ns_per_pair." + t + "t", new Sample(a), new Sample(b), false));
                    }
                }
                if (!rows.isEmpty()) {
                    md.append("`").append(p[0]).append("` -> `").append(p[1]).append("` (").append(p[2]).append("):\n\n")
                            .append(LkpTable.block(p[0], p[1], rows)).append('\n');
                }
            }
            md.append(LkpTable.legend()).append('\n');
            md.append(crossovers(report));
            md.append(allocation(report));
            charts.put("primitives-sweep.svg", sweepChart(report));
            md.append("\n![total throughput by threads](charts/primitives-sweep.svg)\n\n")
                    .append("Data: `").append(data).append("`; chart: `").append(regen).append("`\n\n");
            if (maxT > 1) {
                charts.put("primitives-scaling.svg", scalingChart(report, maxT));
                md.append("![scaling at ").append(maxT).append(" threads](charts/primitives-scaling.svg)\n\n")
                        .append("Data: `").append(data).append("`; chart: `").append(regen).append("`\n\n");
                Stats.Spread s = report.scaling("atomic-refcount", maxT);
                jvmHeadline = s == null ? null : s.median();
            }
            summary.put("jvm", report.summary());
        }
        md.append(flamegraphs(run));
        Double kernelHeadline = null;
        if (!kernel.isEmpty()) {
            md.append("### Kernel: today's zram, per I/O\n\n").append(kernelIntro(kernel)).append(kernel.table()).append('\n');
            md.append(counterNote(kernel));
            md.append(KernelRuns.flamegraphs(run, dir.resolve("kernel")));
            kernelHeadline = kernelScaling(kernel, maxT);
            charts.put("primitives-kernel-per-io.svg", perIoChart(kernel));
            md.append("![kernel task-clock per I/O](charts/primitives-kernel-per-io.svg)\n\n")
                    .append("Data: `").append(data).append("`; chart: `").append(regen).append("`\n\n");
            if (report != null) {
                md.append(jvmVsKernel(report, kernel, maxT));
            }
            summary.put("kernel", kernel.summary());
        } else {
            md.append("### Kernel: today's zram, per I/O\n\nNot in this run: ").append(kernelSkipReason(run)).append("\n\n");
            summary.put("kernel", null);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("headline", headline(jvmHeadline, kernelHeadline, maxT));
        out.putAll(summary);
        return Optional.of(new SectionOutput(md.toString(), charts, out));
    }

    private static Map<String, Object> headline(Double jvm, Double kernel, int t) {
        Map<String, Object> h = Notebook.headline(Primitives.FIX, jvm, kernel,
                "at " + t + " threads: JVM = one shared atomic (atomic-refcount) total throughput over 1 thread;"
                        + " kernel = zram 4k randread (fio, psync) total IOPS at " + t + " jobs over 1 job");
        h.put("metric", "total throughput at " + t + " threads over 1 thread");
        return h;
    }

    private static boolean hasJmh(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(p -> p.getFileName().toString().matches("primitives-r\\d+-t\\d+\\.json"));
        }
    }

    /** Bytes allocated per pair (JMH -prof gc), when the run has them: the hot paths should show 0. */
    private static String allocation(PrimitivesReport r) {
        int t = r.threadCounts().last();
        StringBuilder b = new StringBuilder();
        for (String p : r.primitives()) {
            double bytes = r.bytesPerPair(p, t);
            if (!Double.isNaN(bytes)) {
                b.append(b.isEmpty() ? "" : ", ").append('`').append(p).append("` ").append(Fmt.f(bytes, 3));
            }
        }
        return b.isEmpty() ? "Allocation per pair: not measured in this run (JMH's GC profiler was off).\n\n"
                : "Allocation per pair at " + t + " threads (JMH -prof gc, B/op): " + b + ".\n\n";
    }

    private static String crossovers(PrimitivesReport r) {
        if (r.threadCounts().size() < 2) {
            return "";
        }
        StringBuilder b = new StringBuilder("Where the curves of total throughput cross (per pair of the table above):\n\n");
        for (String[] p : PAIRS) {
            Map<Integer, Double> a = totalThroughput(r, p[0]);
            Map<Integer, Double> c = totalThroughput(r, p[1]);
            if (a.size() >= 2 && a.size() == c.size()) {
                b.append("- ").append(Crossover.find(p[0], a, p[1], c).sentence()).append('\n');
            }
        }
        return b.append('\n').toString();
    }

    /** Total M pairs/s at each thread count: T / (ns per pair per thread) * 1e3, from the medians. */
    static Map<Integer, Double> totalThroughput(PrimitivesReport r, String prim) {
        Map<Integer, Double> m = new TreeMap<>();
        for (int t : r.threadCounts()) {
            if (!r.nsSamples(prim, t).isEmpty()) {
                m.put(t, t * 1e3 / r.nsPerPair(prim, t).median());
            }
        }
        return m;
    }

    private static String sweepChart(PrimitivesReport r) {
        LineChart c = new LineChart("Sync primitives: total throughput by threads", "threads", "M get+put pairs/s (all threads)").log2X();
        for (String p : r.primitives()) {
            List<LineChart.Point> pts = new ArrayList<>();
            for (int t : r.threadCounts()) {
                if (r.nsSamples(p, t).isEmpty()) {
                    continue;
                }
                Stats.Spread ns = r.nsPerPair(p, t);
                pts.add(LineChart.Point.of(t, t * 1e3 / ns.median(), t * 1e3 / ns.max(), t * 1e3 / ns.min()));
            }
            c.series(p, pts);
        }
        return c.toSvg();
    }

    private static String scalingChart(PrimitivesReport r, int t) {
        List<String> names = new ArrayList<>();
        List<BarChart.Bar> bars = new ArrayList<>();
        for (String p : r.primitives()) {
            Stats.Spread s = r.scaling(p, t);
            names.add(p);
            bars.add(s == null ? BarChart.Bar.missing() : BarChart.Bar.of(s.median(), s.min(), s.max()));
        }
        return new BarChart("Total throughput at " + t + " threads over 1 thread (median, min–max of rounds)", "ratio")
                .categories(names).series(t + " threads / 1", bars)
                .referenceLine(1.0, "1.0: no gain from the second thread").referenceLine(t, t + ".0: perfect scaling").toSvg();
    }

    /** Kernel CPU per I/O, job by job, fio beside the bridge. */
    private static String perIoChart(KernelRuns k) {
        List<String> jobs = k.rows().stream().map(KernelRuns.Row::job).distinct().toList();
        List<String> tools = k.rows().stream().map(KernelRuns.Row::tool).distinct().sorted().toList();
        BarChart c = new BarChart("Today's zram: task-clock ns per I/O (whole command, perf stat)", "ns per I/O").categories(jobs);
        for (String tool : tools) {
            List<BarChart.Bar> bars = new ArrayList<>();
            for (String job : jobs) {
                bars.add(k.rows().stream().filter(r -> r.job().equals(job) && r.tool().equals(tool))
                        .filter(r -> !Double.isNaN(r.taskClockNsPerIo())).findFirst()
                        .map(r -> BarChart.Bar.of(r.taskClockNsPerIo())).orElse(BarChart.Bar.missing()));
            }
            c.series(tool, bars);
        }
        return c.toSvg();
    }

    /** One shared atomic (and its per-cpu fix) at T threads as a share of one real I/O's CPU. */
    private static String jvmVsKernel(PrimitivesReport r, KernelRuns k, int t) {
        KernelRuns.Row io = k.rows().stream().filter(x -> x.tool().equals("fio") && x.job().equals("randread-j" + t))
                .findFirst().orElse(null);
        if (io == null || Double.isNaN(io.taskClockNsPerIo())) {
            return "";
        }
        StringBuilder b = new StringBuilder("Against one real I/O (fio 4k randread, " + t + " job(s): "
                + Fmt.f(io.taskClockNsPerIo(), 0) + " ns of CPU per I/O), one get+put pair at " + t + " threads costs:\n\n"
                + "| primitive | ns per pair | share of one I/O's CPU |\n|---|---:|---:|\n");
        for (String p : r.primitives()) {
            if (!r.nsSamples(p, t).isEmpty()) {
                double ns = r.nsPerPair(p, t).median();
                b.append("| `").append(p).append("` | ").append(Fmt.f(ns, 1)).append(" | ")
                        .append(Fmt.f(100 * ns / io.taskClockNsPerIo(), 2)).append("% |\n");
            }
        }
        return b.append("\nA fix that removes one such pair per I/O can gain at most that share; one taken at every layer ")
                .append("of a stack (dm-linear x5: five) gains it five times.\n\n").toString();
    }

    private static String kernelIntro(KernelRuns k) {
        return "Real zram on this host (" + k.env().getOrDefault("environment", "native") + ", kernel "
                + k.env().getOrDefault("kernel", "?") + "; " + k.env().getOrDefault("device", "zram") + "), 4k psync O_DIRECT, "
                + "each job through fio and through the lab's bridge, under `perf stat -r " + k.env().getOrDefault("perf_repeats", "1")
                + "`. task-clock and context switches are perf's per-run means divided by one run's I/Os (the /sys/block stat "
                + "delta over the repeats); CPUs busy is task-clock over the job's runtime. task-clock counts the whole command: "
                + "for the bridge that includes the JVM's start-up, JIT compilers and GC, which a short "
                + "--quick run spreads over few I/Os; the bridge-vs-fio calibration separates the I/O threads' own CPU.\n\n";
    }

    private static String counterNote(KernelRuns k) {
        if (k.missingCounters().isEmpty()) {
            return "";
        }
        return "Counters absent on this machine (perf reports them `<not supported>`; never counted as 0): "
                + String.join(", ", k.missingCounters()) + ". Per-I/O cycles and instructions need a machine that exposes them.\n\n";
    }

    /** fio randread IOPS at T jobs over 1 job, or null when the run lacks either. */
    private static Double kernelScaling(KernelRuns k, int t) {
        Double one = null;
        Double at = null;
        for (KernelRuns.Row r : k.rows()) {
            if (r.tool().equals("fio") && r.job().equals("randread-j1")) {
                one = r.iops();
            }
            if (r.tool().equals("fio") && r.job().equals("randread-j" + t)) {
                at = r.iops();
            }
        }
        return one == null || at == null || t == 1 ? null : at / one;
    }

    private static String kernelSkipReason(RunDir run) throws IOException {
        String step = KernelRuns.stepStatus(run, "primitives", "kernel");
        return step != null ? step : "this run has no raw/primitives/kernel/ (the kernel side runs with `sudo ./lab pair primitives`).";
    }

    private static String flamegraphs(RunDir run) throws IOException {
        String links = run.htmlLinks(run.dir().resolve("flamegraphs").resolve("primitives"));
        return links.isEmpty() ? ""
                : "CPU flamegraphs (async-profiler, one per primitive at the highest thread count): " + links + ".\n\n";
    }
}
