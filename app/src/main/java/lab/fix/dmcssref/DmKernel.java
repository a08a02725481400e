package lab.fix.dmcssref;

import static lab.fix.dmcssref.DmCssRef.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.fix.EmulationProbe;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.notebook.Parts;

/**
 * The kernel side of dm-css-ref (scenario {@code dm-css-ref}): real dm-linear stacks over brd,
 * depth 0..5, the job in the root cgroup and in a child, fio psync randrw bs=512 direct, each run
 * under perf stat, natively where the host kernel has brd and dm-mod, else in the guest VM
 * (env.txt's {@code environment}: under TCG the ns are emulation speed and the emulation probe
 * scales them; natively and under KVM they stand as measured). Today's kernel has the per-cpu
 * css, so what it measures is the cost of a dm layer and of the child cgroup's association, per
 * I/O: task-clock per I/O per round, the slope over depth fitted per round (ns per layer), and
 * child minus root per round.
 */
final class DmKernel {
    /** (depth, cgroup, jobs) of fio -> round -> the run's row. */
    private final Map<String, Map<Integer, KernelRuns.Row>> fio = new TreeMap<>();
    private final TreeSet<Integer> jobs = new TreeSet<>();
    private final TreeSet<Integer> depths = new TreeSet<>();
    private final KernelRuns runs;
    private final List<KernelRuns.Row> bridge = new ArrayList<>();
    /** The emulation probe, where the runs went to the guest VM (it scales them under TCG only). */
    private final EmulationProbe probe;
    /** The figures ({@link #estimate}): by cell, by cgroup and jobs, by jobs. */
    private final Map<String, Estimate> ns = new TreeMap<>();
    private final Map<String, Estimate> iops = new TreeMap<>();
    private final Map<String, Estimate> perLayer = new TreeMap<>();
    private final Map<String, Estimate> perLayerShare = new TreeMap<>();
    private final Map<Integer, Estimate> childCost = new TreeMap<>();

    private DmKernel(KernelRuns runs) {
        this.runs = runs;
        this.probe = EmulationProbe.of(runs);
        for (KernelRuns.Row row : runs.rows()) {
            if (EmulationProbe.isProbe(row)) {
                continue;
            }
            DmCssRefRaw.KernelRun k = DmCssRefRaw.KernelRun.parse(row.job());
            if (k == null) {
                continue;
            }
            if (!row.tool().equals("fio")) {
                bridge.add(row);
                continue;
            }
            fio.computeIfAbsent(cell(k.depth(), k.cgroup(), k.jobs()), x -> new TreeMap<>()).put(k.round(), row);
            jobs.add(k.jobs());
            depths.add(k.depth());
        }
        estimate();
    }

    static DmKernel of(KernelRuns runs) {
        return new DmKernel(runs);
    }

    boolean isEmpty() {
        return fio.isEmpty();
    }

    /** Whether the runs ran under emulation (TCG): then only in-run ratios are data. */
    boolean emulated() {
        return probe.emulated();
    }

    private static String cell(int depth, String cg, int jobs) {
        return depth + "/" + cg + "/" + jobs;
    }

    private Map<Integer, KernelRuns.Row> rounds(int depth, String cg, int j) {
        return fio.getOrDefault(cell(depth, cg, j), Map.of());
    }

    /** Every figure of the tables, made once from the rows when the side is read. */
    private void estimate() {
        for (int j : jobs) {
            for (String cg : List.of("root", "child")) {
                for (int d : depths) {
                    Map<Integer, KernelRuns.Row> r = rounds(d, cg, j);
                    ns.put(cell(d, cg, j), Estimator.of(r.values().stream().map(KernelRuns.Row::taskClockNsPerIo)
                            .filter(x -> Double.isFinite(x) && x > 0).toList()));
                    iops.put(cell(d, cg, j), Estimator.of(r.values().stream().map(KernelRuns.Row::iops).filter(x -> x > 0).toList()));
                }
                Map<Integer, List<double[]>> byRound = new TreeMap<>();
                for (int d : depths) {
                    rounds(d, cg, j).forEach((r, row) -> {
                        if (Double.isFinite(row.taskClockNsPerIo())) {
                            byRound.computeIfAbsent(r, x -> new ArrayList<>()).add(new double[] {d, row.taskClockNsPerIo()});
                        }
                    });
                }
                List<Double> slopes = new ArrayList<>();
                List<Double> shares = new ArrayList<>();
                byRound.values().forEach(xy -> {
                    Stats.Line l = xy.size() >= 2 ? Stats.line(xy) : null;
                    if (l != null) {
                        slopes.add(l.b());
                        xy.stream().filter(p -> p[0] == 0).findFirst().ifPresent(p -> shares.add(l.b() / p[1]));
                    }
                });
                perLayer.put(cg + "/" + j, Estimator.mean(slopes));
                perLayerShare.put(cg + "/" + j, Estimator.mean(shares));
            }
            Map<Integer, KernelRuns.Row> child = rounds(SEED_DEPTH, "child", j);
            List<Double> d = new ArrayList<>();
            rounds(SEED_DEPTH, "root", j).forEach((r, root) -> {
                KernelRuns.Row c = child.get(r);
                if (c != null && Double.isFinite(c.taskClockNsPerIo()) && Double.isFinite(root.taskClockNsPerIo())) {
                    d.add(c.taskClockNsPerIo() - root.taskClockNsPerIo());
                }
            });
            childCost.put(j, Estimator.mean(d));
        }
    }

    /** Task-clock ns per I/O of one cell: the geometric mean over rounds with its interval; null where none ran. */
    Estimate ns(int depth, String cg, int j) {
        return ns.get(cell(depth, cg, j));
    }

    /** ns per dm layer: the slope of task-clock per I/O over depth, fitted per round, the mean over rounds. */
    Estimate perLayer(String cg, int j) {
        return perLayer.get(cg + "/" + j);
    }

    /** A layer's cost as a share of the bare device's I/O (depth 0), per round: the one kernel figure that survives emulation. */
    Estimate perLayerShare(String cg, int j) {
        return perLayerShare.get(cg + "/" + j);
    }

    /** Child minus root, ns per I/O, per round, at the seed's depth: the mean over rounds. */
    Estimate childCost(int j) {
        return childCost.get(j);
    }

    /** The depths run, "0..5" where they are every depth between their ends, else each of them ("0, 1, 5"). */
    String depthRange() {
        if (depths.isEmpty()) {
            return "none";
        }
        return depths.size() == depths.last() - depths.first() + 1 ? depths.first() + ".." + depths.last()
                : String.join(", ", depths.stream().map(String::valueOf).toList());
    }

    /** env.txt's {@code modules} (what the lab loaded for the runs), as a parenthesis after the environment; "" where absent. */
    private String modules() {
        String m = runs.env().get("modules");
        return m == null ? "" : " (modules: " + m + ")";
    }

    String text(Map<String, Object> out) {
        StringBuilder b = new StringBuilder("### Today's kernel: dm-linear over brd, root and child cgroup\n\n")
                .append("Real dm-linear stacks (").append(runs.env().getOrDefault("device", "brd under lab-lin1..lab-lin5"))
                .append(") on kernel ").append(runs.env().getOrDefault("kernel", "?")).append(", ")
                .append(runs.env().getOrDefault("environment", "native")).append(modules()).append("; fio psync randrw bs=512 direct, ")
                .append(runs.env().getOrDefault("runtime_s", "?")).append(" s per run, ").append(runs.env().getOrDefault("rounds", "?"))
                .append(" rounds with the depths' order alternating; the child cgroup: ").append(runs.env().getOrDefault("cgroup", "?"))
                .append(". Task-clock ns per I/O (perf stat; fio's whole process) and IOPS, the geometric mean over rounds with its 95% interval (IOPS: the estimate):\n\n| depth |");
        List<String> cols = new ArrayList<>();
        for (int j : jobs) {
            for (String cg : List.of("root", "child")) {
                cols.add(cg + ", " + j + (j == 1 ? " job" : " jobs"));
            }
        }
        cols.forEach(c -> b.append(' ').append(c).append(": ns/I/O | IOPS |"));
        b.append("\n|---:|").append("---:|---:|".repeat(cols.size())).append('\n');
        for (int d : depths) {
            b.append("| ").append(d).append(" |");
            for (int j : jobs) {
                for (String cg : List.of("root", "child")) {
                    Estimate ns = ns(d, cg, j);
                    Estimate io = iops.get(cell(d, cg, j));
                    b.append(' ').append(Fmt.est(ns, 0)).append(" | ").append(io == null ? "—" : Fmt.f(io.value(), 0)).append(" |");
                }
            }
            b.append('\n');
        }
        b.append('\n').append(KernelRuns.quickNote(runs.env(), ID));
        Map<String, Object> layer = new LinkedHashMap<>();
        b.append("Per dm layer (slope over depths ").append(depthRange())
                .append(", fitted per round) and per child cgroup (child − root, per round, at the seed's depth ").append(SEED_DEPTH)
                .append("), each the mean over rounds with its 95% interval:\n\n")
                .append("| cgroup, jobs | ns per layer | a layer / the bare brd I/O | child − root at depth ").append(SEED_DEPTH)
                .append(", ns/I/O |\n|---|---:|---:|---:|\n");
        for (int j : jobs) {
            for (String cg : List.of("root", "child")) {
                Estimate p = perLayer(cg, j);
                Estimate share = perLayerShare(cg, j);
                Estimate child = cg.equals("root") ? childCost(j) : null;
                b.append("| ").append(cg).append(", ").append(j).append(j == 1 ? " job" : " jobs").append(" | ")
                        .append(Fmt.est(p, 0)).append(" | ")
                        .append(share == null ? "—" : Fmt.f(100 * share.value(), 1) + "%").append(" | ")
                        .append(cg.equals("root") ? Fmt.est(child, 0) : "").append(" |\n");
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("ns_per_layer", Parts.json(p));
                row.put("layer_share_of_bare_io", share == null ? null : share.value());
                if (cg.equals("root")) {
                    row.put("child_minus_root_ns", Parts.json(child));
                }
                layer.put(cg + "-j" + j, row);
            }
        }
        out.put("per_layer", layer);
        out.put("emulated", emulated());
        if (!bridge.isEmpty()) {
            b.append("\nThe lab's bridge (psync through Java, the same job) at the depths it ran, root cgroup:\n\n| run | tool | IOPS |"
                    + " task-clock ns/I/O |\n|---|---|---:|---:|\n");
            for (KernelRuns.Row r : bridge) {
                b.append("| ").append(r.job()).append(" | ").append(r.tool()).append(" | ").append(Fmt.f(r.iops(), 0)).append(" | ")
                        .append(Fmt.f(r.taskClockNsPerIo(), 0)).append(" |\n");
            }
            b.append(emulated() ? "\nUnder emulation the JVM's start-up and C1 code weigh in each bridge run's task-clock; its IOPS are the"
                    + " figure to read.\n" : "\nThe JVM's start-up and compilation weigh in each bridge run's task-clock (perf counts the whole"
                    + " process); its IOPS are the figure to read.\n");
        }
        b.append('\n');
        Stats.Spread factor = probe.scale();
        if (probe.virtualised() && probe.factor() != null) {
            out.put("probe_factor", Parts.json(probe.factor()));
            b.append(EmulationProbe.virtualisedNote(probe.factor()));
        }
        if (factor != null) {
            out.put("emulation_factor", Parts.json(factor));
            Estimate p = perLayer("root", 1);
            b.append("Scaled to the host by ").append(EmulationProbe.text(factor)).append(": a dm layer would cost about ")
                    .append(p == null ? "—" : Fmt.f(p.value() / factor.median(), 0)).append(" ns and the seed's stack (depth ")
                    .append(SEED_DEPTH).append(", root, 1 job) ").append(ns(SEED_DEPTH, "root", 1) == null ? "—"
                            : Fmt.f(ns(SEED_DEPTH, "root", 1).value() / factor.median(), 0))
                    .append(" ns per I/O natively; an estimate: emulation slows kernel code by different factors, and the probe's"
                            + " code (zram: lookup, decompression, copy) is not dm's.\n\n");
        }
        if (emulated()) {
            b.append(EmulationProbe.emulatedNote("a layer against the bare I/O, child against root"));
        }
        return b.toString();
    }
}
