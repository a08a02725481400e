package lab.fix.zraminitlock;

import static lab.fix.zraminitlock.ZramInitLock.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
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
 * stops; the sweep chart, allocation and the summary. Every figure is made where the table is
 * built ({@link #of}, {@link #estimateLkp}); the tables, charts and summary print them.
 */
final class GuardTable {
    /** Where "marginal" stops: the guard costing more than this share of throughput. */
    static final double MARGINAL = 0.10;

    /** One guard at one rw mode, pattern and thread count: ns per op, its throughput over rwsem's, total throughput (charts only). */
    record Cell(Estimate ns, Estimate vsBase, Estimate throughput) {}

    private final List<String> rws;
    private final List<String> patterns;
    private final SortedSet<Integer> threads;
    /** By guard, rw, pattern and threads ({@link #cellKey}). */
    private final Map<String, Cell> cells = new LinkedHashMap<>();
    /** The A/A of each row, by rw, pattern and threads; null without a control. */
    private final Map<String, NoiseFloor> floors = new LinkedHashMap<>();
    /** B/op of each guard at the seed's point and the most threads (charts only; NaN: not measured). */
    private final Map<String, Double> bytes = new LinkedHashMap<>();

    private GuardTable(SweepEstimates s, boolean charts) {
        this.rws = s.values("rw");
        this.patterns = s.values("pattern");
        this.threads = s.threadCounts();
        for (String rw : rws) {
            for (String p : patterns) {
                for (int t : threads) {
                    floors.put(rw + "/" + p + "/" + t, estimateFloor(s, rw, p, t));
                    for (String g : GUARDS) {
                        cells.put(cellKey(g, rw, p, t), new Cell(s.ns(key(g, rw, p), t), estimateRatio(s, g, rw, p, t),
                                charts && rw.equals("randrw") ? s.throughput(key(g, rw, p), t) : null));
                    }
                }
            }
        }
        if (charts && !threads.isEmpty()) {
            for (String g : GUARDS) {
                bytes.put(g, s.bytesPerOp(key(g, SEED_RW, SEED_PATTERN), threads.last()));
            }
        }
    }

    /**
     * The table of the sweep {@code s}: every figure its matrix and summary print, made; with
     * {@code charts}, the sweep charts' and the allocation line's too.
     */
    static GuardTable of(SweepEstimates s, boolean charts) {
        return new GuardTable(s, charts);
    }

    private static String cellKey(String guard, String rw, String p, int t) {
        return guard + "/" + rw + "/" + p + "/" + t;
    }

    static Map<String, String> key(String guard, String rw, String pattern) {
        return Map.of("guard", guard, "rw", rw, "pattern", pattern);
    }

    /** A guard at the seed's point (randrw, zero pages). */
    static Map<String, String> seedKey(String guard) {
        return key(guard, SEED_RW, SEED_PATTERN);
    }

    /** The guard's throughput over rwsem's: the estimator, per round score(rwsem) / score(guard). */
    private static Estimate estimateRatio(SweepEstimates s, String guard, String rw, String p, int t) {
        return s.ratio(key(BASE, rw, p), key(guard, rw, p), t);
    }

    /** The A/A floor of a row (rwsem against its copy); null when the run has no control. */
    private static NoiseFloor estimateFloor(SweepEstimates s, String rw, String p, int t) {
        return s.aa(key(BASE, rw, p), key(CONTROL, rw, p), t);
    }

    /** The sweep's thread counts. */
    SortedSet<Integer> threads() {
        return threads;
    }

    /** The patterns the sweep measured, in the order first seen. */
    List<String> patterns() {
        return patterns;
    }

    private Cell cell(String guard, String rw, String p, int t) {
        Cell c = cells.get(cellKey(guard, rw, p, t));
        return c == null ? new Cell(null, null, null) : c;
    }

    /** ns per op of {@code guard} at {@code rw}, {@code p} and {@code t}; null where not measured. */
    Estimate ns(String guard, String rw, String p, int t) {
        return cell(guard, rw, p, t).ns();
    }

    /** The guard's throughput over rwsem's; null where not measured. */
    Estimate ratio(String guard, String rw, String p, int t) {
        return cell(guard, rw, p, t).vsBase();
    }

    /** The A/A floor of a row; null without a control. */
    NoiseFloor floor(String rw, String p, int t) {
        return floors.get(rw + "/" + p + "/" + t);
    }

    String ratioMatrix() {
        StringBuilder b = new StringBuilder("| rw | pattern | threads |");
        GUARDS.subList(1, GUARDS.size()).forEach(g -> b.append(' ').append(g).append(" / rwsem |"));
        b.append(" A/A: rwsem / rwsem (floor) | rwsem ns/op |\n|---|---|---:|");
        GUARDS.subList(1, GUARDS.size()).forEach(g -> b.append("---:|"));
        b.append("---:|---:|\n");
        for (String rw : rws) {
            for (String p : patterns) {
                for (int t : threads) {
                    Estimate base = ns(BASE, rw, p, t);
                    if (base == null) {
                        continue;
                    }
                    NoiseFloor f = floor(rw, p, t);
                    b.append("| ").append(rw).append(" | ").append(p).append(" | ").append(t).append(" |");
                    for (String g : GUARDS.subList(1, GUARDS.size())) {
                        b.append(' ').append(Parts.ratioCell(ratio(g, rw, p, t))).append(" |");
                    }
                    b.append(' ').append(f == null ? "—" : Parts.ratioCell(f.aa())).append(" | ")
                            .append(Fmt.f(base.value(), 0)).append(" |\n");
                }
            }
        }
        return b.toString();
    }

    /** The seed's SRCU-vs-rwsem change per rw mode beside the model's raw one, on the seed's zero pages at {@code t} threads. */
    String seedVsModel(int t) {
        StringBuilder b = new StringBuilder("The seed's table beside the raw model's (zero pages, as the seed ran; " + t
                + " threads; SRCU throughput over rwsem's as a change, in the notebook's estimator):\n\n"
                + "| rw | seed: SRCU vs rwsem | model raw: SRCU vs rwsem, 95% interval | A/A |\n|---|---:|---:|---:|\n");
        for (String rw : RWS) {
            Estimate r = ratio(SRCU, rw, SEED_PATTERN, t);
            NoiseFloor f = floor(rw, SEED_PATTERN, t);
            String model = r == null ? "n/a" : !r.hasInterval() ? String.format(Locale.ROOT, "%+.1f%% (%s)", 100 * (r.value() - 1), r.noInterval())
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
    String quickNote(boolean quick) {
        return !quick || rws.containsAll(RWS) ? "" : "Quick run: the guard table measured the headline's cells only, "
                + String.join(", ", rws) + " on " + String.join(", ", patterns) + " pages, every guard and the A/A"
                + " copy, at " + Fmt.and(threads.stream().map(String::valueOf).toList())
                + (threads.size() == 1 ? " thread" : " threads") + "; `./lab pair " + ID + "` measures every rw mode ("
                + String.join(", ", RWS) + ") and pattern, LZ4 beside LZO-RLE" + (threads.contains(SEED_WORKERS) ? ""
                : ", and the seed's " + SEED_WORKERS + " workers") + ".\n\n";
    }

    /** Where srcu first differs from rwsem by more than MARGINAL (beyond the row's floor), per rw and pattern. */
    String marginal() {
        if (threads.size() < 2) {
            return "";
        }
        StringBuilder b = new StringBuilder("Where \"marginal\" stops being marginal (srcu's throughput more than "
                + Math.round(MARGINAL * 100) + "% from rwsem's, its interval leaving out 1):\n\n");
        for (String rw : rws) {
            for (String p : patterns) {
                String first = null;
                Double most = null;
                int mostAt = 0;
                for (int t : threads) {
                    Estimate r = ratio(SRCU, rw, p, t);
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
                                Math.round(MARGINAL * 100), threads.first(), threads.last(), Fmt.ratio(most), mostAt))
                        .append('\n');
            }
        }
        return b.append('\n').toString();
    }

    /** Total throughput by threads per guard at {@code rw} (randrw: the charts' figures) and {@code p}. */
    String sweepChart(String rw, String p) {
        return Parts.sweepChart("zram model, " + rw + ", " + p + ": total throughput by threads, per guard", "M ops/s (all threads)",
                GUARDS, threads, (g, t) -> Parts.point(t, cell(g, rw, p, t).throughput()));
    }

    String allocation(int t) {
        StringBuilder b = new StringBuilder();
        for (String g : GUARDS) {
            double x = bytes.getOrDefault(g, Double.NaN);
            if (!Double.isNaN(x)) {
                b.append(b.isEmpty() ? "" : ", ").append('`').append(g).append("` ").append(Fmt.f(x, 3));
            }
        }
        return b.isEmpty() ? "" : "Allocation per op (JMH -prof gc, randrw zero, " + t + " threads, B/op): " + b + ".\n\n";
    }

    Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String rw : rws) {
            for (String p : patterns) {
                Map<String, Object> byT = new LinkedHashMap<>();
                for (int t : threads) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    NoiseFloor f = floor(rw, p, t);
                    for (String g : GUARDS) {
                        Estimate v = ns(g, rw, p, t);
                        if (v != null) {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("ns_per_op", v.json());
                            Estimate r = ratio(g, rw, p, t);
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

    /** The LKP rows of rwsem (base) against each guard at {@code t} threads, by guard, one per rw mode and pattern. */
    static Map<String, List<LkpTable.Row>> estimateLkp(SweepEstimates s, int t) {
        Map<String, List<LkpTable.Row>> out = new LinkedHashMap<>();
        for (String g : GUARDS.subList(1, GUARDS.size())) {
            List<LkpTable.Row> rows = new ArrayList<>();
            for (String rw : s.values("rw")) {
                for (String p : s.values("pattern")) {
                    rows.add(s.lkpRow("ns_per_io." + rw + "." + p, key(BASE, rw, p), key(g, rw, p), t));
                }
            }
            out.put(g, rows);
        }
        return out;
    }

    /** The LKP blocks of {@link #estimateLkp}'s rows at {@code t} threads. */
    static String lkp(Map<String, List<LkpTable.Row>> rowsByGuard, int t) {
        StringBuilder b = new StringBuilder("\n### LKP layout: rwsem (base) against each guard at " + t
                + " threads, ns per op per thread (lower is better)\n\n");
        rowsByGuard.forEach((g, rows) -> b.append(Parts.lkpRows(BASE, g, null, rows)));
        return b.append(Parts.lkpLegend()).toString();
    }
}
