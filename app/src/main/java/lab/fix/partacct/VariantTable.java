package lab.fix.partacct;

import static lab.fix.partacct.PartAcct.*;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.analysis.compare.LkpTable;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.fidelity.NoiseFloor;
import lab.engine.bench.Variants;
import lab.notebook.Fmt;
import lab.notebook.Parts;
import lab.results.RunDir;

/**
 * The JVM model's variant table ({@code part-acct-rR-tT.json}): each variant's throughput and its
 * ratio to {@code atomic}, per target and thread count, at the table's HZ and slots; how the gain
 * grows with threads; the LKP blocks; allocation per I/O; the sweep chart and the summary.
 */
final class VariantTable {
    /** Below this many B/op JMH's own bookkeeping is all there is (one object is 16 B at least). */
    static final double ALLOCATES = 1.0;

    private VariantTable() {}

    /** The table's JMH params of {@code variant} (or its A/A control) bios to {@code target}, at the table's HZ and slots. */
    static Map<String, String> key(String variant, String target) {
        return Map.of("variant", variant, "target", target, "hz", HZ, "slots", SLOTS);
    }

    static Map<String, String> gridKey(String variant, String hz, String slots) {
        return Map.of("variant", variant, "target", "part", "hz", hz, "slots", slots);
    }

    /** Candidate throughput over base throughput, per round, estimated over rounds: score(base) / score(candidate). */
    static Estimate roundRatio(SweepEstimates s, Map<String, String> base, Map<String, String> cand, int t) {
        return s.ratio(base, cand, t);
    }

    /** Total throughput in M I/O/s per round: t * 1e3 / (ns per I/O per thread). */
    static Estimate throughput(SweepEstimates s, Map<String, String> k, int t) {
        return s.throughput(k, t);
    }

    /** The A/A floor of {@code atomic} against its control copy, bios to {@code target} at {@code t}; null without the control. */
    static NoiseFloor floor(SweepEstimates s, String target, int t) {
        return s.aa(key(BASE, target), key(Variants.control(BASE), target), t);
    }

    /** The variant table of {@code s} under {@code heading} (a level-3 heading without its hashes). */
    static String table(SweepEstimates s, String cores, String heading) {
        boolean aa = floor(s, TARGETS.getFirst(), s.threadCounts().last()) != null;
        StringBuilder b = new StringBuilder("### " + heading + "\n\n"
                + "Threads " + s.threadCounts().first() + ".." + s.threadCounts().last() + " on " + cores + " cores. "
                + "Total I/O per second of all threads, and that over `atomic`'s at the same thread count (the estimator), "
                + (aa ? "each with its 95% interval over rounds, beside the A/A (`atomic` against a copy of itself at that target and"
                        + " thread count)" : "each with its 95% interval over rounds; no A/A control in this run")
                + ". B/op: JMH's GC profiler.\n\n"
                + "| target | threads | variant | M I/O/s | / atomic | ns per I/O per thread | B/op |\n|---|---:|---|---:|---:|---:|---:|\n");
        for (String target : TARGETS) {
            for (int t : s.threadCounts()) {
                NoiseFloor f = floor(s, target, t);
                for (String v : VARIANTS) {
                    if (!s.has(key(v, target), t)) {
                        continue;
                    }
                    String ratio = v.equals(BASE) ? (f == null ? "—" : "— (A/A " + Parts.ratioCell(f.aa()) + ")")
                            : Parts.ratioCell(roundRatio(s, key(BASE, target), key(v, target), t));
                    double bytes = s.bytesPerOp(key(v, target), t);
                    b.append("| ").append(target).append(" | ").append(t).append(" | `").append(v).append("` | ")
                            .append(Fmt.est(throughput(s, key(v, target), t), 2)).append(" | ").append(ratio).append(" | ")
                            .append(Fmt.est(s.ns(key(v, target), t), 1)).append(" | ")
                            .append(Double.isNaN(bytes) ? "n/a" : Fmt.f(bytes, 3)).append(" |\n");
                }
            }
        }
        return b.append('\n').toString();
    }

    /** Whether each per-cpu variant's gain over atomic grows from the fewest threads to the most. */
    /**
     * What a quick run's raw table leaves out, in words, once; empty in a full run and where it has
     * every target (every quick run before issue 33).
     */
    static String quickNote(SweepEstimates s, boolean quick) {
        List<String> have = s.values("target");
        return !quick || have.containsAll(TARGETS) ? "" : "Quick run: the raw table measured the target " + String.join(", ", have)
                + " only (`disk`, bios to the whole disk, is the headline's), every variant and the A/A copy; `./lab pair " + ID
                + "` measures bios to the partition too.\n\n";
    }

    static String growth(SweepEstimates s) {
        if (s.threadCounts().size() < 2) {
            return "One thread count only: whether the gain grows with threads is not measured in this run.\n\n";
        }
        int lo = s.threadCounts().first();
        int hi = s.threadCounts().last();
        StringBuilder b = new StringBuilder("The per-cpu variants' gain over `atomic` from " + lo + " to " + hi + " threads "
                + "(geometric means of per-round ratios):\n\n");
        for (String target : TARGETS) {
            for (String v : List.of(TWO, FOUR, LAZY)) {
                Estimate a = roundRatio(s, key(BASE, target), key(v, target), lo);
                Estimate z = roundRatio(s, key(BASE, target), key(v, target), hi);
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

    static String sweepChart(SweepEstimates s, String target) {
        return Parts.sweepChart("part-acct model, bios to the " + (target.equals("disk") ? "whole disk" : "partition")
                + ": total throughput by threads (HZ " + HZ + ", " + SLOTS + " slots)", "M I/O/s (all threads)", VARIANTS,
                s.threadCounts(), (v, t) -> Parts.point(t, throughput(s, key(v, target), t)));
    }

    static String lkp(SweepEstimates s, int t) {
        StringBuilder b = new StringBuilder("LKP layout: `atomic` (base) against each variant at " + t
                + " threads, ns per I/O per thread (lower is better):\n\n");
        boolean any = false;
        for (String v : VARIANTS.subList(1, VARIANTS.size())) {
            List<LkpTable.Row> rows = new ArrayList<>();
            for (String target : TARGETS) {
                rows.add(s.lkpRow("ns_per_io." + target, key(BASE, target), key(v, target), t));
            }
            String block = Parts.lkpRows(BASE, v, null, rows);
            any |= !block.isEmpty();
            b.append(block);
        }
        return any ? b.append(Parts.lkpLegend()).toString() : "";
    }

    static String allocation(SweepEstimates s, int t) {
        StringBuilder list = new StringBuilder();
        List<String> allocating = new ArrayList<>();
        for (String v : VARIANTS) {
            List<String> cells = new ArrayList<>();
            for (String target : TARGETS) {
                double bytes = s.bytesPerOp(key(v, target), t);
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

    static Map<String, Object> summary(SweepEstimates s) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("hz", Integer.parseInt(HZ));
        out.put("slots", Integer.parseInt(SLOTS));
        for (String target : TARGETS) {
            Map<String, Object> byT = new LinkedHashMap<>();
            for (int t : s.threadCounts()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (String v : VARIANTS) {
                    Estimate tp = throughput(s, key(v, target), t);
                    if (tp == null) {
                        continue;
                    }
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("ns_per_io", Parts.json(s.ns(key(v, target), t)));
                    m.put("m_ios_per_s", Parts.json(tp));
                    m.put("throughput_vs_atomic", Parts.json(roundRatio(s, key(BASE, target), key(v, target), t)));
                    double bytes = s.bytesPerOp(key(v, target), t);
                    m.put("bytes_per_op", Double.isNaN(bytes) ? null : bytes);
                    row.put(v, m);
                }
                byT.put(Integer.toString(t), row);
            }
            out.put(target, byT);
        }
        return out;
    }
}
