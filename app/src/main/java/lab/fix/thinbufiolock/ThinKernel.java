package lab.fix.thinbufiolock;

import static lab.fix.thinbufiolock.ThinBufioLock.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.DoubleBinaryOperator;
import java.util.function.ToDoubleFunction;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.MalformedResultException;
import lab.analysis.Stats;
import lab.analysis.flame.FrameShares;
import lab.fix.EmulationProbe;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.notebook.Parts;
import lab.results.RunDir;

/**
 * The kernel side of thin-bufio-lock (scenario {@code thin-bufio-lock}): a thin volume of a real
 * thin pool over brd, written whole first, and dm-linear over the pool's data disk, fio psync
 * randrw 4k direct at numjobs 1..cores, each run under perf stat, natively where the host kernel
 * has brd, dm-mod and dm-thin-pool, else in the guest VM (under TCG its ns are emulation speed and
 * the emulation probe scales them; natively and under KVM they stand as measured). The lab has
 * no kernel switch between the bufio locks yet, so what it measures is what the thin volume costs
 * over dm-linear per job count (task-clock per I/O and IOPS, thin over linear within each round),
 * set beside the model's variant that this kernel's dm-bufio is ({@link #kernelVariant}: before
 * 6.4 the per-client mutex, the seed's "before", as Debian 12's 6.1 in the guest; from 6.4 the
 * striped trees) and the other, at the same thread counts.
 */
final class ThinKernel {
    /** (device, jobs) -> round -> the run's row. */
    private final Map<String, Map<Integer, KernelRuns.Row>> fio = new TreeMap<>();
    private final TreeSet<Integer> jobs = new TreeSet<>();
    private final KernelRuns runs;
    private final EmulationProbe probe;
    /** The figures ({@link #estimate}): by device and jobs, by jobs. */
    private final Map<String, Estimate> ns = new TreeMap<>();
    private final Map<String, Estimate> iops = new TreeMap<>();
    private final Map<Integer, Estimate> iopsRatio = new TreeMap<>();
    private final Map<Integer, Estimate> cpuRatio = new TreeMap<>();
    private final Map<Integer, Estimate> extra = new TreeMap<>();
    /** The model's figures beside them, by variant and jobs ({@link #estimateModel}). */
    private final Map<String, Estimate> modelOverLinear = new TreeMap<>();
    private final Map<String, Estimate> modelExtra = new TreeMap<>();

    private ThinKernel(KernelRuns runs) {
        this.runs = runs;
        this.probe = EmulationProbe.of(runs);
        for (KernelRuns.Row row : runs.rows()) {
            ThinBufioLockRaw.KernelRun k = ThinBufioLockRaw.KernelRun.parse(row.job());
            if (k != null && row.tool().equals("fio")) {
                fio.computeIfAbsent(cell(k.device(), k.jobs()), x -> new TreeMap<>()).put(k.round(), row);
                jobs.add(k.jobs());
            }
        }
        estimate();
    }

    /**
     * The kernel side of {@code runs}, with the model's figures at as many threads as jobs beside
     * it: the thin volume's sweep {@code thin} and dm-linear's {@code linear}.
     */
    static ThinKernel of(KernelRuns runs, SweepEstimates thin, SweepEstimates linear) {
        ThinKernel k = new ThinKernel(runs);
        k.estimateModel(thin, linear);
        return k;
    }

    /** The model's {@code striped} and {@code mutex} over dm-linear at each job count the kernel ran. */
    private void estimateModel(SweepEstimates thin, SweepEstimates linear) {
        for (int j : jobs) {
            for (String v : List.of(STRIPED, MUTEX)) {
                modelOverLinear.put(v + "/" + j, estimateModelOverLinear(thin, linear, v, j));
                modelExtra.put(v + "/" + j, estimateModelExtraNs(thin, linear, v, j));
            }
        }
    }

    boolean isEmpty() {
        return fio.isEmpty();
    }

    private static String cell(String device, int jobs) {
        return device + "/" + jobs;
    }

    private Map<Integer, KernelRuns.Row> rounds(String device, int j) {
        return fio.getOrDefault(cell(device, j), Map.of());
    }

    /** Every figure of the table, made once from the rows when the side is read. */
    private void estimate() {
        for (int j : jobs) {
            for (String device : List.of(THIN, LINEAR)) {
                ns.put(cell(device, j), Estimator.of(rounds(device, j).values().stream().map(KernelRuns.Row::taskClockNsPerIo)
                        .filter(x -> Double.isFinite(x) && x > 0).toList()));
                iops.put(cell(device, j), Estimator.of(rounds(device, j).values().stream().map(KernelRuns.Row::iops).filter(x -> x > 0).toList()));
            }
            iopsRatio.put(j, Estimator.of(perRound(j, KernelRuns.Row::iops, (thin, lin) -> thin / lin)));
            cpuRatio.put(j, Estimator.of(perRound(j, KernelRuns.Row::taskClockNsPerIo, (thin, lin) -> lin / thin)));
            Stats.Spread factor = probe.scale();
            double by = factor == null ? 1 : factor.median();
            extra.put(j, Estimator.mean(perRound(j, KernelRuns.Row::taskClockNsPerIo, (thin, lin) -> (thin - lin) / by)));
        }
    }

    /** {@code f(f(thin), f(linear))} in each round that has both (positive and finite). */
    private List<Double> perRound(int j, ToDoubleFunction<KernelRuns.Row> f, DoubleBinaryOperator ratio) {
        Map<Integer, KernelRuns.Row> thin = rounds(THIN, j);
        List<Double> r = new ArrayList<>();
        rounds(LINEAR, j).forEach((round, lin) -> {
            KernelRuns.Row t = thin.get(round);
            if (t != null && f.applyAsDouble(t) > 0 && f.applyAsDouble(lin) > 0 && Double.isFinite(f.applyAsDouble(t))
                    && Double.isFinite(f.applyAsDouble(lin))) {
                r.add(ratio.applyAsDouble(f.applyAsDouble(t), f.applyAsDouble(lin)));
            }
        });
        return r;
    }

    /** Task-clock ns per I/O of {@code device} at {@code j} jobs: the geometric mean over rounds with its interval. */
    Estimate ns(String device, int j) {
        return ns.get(cell(device, j));
    }

    /** thin over linear throughput, IOPS within each round: below 1 the thin volume is slower. */
    Estimate thinOverLinearIops(int j) {
        return iopsRatio.get(j);
    }

    /** thin over linear I/Os per CPU: linear's task-clock per I/O over thin's, within each round. */
    Estimate thinOverLinearCpu(int j) {
        return cpuRatio.get(j);
    }

    /**
     * The model's {@code variant} on the thin volume (whole tree cached) over dm-linear, throughput
     * at {@code t} threads: dm-linear's ns per op over the variant's, within each round (the two are
     * JMH runs of their own in the same round); null where the model has no such round.
     */
    private static Estimate estimateModelOverLinear(SweepEstimates thin, SweepEstimates linear, String variant, int t) {
        return linear.across(thin, linear(), key(variant, WHOLE), t, "linear/thin", (lin, x) -> lin / x, false);
    }

    /**
     * What the model's thin volume ({@code variant}, whole tree cached) adds to an I/O over dm-linear
     * at {@code t} threads: its ns per op less dm-linear's, within each round; null where none.
     */
    private static Estimate estimateModelExtraNs(SweepEstimates thin, SweepEstimates linear, String variant, int t) {
        return thin.across(linear, key(variant, WHOLE), linear(), t, "thin-linear", (x, lin) -> x - lin, true);
    }

    /**
     * What the kernel's thin volume adds to an I/O's CPU over dm-linear at {@code j} jobs: thin's
     * task-clock per I/O less linear's, within each round, divided by the emulation probe's median
     * where the runs were emulated (TCG) and a probe ran (else as measured: natively, or under KVM);
     * the mean over rounds; null where none.
     */
    Estimate kernelExtraNs(int j) {
        return extra.get(j);
    }

    /**
     * The kernel table, thin beside linear per job count, and beside it the model's at the same
     * thread counts: throughput over dm-linear, and the ns the thin volume adds to an I/O (the
     * kernel's scaled to the host by the probe where emulated).
     */
    String text(RunDir run, Path dir, Map<String, Object> out) {
        Map<String, String> env = runs.env();
        StringBuilder b = new StringBuilder("### The kernel: a thin volume against dm-linear over the same brd\n\n")
                .append("Kernel ").append(env.getOrDefault("kernel", "?")).append(", ").append(env.getOrDefault("environment", "native"))
                .append(env.containsKey("modules") ? " (modules: " + env.get("modules") + ")" : "")
                .append(", ").append(env.getOrDefault("cores", "?")).append(" cores. Devices: ").append(env.getOrDefault("devices", "?"))
                .append(". Provisioned: ").append(env.getOrDefault("provisioned", "?")).append(". fio psync randrw 4k direct over the whole ")
                .append(env.getOrDefault("volume_mb", "?")).append(" MiB volume (data blocks of ").append(env.getOrDefault("data_block_kb", "?"))
                .append(" KiB), numjobs ").append(env.getOrDefault("numjobs", "?")).append(", ").append(env.getOrDefault("runtime_s", "?"))
                .append(" s per run, ").append(rounds()).append(" round(s), thin and linear back to back for each job count")
                .append(env.containsKey("dm_bufio") ? "; dm-bufio: " + env.get("dm_bufio") : "")
                .append(files(run, dir)).append(". ").append(counterpart())
                .append(" Task-clock ns per I/O (perf stat; fio's whole process) and IOPS,")
                .append(" the geometric mean over rounds with its 95% interval; thin over linear within each round (throughput: IOPS, and I/Os per CPU: linear's")
                .append(" task-clock per I/O over thin's), and what the thin volume adds to an I/O's CPU, thin's task-clock per I/O less")
                .append(" linear's in each round").append(probe.scale() == null ? "" : ", divided by the emulation probe's median (below)")
                .append(", its mean over rounds")
                .append("; beside them the model's, at as many threads as jobs with the whole tree cached: throughput over dm-linear and")
                .append(" ns per op over dm-linear's, raw (a calibration would add the same base to both sides and hide the difference;")
                .append(" the thin volume's added cost is the figure to compare):\n\n| jobs | thin ns/I/O | thin IOPS | linear ns/I/O |")
                .append(" linear IOPS | thin / linear, IOPS | thin / linear, per CPU | thin adds, ns per I/O |");
        for (String v : List.of(STRIPED, MUTEX)) {
            b.append(" model `").append(v).append("` / linear | model `").append(v).append("` adds, ns |");
        }
        b.append("\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        Map<String, Object> byJobs = new LinkedHashMap<>();
        for (int j : jobs) {
            Estimate iopsRatio = thinOverLinearIops(j);
            Estimate cpuRatio = thinOverLinearCpu(j);
            b.append("| ").append(j);
            for (String dev : List.of(THIN, LINEAR)) {
                b.append(" | ").append(Fmt.est(ns(dev, j), 0)).append(" | ").append(Fmt.est(iops.get(cell(dev, j)), 0));
            }
            Estimate extra = kernelExtraNs(j);
            b.append(" | ").append(ratio(iopsRatio)).append(" | ").append(ratio(cpuRatio)).append(" | ").append(Fmt.est(extra, 0));
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("thin_ns_per_io", Parts.json(ns(THIN, j)));
            row.put("linear_ns_per_io", Parts.json(ns(LINEAR, j)));
            row.put("thin_iops", Parts.json(iops.get(cell(THIN, j))));
            row.put("linear_iops", Parts.json(iops.get(cell(LINEAR, j))));
            row.put("thin_vs_linear_iops", Parts.json(iopsRatio));
            row.put("thin_vs_linear_per_cpu", Parts.json(cpuRatio));
            row.put("thin_extra_ns_per_io", Parts.json(extra));
            for (String v : List.of(STRIPED, MUTEX)) {
                Estimate r = modelOverLinear.get(v + "/" + j);
                Estimate x = modelExtra.get(v + "/" + j);
                b.append(" | ").append(ratio(r)).append(" | ").append(Fmt.est(x, 0));
                row.put("model_" + v + "_vs_linear", Parts.json(r));
                row.put("model_" + v + "_extra_ns", Parts.json(x));
            }
            b.append(" |\n");
            byJobs.put(Integer.toString(j), row);
        }
        out.put("by_jobs", byJobs);
        out.put("kernel_variant", kernelVariant());
        out.put("emulated", probe.emulated());
        b.append('\n');
        Stats.Spread factor = probe.scale();
        if (probe.virtualised() && probe.factor() != null) {
            out.put("probe_factor", Parts.json(probe.factor()));
            b.append(EmulationProbe.virtualisedNote(probe.factor()));
        }
        if (factor != null) {
            out.put("emulation_factor", Parts.json(factor));
            Estimate one = ns(THIN, 1);
            Estimate lin = ns(LINEAR, 1);
            b.append("Scaled to the host by ").append(EmulationProbe.text(factor)).append(": an I/O through the thin volume would take about ")
                    .append(one == null ? "—" : Fmt.f(one.value() / factor.median(), 0)).append(" ns of CPU natively at 1 job, through")
                    .append(" dm-linear about ").append(lin == null ? "—" : Fmt.f(lin.value() / factor.median(), 0))
                    .append("; an estimate: emulation slows kernel code by different factors, and the probe's code (zram) is not dm's.\n\n");
        }
        if (probe.emulated()) {
            b.append(EmulationProbe.emulatedNote("thin against linear, in the same round and job count"));
        }
        b.append(flamegraph(run, dir, out));
        b.append("The raw model's I/O costs less than the kernel's (no system call, no fio), so the thin volume's work and its locks"
                + " weigh more in its ratios than in the kernel's; the ns it adds per I/O are the like-for-like figure. With more jobs than"
                + " the machine has cores, the kernel's jobs share CPUs, which its IOPS show and its task-clock per I/O does not.\n\n");
        return b.toString();
    }

    /**
     * The model's variant this kernel's dm-bufio is, from env.txt's {@code dm_bufio} (the scenario
     * reads /proc/kallsyms): {@code mutex} before 6.4's rework, {@code striped} after it; null if
     * the run does not say.
     */
    String kernelVariant() {
        String d = runs.env().getOrDefault("dm_bufio", "");
        if (d.startsWith("before 6.4")) {
            return MUTEX;
        }
        return d.startsWith("no __relink_lru") ? STRIPED : null;
    }

    /** The most rounds any (device, jobs) ran. */
    private int rounds() {
        return fio.values().stream().mapToInt(Map::size).max().orElse(0);
    }

    private static String ratio(Estimate s) {
        return s == null ? "—" : s.format(2) + "x";
    }

    /** Which of the model's variants the kernel's thin over linear is to be read against, and why. */
    private String counterpart() {
        String v = kernelVariant();
        String base = "The lab cannot switch this kernel's bufio lock, so what it measures is what the thin volume costs over dm-linear; ";
        if (MUTEX.equals(v)) {
            return base + "this kernel's dm-bufio predates 6.4's rework and the seed's series (never merged as posted), so its thin"
                    + " volume takes the client mutex at every node read: the model's `" + MUTEX + "` over dm-linear is its"
                    + " counterpart (`" + STRIPED + "` over dm-linear is 6.4's).";
        }
        if (STRIPED.equals(v)) {
            return base + "this kernel's dm-bufio is 6.4's striped cache: the model's `" + STRIPED + "` over dm-linear is its"
                    + " counterpart (`" + MUTEX + "` over dm-linear is the seed's before).";
        }
        return base + "the run does not say which dm-bufio the kernel has: the model's `" + MUTEX + "` (before 6.4) and `" + STRIPED
                + "` (6.4's) over dm-linear are both shown.";
    }

    /** The kernel frames the flamegraph paragraph weighs, in its order: thin's map, its lookup, dm-bufio's, the locks', the copy. */
    static final List<String> FRAMES = List.of("thin_map", "dm_thin_find_block", "new_read", "dm_bufio_release", "__mutex_lock.constprop.0",
            "mutex_spin_on_owner", "dm_bio_detain", "dm_deferred_entry_inc", "thin_endio", "brd_submit_bio");

    /**
     * The kernel flamegraph of the thin volume at the most jobs (the scenario's {@code
     * thin-jN.fio.kernel.collapsed.gz}, perf record with call graphs where the runs ran), weighed:
     * the share of all samples inside each of {@link #FRAMES}; nothing where the run has none.
     */
    private String flamegraph(RunDir run, Path dir, Map<String, Object> out) {
        Integer j = jobs.descendingSet().stream().filter(n -> Files.exists(dir.resolve(ThinBufioLockRaw.kernelFlamegraph(n, false))))
                .findFirst().orElse(null);
        if (j == null) {
            out.put("flamegraph", null);
            return "";
        }
        Path collapsed = dir.resolve(ThinBufioLockRaw.kernelFlamegraph(j, false));
        FrameShares f;
        try {
            f = FrameShares.of(collapsed, FRAMES);
        } catch (IOException | MalformedResultException e) {
            out.put("flamegraph", null);
            return "The kernel flamegraph " + run.relative(collapsed) + " could not be read: " + e.getMessage() + ".\n\n";
        }
        Map<String, Object> fj = new LinkedHashMap<>();
        fj.put("file", run.relative(collapsed));
        fj.put("jobs", j);
        fj.put("samples", f.samples());
        fj.put("shares", f.shares());
        out.put("flamegraph", fj);
        Path svg = dir.resolve(ThinBufioLockRaw.kernelFlamegraph(j, true));
        Map<String, Double> sh = f.shares();
        return "Where the kernel's CPU went, thin volume, " + j + (j == 1 ? " job" : " jobs") + " (perf record -g, " + f.samples()
                + " samples of the whole " + (probe.guest() ? "guest" : "machine") + (Files.exists(svg) ? ", [flamegraph]("
                + run.relative(svg) + ")" : "") + "; a frame's share is of all samples, its callees included): `thin_map` "
                + pct(sh, "thin_map") + ", of it the btree lookup `dm_thin_find_block` " + pct(sh, "dm_thin_find_block")
                + " (dm-bufio's gets, `new_read`, " + pct(sh, "new_read") + ", its releases " + pct(sh, "dm_bufio_release")
                + "), the client mutex's slow path `__mutex_lock` " + pct(sh, "__mutex_lock.constprop.0") + " (spinning on its owner, `"
                + "mutex_spin_on_owner`, " + pct(sh, "mutex_spin_on_owner") + "), the bio prison's `dm_bio_detain` " + pct(sh, "dm_bio_detain")
                + " and `all_io_ds`' `dm_deferred_entry_inc` " + pct(sh, "dm_deferred_entry_inc") + "; `thin_endio` " + pct(sh, "thin_endio")
                + "; brd's copy, `brd_submit_bio`, " + pct(sh, "brd_submit_bio") + ".\n\n";
    }

    private static String pct(Map<String, Double> shares, String frame) {
        return Fmt.f(100 * shares.getOrDefault(frame, 0.0), 1) + "%";
    }

    /** Links to the pool's status and the dm table, where the scenario wrote them. */
    private static String files(RunDir run, Path dir) {
        List<String> links = new ArrayList<>();
        for (String f : List.of(ThinBufioLockRaw.THIN_STATUS, ThinBufioLockRaw.DM_TABLE)) {
            if (Files.exists(dir.resolve(f))) {
                links.add("[" + f + "](" + run.relative(dir.resolve(f)) + ")");
            }
        }
        return links.isEmpty() ? "" : " (" + String.join(", ", links) + ")";
    }
}
