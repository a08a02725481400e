package lab.fix.dmcssref;

import static lab.fix.dmcssref.DmCssRef.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.chart.LineChart;
import lab.analysis.fidelity.Calibration;
import lab.analysis.fidelity.LineCost;
import lab.analysis.fidelity.LineCounts;
import lab.analysis.fidelity.NoiseFloor;
import lab.analysis.fidelity.Prediction;
import lab.analysis.fidelity.SharedLineModel;
import lab.fix.CostSweep;
import lab.notebook.Fmt;
import lab.notebook.Estimated;
import lab.notebook.Headline;
import lab.notebook.KernelRuns;
import lab.notebook.LabKernelPart;
import lab.notebook.Page;
import lab.notebook.Parts;
import lab.notebook.PredictionText;
import lab.notebook.Section;
import lab.notebook.SectionOutput;
import lab.results.RunDir;

/**
 * The dm-css-ref section: the seed, the model's slow-downs at the seed's depth (raw, then
 * calibrated, with the prediction from the counted css operations), the cost of a dm layer from
 * the depth sweep, the seed's experiment as an injected option, today's kernel per layer and per
 * child cgroup ({@link DmKernel}), the lab kernel's css switch where the run has it
 * ({@link LabKernelPart}), and the headline. Reads the files of {@link DmCssRefRaw}.
 */
final class DmCssRefSection implements Section {

    @Override
    public String id() { return ID; }

    /** `atomic-cmpxchg` / `atomic` at the seed's depth per thread count, as {@link StackTable#slowdownTable} writes it: calibrated, and raw. */
    @Override
    public lab.notebook.HeadlineByThreads headlineByThreads() {
        return new lab.notebook.HeadlineByThreads("jvm.calibrated.{T}.atomic_cmpxchg_vs_atomic", "jvm.raw.{T}.atomic_cmpxchg_vs_atomic");
    }

    /**
     * The model's calibrated side, made: the slow-down table at the most threads {@code t}, the
     * fork CVs, and where the run has counts and costs, the prediction ({@code byVisits}: priced
     * per visit) and the seed's cost per operation ({@code implied}: null without both counts);
     * {@code prediction} null where the run has neither counts nor costs.
     */
    private record CalibratedFigures(Calibration cal, int t, StackTable table, Parts.ForkCvs cv, boolean byVisits,
                                     PredictionText.Report prediction, Implied implied) {}

    /**
     * What the seed's figure asks of one shared-line operation ({@link #estimateImplied}): the
     * operations per I/O of {@code atomic-cmpxchg} and {@code atomic} as the seed counts them, the
     * one-thread time, the implied and the measured {@code cas} cost (NaN: none), each also made
     * within each round, and the gap the cost was measured at.
     */
    private record Implied(double mb, double ma, double oneThread, double implied, double cas, Estimate iOver, Estimate mOver,
                           long gapNs) {}

    /** Every figure of the section, made: what {@link #render} prints. */
    private record Figures(StackTable raw, StackTable.Injected injected, CalibratedFigures calibrated, DmKernel kernel,
                           Optional<LabKernelPart> lab) {}

    @Override
    public Optional<Estimated> estimate(RunDir run) throws IOException {
        Path dir = run.raw().resolve(ID);
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        SweepEstimates table = SweepEstimates.read(dir, DmCssRefRaw.TABLE, run::gap);
        SweepEstimates inject = SweepEstimates.read(dir, DmCssRefRaw.INJECT, run::gap);
        Calibration cal = Calibration.read(dir);
        SweepEstimates calibrated = cal == null ? null : SweepEstimates.read(dir, DmCssRefRaw.CALIBRATED, run::gap)
                .where("baseNs", Long.toString(cal.deviceNs()), "0").where("userNs", Long.toString(cal.userNs()), "0");
        KernelRuns kernelRuns = KernelRuns.read(run, dir.resolve("kernel"));
        DmKernel kernel = DmKernel.of(kernelRuns);
        StackTable raw = table.isEmpty() ? null : StackTable.of(table, SEED_DEPTH);
        StackTable.Injected injected = table.isEmpty() || inject.isEmpty() ? null : StackTable.estimateInjected(table, inject);
        CalibratedFigures c = estimateCalibrated(cal, calibrated, table, dir, run);
        Figures f = new Figures(raw, injected, c, kernel, LabKernelPart.read(run, ID));
        return Optional.of(() -> render(run, f));
    }

    private static SectionOutput render(RunDir run, Figures f) throws IOException {
        StackTable table = f.raw();
        DmKernel kernel = f.kernel();
        String cores = run.manifest().path("cores").asText("?");
        Page page = Page.of(run, ID).text("## dm-css-ref: " + FIX.title() + "\n\n" + seed());
        Map<String, Object> jvm = new LinkedHashMap<>();
        Headline head = Headline.of(FIX, run);
        int t = table == null ? 1 : table.maxThreads();
        if (table != null) {
            Map<String, Object> raw = new LinkedHashMap<>();
            page.text("### JVM model, raw: the css forwardings at the seed's depth (dm-linear x" + SEED_DEPTH + " over the ram disk)\n\n"
                    + "The seed ran " + SEED_WORKERS + " jobs on " + SEED_WORKERS + " cores; this machine has " + cores
                    + ", so the thread sweep stops at " + t + ".\n\n" + table.quickNote(run.manifest().path("quick").asBoolean(false)))
                    .text(table.slowdownTable("raw, depth " + SEED_DEPTH, raw))
                    .chart("dm-css-ref-sweep.svg", sweepChart(table), "throughput by threads at depth " + SEED_DEPTH)
                    .text(allocation(table, t));
            jvm.put("raw", raw);
            StackTable.Row last = table.last();
            NoiseFloor floor = last.floor();
            head.raw(last.seed()).floor(floor).rawFloor(floor).extra("jvm_raw_vs_percpu", Parts.json(last.cmpxchg()));
            page.text(table.depthTable(jvm)).chart("dm-css-ref-depth.svg", table.depthChart(), "ns per I/O by depth");
            if (f.injected() != null) {
                page.text(StackTable.injected(f.injected(), jvm));
            }
        } else {
            page.text("### JVM model\n\nNo variant table in this run (`raw/dm-css-ref/dmcss-rR-tT.json`).\n\n");
        }
        page.text(calibrated(f.calibrated(), head, jvm));
        String links = page.flamegraphLinks(ID);
        if (!links.isEmpty()) {
            page.text("CPU flamegraphs (async-profiler; dm-linear x" + SEED_DEPTH + " over the ram disk, highest thread count), one per"
                    + " variant: " + links + ".\n\n");
        }
        Map<String, Object> k = new LinkedHashMap<>();
        if (!kernel.isEmpty()) {
            page.text(kernel.text(k)).text(fidelity(table, kernel, k));
            page.put("kernel", k);
        } else {
            page.text("### Today's kernel\n\nNot in this run (the kernel side runs as root: `sudo ./lab pair dm-css-ref`; on a host"
                    + " without device-mapper it runs in the lab's guest VM, which needs qemu).\n\n");
            page.put("kernel", null);
        }
        Optional<LabKernelPart> lab = f.lab();
        lab.ifPresent(l -> page.text(l.text(head)).put("lab_kernel", l.summary()));
        page.put("jvm", jvm.isEmpty() ? null : jvm);
        head.metric("time with / time without one more atomic on the css count per clone: `atomic-cmpxchg` / `atomic`, dm-linear x"
                        + SEED_DEPTH + ", the seed's contrast (seed: kernel (5) / (4), 12 jobs on 12 cores; JVM: " + t + (t == 1 ? " thread"
                        : " threads") + " on " + cores + " cores; `atomic-cmpxchg` / `percpu` beside it in summary.json)")
                .kernel(null, "today's kernel takes the css reference per-cpu and cannot switch it; its runs measure a dm layer and a"
                        + " child cgroup per I/O (in the section)")
                .note("jvm: `atomic-cmpxchg` / `atomic` (the seed's (5) / (4)) at depth " + SEED_DEPTH + " and the most threads,"
                        + " calibrated where the run has a calibration, else raw; jvm_*_vs_percpu: `atomic-cmpxchg` / `percpu`, today's css"
                        + " against the seed's worst; implied_op_ns: what one shared-line operation must cost for the seed's 1.74x between"
                        + " its kernels (5) and (4), `atomic-cmpxchg` and `atomic` here");
        return page.build(lab.map(l -> l.onto(head)).orElse(head).toMap());
    }

    private static String seed() {
        return "The seed (" + FIX.seedFile() + ", April 2013): Mikulas Patocka, arguing against Tejun Heo's request that dm forward"
                + " the bio's cgroup to every clone with a css reference, measured what one atomic on that reference costs. With 5"
                + " nested dm-linear devices over a 4 GiB ramdisk, `fio --rw=randrw --bs=512 --direct=1 --size=1G` as 12 jobs on a"
                + " 12-core machine:\n\n| kernel | per clone | time |\n|---|---|---:|\n"
                + "| (4) | forwarding: `css_tryget` at the clone, `css_put` as it is freed (shared atomics on the css count) | 23 s |\n"
                + "| (5) | (4) + a no-op `cmpxchg` on the css count at the clone and where each bio lets go | 40 s ("
                + Fmt.ratio(SEED_SLOWDOWN) + ") |\n\n"
                + "\"Every single atomic reference in the block layer is measurable.\" Tejun's answer: make the css reference per-cpu;"
                + " today it is a `percpu_ref`. The model's variants: `none` (nothing forwarded), `atomic` (kernel (4)),"
                + " `atomic-cmpxchg` (kernel (5)), `percpu` (today). One op is one randrw 512-byte bio through the stack to a ram disk"
                + " (brd), every bio of it holding the cgroup; the workers share one cgroup, as the seed's fio did.\n\n";
    }

    /** Total throughput by threads at the seed's depth, one series per variant. */
    private static String sweepChart(StackTable s) {
        return Parts.sweepChart("dm-linear x" + SEED_DEPTH + ": total throughput by threads", "M I/Os per second (all threads)",
                VARIANTS, s.threads(), (v, n) -> Parts.point(n, s.throughput(v, n)));
    }

    /** B/op of each variant at the seed's depth (JMH -prof gc): the hot path should allocate nothing. */
    private static String allocation(StackTable s, int t) {
        List<String> parts = new ArrayList<>();
        for (String v : VARIANTS) {
            double b = s.bytesPerOp(v);
            parts.add("`" + v + "` " + (Double.isNaN(b) ? "n/a" : Fmt.f(b, 3)));
        }
        return "Allocation per op at depth " + SEED_DEPTH + ", " + t + (t == 1 ? " thread" : " threads") + " (JMH `-prof gc`, B/op): "
                + String.join(", ", parts) + ".\n\n";
    }

    /**
     * The calibrated side's figures; null without a calibrated model. Reads the counts and the cost
     * sweep after the calibrated table, as the page prints them.
     */
    private static CalibratedFigures estimateCalibrated(Calibration cal, SweepEstimates calibrated, SweepEstimates raw, Path dir,
                                                        RunDir run) throws IOException {
        if (cal == null || calibrated == null || calibrated.isEmpty()) {
            return null;
        }
        int t = calibrated.threadCounts().last();
        StackTable table = StackTable.slowdowns(calibrated, SEED_DEPTH);
        List<String> all = new ArrayList<>(VARIANTS);
        all.add(CONTROL);
        Parts.ForkCvs cv = Parts.ForkCvs.estimate(calibrated, all, v -> key(v, SEED_DEPTH), t);
        LineCounts counts = LineCounts.read(dir);
        LineCost costs = CostSweep.read(dir, DmCssRefRaw.COSTS, run::gap);
        if (counts == null || costs.isEmpty()) {
            return new CalibratedFigures(cal, t, table, cv, false, null, null);
        }
        Map<String, String> point = Map.of("depth", Integer.toString(SEED_DEPTH), "inject", "none");
        Prediction p = new Prediction(calibrated, raw.where("baseNs", "0", "0"), v -> key(v, SEED_DEPTH), v -> counts.get(v, point),
                costs, cal.baseNs(), 0, ATOMIC);
        PredictionText.Report report = PredictionText.estimate(p, List.of(
                new Prediction.Pair(CMPXCHG, ATOMIC, "the seed's pair, the headline: `atomic` / `atomic-cmpxchg` (kernel (4) over (5))"),
                new Prediction.Pair(CMPXCHG, PERCPU, "beside it: `percpu` / `atomic-cmpxchg`"),
                new Prediction.Pair(ATOMIC, PERCPU, "Tejun's fix: `percpu` / `atomic`")),
                CMPXCHG, ATOMIC, t, SEED_SLOWDOWN, SEED_WORKERS, "The seed ran 12 jobs on 12 cores, where twelve threads, not "
                        + t + ", meet on the css count's line.", cal.baseInterval());
        return new CalibratedFigures(cal, t, table, cv, p.byVisits(ATOMIC), report,
                estimateImplied(p, counts.get(CMPXCHG, point), counts.get(ATOMIC, point), t));
    }

    private static String calibrated(CalibratedFigures f, Headline head, Map<String, Object> jvm) {
        StringBuilder b = new StringBuilder("### JVM model, calibrated to the device, and predicted from the css operations\n\n");
        if (f == null) {
            return b.append("Not in this run: no calibrated model (`raw/dm-css-ref/calibration.json`): neither its kernel side nor a"
                    + " committed run measured the kernel's CPU per I/O for the seed's job.\n\n").toString();
        }
        Calibration cal = f.cal();
        int t = f.t();
        b.append(Parts.calibration(cal));
        Map<String, Object> c = new LinkedHashMap<>();
        b.append(f.table().slowdownTable("calibrated (+" + cal.baseNs() + " ns per I/O: " + cal.deviceNs()
                + " in the ram disk, " + cal.userNs() + " in the worker between I/Os), depth " + SEED_DEPTH, c));
        Map<String, Object> cv = new LinkedHashMap<>();
        b.append(Parts.forkCv(f.cv(), cv));
        c.put("fork_cv", cv.isEmpty() ? null : cv);
        jvm.put("calibrated", c);
        StackTable.Row last = f.table().last();
        head.calibrated(last.seed()).floor(last.floor()).extra("jvm_calibrated_vs_percpu", Parts.json(last.cmpxchg())).base(cal);
        if (f.prediction() == null) {
            return b.append("No shared-line counts or cost sweep in this run: no prediction.\n\n").toString();
        }
        b.append(f.byVisits()
                ? "Predicted from the shared lines: one one-thread time T for every variant, `atomic`'s (the calibrated base plus the raw model's one-thread"
                + " ns) and each variant's visits per I/O to the cgroup's css count as counted in the model (a visit: the operations on the line"
                + " between two stretches of the I/O's work, back to back: the submitter's `tryget` with every clone's `get` and the"
                + " seed's probes on the way down, every `put` on the way up; the disk's work and the worker's lie between them), and"
                + " what one visit costs here at the I/O's rhythm (the cost sweep, same run: an RMW pair per visit with the same work"
                + " between pairs; on two cores a line is paid for once per visit, by its first operation). The seed's figure is"
                + " between its kernels (5) and (4), `atomic-cmpxchg` and `atomic` here, which is where the implied cost comes from:\n\n"
                : "Predicted from the shared lines: one one-thread time T for every variant, `atomic`'s (the calibrated base plus the raw model's one-thread"
                + " ns), each variant's operations per I/O on the cgroup's css count as counted in the model (per bio of the stack: the"
                + " submitter's `tryget` a `cas`, each clone's `get` and each bio's `put` an `rmw`, the seed's probes a `cas` each),"
                + " and what one such operation costs here at this gap (the cost sweep, same run). The seed's figure is between its"
                + " kernels (5) and (4), `atomic-cmpxchg` and `atomic` here, which is where the implied cost comes from:\n\n");
        Map<String, Object> pj = PredictionText.report(f.prediction(), b, head);
        Double predicted = f.prediction().predicted();
        head.predicted(predicted);
        pj.put("headline_predicted", predicted);
        b.append(impliedPerOperation(f.implied(), t, head, pj));
        jvm.put("prediction", pj);
        return b.toString();
    }

    /**
     * The seed's 1.74x per shared-line operation, as the seed counts them (kernel (5) adds a probe per clone and per put): the
     * cost one operation must have for it on top of this calibrated I/O, beside what a {@code cas} costs here at this gap. Per
     * operation even where the prediction prices visits: between kernels (5) and (4) the visits do not differ (the probes ride
     * on visits the atomics make anyway), so per visit the seed's figure implies nothing. Null without both counts.
     */
    private static Implied estimateImplied(Prediction p, LineCounts.Entry before, LineCounts.Entry after, int t) {
        if (before == null || after == null) {
            return null;
        }
        double mb = before.perIoByKind().values().stream().mapToDouble(Double::doubleValue).sum();
        double ma = after.perIoByKind().values().stream().mapToDouble(Double::doubleValue).sum();
        return new Implied(mb, ma, p.oneThread(CMPXCHG), SharedLineModel.impliedCost(SEED_SLOWDOWN, p.oneThread(CMPXCHG), mb, ma),
                p.extra("cas", t), p.overRounds(q -> SharedLineModel.impliedCost(SEED_SLOWDOWN, q.oneThread(CMPXCHG), mb, ma), true),
                p.overRounds(q -> q.extra("cas", t), true), p.gapNs());
    }

    /** {@link #estimateImplied}'s figures in words; the headline's implied and measured figures. */
    private static String impliedPerOperation(Implied x, int t, Headline head, Map<String, Object> pj) {
        if (x == null) {
            return "";
        }
        Double i = Double.isFinite(x.implied()) ? x.implied() : null;
        Double m = Double.isFinite(x.cas()) ? x.cas() : null;
        head.implied(i, m);
        Estimate iOver = x.iOver();
        Estimate mOver = x.mOver();
        head.impliedOverRounds(iOver, mOver);
        pj.put("implied_op_ns_per_operation", i);
        pj.put("measured_cas_ns", m);
        pj.put("implied_op_ns_per_operation_over_rounds", Parts.json(iOver));
        pj.put("measured_cas_ns_over_rounds", Parts.json(mOver));
        return "Per operation, as the seed counts them (`atomic-cmpxchg` " + Fmt.f(x.mb(), 0) + " shared-line operations per I/O,"
                + " `atomic` " + Fmt.f(x.ma(), 0) + ": one probe per clone and one per put more): for the seed's " + Fmt.ratio(SEED_SLOWDOWN)
                + " on top of this calibrated I/O (" + Fmt.f(x.oneThread(), 0) + " ns at one thread) one operation would have to"
                + " cost " + (i == null ? "n/a" : Fmt.f(i, 0) + " ns") + " more than a private one; here, at " + t
                + (t == 1 ? " thread" : " threads") + " and a gap of " + x.gapNs() + " ns, a `cas` costs " + (m == null ? "n/a" : Fmt.f(m, 1)
                + " ns") + " more (made within each round instead: " + (iOver == null ? "n/a" : Fmt.est(iOver, 0) + " ns") + " and "
                + (mOver == null ? "n/a" : Fmt.est(mOver, 1) + " ns") + ", the means over rounds with their 95% intervals). These are the"
                + " headline's `implied_op_ns` and `measured_op_ns`.\n\n";
    }

    /** Per layer and per cgroup, model beside kernel. */
    private static String fidelity(StackTable table, DmKernel k, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("### Fidelity: a dm layer, model against kernel\n\n");
        if (table == null) {
            return b.append("No model table in this run.\n\n").toString();
        }
        Estimate model = table.perLayer(PERCPU, 1);
        Estimate bare = table.ns(PERCPU, 0, 1);
        var kernel = k.perLayer("root", 1);
        var share = k.perLayerShare("root", 1);
        b.append("| side | a dm layer, ns per I/O (1 thread / job) | the bare device's I/O, ns | a layer / the bare I/O |\n|---|---:|---:|---:|\n")
                .append("| JVM model, `percpu` (today), raw | ").append(Fmt.est(model, 1)).append(" | ")
                .append(bare == null ? "—" : Fmt.f(bare.value(), 1)).append(" | ")
                .append(model == null || bare == null ? "—" : Fmt.f(100 * model.value() / bare.value(), 0) + "%").append(" |\n")
                .append("| kernel, root cgroup, fio").append(k.emulated() ? " (TCG: emulation speed)" : "").append(" | ")
                .append(Fmt.est(kernel, 0)).append(" | ")
                .append(k.ns(0, "root", 1) == null ? "—" : Fmt.f(k.ns(0, "root", 1).value(), 0)).append(" | ")
                .append(share == null ? "—" : Fmt.f(100 * share.value(), 1) + "%").append(" |\n\n");
        out.put("model_ns_per_layer_1t", Parts.json(model));
        b.append("The model's layer is the dm core's work alone (clone, table lookup under RCU, map, completion) on a bio whose"
                + " device work is a 512-byte copy; the kernel's also pays `submit_bio_noacct` and its checks per layer, the bio's"
                + " blkg association and the accounting of every dm device (`dm_start_io_acct`), and its bare I/O is a system call"
                + " through fio: the two columns of ns are different amounts of work, and the model's share of a layer says why its"
                + " raw ratios exaggerate. Where the model simplifies (jvm-engine `lab.engine.dm.MappedDevice`): no SRCU (the live"
                + " table is read under RCU, dm's REQ_NOWAIT path), no splits, no suspend (a table swap drains the old table's I/O),"
                + " no io_context references (per task, never shared).\n\n");
        return b.toString();
    }
}
