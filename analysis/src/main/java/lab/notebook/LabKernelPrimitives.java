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
 */
public final class LabKernelPrimitives {
    static final String DIR = "lab-kernel";
    static final List<String> COLUMNS = List.of("type", "readers", "run", "ns_per_op");

    /** One refscale type at one reader count: every figure beside it; null where the run lacks it. */
    public record Row(String type, String kind, int readers, Estimate kernel, Estimate guestShared, Estimate guestPrivate,
                      Estimate hostShared, Estimate hostPrivate, LabKernelPart.Scorecard jvmOverKernel) {}

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
        List<Row> rows = new ArrayList<>();
        for (var e : runs.entrySet()) {
            String kind = kinds.get(e.getKey());
            SweepEstimates guest = kind == null ? null : SweepEstimates.read(jvm, "jvm-guest-" + kind, run::gap);
            SweepEstimates host = kind == null ? null : SweepEstimates.read(jvm, "jvm-host-" + kind, run::gap);
            for (var n : e.getValue().entrySet()) {
                Estimate k = Estimator.of(n.getValue());
                Estimate gs = estimateNs(guest, "shared", n.getKey());
                rows.add(new Row(e.getKey(), kind, n.getKey(), k, gs, estimateNs(guest, "private", n.getKey()), estimateNs(host, "shared", n.getKey()),
                        estimateNs(host, "private", n.getKey()), LabKernelPart.Scorecard.of(k, gs)));
            }
        }
        return Optional.of(new LabKernelPrimitives(facts, List.copyOf(rows)));
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
                        + " refscale` (`raw/lab-kernel/refscale.tsv`, `raw/lab-kernel/jvm/`).\n\n")
                .append("| refscale type | JVM kind | readers | kernel ns | JVM guest shared | JVM guest private | JVM host shared"
                        + " | JVM host private | JVM / kernel (guest) |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            LabKernelPart.Scorecard s = r.jvmOverKernel();
            b.append("| ").append(r.type()).append(" | ").append(r.kind() == null ? "—" : r.kind()).append(" | ").append(r.readers())
                    .append(" | ").append(Fmt.est(r.kernel(), 1)).append(" | ").append(Fmt.est(r.guestShared(), 1)).append(" | ")
                    .append(Fmt.est(r.guestPrivate(), 1)).append(" | ").append(Fmt.est(r.hostShared(), 1)).append(" | ")
                    .append(Fmt.est(r.hostPrivate(), 1)).append(" | ").append(s == null || s.ratio() == null ? "—"
                            : Fmt.f(s.ratio(), 2) + "x" + (s.lo() == null ? "" : " [" + Fmt.f(s.lo(), 2) + "–" + Fmt.f(s.hi(), 2) + "]"))
                    .append(" |\n");
        }
        return b.append("\n").toString();
    }

    /** summary.json's {@code lab_kernel_primitives}: the facts and one entry a row (the per-kind scorecard). */
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
            x.put("kernel_ns", json(r.kernel()));
            x.put("jvm_guest_shared_ns", json(r.guestShared()));
            x.put("jvm_guest_private_ns", json(r.guestPrivate()));
            x.put("jvm_host_shared_ns", json(r.hostShared()));
            x.put("jvm_host_private_ns", json(r.hostPrivate()));
            LabKernelPart.Scorecard s = r.jvmOverKernel();
            x.put("jvm_over_kernel", s == null ? null : s.ratio());
            x.put("jvm_over_kernel_bounds", s == null || s.lo() == null ? null : List.of(s.lo(), s.hi()));
            card.add(x);
        }
        m.put("scorecard", card);
        m.put("types", new ArrayList<>(new TreeSet<>(rows.stream().map(Row::type).toList())));
        return m;
    }

    private static Object json(Estimate e) {
        return e == null ? null : e.json();
    }
}
