package lab.fix.primitives;

import lab.notebook.Fix;
import lab.notebook.Estimated;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.notebook.Notebook;
import lab.results.RunDir;
import lab.notebook.Page;
import lab.notebook.Parts;
import lab.notebook.Section;
import lab.notebook.SectionOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import lab.analysis.MalformedResultException;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.chart.BarChart;
import lab.analysis.chart.LineChart;
import lab.engine.sync.PrimitiveKind;
import lab.analysis.compare.LkpTable;
import lab.notebook.Headline;
import lab.analysis.compare.Crossover;

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
            pair(PrimitiveKind.ATOMIC_REFCOUNT, PrimitiveKind.PERCPU_REF, "dm-css-ref, part-acct (patches 1-2)"),
            pair(PrimitiveKind.ATOMIC_REFCOUNT, PrimitiveKind.PERCPU_COUNTER, "part-acct in_flight (patches 3-4)"),
            pair(PrimitiveKind.RWSEM_READ, PrimitiveKind.SRCU, "zram-init-lock"),
            pair(PrimitiveKind.MUTEX, PrimitiveKind.RWSEM_READ, "thin-bufio-lock"),
            pair(PrimitiveKind.UNPADDED_SLOT, PrimitiveKind.PADDED_SLOT, "false sharing, everywhere"));

    private static String[] pair(PrimitiveKind before, PrimitiveKind after, String where) {
        return new String[] {before.id(), after.id(), where};
    }

    @Override
    public String id() { return Primitives.FIX.id(); }

    /** One shared atomic's total throughput over 1 thread per thread count, as {@link PrimitivesReport#summary} writes it (raw: no calibration, no A/A). */
    @Override
    public lab.notebook.HeadlineByThreads headlineByThreads() {
        return new lab.notebook.HeadlineByThreads(null, "jvm." + PrimitiveKind.ATOMIC_REFCOUNT.id() + ".{T}.throughput_vs_1_thread");
    }

    /** Every figure of the section, made: the report (null: none or broken), the LKP rows of {@link #PAIRS}, the kernel's runs. */
    private record Figures(PrimitivesReport report, List<List<LkpTable.Row>> lkp, KernelRuns kernel) {}

    @Override
    public Optional<Estimated> estimate(RunDir run) throws IOException {
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
        List<List<LkpTable.Row>> lkp = new ArrayList<>();
        if (report != null) {
            lab.analysis.estimate.SweepEstimates est = report.estimates();
            for (String[] p : PAIRS) {
                List<LkpTable.Row> rows = new ArrayList<>();
                for (int t : report.threadCounts()) {
                    rows.add(est.lkpRow("ns_per_pair." + t + "t", Map.of("primitive", p[0]), Map.of("primitive", p[1]), t));
                }
                lkp.add(rows);
            }
        }
        Figures f = new Figures(report, lkp, kernel);
        return Optional.of(() -> render(run, f));
    }

    private static SectionOutput render(RunDir run, Figures f) throws IOException {
        Path dir = run.rawFor("primitives");
        PrimitivesReport report = f.report();
        KernelRuns kernel = f.kernel();
        Page page = Page.of(run, "primitives").text("## primitives: calibration\n\n"
                + "What one shared cache line costs on this machine, primitive by primitive, and what one real I/O "
                + "costs, so each fix's figures can be read against both. No seed: the lab's own calibration.\n\n");
        Estimate jvmHeadline = null;
        int maxT = 1;
        if (report != null) {
            maxT = report.threadCounts().last();
            page.text("### JVM: ns per get+put pair, per thread\n\n"
                    + report.markdown(page.data()).replace("## Primitives: ns per get+put pair, per thread\n\n", ""));
            page.text("\n### The fixes' before/after pairs, LKP layout (ns per pair per thread; lower is better)\n\n");
            for (int i = 0; i < PAIRS.size(); i++) {
                String[] p = PAIRS.get(i);
                page.text(Parts.lkpRows(p[0], p[1], p[2], f.lkp().get(i)));
            }
            page.text(Parts.lkpLegend()).text(crossovers(report)).text(allocation(report)).text("\n")
                    .chart("primitives-sweep.svg", sweepChart(report), "total throughput by threads");
            if (maxT > 1) {
                page.chart("primitives-scaling.svg", scalingChart(report, maxT), "scaling at " + maxT + " threads");
                jvmHeadline = report.scaling(PrimitiveKind.ATOMIC_REFCOUNT.id(), maxT);
            }
            page.put("jvm", report.summary());
        }
        page.text(flamegraphs(page));
        Estimate kernelHeadline = null;
        if (!kernel.isEmpty()) {
            page.text("### Kernel: today's zram, per I/O\n\n" + ZramFloor.kernelIntro(kernel) + kernel.table() + '\n')
                    .text(ZramFloor.counterNote(kernel)).text(KernelRuns.flamegraphs(run, dir.resolve("kernel")))
                    .text(KernelRuns.quickNote(kernel.env(), "primitives"));
            kernelHeadline = ZramFloor.kernelScaling(kernel, maxT);
            page.chart("primitives-kernel-per-io.svg", ZramFloor.perIoChart(kernel), "kernel task-clock per I/O");
            if (report != null) {
                page.text(ZramFloor.jvmVsKernel(report, kernel, maxT));
            }
            page.put("kernel", kernel.summary());
        } else {
            page.text("### Kernel: today's zram, per I/O\n\nNot in this run: " + ZramFloor.kernelSkipReason(run) + "\n\n");
            page.put("kernel", null);
        }
        return page.build(headline(run, jvmHeadline, kernelHeadline, maxT));
    }

    private static Map<String, Object> headline(RunDir run, Estimate jvm, Estimate kernel, int t) {
        return Headline.of(Primitives.FIX, run).metric("total throughput at " + t + " threads over 1 thread").raw(jvm).kernel(kernel, null)
                .note("at " + t + " threads: JVM = one shared atomic (atomic-refcount) total throughput over 1 thread;"
                        + " kernel = zram 4k randread (fio, psync) total IOPS at " + t + " jobs over 1 job; no A/A control: the"
                        + " lab's own calibration compares thread counts, not variants")
                .toMap();
    }

    private static boolean hasJmh(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(p -> PrimitivesRaw.isSweepFile(p.getFileName().toString()));
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

    /** Total M pairs/s at each thread count: T / (ns per pair per thread) * 1e3, from the estimates. */
    static Map<Integer, Double> totalThroughput(PrimitivesReport r, String prim) {
        Map<Integer, Double> m = new TreeMap<>();
        for (int t : r.threadCounts()) {
            if (r.nsPerPair(prim, t) != null) {
                m.put(t, t * 1e3 / r.nsPerPair(prim, t).value());
            }
        }
        return m;
    }

    private static String sweepChart(PrimitivesReport r) {
        return Parts.sweepChart("Sync primitives: total throughput by threads", "M get+put pairs/s (all threads)", r.primitives(),
                r.threadCounts(), (p, t) -> Parts.point(t, r.throughput(p, t)));
    }

    private static String scalingChart(PrimitivesReport r, int t) {
        List<String> names = new ArrayList<>();
        List<BarChart.Bar> bars = new ArrayList<>();
        for (String p : r.primitives()) {
            Estimate s = r.scaling(p, t);
            names.add(p);
            bars.add(s == null ? BarChart.Bar.missing() : s.hasInterval() ? BarChart.Bar.of(s.value(), s.lo(), s.hi()) : BarChart.Bar.of(s.value()));
        }
        return new BarChart("Total throughput at " + t + " threads over 1 thread (the estimate and its 95% interval over rounds)", "ratio")
                .categories(names).series(t + " threads / 1", bars)
                .referenceLine(1.0, "1.0: no gain from the second thread").referenceLine(t, t + ".0: perfect scaling").toSvg();
    }

    private static String flamegraphs(Page page) throws IOException {
        String links = page.flamegraphLinks("primitives");
        return links.isEmpty() ? ""
                : "CPU flamegraphs (async-profiler, one per primitive at the highest thread count): " + links + ".\n\n";
    }
}
