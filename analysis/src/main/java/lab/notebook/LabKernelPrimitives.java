package lab.notebook;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import lab.analysis.estimate.DifferenceOfMeans;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.parse.Tsv;
import lab.results.RunDir;

/**
 * The kernel's own price of each operation the fixes switch between beside the JVM's, on the same
 * vCPUs: refscale built into the lab kernel ({@code raw/lab-kernel/refscale.tsv}, one boot a type
 * and reader count), the JVM model's {@code Primitives.getPut} of the matching kind in one boot of
 * the same kernel ({@code raw/lab-kernel/jvm/jvm-guest-KIND-rR-tT.json}), and the same JVM kind
 * natively on the host ({@code jvm-host-KIND-...}), from {@code lab-kernel.sh refscale}. Each
 * figure is ns per acquire-and-release pair (refscale's "loop"; the JVM's get+put), per reader.
 *
 * <p>Estimates: the kernel's over refscale's runs within its boot (its only level); each JVM
 * figure over its rounds (a JVM a round). The JVM-in-guest over kernel ratio is the ratio of two
 * independent estimates, its bounds the ratio of their ends, as the fixes' scorecard has it.
 *
 * <p>The loop removed, where the run has refscale's {@value #EMPTY} type (the loop alone:
 * {@code kernel-scripts/kernel/patches/6.1/refscale-type-empty.patch}) and the JVM's
 * {@code Primitives.baseline} (the harness alone, in each kind's own JVMs:
 * {@code jvm/jvm-guest-KIND-baseline-rR-tT.json}): each figure above includes its loop, refscale's
 * counter and branch, JMH's loop, blackhole and calls; less its loop it is the operation alone
 * ({@link LoopRemoved}). On the kernel's side a type and {@value #EMPTY} ran in two boots, so their
 * difference is of two independent estimates: each boot's arithmetic mean of its runs with
 * Student's t interval, the difference's interval Welch's ({@link DifferenceOfMeans}: the two
 * standard errors in quadrature, t at Welch–Satterthwaite's degrees of freedom rounded down). On
 * the JVM's side a kind and its baseline ran in the same JVM each round, so their difference is
 * taken within each round and estimated over rounds (the mean, Student's t: {@link
 * SweepEstimates#across}). The ratio, the guest's shared figure less its baseline over the kernel's
 * less {@value #EMPTY}, is again a ratio of two independent estimates, bounded as above by the
 * ratio of the ends (the range of the ratio over both 95% intervals; none where the kernel's
 * interval reaches 0). Where it simplifies: the kernel's interval is its runs' within one boot
 * each, so a boot's own offset, shared by its runs, is in neither side's interval.
 */
public final class LabKernelPrimitives {
    static final String DIR = "lab-kernel";
    static final List<String> COLUMNS = List.of("type", "readers", "run", "ns_per_op");
    /** refscale's type that is the loop alone (the lab's patches/6.1/refscale-type-empty.patch): a row of none, every row's floor. */
    public static final String EMPTY = "empty";
    /**
     * The word after the kind in the JVM's harness-alone files, {@code jvm-guest-KIND-baseline-rR-tT.json}, as the engine's
     * {@code lab.engine.bench.PrimitivesByKind.BASELINE} writes them.
     */
    public static final String BASELINE = "baseline";

    /**
     * One refscale type at one reader count: every figure beside it; null where the run lacks it ({@code loopRemoved}: a run
     * without the {@value #EMPTY} type).
     */
    public record Row(String type, String kind, int readers, Estimate kernel, Estimate guestShared, Estimate guestPrivate,
                      Estimate hostShared, Estimate hostPrivate, LabKernelPart.Scorecard jvmOverKernel, LoopRemoved loopRemoved) {}

    /**
     * One row's figures with the loop's cost taken out (the class's javadoc says how each is made); a field is null where the
     * run lacks a side.
     *
     * @param kernelEmpty   refscale's {@value #EMPTY} at the row's readers, as {@link Row#kernel}: the geometric mean of its runs
     * @param guestBaseline {@code Primitives.baseline} in the kind's guest JVMs at the row's threads, over rounds (geometric mean)
     * @param hostBaseline  the same on the host
     * @param kernel        the type less {@value #EMPTY}: the difference of the two boots' means, Welch's interval
     * @param guestShared   the guest's shared figure less the baseline of the same JVM, within each round; the mean over rounds
     * @param guestPrivate  the same, private
     * @param hostShared    the same on the host, shared
     * @param hostPrivate   the same on the host, private
     * @param jvmOverKernel {@code guestShared} over {@code kernel}, bounded by the ratio of the ends
     */
    public record LoopRemoved(Estimate kernelEmpty, Estimate guestBaseline, Estimate hostBaseline, Estimate kernel,
                              Estimate guestShared, Estimate guestPrivate, Estimate hostShared, Estimate hostPrivate,
                              LabKernelPart.Scorecard jvmOverKernel) {}

    private final Map<String, String> facts;
    private final List<Row> rows;

    private LabKernelPrimitives(Map<String, String> facts, List<Row> rows) {
        this.facts = facts;
        this.rows = rows;
    }

    /** The run's refscale and JVM figures; empty without {@code refscale.tsv}, or when it is malformed (a gap names the line). */
    public static Optional<LabKernelPrimitives> read(RunDir run) throws IOException {
        Path dir = run.raw().resolve(DIR);
        Path tsv = dir.resolve("refscale.tsv");
        if (!Files.isRegularFile(tsv)) {
            return Optional.empty();
        }
        Map<String, Map<Integer, List<Double>>> runs = new LinkedHashMap<>();
        try {
            for (Tsv.Row r : Tsv.read(tsv, COLUMNS)) {
                double ns = r.number("ns_per_op");
                if (!(ns > 0)) {
                    throw r.bad("ns_per_op", "must be > 0");
                }
                runs.computeIfAbsent(r.text("type"), t -> new TreeMap<>()).computeIfAbsent(r.integer("readers"), n -> new ArrayList<>()).add(ns);
            }
        } catch (Tsv.Malformed e) {
            run.gap(e.file(), "line " + e.line() + ": " + e.problem());
            return Optional.empty();
        }
        Map<String, String> facts = KernelRuns.readEnv(dir.resolve("refscale.txt"));
        Map<String, String> kinds = kinds(facts.getOrDefault("jvm_kinds", ""));
        Path jvm = dir.resolve("jvm");
        Map<Integer, List<Double>> empty = runs.get(EMPTY);
        List<Row> rows = new ArrayList<>();
        for (var e : runs.entrySet()) {
            if (e.getKey().equals(EMPTY)) {
                continue;
            }
            String kind = kinds.get(e.getKey());
            SweepEstimates guest = kind == null ? null : SweepEstimates.read(jvm, "jvm-guest-" + kind, run::gap);
            SweepEstimates host = kind == null ? null : SweepEstimates.read(jvm, "jvm-host-" + kind, run::gap);
            SweepEstimates guestBase = kind == null || empty == null ? null : SweepEstimates.read(jvm, "jvm-guest-" + kind + "-" + BASELINE, run::gap);
            SweepEstimates hostBase = kind == null || empty == null ? null : SweepEstimates.read(jvm, "jvm-host-" + kind + "-" + BASELINE, run::gap);
            for (var n : e.getValue().entrySet()) {
                Estimate k = Estimator.of(n.getValue());
                Estimate gs = estimateNs(guest, "shared", n.getKey());
                LoopRemoved less = empty == null ? null
                        : estimateLoopRemoved(n.getValue(), empty.get(n.getKey()), guest, guestBase, host, hostBase, n.getKey());
                rows.add(new Row(e.getKey(), kind, n.getKey(), k, gs, estimateNs(guest, "private", n.getKey()), estimateNs(host, "shared", n.getKey()),
                        estimateNs(host, "private", n.getKey()), LabKernelPart.Scorecard.of(k, gs), less));
            }
        }
        return Optional.of(new LabKernelPrimitives(facts, List.copyOf(rows)));
    }

    /**
     * The row's figures less their loops: {@code type} and {@code empty} the two boots' runs at {@code threads} readers
     * ({@code empty} null where that boot is missing), each JVM sweep with its baseline sweep (null: none).
     */
    private static LoopRemoved estimateLoopRemoved(List<Double> type, List<Double> empty, SweepEstimates guest, SweepEstimates guestBase,
                                           SweepEstimates host, SweepEstimates hostBase, int threads) {
        Estimate kernel = empty == null ? null : DifferenceOfMeans.of(Estimator.mean(type), Estimator.mean(empty));
        Estimate guestShared = estimateLessBaseline(guest, guestBase, "shared", threads);
        return new LoopRemoved(empty == null ? null : Estimator.of(empty), estimateBaselineNs(guestBase, threads),
                estimateBaselineNs(hostBase, threads), kernel, guestShared, estimateLessBaseline(guest, guestBase, "private", threads),
                estimateLessBaseline(host, hostBase, "shared", threads), estimateLessBaseline(host, hostBase, "private", threads),
                LabKernelPart.Scorecard.of(kernel, guestShared));
    }

    /** The baseline's ns per op at {@code threads}; null without its files. */
    private static Estimate estimateBaselineNs(SweepEstimates base, int threads) {
        return base == null || base.isEmpty() ? null : base.ns(Map.of(), threads);
    }

    /** The kind's {@code line} cell less the baseline of the same JVM, within each round, at {@code threads}; null without either. */
    private static Estimate estimateLessBaseline(SweepEstimates kind, SweepEstimates base, String line, int threads) {
        return kind == null || kind.isEmpty() || base == null || base.isEmpty() ? null
                : kind.across(base, Map.of("line", line), Map.of(), threads, "less " + BASELINE, (a, b) -> a - b, true);
    }

    /** refcnt=atomic-refcount rwsem=rwsem-read ...: refscale.txt's map of a type to the JVM's kind ({@code -}: none). */
    private static Map<String, String> kinds(String line) {
        Map<String, String> m = new TreeMap<>();
        for (String w : line.trim().split(" +")) {
            int eq = w.indexOf('=');
            if (eq > 0 && !w.substring(eq + 1).equals("-")) {
                m.put(w.substring(0, eq), w.substring(eq + 1));
            }
        }
        return m;
    }

    private static Estimate estimateNs(SweepEstimates s, String line, int threads) {
        return s == null || s.isEmpty() ? null : s.ns(Map.of("line", line), threads);
    }

    public List<Row> rows() {
        return rows;
    }

    /** The notebook's part. */
    public String text() {
        StringBuilder b = new StringBuilder("## The lab kernel's operations beside the JVM's\n\n")
                .append("The kernel's own price of each operation the fixes switch between, refscale built into the lab kernel `")
                .append(facts.getOrDefault("kernel", "?")).append("` (").append(facts.getOrDefault("accel", "?")).append(", ")
                .append(facts.getOrDefault("vcpus", "?")).append(" vCPUs, one boot a type and reader count, ")
                .append(facts.getOrDefault("nruns", "?")).append(" runs of ").append(facts.getOrDefault("loops", "?"))
                .append(" loops each, one reader a CPU), beside the JVM model's `Primitives.getPut` of the matching kind: in one boot of"
                        + " the same kernel on the same vCPUs (guest), and natively on this host's cores (host). Each figure is ns per"
                        + " acquire-and-release pair per reader (refscale's loop, the JVM's get + put); the kernel's is the geometric"
                        + " mean of its runs (one boot: its only level), each JVM figure over its rounds (a JVM a round), each with its"
                        + " 95% interval. *Shared*: one object every reader uses, as refscale's are; *private*: one each, the"
                        + " uncontended floor. JVM/kernel is the guest's shared figure over the kernel's, its bounds the ratio of the"
                        + " ends. ").append(facts.getOrDefault("jvm", "The JVM's side did not run.")).append(" Data: `lab-kernel.sh"
                        + " refscale` (`raw/lab-kernel/refscale.tsv`, `raw/lab-kernel/jvm/`).\n\n");
        boolean less = rows.stream().anyMatch(r -> r.loopRemoved() != null);
        if (less) {
            b.append("The loop removed: every figure above includes its loop (refscale's counter and branch; JMH's loop, blackhole"
                    + " and calls). refscale's `" + EMPTY + "` type is the loop alone (the lab's"
                    + " `patches/6.1/refscale-type-empty.patch`, a boot a reader count) and `Primitives.baseline` the JVM's harness"
                    + " alone (getPut's body with a pair that does nothing, after each getPut in each kind's own JVM), each shown"
                    + " raw. *Kernel − empty*: the type's boot less the empty type's, two independent boots, so the difference of"
                    + " their runs' arithmetic means with Welch's interval (each side's standard error from its own t interval,"
                    + " added in quadrature, t at Welch–Satterthwaite's degrees of freedom rounded down). *JVM − baseline*: the"
                    + " guest's shared figure less the baseline of the same JVM, within each round, the mean over rounds with"
                    + " Student's t. The loop-removed JVM / kernel is the one over the other, bounded by the ratio of the ends"
                    + " (the range of the ratio over both 95% intervals), the value alone where the kernel's interval reaches"
                    + " 0.\n\n");
        }
        b.append("| refscale type | JVM kind | readers | kernel ns | JVM guest shared | JVM guest private | JVM host shared"
                + " | JVM host private | JVM / kernel (guest) |" + (less ? " kernel empty | JVM guest baseline | kernel − empty"
                + " | JVM guest shared − baseline | JVM / kernel, loop removed |" : "") + "\n|---|---|---:|---:|---:|---:|---:|---:|---:|"
                + (less ? "---:|".repeat(5) : "") + "\n");
        for (Row r : rows) {
            b.append("| ").append(r.type()).append(" | ").append(r.kind() == null ? "—" : r.kind()).append(" | ").append(r.readers())
                    .append(" | ").append(Fmt.est(r.kernel(), 1)).append(" | ").append(Fmt.est(r.guestShared(), 1)).append(" | ")
                    .append(Fmt.est(r.guestPrivate(), 1)).append(" | ").append(Fmt.est(r.hostShared(), 1)).append(" | ")
                    .append(Fmt.est(r.hostPrivate(), 1)).append(" | ").append(ratio(r.jvmOverKernel())).append(" |");
            LoopRemoved x = r.loopRemoved();
            if (less) {
                b.append(" ").append(x == null ? "— | — | — | — | —" : Fmt.est(x.kernelEmpty(), 1) + " | " + Fmt.est(x.guestBaseline(), 1)
                        + " | " + Fmt.est(x.kernel(), 1) + " | " + Fmt.est(x.guestShared(), 1) + " | " + ratio(x.jvmOverKernel())).append(" |");
            }
            b.append("\n");
        }
        return b.append("\n").toString();
    }

    /** A JVM / kernel ratio: {@code 1.50x [0.95–2.39]}, the value alone without bounds, — without a ratio. */
    private static String ratio(LabKernelPart.Scorecard s) {
        return s == null || s.ratio() == null ? "—"
                : Fmt.f(s.ratio(), 2) + "x" + (s.lo() == null ? "" : " [" + Fmt.f(s.lo(), 2) + "–" + Fmt.f(s.hi(), 2) + "]");
    }

    /**
     * summary.json's {@code lab_kernel_primitives}: the facts and one entry a row (the per-kind scorecard), with its
     * {@code loop_removed} figures where the run has the {@value #EMPTY} type.
     */
    public Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String k : List.of("kernel", "accel", "vcpus", "nruns", "loops", "jvm_kinds", "jvm")) {
            m.put(k, facts.get(k));
        }
        List<Object> card = new ArrayList<>();
        for (Row r : rows) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("type", r.type());
            x.put("kind", r.kind());
            x.put("readers", r.readers());
            figures(x, r.kernel(), r.guestShared(), r.guestPrivate(), r.hostShared(), r.hostPrivate(), r.jvmOverKernel());
            LoopRemoved l = r.loopRemoved();
            if (l != null) {
                Map<String, Object> y = new LinkedHashMap<>();
                y.put("kernel_empty_ns", json(l.kernelEmpty()));
                y.put("jvm_guest_baseline_ns", json(l.guestBaseline()));
                y.put("jvm_host_baseline_ns", json(l.hostBaseline()));
                figures(y, l.kernel(), l.guestShared(), l.guestPrivate(), l.hostShared(), l.hostPrivate(), l.jvmOverKernel());
                x.put("loop_removed", y);
            }
            card.add(x);
        }
        m.put("scorecard", card);
        m.put("types", new ArrayList<>(new TreeSet<>(rows.stream().map(Row::type).toList())));
        return m;
    }

    /** The kernel's figure, the JVM's four and JVM / kernel with its bounds, into {@code m} under summary.json's names. */
    private static void figures(Map<String, Object> m, Estimate kernel, Estimate guestShared, Estimate guestPrivate, Estimate hostShared,
                                Estimate hostPrivate, LabKernelPart.Scorecard s) {
        m.put("kernel_ns", json(kernel));
        m.put("jvm_guest_shared_ns", json(guestShared));
        m.put("jvm_guest_private_ns", json(guestPrivate));
        m.put("jvm_host_shared_ns", json(hostShared));
        m.put("jvm_host_private_ns", json(hostPrivate));
        m.put("jvm_over_kernel", s == null ? null : s.ratio());
        m.put("jvm_over_kernel_bounds", s == null || s.lo() == null ? null : List.of(s.lo(), s.hi()));
    }

    private static Object json(Estimate e) {
        return e == null ? null : e.json();
    }
}
