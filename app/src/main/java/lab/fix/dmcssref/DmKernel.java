package lab.fix.dmcssref;

import static lab.fix.dmcssref.DmCssRef.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import lab.analysis.Stats;
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

    /** Task-clock ns per I/O of one cell over rounds. */
    Stats.Spread ns(int depth, String cg, int j) {
        return Parts.spread(rounds(depth, cg, j).values().stream().map(KernelRuns.Row::taskClockNsPerIo).filter(Double::isFinite).toList());
    }

    private Stats.Spread iops(int depth, String cg, int j) {
        return Parts.spread(rounds(depth, cg, j).values().stream().map(KernelRuns.Row::iops).toList());
    }

    /** ns per dm layer: the slope of task-clock per I/O over depth, fitted per round. */
    Stats.Spread perLayer(String cg, int j) {
        Map<Integer, List<double[]>> byRound = new TreeMap<>();
        for (int d : depths) {
            rounds(d, cg, j).forEach((r, row) -> {
                if (Double.isFinite(row.taskClockNsPerIo())) {
                    byRound.computeIfAbsent(r, x -> new ArrayList<>()).add(new double[] {d, row.taskClockNsPerIo()});
                }
            });
        }
        List<Double> slopes = new ArrayList<>();
        byRound.values().forEach(xy -> {
            if (xy.size() >= 2) {
                slopes.add(StackTable.slope(xy));
            }
        });
        return Parts.spread(slopes);
    }

    /** A layer's cost as a share of the bare device's I/O (depth 0), per round: the one kernel figure that survives emulation. */
    Stats.Spread perLayerShare(String cg, int j) {
        Stats.Spread slope = perLayer(cg, j);
        Stats.Spread d0 = ns(0, cg, j);
        return slope == null || d0 == null ? null : new Stats.Spread(slope.median() / d0.median(), slope.min() / d0.median(),
                slope.max() / d0.median(), slope.n());
    }

    /** Child minus root, ns per I/O, per round, at {@code depth}. */
    Stats.Spread childCost(int depth, int j) {
        Map<Integer, KernelRuns.Row> child = rounds(depth, "child", j);
        List<Double> d = new ArrayList<>();
        rounds(depth, "root", j).forEach((r, root) -> {
            KernelRuns.Row c = child.get(r);
            if (c != null && Double.isFinite(c.taskClockNsPerIo()) && Double.isFinite(root.taskClockNsPerIo())) {
                d.add(c.taskClockNsPerIo() - root.taskClockNsPerIo());
            }
        });
        return Parts.spread(d);
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
                .append(". Task-clock ns per I/O (perf stat; fio's whole process) and IOPS, median [min–max] over rounds:\n\n| depth |");
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
                    Stats.Spread ns = ns(d, cg, j);
                    Stats.Spread io = iops(d, cg, j);
                    b.append(' ').append(ns == null ? "—" : Fmt.spread(ns, 0)).append(" | ").append(io == null ? "—" : Fmt.f(io.median(), 0)).append(" |");
                }
            }
            b.append('\n');
        }
        Map<String, Object> layer = new LinkedHashMap<>();
        b.append("\nPer dm layer (slope over depths ").append(depths.first()).append("..").append(depths.last())
                .append(", fitted per round) and per child cgroup (child − root, per round, at the seed's depth ").append(SEED_DEPTH).append("):\n\n")
                .append("| cgroup, jobs | ns per layer | a layer / the bare brd I/O | child − root at depth ").append(SEED_DEPTH)
                .append(", ns/I/O |\n|---|---:|---:|---:|\n");
        for (int j : jobs) {
            for (String cg : List.of("root", "child")) {
                Stats.Spread p = perLayer(cg, j);
                Stats.Spread share = perLayerShare(cg, j);
                Stats.Spread child = cg.equals("root") ? childCost(SEED_DEPTH, j) : null;
                b.append("| ").append(cg).append(", ").append(j).append(j == 1 ? " job" : " jobs").append(" | ")
                        .append(p == null ? "—" : Fmt.spread(p, 0)).append(" | ")
                        .append(share == null ? "—" : Fmt.f(100 * share.median(), 1) + "%").append(" | ")
                        .append(cg.equals("root") ? (child == null ? "—" : Fmt.spread(child, 0)) : "").append(" |\n");
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("ns_per_layer", Parts.json(p));
                row.put("layer_share_of_bare_io", share == null ? null : share.median());
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
            Stats.Spread p = perLayer("root", 1);
            b.append("Scaled to the host by ").append(EmulationProbe.text(factor)).append(": a dm layer would cost about ")
                    .append(p == null ? "—" : Fmt.f(p.median() / factor.median(), 0)).append(" ns and the seed's stack (depth ")
                    .append(SEED_DEPTH).append(", root, 1 job) ").append(ns(SEED_DEPTH, "root", 1) == null ? "—"
                            : Fmt.f(ns(SEED_DEPTH, "root", 1).median() / factor.median(), 0))
                    .append(" ns per I/O natively; an estimate: emulation slows kernel code by different factors, and the probe's"
                            + " code (zram: lookup, decompression, copy) is not dm's.\n\n");
        }
        if (emulated()) {
            b.append(EmulationProbe.emulatedNote("a layer against the bare I/O, child against root"));
        }
        return b.toString();
    }
}
