package lab.fix.zraminitlock;

import static lab.fix.zraminitlock.ZramInitLock.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lab.analysis.compare.LkpTable;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.fidelity.NoiseFloor;
import lab.notebook.Fmt;
import lab.notebook.Parts;

/**
 * The JVM model's guard table ({@code zram-rR-tT.json}, {@code zram-lz4-rR-tT.json}): each guard's
 * throughput over rwsem's per rw mode, pattern and thread count in the notebook's estimator,
 * checked against the A/A floor of the row; the seed's table beside the model's; where "marginal"
 * stops; the sweep chart, allocation and the summary.
 */
final class GuardTable {
    /** Where "marginal" stops: the guard costing more than this share of throughput. */
    static final double MARGINAL = 0.10;

    private GuardTable() {}

    static Map<String, String> key(String guard, String rw, String pattern) {
        return Map.of("guard", guard, "rw", rw, "pattern", pattern);
    }

    /** A guard at the seed's point (randrw, zero pages). */
    static Map<String, String> seedKey(String guard) {
        return key(guard, SEED_RW, SEED_PATTERN);
    }

    /** The guard's throughput over rwsem's: the estimator, per round score(rwsem) / score(guard). */
    static Estimate ratio(SweepEstimates s, String guard, String rw, String p, int t) {
        return s.ratio(key(BASE, rw, p), key(guard, rw, p), t);
    }

    /** The A/A floor of a row (rwsem against its copy); null when the run has no control. */
    static NoiseFloor floor(SweepEstimates s, String rw, String p, int t) {
        return s.aa(key(BASE, rw, p), key(CONTROL, rw, p), t);
    }

    static String ratioMatrix(SweepEstimates s) {
        StringBuilder b = new StringBuilder("| rw | pattern | threads |");
        GUARDS.subList(1, GUARDS.size()).forEach(g -> b.append(' ').append(g).append(" / rwsem |"));
        b.append(" A/A: rwsem / rwsem (floor) | rwsem ns/op |\n|---|---|---:|");
        GUARDS.subList(1, GUARDS.size()).forEach(g -> b.append("---:|"));
        b.append("---:|---:|\n");
        for (String rw : s.values("rw")) {
            for (String p : s.values("pattern")) {
                for (int t : s.threadCounts()) {
                    Estimate base = s.ns(key(BASE, rw, p), t);
                    if (base == null) {
                        continue;
                    }
                    NoiseFloor f = floor(s, rw, p, t);
                    b.append("| ").append(rw).append(" | ").append(p).append(" | ").append(t).append(" |");
                    for (String g : GUARDS.subList(1, GUARDS.size())) {
                        b.append(' ').append(Parts.ratioCell(ratio(s, g, rw, p, t))).append(" |");
                    }
                    b.append(' ').append(f == null ? "—" : Parts.ratioCell(f.aa())).append(" | ")
                            .append(Fmt.f(base.value(), 0)).append(" |\n");
                }
            }
        }
        return b.toString();
    }

    /** The seed's SRCU-vs-rwsem change per rw mode beside the model's raw one, on the seed's zero pages at {@code t} threads. */
    static String seedVsModel(SweepEstimates s, int t) {
        StringBuilder b = new StringBuilder("The seed's table beside the raw model's (zero pages, as the seed ran; " + t
                + " threads; SRCU throughput over rwsem's as a change, in the notebook's estimator):\n\n"
                + "| rw | seed: SRCU vs rwsem | model raw: SRCU vs rwsem, 95% interval | A/A |\n|---|---:|---:|---:|\n");
        for (String rw : RWS) {
            Estimate r = ratio(s, SRCU, rw, SEED_PATTERN, t);
            NoiseFloor f = floor(s, rw, SEED_PATTERN, t);
            String model = r == null ? "n/a" : !r.hasInterval() ? String.format(Locale.ROOT, "%+.1f%% (one round)", 100 * (r.value() - 1))
                    : String.format(Locale.ROOT, "%+.1f%% [%+.1f%% – %+.1f%%]", 100 * (r.value() - 1), 100 * (r.lo() - 1), 100 * (r.hi() - 1))
                    + (r.excludes(1) ? "" : " (holds 0)");
            b.append("| ").append(rw).append(" | ").append(String.format(Locale.ROOT, "%+.2f%%", SEED_PCT.get(rw)))
                    .append(" | ").append(model).append(" | ").append(f == null ? "—" : Parts.ratioCell(f.aa())).append(" |\n");
        }
        return b.append("\nRaw, a model I/O on a zero page costs tens of ns, the kernel's microseconds: the same guard is a far larger ")
                .append("share of the model's I/O. The calibrated model below puts the kernel's cost per I/O back.\n\n").toString();
    }

    /**
     * What a quick run's table leaves out, in words, once; empty in a full run and where the table
     * has every rw mode (every quick run before issue 33, which had two patterns of each).
     */
    static String quickNote(SweepEstimates s, boolean quick) {
        return !quick || s.values("rw").containsAll(RWS) ? "" : "Quick run: the guard table measured the headline's cells only, "
                + String.join(", ", s.values("rw")) + " on " + String.join(", ", s.values("pattern")) + " pages, every guard and the A/A"
                + " copy, at " + Fmt.and(s.threadCounts().stream().map(String::valueOf).toList())
                + (s.threadCounts().size() == 1 ? " thread" : " threads") + "; `./lab pair " + ID + "` measures every rw mode ("
                + String.join(", ", RWS) + ") and pattern, LZ4 beside LZO-RLE" + (s.threadCounts().contains(SEED_WORKERS) ? ""
                : ", and the seed's " + SEED_WORKERS + " workers") + ".\n\n";
    }

    /** Where srcu first differs from rwsem by more than MARGINAL (beyond the row's floor), per rw and pattern. */
    static String marginal(SweepEstimates s) {
        if (s.threadCounts().size() < 2) {
            return "";
        }
        StringBuilder b = new StringBuilder("Where \"marginal\" stops being marginal (srcu's throughput more than "
                + Math.round(MARGINAL * 100) + "% from rwsem's, its interval leaving out 1):\n\n");
        for (String rw : s.values("rw")) {
            for (String p : s.values("pattern")) {
                String first = null;
                Double most = null;
                int mostAt = 0;
                for (int t : s.threadCounts()) {
                    Estimate r = ratio(s, SRCU, rw, p, t);
                    if (r == null) {
                        continue;
                    }
                    boolean beyond = !r.hasInterval() || r.excludes(1);
                    if (first == null && beyond && Math.abs(r.value() - 1) > MARGINAL) {
                        first = String.format(Locale.ROOT, "srcu first differs by more than %d%% at %d threads (%s)",
                                Math.round(MARGINAL * 100), t, r.format(2) + "x");
                    }
                    if (most == null || Math.abs(r.value() - 1) > Math.abs(most - 1)) {
                        most = r.value();
                        mostAt = t;
                    }
                }
                if (most == null) {
                    continue;
                }
                b.append("- ").append(rw).append(", ").append(p).append(": ").append(first != null ? first
                        : String.format(Locale.ROOT, "srcu stays within %d%% of rwsem (or within noise) from %d to %d threads (farthest: %s at %d)",
                                Math.round(MARGINAL * 100), s.threadCounts().first(), s.threadCounts().last(), Fmt.ratio(most), mostAt))
                        .append('\n');
            }
        }
        return b.append('\n').toString();
    }

    static String sweepChart(SweepEstimates s, String rw, String p) {
        return Parts.sweepChart("zram model, " + rw + ", " + p + ": total throughput by threads, per guard", "M ops/s (all threads)",
                GUARDS, s.threadCounts(), (g, t) -> Parts.point(t, s.throughput(key(g, rw, p), t)));
    }

    static String allocation(SweepEstimates s, int t) {
        StringBuilder b = new StringBuilder();
        for (String g : GUARDS) {
            double bytes = s.bytesPerOp(key(g, SEED_RW, SEED_PATTERN), t);
            if (!Double.isNaN(bytes)) {
                b.append(b.isEmpty() ? "" : ", ").append('`').append(g).append("` ").append(Fmt.f(bytes, 3));
            }
        }
        return b.isEmpty() ? "" : "Allocation per op (JMH -prof gc, randrw zero, " + t + " threads, B/op): " + b + ".\n\n";
    }

    static Map<String, Object> summary(SweepEstimates s) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String rw : s.values("rw")) {
            for (String p : s.values("pattern")) {
                Map<String, Object> byT = new LinkedHashMap<>();
                for (int t : s.threadCounts()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    NoiseFloor f = floor(s, rw, p, t);
                    for (String g : GUARDS) {
                        Estimate v = s.ns(key(g, rw, p), t);
                        if (v != null) {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("ns_per_op", v.json());
                            Estimate r = ratio(s, g, rw, p, t);
                            m.put("throughput_vs_rwsem", Parts.json(r));
                            m.put("within_noise", r == null || !r.hasInterval() ? null : !r.excludes(1));
                            row.put(g, m);
                        }
                    }
                    row.put("aa", f == null ? null : Parts.json(f.aa()));
                    byT.put(Integer.toString(t), row);
                }
                out.put(rw + "/" + p, byT);
            }
        }
        return out;
    }

    /** The LKP blocks: rwsem (base) against each guard at {@code t} threads, per rw mode and pattern. */
    static String lkp(SweepEstimates s, int t) {
        StringBuilder b = new StringBuilder("\n### LKP layout: rwsem (base) against each guard at " + t
                + " threads, ns per op per thread (lower is better)\n\n");
        for (String g : GUARDS.subList(1, GUARDS.size())) {
            List<LkpTable.Row> rows = new ArrayList<>();
            for (String rw : s.values("rw")) {
                for (String p : s.values("pattern")) {
                    rows.add(s.lkpRow("ns_per_io." + rw + "." + p, key(BASE, rw, p), key(g, rw, p), t));
                }
            }
            b.append(Parts.lkpRows(BASE, g, null, rows));
        }
        return b.append(Parts.lkpLegend()).toString();
    }
}
