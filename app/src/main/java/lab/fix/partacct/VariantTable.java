package lab.fix.partacct;

import static lab.fix.partacct.PartAcct.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import lab.analysis.compare.LkpTable;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.fidelity.NoiseFloor;
import lab.engine.bench.Variants;
import lab.notebook.Fmt;
import lab.notebook.Parts;

/**
 * The JVM model's variant table ({@code part-acct-rR-tT.json}): each variant's throughput and its
 * ratio to {@code atomic}, per target and thread count, at the table's HZ and slots; how the gain
 * grows with threads; the LKP blocks; allocation per I/O; the sweep chart and the summary.
 *
 * <p>Every figure is made where the table is built ({@link #of}, {@link #estimateLkp}); the
 * tables, charts and summary print them.
 */
final class VariantTable {
    /** Below this many B/op JMH's own bookkeeping is all there is (one object is 16 B at least). */
    static final double ALLOCATES = 1.0;

    /** One variant at one target and thread count: ns per I/O, total throughput, the ratio to {@code atomic}, B/op (NaN: none). */
    record Cell(boolean measured, Estimate ns, Estimate throughput, Estimate vsBase, double bytes) {}

    private final SortedSet<Integer> threads;
    private final List<String> targets;
    /** By target, threads and variant ({@link #cellKey}). */
    private final Map<String, Cell> cells = new LinkedHashMap<>();
    /** The A/A of {@code atomic} by target and threads; null without the control. */
    private final Map<String, NoiseFloor> floors = new LinkedHashMap<>();

    private VariantTable(SweepEstimates s) {
        this.threads = s.threadCounts();
        this.targets = s.values("target");
        for (String target : TARGETS) {
            for (int t : threads) {
                floors.put(target + "/" + t, s.aa(key(BASE, target), key(Variants.control(BASE), target), t));
                for (String v : VARIANTS) {
                    Map<String, String> k = key(v, target);
                    cells.put(cellKey(target, t, v), new Cell(s.has(k, t), s.ns(k, t), s.throughput(k, t),
                            s.ratio(key(BASE, target), k, t), s.bytesPerOp(k, t)));
                }
            }
        }
    }

    /** The table of the sweep {@code s}: every figure its tables, charts and summary print, made. */
    static VariantTable of(SweepEstimates s) {
        return new VariantTable(s);
    }

    private static String cellKey(String target, int t, String variant) {
        return target + "/" + t + "/" + variant;
    }

    /** The table's JMH params of {@code variant} (or its A/A control) bios to {@code target}, at the table's HZ and slots. */
    static Map<String, String> key(String variant, String target) {
        return Map.of("variant", variant, "target", target, "hz", HZ, "slots", SLOTS);
    }

    static Map<String, String> gridKey(String variant, String hz, String slots) {
        return Map.of("variant", variant, "target", "part", "hz", hz, "slots", slots);
    }

    /** The sweep's thread counts. */
    SortedSet<Integer> threads() {
        return threads;
    }

    /** The cell of {@code variant} bios to {@code target} at {@code t}. */
    Cell cell(String variant, String target, int t) {
        return cells.get(cellKey(target, t, variant));
    }

    /** Whether the sweep measured {@code variant} bios to {@code target} at {@code t}. */
    boolean has(String variant, String target, int t) {
        Cell c = cell(variant, target, t);
        return c != null && c.measured();
    }

    /** Candidate throughput over {@code atomic}'s, per round, estimated over rounds; null where not measured. */
    Estimate vsBase(String variant, String target, int t) {
        Cell c = cell(variant, target, t);
        return c == null ? null : c.vsBase();
    }

    /** The A/A floor of {@code atomic} against its control copy, bios to {@code target} at {@code t}; null without the control. */
    NoiseFloor floor(String target, int t) {
        return floors.get(target + "/" + t);
    }

    /** The variant table under {@code heading} (a level-3 heading without its hashes). */
    String table(String cores, String heading) {
        boolean aa = floor(TARGETS.getFirst(), threads.last()) != null;
        StringBuilder b = new StringBuilder("### " + heading + "\n\n"
                + "Threads " + threads.first() + ".." + threads.last() + " on " + cores + " cores. "
                + "Total I/O per second of all threads, and that over `atomic`'s at the same thread count (the estimator), "
                + (aa ? "each with its 95% interval over rounds, beside the A/A (`atomic` against a copy of itself at that target and"
                        + " thread count)" : "each with its 95% interval over rounds; no A/A control in this run")
                + ". B/op: JMH's GC profiler.\n\n"
                + "| target | threads | variant | M I/O/s | / atomic | ns per I/O per thread | B/op |\n|---|---:|---|---:|---:|---:|---:|\n");
        for (String target : TARGETS) {
            for (int t : threads) {
                NoiseFloor f = floor(target, t);
                for (String v : VARIANTS) {
                    Cell c = cell(v, target, t);
                    if (!c.measured()) {
                        continue;
                    }
                    String ratio = v.equals(BASE) ? (f == null ? "—" : "— (A/A " + Parts.ratioCell(f.aa()) + ")")
                            : Parts.ratioCell(c.vsBase());
                    b.append("| ").append(target).append(" | ").append(t).append(" | `").append(v).append("` | ")
                            .append(Fmt.est(c.throughput(), 2)).append(" | ").append(ratio).append(" | ")
                            .append(Fmt.est(c.ns(), 1)).append(" | ")
                            .append(Double.isNaN(c.bytes()) ? "n/a" : Fmt.f(c.bytes(), 3)).append(" |\n");
                }
            }
        }
        return b.append('\n').toString();
    }

    /**
     * What a quick run's raw table leaves out, in words, once; empty in a full run and where it has
     * every target (every quick run before issue 33).
     */
    String quickNote(boolean quick) {
        return !quick || targets.containsAll(TARGETS) ? "" : "Quick run: the raw table measured the target " + String.join(", ", targets)
                + " only (`disk`, bios to the whole disk, is the headline's), every variant and the A/A copy; `./lab pair " + ID
                + "` measures bios to the partition too.\n\n";
    }

    /** Whether each per-cpu variant's gain over atomic grows from the fewest threads to the most. */
    String growth() {
        if (threads.size() < 2) {
            return "One thread count only: whether the gain grows with threads is not measured in this run.\n\n";
        }
        int lo = threads.first();
        int hi = threads.last();
        StringBuilder b = new StringBuilder("The per-cpu variants' gain over `atomic` from " + lo + " to " + hi + " threads "
                + "(geometric means of per-round ratios):\n\n");
        for (String target : TARGETS) {
            for (String v : List.of(TWO, FOUR, LAZY)) {
                Estimate a = vsBase(v, target, lo);
                Estimate z = vsBase(v, target, hi);
                if (a == null || z == null) {
                    continue;
                }
                String trend = Fmt.ratio(z.value()).equals(Fmt.ratio(a.value())) ? "unchanged at this precision"
                        : z.value() > a.value() ? "grows" : "shrinks";
                boolean overlap = a.hasInterval() && z.hasInterval() && z.lo() <= a.hi() && a.lo() <= z.hi();
                b.append("- ").append(target).append(", `").append(v).append("`: ").append(Fmt.ratio(a.value())).append(" at ")
                        .append(lo).append(lo == 1 ? " thread" : " threads").append(" -> ").append(Fmt.ratio(z.value())).append(" at ")
                        .append(hi).append(" threads: ").append(trend)
                        .append(overlap ? " (the two 95% intervals overlap: within noise)" : "").append('\n');
            }
        }
        return b.append('\n').toString();
    }

    String sweepChart(String target) {
        return Parts.sweepChart("part-acct model, bios to the " + (target.equals("disk") ? "whole disk" : "partition")
                + ": total throughput by threads (HZ " + HZ + ", " + SLOTS + " slots)", "M I/O/s (all threads)", VARIANTS,
                threads, (v, t) -> Parts.point(t, cell(v, target, t).throughput()));
    }

    /** The LKP rows of {@code atomic} against each other variant at {@code t}, by variant, one per target (null: a side missing). */
    static Map<String, List<LkpTable.Row>> estimateLkp(SweepEstimates s, int t) {
        Map<String, List<LkpTable.Row>> out = new LinkedHashMap<>();
        for (String v : VARIANTS.subList(1, VARIANTS.size())) {
            List<LkpTable.Row> rows = new ArrayList<>();
            for (String target : TARGETS) {
                rows.add(s.lkpRow("ns_per_io." + target, key(BASE, target), key(v, target), t));
            }
            out.put(v, rows);
        }
        return out;
    }

    /** The LKP blocks of {@link #estimateLkp}'s rows at {@code t}. */
    static String lkp(Map<String, List<LkpTable.Row>> rowsByVariant, int t) {
        StringBuilder b = new StringBuilder("LKP layout: `atomic` (base) against each variant at " + t
                + " threads, ns per I/O per thread (lower is better):\n\n");
        boolean any = false;
        for (var e : rowsByVariant.entrySet()) {
            String block = Parts.lkpRows(BASE, e.getKey(), null, e.getValue());
            any |= !block.isEmpty();
            b.append(block);
        }
        return any ? b.append(Parts.lkpLegend()).toString() : "";
    }

    String allocation(int t) {
        StringBuilder list = new StringBuilder();
        List<String> allocating = new ArrayList<>();
        for (String v : VARIANTS) {
            List<String> cells = new ArrayList<>();
            for (String target : TARGETS) {
                double bytes = cell(v, target, t).bytes();
                if (!Double.isNaN(bytes)) {
                    cells.add(Fmt.f(bytes, 3));
                    if (bytes >= ALLOCATES) {
                        allocating.add("`" + v + "` (" + target + ", " + Fmt.f(bytes, 1) + " B/op)");
                    }
                }
            }
            if (!cells.isEmpty()) {
                list.append(list.isEmpty() ? "" : ", ").append('`').append(v).append("` ").append(String.join(" / ", cells));
            }
        }
        if (list.isEmpty()) {
            return "Allocation per I/O: not measured in this run (no `gc.alloc.rate.norm`).\n\n";
        }
        return "Allocation per I/O (JMH -prof gc, " + t + " threads, B/op, disk / part): " + list + ". "
                + (allocating.isEmpty()
                        ? "The hot path allocates nothing: every variant stays below " + Fmt.f(ALLOCATES, 0)
                                + " B/op, which is JMH's own bookkeeping spread over the run's I/Os."
                        : "The hot path is not allocation-free: " + String.join(", ", allocating)
                                + (allocating.size() == 1 ? " allocates" : " allocate")
                                + " per I/O, so those figures include GC work the kernel does not do.") + "\n\n";
    }

    Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("hz", Integer.parseInt(HZ));
        out.put("slots", Integer.parseInt(SLOTS));
        for (String target : TARGETS) {
            Map<String, Object> byT = new LinkedHashMap<>();
            for (int t : threads) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (String v : VARIANTS) {
                    Cell c = cell(v, target, t);
                    if (c.throughput() == null) {
                        continue;
                    }
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("ns_per_io", Parts.json(c.ns()));
                    m.put("m_ios_per_s", Parts.json(c.throughput()));
                    m.put("throughput_vs_atomic", Parts.json(c.vsBase()));
                    m.put("bytes_per_op", Double.isNaN(c.bytes()) ? null : c.bytes());
                    row.put(v, m);
                }
                byT.put(Integer.toString(t), row);
            }
            out.put(target, byT);
        }
        return out;
    }
}
