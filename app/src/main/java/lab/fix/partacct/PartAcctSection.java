package lab.fix.partacct;

import lab.notebook.Fix;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.notebook.Notebook;
import lab.notebook.RunDir;
import lab.notebook.Section;
import lab.notebook.SectionOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.DoubleBinaryOperator;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.analysis.JmhSweep;
import lab.analysis.Stats;
import lab.analysis.chart.LineChart;
import lab.analysis.compare.Comparison;
import lab.analysis.compare.LkpTable;
import lab.analysis.compare.Sample;

/**
 * part-acct (seed 002_84cddfb167739f27.txt): the partition refcount as a percpu_ref (patches
 * 1-2) and {@code part->in_flight[]} as per-cpu counters (patches 3-4) in the JVM model, Jens
 * Axboe's objection (the per-tick {@code part_in_flight()} sum over every possible CPU) measured
 * over slots x HZ, and today's kernel with {@code queue/iostats} on and off.
 *
 * <p>Reads {@code raw/part-acct/part-acct-rR-tT.json} (every variant x target at HZ 1000, 64
 * slots), {@code part-acct-grid-rR-tT.json} (percpu-ref and all four over HZ x slots, bios to the
 * partition), {@code part-acct-sum-rR.json} (ns per sum by slots, one thread) and
 * {@code raw/part-acct/kernel/DEV-TARGET-iostatsS-jN-rK.TOOL.*}.
 */
final class PartAcctSection implements Section {
    static final String ID = "part-acct";
    static final String BASE = "atomic";
    static final String TWO = "percpu-ref";
    static final String FOUR = "percpu-ref+percpu-inflight";
    static final String LAZY = "lazy-ticks";
    static final String OFF = "iostats=0";
    static final List<String> VARIANTS = List.of(BASE, TWO, FOUR, LAZY, OFF);
    static final List<String> TARGETS = List.of("disk", "part");
    /** The variant table's conditions. */
    static final String HZ = "1000";
    static final String SLOTS = "64";
    /** The HZ values a kernel is built with that the issue names. */
    static final List<Integer> HZS = List.of(100, 250, 1000);
    /** part_in_flight() sums per tick: a whole-disk bio rounds part0's stats; a partition bio, the partition's and part0's. */
    static final Map<String, Integer> SUMS_PER_TICK = Map.of("disk", 1, "part", 2);
    /** The seed's figures (Ming Lei, fio randread over null_blk, dual socket). */
    static final double SEED_TWO = 1.08;
    static final double SEED_FOUR = 1.15;
    /** Below this many B/op JMH's own bookkeeping is all there is (one object is 16 B at least). */
    static final double ALLOCATES = 1.0;
    /** The kernel devices the scenario runs, in the order they are listed. */
    static final List<String> DEVICES = List.of("zram", "loop", "nullb");
    /**
     * The headline's device, first that has a whole-disk fio pair where the toggle takes: null_blk (the seed's device, in the
     * guest), loop, zram (bio-based zram accounts whatever queue/iostats says on today's kernels).
     */
    static final List<String> HEADLINE_ORDER = List.of("nullb", "loop", "zram");
    private static final Pattern JOB = Pattern.compile("([a-z0-9_]+)-(disk|part)-iostats([01])-j(\\d+)-r(\\d+)");

    @Override
    public String id() { return ID; }

    @Override
    public Optional<SectionOutput> render(RunDir run) throws IOException {
        Path dir = run.raw().resolve(ID);
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        JmhSweep table = JmhSweep.read(dir, "part-acct", run::gap);
        JmhSweep grid = JmhSweep.read(dir, "part-acct-grid", run::gap);
        JmhSweep sum = JmhSweep.read(dir, "part-acct-sum", run::gap);
        Path kdir = dir.resolve("kernel");
        KernelRuns kernelRuns = KernelRuns.read(run, kdir);
        Kernel kernel = Kernel.of(kernelRuns);
        Fix fix = PartAcct.FIX;
        String data = run.manifest().path("command").asText("./lab pair " + ID);
        String regen = "./lab notebook results/" + run.id();
        String figure = "\n\nData: `" + data + "`; chart: `" + regen + "`\n\n";
        StringBuilder md = new StringBuilder("## part-acct: ").append(fix.title()).append("\n\n").append(seed(fix));
        Map<String, String> charts = new LinkedHashMap<>();
        Map<String, Object> jvm = new LinkedHashMap<>();
        Stats.Spread jvmHeadline = null;
        int tableT = 0;
        if (!table.isEmpty()) {
            tableT = table.threadCounts().last();
            md.append(variantTable(table, run.manifest().path("cores").asText("?"))).append(growth(table));
            for (String target : TARGETS) {
                if (!table.samples(key(BASE, target), tableT).isEmpty()) {
                    String name = "part-acct-sweep-" + target + ".svg";
                    charts.put(name, sweepChart(table, target));
                    md.append("![").append(target).append(" thread sweep](charts/").append(name).append(")").append(figure);
                }
            }
            md.append(lkp(table, tableT)).append(allocation(table, tableT));
            jvmHeadline = roundRatio(table, key(BASE, "disk"), key(FOUR, "disk"), tableT);
            jvm.put("table", tableSummary(table));
        } else {
            md.append("### JVM model\n\nNo variant table in this run (`raw/part-acct/part-acct-rR-tT.json`).\n\n");
        }
        md.append(flamegraphs(run));
        md.append("### Jens Axboe's concern, measured: the per-tick sum over slots x HZ\n\n");
        Grid g = grid.isEmpty() ? null : Grid.of(grid);
        if (g != null) {
            charts.put("part-acct-crossover.svg", g.chart());
            md.append(g.text()).append("![all four over the first two by slots and HZ](charts/part-acct-crossover.svg)").append(figure);
            jvm.put("grid", g.summary());
        } else {
            md.append("No crossover grid in this run (`raw/part-acct/part-acct-grid-rR-tT.json`).\n\n");
        }
        Fit fit = null;
        if (!sum.isEmpty()) {
            SumCost cost = SumCost.of(sum);
            fit = cost.fit();
            charts.put("part-acct-sum.svg", cost.chart());
            md.append(cost.text()).append("![ns per part_in_flight() sum by slots](charts/part-acct-sum.svg)").append(figure)
                    .append(cost.cpuTable());
            jvm.put("sum", cost.summary());
        } else {
            md.append("No sum benchmark in this run (`raw/part-acct/part-acct-sum-rR.json`).\n\n");
        }
        Map<String, Object> extrapolated = new LinkedHashMap<>();
        md.append(extrapolation(g, fit, extrapolated));
        if (!extrapolated.isEmpty()) {
            jvm.put("extrapolated_crossover_slots", extrapolated);
        }
        md.append(kernel.text(run, kdir, kernelRuns));
        Stats.Spread kernelHeadline = kernel.headlineGroup() == null ? null : kernel.ratio(kernel.headlineGroup());
        Map<String, Object> fidelity = new LinkedHashMap<>();
        md.append(fidelity(table, tableT, kernel, fidelity));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("headline", headline(fix, jvmHeadline, tableT, kernelHeadline, kernel, run));
        out.put("jvm", jvm.isEmpty() ? null : jvm);
        out.put("kernel", kernel.isEmpty() ? null : kernel.summary(kernelRuns));
        out.put("fidelity", fidelity);
        return Optional.of(new SectionOutput(md.toString(), charts, out));
    }

    static Map<String, String> key(String variant, String target) {
        return Map.of("variant", variant, "target", target, "hz", HZ, "slots", SLOTS);
    }

    static Map<String, String> gridKey(String variant, String hz, String slots) {
        return Map.of("variant", variant, "target", "part", "hz", hz, "slots", slots);
    }

    private static String seed(Fix fix) {
        return "The seed (" + fix.seedFile() + ", July 2015): Ming Lei's four patches, fio randread over null_blk on a "
                + "dual-socket machine:\n\n"
                + "| patches | what changes per I/O | seed: throughput over before |\n|---|---|---:|\n"
                + "| 1-2 | the partition refcount `atomic_t` -> `percpu_ref`: one atomic inc/dec pair less per I/O | ~8% ("
                + Fmt.ratio(SEED_TWO) + ") |\n"
                + "| 1-4 | also `part->in_flight[]` -> per-cpu counters; `part_in_flight()` then sums every possible CPU | ~15% ("
                + Fmt.ratio(SEED_FOUR) + ") |\n\n"
                + "Jens Axboe's objection: making the inc/dec per-cpu is \"a no-brainer\", but `part_in_flight()` must then sum "
                + "every CPU, and `part_round_stats()` calls it up to once per jiffy per partition (\"that can still be 1000 per "
                + "second\"); in his own attempts the summing ate the gain. Tejun Heo's answer: `part_round_stats()` is the only "
                + "place where the sum could hurt, and it can be done \"*way* lazier\", out of the issue and completion path; Jens agreed that "
                + "patches 1-2 \"can go right in\".\n\n"
                + "The model's variants: `atomic` (before the series), `percpu-ref` (patches 1-2), `percpu-ref+percpu-inflight` "
                + "(all four, summing once per tick), `lazy-ticks` (today's kernel: `update_io_ticks`, no sum on the I/O path) and "
                + "`iostats=0` (accounting off). One op is one 4k randread bio through the accounting to a NullBlk; \"slots\" are "
                + "the possible CPUs `part_in_flight()` sums (at least the thread count), so the sum's cost is measured up to 256 "
                + "CPUs on any machine.\n\n";
    }

    // ---- the variant table -------------------------------------------------------------

    static Stats.Spread spread(List<Double> v) {
        return v.isEmpty() ? null : Stats.spread(v);
    }

    /** Candidate throughput over base throughput, per round: score(base) / score(candidate). */
    static Stats.Spread roundRatio(JmhSweep s, Map<String, String> base, Map<String, String> cand, int t) {
        return spread(s.perRound(base, cand, t, (b, c) -> b / c));
    }

    /** Total throughput in M I/O/s per round: t * 1e3 / (ns per I/O per thread). */
    static Stats.Spread throughput(JmhSweep s, Map<String, String> k, int t) {
        return spread(s.scoresByRound(k, t).values().stream().map(ns -> t * 1e3 / ns).toList());
    }

    private static String variantTable(JmhSweep s, String cores) {
        StringBuilder b = new StringBuilder("### JVM model: each variant's throughput and its ratio to `atomic` (HZ " + HZ + ", "
                + SLOTS + " slots)\n\n"
                + "Threads " + s.threadCounts().first() + ".." + s.threadCounts().last() + " on " + cores + " cores. "
                + "Total I/O per second of all threads, and that over `atomic`'s at the same thread count: median [min–max] of "
                + "per-round figures (one round: the figure alone). `*`: the 95% confidence intervals of the two ns-per-I/O means do "
                + "not overlap. B/op: JMH's GC profiler.\n\n"
                + "| target | threads | variant | M I/O/s | / atomic | ns per I/O per thread | B/op |\n|---|---:|---|---:|---:|---:|---:|\n");
        for (String target : TARGETS) {
            for (int t : s.threadCounts()) {
                for (String v : VARIANTS) {
                    List<Double> ns = s.samples(key(v, target), t);
                    if (ns.isEmpty()) {
                        continue;
                    }
                    List<Double> base = s.samples(key(BASE, target), t);
                    String ratio = "—";
                    if (!v.equals(BASE)) {
                        Stats.Spread r = roundRatio(s, key(BASE, target), key(v, target), t);
                        boolean sig = !base.isEmpty() && new Comparison("ns", new Sample(base), new Sample(ns), false).significance()
                                == Comparison.Significance.SIGNIFICANT;
                        ratio = r == null ? "n/a" : Fmt.spread(r, 2) + "x" + (sig ? "*" : "");
                    }
                    double bytes = s.bytesPerOp(key(v, target), t);
                    b.append("| ").append(target).append(" | ").append(t).append(" | `").append(v).append("` | ")
                            .append(Fmt.spread(throughput(s, key(v, target), t), 2)).append(" | ").append(ratio).append(" | ")
                            .append(Fmt.spread(spread(new ArrayList<>(s.scoresByRound(key(v, target), t).values())), 1)).append(" | ")
                            .append(Double.isNaN(bytes) ? "n/a" : Fmt.f(bytes, 3)).append(" |\n");
                }
            }
        }
        return b.append('\n').toString();
    }

    /** Whether each per-cpu variant's gain over atomic grows from the fewest threads to the most. */
    private static String growth(JmhSweep s) {
        if (s.threadCounts().size() < 2) {
            return "One thread count only: whether the gain grows with threads is not measured in this run.\n\n";
        }
        int lo = s.threadCounts().first();
        int hi = s.threadCounts().last();
        StringBuilder b = new StringBuilder("The per-cpu variants' gain over `atomic` from " + lo + " to " + hi + " threads "
                + "(medians of per-round ratios):\n\n");
        for (String target : TARGETS) {
            for (String v : List.of(TWO, FOUR, LAZY)) {
                Stats.Spread a = roundRatio(s, key(BASE, target), key(v, target), lo);
                Stats.Spread z = roundRatio(s, key(BASE, target), key(v, target), hi);
                if (a == null || z == null) {
                    continue;
                }
                String trend = Fmt.ratio(z.median()).equals(Fmt.ratio(a.median())) ? "unchanged at this precision"
                        : z.median() > a.median() ? "grows" : "shrinks";
                boolean overlap = z.min() <= a.max() && a.min() <= z.max();
                b.append("- ").append(target).append(", `").append(v).append("`: ").append(Fmt.ratio(a.median())).append(" at ")
                        .append(lo).append(lo == 1 ? " thread" : " threads").append(" -> ").append(Fmt.ratio(z.median())).append(" at ")
                        .append(hi).append(" threads: ").append(trend)
                        .append(overlap && s.rounds() > 1 ? " (the rounds' ranges overlap: within noise)" : "").append('\n');
            }
        }
        return b.append('\n').toString();
    }

    private static String sweepChart(JmhSweep s, String target) {
        LineChart c = new LineChart("part-acct model, bios to the " + (target.equals("disk") ? "whole disk" : "partition")
                + ": total throughput by threads (HZ " + HZ + ", " + SLOTS + " slots)", "threads", "M I/O/s (all threads)").log2X();
        for (String v : VARIANTS) {
            List<LineChart.Point> pts = new ArrayList<>();
            for (int t : s.threadCounts()) {
                Stats.Spread x = throughput(s, key(v, target), t);
                if (x != null) {
                    pts.add(LineChart.Point.of(t, x.median(), x.min(), x.max()));
                }
            }
            if (!pts.isEmpty()) {
                c.series(v, pts);
            }
        }
        return c.toSvg();
    }

    private static String lkp(JmhSweep s, int t) {
        StringBuilder b = new StringBuilder("LKP layout: `atomic` (base) against each variant at " + t
                + " threads, ns per I/O per thread (lower is better):\n\n");
        boolean any = false;
        for (String v : VARIANTS.subList(1, VARIANTS.size())) {
            List<Comparison> rows = new ArrayList<>();
            for (String target : TARGETS) {
                List<Double> a = s.samples(key(BASE, target), t);
                List<Double> c = s.samples(key(v, target), t);
                if (!a.isEmpty() && !c.isEmpty()) {
                    rows.add(new Comparison("ns_per_io." + target, new Sample(a), new Sample(c), false));
                }
            }
            if (!rows.isEmpty()) {
                any = true;
                b.append("`").append(BASE).append("` -> `").append(v).append("`:\n\n").append(LkpTable.block(BASE, v, rows)).append('\n');
            }
        }
        return any ? b.append(LkpTable.legend()).append('\n').toString() : "";
    }

    private static String allocation(JmhSweep s, int t) {
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

    private static Map<String, Object> tableSummary(JmhSweep s) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("hz", Integer.parseInt(HZ));
        out.put("slots", Integer.parseInt(SLOTS));
        for (String target : TARGETS) {
            Map<String, Object> byT = new LinkedHashMap<>();
            for (int t : s.threadCounts()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (String v : VARIANTS) {
                    Stats.Spread tp = throughput(s, key(v, target), t);
                    if (tp == null) {
                        continue;
                    }
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("ns_per_io_median", Stats.median(new ArrayList<>(s.scoresByRound(key(v, target), t).values())));
                    m.put("m_ios_per_s", json(tp));
                    m.put("throughput_vs_atomic", json(roundRatio(s, key(BASE, target), key(v, target), t)));
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

    private static String flamegraphs(RunDir run) throws IOException {
        String links = run.htmlLinks(run.dir().resolve("flamegraphs").resolve(ID));
        return links.isEmpty() ? "" : "CPU flamegraphs (async-profiler; bios to the whole disk, HZ " + HZ + ", " + SLOTS
                + " slots, highest thread count), one per variant: " + links + ".\n\n";
    }

    // ---- the crossover grid ------------------------------------------------------------

    /** all four / percpu-ref throughput at the grid's highest thread count, per HZ and slots. */
    record Grid(JmhSweep s, int t, List<String> hzs, List<String> slots) {
        static Grid of(JmhSweep s) {
            Comparator<String> numeric = Comparator.comparingInt(Integer::parseInt);
            return new Grid(s, s.threadCounts().last(), s.values("hz").stream().sorted(numeric).toList(),
                    s.values("slots").stream().sorted(numeric).toList());
        }

        Stats.Spread ratio(String hz, String slots) {
            return roundRatio(s, gridKey(TWO, hz, slots), gridKey(FOUR, hz, slots), t);
        }

        /** The smallest slot count whose median ratio is at or below 1, and what the sentence says about it. */
        String stops(String hz) {
            String prev = null;
            for (int i = 0; i < slots.size(); i++) {
                Stats.Spread r = ratio(hz, slots.get(i));
                if (r == null) {
                    continue;
                }
                if (r.median() <= 1.0) {
                    String s = i == 0 || prev == null
                            ? "never beats it: " + Fmt.ratio(r.median()) + " already at " + slots.get(i) + " slots"
                            : "stops beating it at " + slots.get(i) + " slots (" + Fmt.ratio(r.median()) + "; it beat it at " + prev + ")";
                    if (r.max() > 1.0 && r.n() > 1) {
                        s += "; within noise: the rounds' range reaches " + Fmt.ratio(r.max());
                    }
                    for (String later : slots.subList(i + 1, slots.size())) {
                        Stats.Spread l = ratio(hz, later);
                        if (l != null && l.median() > 1.0) {
                            s += "; yet it beats it at " + later + " slots (" + Fmt.ratio(l.median())
                                    + "): the ratio does not fall with the slots, so this is no crossing, read it as noise";
                            break;
                        }
                    }
                    return s;
                }
                prev = slots.get(i) + " slots, " + Fmt.ratio(r.median());
            }
            Stats.Spread last = ratio(hz, slots.getLast());
            return "none up to " + slots.getLast() + " slots: all four beat the first two at every slot count measured"
                    + (last == null ? "" : " (" + Fmt.ratio(last.median()) + " at " + slots.getLast() + ")");
        }

        Integer stopsAt(String hz) {
            for (String sl : slots) {
                Stats.Spread r = ratio(hz, sl);
                if (r != null && r.median() <= 1.0) {
                    return Integer.parseInt(sl);
                }
            }
            return null;
        }

        String text() {
            StringBuilder b = new StringBuilder("All four patches over the first two (`" + FOUR + "` / `" + TWO + "` total throughput), "
                    + "bios to the partition (two sums per tick: the partition and part0), " + t + (t == 1 ? " thread" : " threads")
                    + ", median [min–max] of per-round ratios; above 1.00x the per-cpu in-flight counters still win, below it "
                    + "the sum has eaten their gain:\n\n| HZ |");
            slots.forEach(sl -> b.append(' ').append(sl).append(" slots |"));
            b.append("\n|---:|");
            slots.forEach(sl -> b.append("---:|"));
            b.append('\n');
            for (String hz : hzs) {
                b.append("| ").append(hz).append(" |");
                for (String sl : slots) {
                    Stats.Spread r = ratio(hz, sl);
                    b.append(' ').append(r == null ? "n/a" : Fmt.spread(r, 2) + "x").append(" |");
                }
                b.append('\n');
            }
            b.append("\nWhere all four stop beating the first two (the smallest slot count whose median ratio is at or below 1.00x):\n\n");
            for (String hz : hzs) {
                b.append("- HZ ").append(hz).append(": ").append(stops(hz)).append('\n');
            }
            return b.append('\n').toString();
        }

        String chart() {
            LineChart c = new LineChart("all four patches / the first two: throughput at " + t + " threads, bios to a partition",
                    "possible CPUs summed (slots)", "all four / percpu-ref throughput (x)").log2X().yFromZero(false)
                    .markY(1.0, "1.0 = the sum ate the gain");
            for (String hz : hzs) {
                List<LineChart.Point> pts = new ArrayList<>();
                for (String sl : slots) {
                    Stats.Spread r = ratio(hz, sl);
                    if (r != null) {
                        pts.add(LineChart.Point.of(Integer.parseInt(sl), r.median(), r.min(), r.max()));
                    }
                }
                if (!pts.isEmpty()) {
                    c.series("HZ " + hz, pts);
                }
            }
            return c.toSvg();
        }

        Map<String, Object> summary() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("threads", t);
            Map<String, Object> ratios = new LinkedHashMap<>();
            Map<String, Object> stop = new LinkedHashMap<>();
            for (String hz : hzs) {
                Map<String, Object> bySlots = new LinkedHashMap<>();
                for (String sl : slots) {
                    bySlots.put(sl, json(ratio(hz, sl)));
                }
                ratios.put(hz, bySlots);
                stop.put(hz, stopsAt(hz));
            }
            out.put("four_over_two", ratios);
            out.put("stops_beating_at_slots", stop);
            return out;
        }

        /**
         * The gain of all four over the first two at HZ 1000 and the fewest slots, per round: ns per I/O per thread
         * saved, the I/O rate (all threads, per second) and their product, ns of CPU saved per second.
         */
        List<double[]> gain() {
            String hz = hzs.contains(HZ) ? HZ : hzs.getLast();
            List<double[]> out = new ArrayList<>();
            Map<Integer, Double> two = s.scoresByRound(gridKey(TWO, hz, slots.getFirst()), t);
            Map<Integer, Double> four = s.scoresByRound(gridKey(FOUR, hz, slots.getFirst()), t);
            two.forEach((round, ns2) -> {
                Double ns4 = four.get(round);
                if (ns4 != null) {
                    double rate = t * 1e9 / ns4;
                    out.add(new double[] {ns2 - ns4, rate, (ns2 - ns4) * rate});
                }
            });
            return out;
        }
    }

    // ---- the sum's cost ----------------------------------------------------------------

    /** ns per sum ~ a + b * slots, least squares over the per-slot medians. */
    record Fit(double a, double b) {
        double at(double slots) {
            return a + b * slots;
        }
    }

    /** The part_in_flight() sum benchmark: ns per sum by slots, per round. */
    record SumCost(Map<Integer, Stats.Spread> ns) {
        static SumCost of(JmhSweep s) {
            Map<Integer, Stats.Spread> ns = new TreeMap<>();
            for (String sl : s.values("slots")) {
                for (int t : s.threadCounts()) {
                    List<Double> v = new ArrayList<>(s.scoresByRound(Map.of("slots", sl), t).values());
                    if (!v.isEmpty()) {
                        ns.put(Integer.parseInt(sl), Stats.spread(v));
                    }
                }
            }
            return new SumCost(ns);
        }

        Fit fit() {
            if (ns.size() < 2) {
                return null;
            }
            double mx = ns.keySet().stream().mapToDouble(Integer::doubleValue).average().orElseThrow();
            double my = ns.values().stream().mapToDouble(Stats.Spread::median).average().orElseThrow();
            double sxy = 0;
            double sxx = 0;
            for (var e : ns.entrySet()) {
                sxy += (e.getKey() - mx) * (e.getValue().median() - my);
                sxx += (e.getKey() - mx) * (e.getKey() - mx);
            }
            double b = sxy / sxx;
            return new Fit(my - b * mx, b);
        }

        String text() {
            StringBuilder b = new StringBuilder("The sum itself: one `part_in_flight()` over the slots, one thread "
                    + "(`PartInFlightSum`), ns per sum, median [min–max] over rounds:\n\n| slots | ns per sum | ns per slot |\n|---:|---:|---:|\n");
            ns.forEach((sl, v) -> b.append("| ").append(sl).append(" | ").append(Fmt.spread(v, 1)).append(" | ")
                    .append(Fmt.f(v.median() / sl, 2)).append(" |\n"));
            Fit f = fit();
            if (f != null) {
                b.append("\nStraight-line fit over the medians: ns per sum ≈ ").append(Fmt.f(f.a(), 2)).append(" + ")
                        .append(Fmt.f(f.b(), 3)).append(" x slots.\n");
            }
            return b.append('\n').toString();
        }

        String chart() {
            LineChart c = new LineChart("one part_in_flight() sum: ns by possible CPUs summed", "slots", "ns per sum").log2X();
            List<LineChart.Point> pts = new ArrayList<>();
            ns.forEach((sl, v) -> pts.add(LineChart.Point.of(sl, v.median(), v.min(), v.max())));
            c.series("measured", pts);
            Fit f = fit();
            if (f != null) {
                c.series("fit a + b x slots", ns.keySet().stream().map(sl -> LineChart.Point.of(sl, f.at(sl))).toList());
            }
            return c.toSvg();
        }

        /** HZ x sums per tick x ns per sum, as a share of one CPU, per slots, HZ and target. */
        String cpuTable() {
            StringBuilder b = new StringBuilder("Jens's concern as CPU time: HZ x sums per tick (1 for a whole-disk bio: part0; 2 for "
                    + "a partition bio: the partition and part0) x ns per sum (median), as a share of one CPU, whatever the I/O rate "
                    + "(the sum runs at most once per jiffy per partition):\n\n| slots |");
            for (int hz : HZS) {
                b.append(" HZ ").append(hz).append(" disk | HZ ").append(hz).append(" part |");
            }
            b.append("\n|---:|");
            HZS.forEach(hz -> b.append("---:|---:|"));
            b.append('\n');
            ns.forEach((sl, v) -> {
                b.append("| ").append(sl).append(" |");
                for (int hz : HZS) {
                    for (String target : TARGETS) {
                        b.append(' ').append(pct(cpuShare(hz, SUMS_PER_TICK.get(target), v.median()))).append(" |");
                    }
                }
                b.append('\n');
            });
            return b.append('\n').toString();
        }

        Map<String, Object> summary() {
            Map<String, Object> out = new LinkedHashMap<>();
            Map<String, Object> bySlots = new LinkedHashMap<>();
            ns.forEach((sl, v) -> bySlots.put(Integer.toString(sl), json(v)));
            out.put("ns_per_sum", bySlots);
            Fit f = fit();
            out.put("fit_a_ns", f == null ? null : f.a());
            out.put("fit_b_ns_per_slot", f == null ? null : f.b());
            return out;
        }
    }

    /** Share of one CPU spent summing: HZ x sums per tick x ns per sum / 1e9. */
    static double cpuShare(int hz, int sumsPerTick, double nsPerSum) {
        return hz * sumsPerTick * nsPerSum / 1e9;
    }

    /** A share as a percent with three significant digits, never an exponent. */
    static String pct(double share) {
        if (Double.isNaN(share)) {
            return "n/a";
        }
        if (share == 0) {
            return "0%";
        }
        BigDecimal p = new BigDecimal(share * 100).round(new MathContext(3, RoundingMode.HALF_EVEN));
        return (p.precision() < 3 ? p.setScale(p.scale() + 3 - p.precision(), RoundingMode.UNNECESSARY) : p).toPlainString() + "%";
    }

    /**
     * Where the per-second sum cost, HZ x 2 x (a + b x slots), would equal the per-second gain of
     * all four over the first two measured at HZ 1000 and the fewest slots: an extrapolation.
     */
    static String extrapolation(Grid g, Fit fit, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("**Extrapolated crossover (an extrapolation of the model, not a measurement).** ");
        if (g == null || fit == null) {
            return b.append("It needs both the grid and the sum benchmark, and this run lacks ").append(g == null ? "the grid" : "the sum")
                    .append(".\n\n").toString();
        }
        List<double[]> gain = g.gain();
        if (gain.isEmpty()) {
            return b.append("The grid has no HZ ").append(HZ).append(" cells at ").append(g.slots().getFirst())
                    .append(" slots for both variants.\n\n").toString();
        }
        double gainNs = Stats.median(gain.stream().map(x -> x[0]).toList());
        double rate = Stats.median(gain.stream().map(x -> x[1]).toList());
        double perSecond = Stats.median(gain.stream().map(x -> x[2]).toList());
        out.put("gain_ns_per_io", gainNs);
        out.put("ios_per_s", rate);
        out.put("gain_ns_per_s", perSecond);
        b.append("The gain of all four over the first two at HZ ").append(HZ).append(", ").append(g.slots().getFirst()).append(" slots, ")
                .append(g.t()).append(" threads: ").append(Fmt.f(gainNs, 1)).append(" ns per I/O per thread at ")
                .append(Fmt.f(rate / 1e6, 2)).append(" M I/O/s, i.e. the first two would spend ").append(Fmt.f(perSecond / 1e9, 2))
                .append(" CPU-seconds a second more for all four's I/O rate (medians over rounds). The sum's cost per second, HZ x 2 (a partition bio) x (")
                .append(Fmt.f(fit.a(), 2)).append(" + ").append(Fmt.f(fit.b(), 3))
                .append(" x slots) ns, equals that gain at slots = (gain / (HZ x 2) - a) / b:\n\n");
        if (perSecond <= 0) {
            b.append("No crossover to find: all four do not beat the first two even at the fewest slots, so there is no gain for "
                    + "the sum to eat.\n\n");
            HZS.forEach(hz -> out.put(Integer.toString(hz), null));
            return b.toString();
        }
        if (fit.b() <= 0) {
            b.append("No crossover to find: in this fit the sum's cost does not grow with the slots (b <= 0).\n\n");
            HZS.forEach(hz -> out.put(Integer.toString(hz), null));
            return b.toString();
        }
        int measured = g.slots().stream().mapToInt(Integer::parseInt).max().orElseThrow();
        b.append("| HZ | extrapolated crossover (slots) |\n|---:|---:|\n");
        for (int hz : HZS) {
            double slots = (perSecond / (hz * 2.0) - fit.a()) / fit.b();
            out.put(Integer.toString(hz), slots);
            b.append("| ").append(hz).append(" | ").append(slots <= 0 ? "none: the sum's fixed cost alone exceeds the gain"
                    : "≈" + String.format(Locale.ROOT, "%.0f", slots) + (slots > measured ? " (beyond the " + measured + " measured)" : ""))
                    .append(" |\n");
        }
        return b.append("\nA straight line through a handful of slot counts, and one measured gain carried to every HZ: the sum's "
                + "cache misses on a real many-socket machine are not in it. Read it as the scale at which the model says Jens's "
                + "concern would bite, beside the measured grid above.\n\n").toString();
    }

    // ---- the kernel side ---------------------------------------------------------------

    /** One device, target, numjobs and tool: the iostats=1 and =0 rows of each round. */
    record Group(String dev, String target, int jobs, String tool) {
        static final Comparator<Group> ORDER = Comparator.comparingInt((Group g) -> DEVICES.contains(g.dev()) ? DEVICES.indexOf(g.dev()) : DEVICES.size())
                .thenComparing(Group::dev).thenComparingInt(g -> TARGETS.indexOf(g.target())).thenComparingInt(Group::jobs)
                .thenComparing(g -> g.tool().equals("fio") ? "" : g.tool());

        String name() {
            return dev + "/" + target + "/j" + jobs + "/" + tool;
        }
    }

    /** The kernel rows grouped by device, target, numjobs and tool; per round, iostats 1 and 0. */
    record Kernel(Map<Group, Map<Integer, KernelRuns.Row[]>> groups, Map<String, String> env) {
        static Kernel of(KernelRuns k) {
            Map<Group, Map<Integer, KernelRuns.Row[]>> g = new TreeMap<>(Group.ORDER);
            for (KernelRuns.Row r : k.rows()) {
                Matcher m = JOB.matcher(r.job());
                if (!m.matches()) {
                    continue;
                }
                Group key = new Group(m.group(1), m.group(2), Integer.parseInt(m.group(4)), r.tool());
                g.computeIfAbsent(key, x -> new TreeMap<>()).computeIfAbsent(Integer.parseInt(m.group(5)), x -> new KernelRuns.Row[2])
                        [Integer.parseInt(m.group(3))] = r;
            }
            return new Kernel(g, k.env());
        }

        boolean isEmpty() {
            return groups.isEmpty();
        }

        /** {@code f} of the iostats=S row of each round that has one. */
        Stats.Spread each(Group g, int iostats, ToDoubleFunction<KernelRuns.Row> f) {
            return spread(groups.get(g).values().stream().filter(r -> r[iostats] != null).map(r -> f.applyAsDouble(r[iostats])).toList());
        }

        /** {@code f(on, off)} of each round that has both. */
        Stats.Spread both(Group g, DoubleBinaryOperator f, ToDoubleFunction<KernelRuns.Row> field) {
            return spread(groups.get(g).values().stream().filter(r -> r[0] != null && r[1] != null)
                    .map(r -> f.applyAsDouble(field.applyAsDouble(r[1]), field.applyAsDouble(r[0]))).toList());
        }

        /** IOPS with iostats=1 over IOPS with iostats=0, per round. */
        Stats.Spread ratio(Group g) {
            return both(g, (on, off) -> on / off, KernelRuns.Row::iops);
        }

        /** task-clock ns per I/O with iostats=1 minus with iostats=0, per round: the measured accounting cost per I/O. */
        Stats.Spread cost(Group g) {
            return both(g, (on, off) -> on - off, KernelRuns.Row::taskClockNsPerIo);
        }

        /** Whether some iostats=0 run of {@code g} still moved the target's /sys stat: the toggle did not take there. */
        boolean ignoresToggle(Group g) {
            return groups.get(g).values().stream().anyMatch(x -> x[0] != null && x[0].iosFromStat());
        }

        /**
         * The whole disk through fio at the highest numjobs with both iostats settings, on the first device of
         * {@link #HEADLINE_ORDER} where the toggle takes; null when it takes nowhere.
         */
        Group headlineGroup() {
            for (String dev : HEADLINE_ORDER) {
                Group best = null;
                for (Group g : groups.keySet()) {
                    if (g.dev().equals(dev) && g.target().equals("disk") && g.tool().equals("fio") && ratio(g) != null) {
                        best = g;
                    }
                }
                if (best != null && !ignoresToggle(best)) {
                    return best;
                }
            }
            return null;
        }

        /** Why the headline is not null_blk's whole disk, or "" when it is. */
        String headlineNote() {
            Group h = headlineGroup();
            if (h != null && h.dev().equals("nullb")) {
                return "";
            }
            List<String> why = new ArrayList<>();
            if (groups.keySet().stream().noneMatch(g -> g.dev().equals("nullb") && g.target().equals("disk") && g.tool().equals("fio"))) {
                why.add("no null_blk run: the guest did not run");
            }
            List<String> ignored = groups.keySet().stream().filter(g -> g.target().equals("disk") && g.tool().equals("fio")
                    && ignoresToggle(g)).map(Group::dev).distinct().toList();
            if (!ignored.isEmpty()) {
                why.add(String.join(", ", ignored) + " ignored the toggle: its /sys stat still counted with iostats=0");
            }
            return why.isEmpty() ? "" : " (" + String.join("; ", why) + ")";
        }

        String label(String dev) {
            if (dev.equals("nullb")) {
                String accel = env.getOrDefault("guest_environment", "tcg");
                return "null_blk (guest VM, " + (accel.startsWith("kvm") ? "qemu KVM" : accel.startsWith("tcg") ? "emulated: qemu TCG" : "qemu")
                        + ", kernel " + env.getOrDefault("guest_kernel", "?") + ")";
            }
            return dev + " (native)";
        }

        String text(RunDir run, Path dir, KernelRuns k) throws IOException {
            StringBuilder b = new StringBuilder("### Today's kernel: `queue/iostats` 1 against 0\n\n");
            if (isEmpty()) {
                String step = KernelRuns.stepStatus(run, ID, "kernel");
                return b.append("Not in this run: ").append(step != null ? step : "the kernel side runs as root (`sudo ./lab pair part-acct`)")
                        .append(env.containsKey("guest") ? "; guest: " + env.get("guest") : "").append(".\n\n").toString();
            }
            b.append("Today's kernel already has every patch and the lazy `update_io_ticks`, so it cannot switch the series off; what it "
                    + "can switch is accounting itself, through `/sys/block/*/queue/iostats`. The same 4k randread, natively on zram and "
                    + "loop, and on null_blk in a guest VM; I/O to partition 1 and to the whole disk; host kernel ")
                    .append(env.getOrDefault("kernel", "?")).append(", ").append(env.getOrDefault("cores", "?")).append(" cores, ")
                    .append(env.getOrDefault("rounds", "?")).append(" round(s), `perf stat -r ").append(env.getOrDefault("perf_repeats", "1"))
                    .append("` per run. Median [min–max] over rounds; the on/off ratio and the cost are taken within a round. "
                            + "kIOPS: thousands of I/O per second; task-clock counts the whole command.")
                    .append(env.containsKey("span") ? " Span read: " + env.get("span") + "." : "").append("\n\n")
                    .append("| device | target | jobs | tool | kIOPS iostats=1 | kIOPS iostats=0 | on / off | task-clock ns/I/O on | off | on − off |\n")
                    .append("|---|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
            List<String> stillCounted = new ArrayList<>();
            for (Group g : groups.keySet()) {
                Stats.Spread r = ratio(g);
                b.append("| ").append(label(g.dev())).append(" | ").append(g.target()).append(" | ").append(g.jobs()).append(" | ")
                        .append(g.tool()).append(" | ").append(Fmt.spread(kiops(each(g, 1, KernelRuns.Row::iops)), 1)).append(" | ")
                        .append(Fmt.spread(kiops(each(g, 0, KernelRuns.Row::iops)), 1)).append(" | ")
                        .append(r == null ? "n/a" : Fmt.spread(r, 3) + "x").append(" | ")
                        .append(Fmt.spread(each(g, 1, KernelRuns.Row::taskClockNsPerIo), 0)).append(" | ")
                        .append(Fmt.spread(each(g, 0, KernelRuns.Row::taskClockNsPerIo), 0)).append(" | ")
                        .append(Fmt.spread(cost(g), 0)).append(" |\n");
                if (ignoresToggle(g)) {
                    stillCounted.add(g.name());
                }
            }
            b.append("\nWith iostats=0 the kernel stops counting I/O in `/sys/block/*/stat`, so those rows' per-I/O figures divide by "
                    + "fio's own I/O count.");
            if (!stillCounted.isEmpty()) {
                b.append(" **The stat still moved with iostats=0** for ").append(String.join(", ", stillCounted))
                        .append(": there the toggle did not switch accounting off (the device's own stat kept counting), so "
                                + "those on/off ratios are run-to-run differences, not the accounting cost, and the headline does not use them.");
            }
            b.append("\n\n").append(partVsDisk()).append(absent());
            if (!k.missingCounters().isEmpty()) {
                b.append("Counters this machine could not count (absent, never counted as 0): ")
                        .append(String.join(", ", k.missingCounters())).append(".\n\n");
            }
            return b.append(KernelRuns.flamegraphs(run, dir)).toString();
        }

        private static Stats.Spread kiops(Stats.Spread s) {
            return s == null ? null : new Stats.Spread(s.median() / 1e3, s.min() / 1e3, s.max() / 1e3, s.n());
        }

        /** Partition over whole disk IOPS, per round, at iostats 1 and 0, for every device, numjobs and tool that has both. */
        String partVsDisk() {
            StringBuilder b = new StringBuilder();
            for (Group disk : groups.keySet()) {
                if (!disk.target().equals("disk")) {
                    continue;
                }
                Group part = new Group(disk.dev(), "part", disk.jobs(), disk.tool());
                if (!groups.containsKey(part)) {
                    continue;
                }
                if (b.isEmpty()) {
                    b.append("Partition against whole disk (kIOPS to partition 1 over kIOPS to the whole disk, within a round; a "
                            + "partition bio is accounted twice, to the partition and to part0):\n\n"
                            + "| device | jobs | tool | part / disk, iostats=1 | part / disk, iostats=0 |\n|---|---:|---|---:|---:|\n");
                }
                b.append("| ").append(label(disk.dev())).append(" | ").append(disk.jobs()).append(" | ").append(disk.tool());
                for (int s : new int[] {1, 0}) {
                    List<Double> r = new ArrayList<>();
                    groups.get(part).forEach((round, rows) -> {
                        KernelRuns.Row[] d = groups.get(disk).get(round);
                        if (rows[s] != null && d != null && d[s] != null) {
                            r.add(rows[s].iops() / d[s].iops());
                        }
                    });
                    b.append(" | ").append(r.isEmpty() ? "n/a" : Fmt.spread(Stats.spread(r), 3) + "x");
                }
                b.append(" |\n");
            }
            return b.isEmpty() ? "No device has both partition and whole-disk rows in this run.\n\n" : b.append('\n').toString();
        }

        /** The device and target combinations the scenario runs that this run lacks, with the reason where env.txt gives one. */
        String absent() {
            List<String> gone = new ArrayList<>();
            for (String dev : DEVICES) {
                for (String target : TARGETS) {
                    if (groups.keySet().stream().noneMatch(g -> g.dev().equals(dev) && g.target().equals(target))) {
                        gone.add(dev + " " + target + absentBecause(dev, target));
                    }
                }
            }
            return gone.isEmpty() ? "" : "Not in this run: " + String.join("; ", gone)
                    + " (see `raw/part-acct/kernel/scenario.log`).\n\n";
        }

        private String absentBecause(String dev, String target) {
            String guest = env.getOrDefault("guest", "");
            if (dev.equals("nullb") && !guest.isEmpty() && !guest.startsWith("ran")) {
                return " (guest " + guest + ")";
            }
            if (dev.equals("nullb") && target.equals("part") && env.containsKey("guest_part")) {
                return " (partition: " + env.get("guest_part") + ")";
            }
            if (dev.equals("zram") && target.equals("part")) {
                return " (zram takes no partition table: the scenario reads its whole disk only)";
            }
            return "";
        }

        Map<String, Object> summary(KernelRuns k) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("kernel", env.get("kernel"));
            out.put("cores", env.get("cores"));
            out.put("guest", env.containsKey("guest_kernel") ? env.get("guest_kernel") : env.get("guest"));
            out.put("counters_absent", k.missingCounters());
            Map<String, Object> gs = new LinkedHashMap<>();
            for (Group g : groups.keySet()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("iops_iostats1", json(each(g, 1, KernelRuns.Row::iops)));
                m.put("iops_iostats0", json(each(g, 0, KernelRuns.Row::iops)));
                m.put("on_over_off", json(ratio(g)));
                m.put("task_clock_ns_per_io_iostats1", json(each(g, 1, KernelRuns.Row::taskClockNsPerIo)));
                m.put("task_clock_ns_per_io_iostats0", json(each(g, 0, KernelRuns.Row::taskClockNsPerIo)));
                m.put("accounting_ns_per_io", json(cost(g)));
                gs.put(g.name(), m);
            }
            out.put("groups", gs);
            return out;
        }
    }

    // ---- fidelity and headline ---------------------------------------------------------

    /** The engine's predicted cost of accounting (lazy-ticks vs iostats=0) beside the kernel's measured iostats on/off. */
    static String fidelity(JmhSweep s, int t, Kernel k, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("### Fidelity: the cost of accounting, model against kernel\n\n"
                + "The model's prediction is `lazy-ticks` (today's accounting) against `iostats=0` (none), bios to the whole disk, HZ "
                + HZ + ", " + SLOTS + " slots, at its highest thread count; the kernel's is iostats=1 against iostats=0. Ratios and "
                + "differences are taken within a round, then median [min–max]. The model's ns are per I/O per thread (wall time of a "
                + "busy thread); the kernel's are task-clock per I/O.\n\n"
                + "| side | condition | throughput with / without accounting | ns per I/O: with − without |\n|---|---|---:|---:|\n");
        Stats.Spread ratio = s.isEmpty() ? null : roundRatio(s, key(OFF, "disk"), key(LAZY, "disk"), t);
        Stats.Spread ns = s.isEmpty() ? null : spread(s.perRound(key(LAZY, "disk"), key(OFF, "disk"), t, (lazy, off) -> lazy - off));
        b.append("| JVM model | `lazy-ticks` vs `iostats=0`, whole disk, ").append(s.isEmpty() ? "not in this run" : t + (t == 1 ? " thread" : " threads")).append(" | ")
                .append(ratio == null ? "n/a" : Fmt.spread(ratio, 3) + "x").append(" | ").append(Fmt.spread(ns, 1)).append(" |\n");
        out.put("jvm_throughput_ratio", json(ratio));
        out.put("jvm_ns_per_io", json(ns));
        Group head = k.headlineGroup();
        for (Group g : k.groups().keySet()) {
            Stats.Spread r = k.ratio(g);
            if (r == null) {
                continue;
            }
            boolean h = g.equals(head);
            b.append("| ").append(h ? "**kernel**" : "kernel").append(" | ").append(k.label(g.dev())).append(", ").append(g.target())
                    .append(", ").append(g.jobs()).append(g.jobs() == 1 ? " job, " : " jobs, ").append(g.tool())
                    .append(k.ignoresToggle(g) ? " (toggle ignored: not the accounting cost)" : "").append(" | ")
                    .append(Fmt.spread(r, 3)).append("x | ").append(Fmt.spread(k.cost(g), 0)).append(" |\n");
        }
        if (head != null) {
            out.put("kernel_row", head.name());
            out.put("kernel_throughput_ratio", json(k.ratio(head)));
            out.put("kernel_ns_per_io", json(k.cost(head)));
            b.append("\nIn bold: the kernel row the headline uses (the whole disk through fio at the most jobs, on the first of "
                    + "null_blk (the seed's device), loop and zram where the toggle takes)").append(k.headlineNote()).append('.');
        } else {
            out.put("kernel_row", null);
            b.append("\nNo whole-disk fio row with both iostats settings on a device where the toggle takes: the headline has no "
                    + "kernel figure").append(k.headlineNote()).append('.');
        }
        b.append(" Below 1.00x accounting costs throughput; a model prediction far from the kernel's says the model's "
                + "accounting is too cheap or too dear.\n\n");
        return b.append(readingBothSides(s, t, k, head)).toString();
    }

    /**
     * Why the ratios of the two sides differ even where the accounting costs the same: the I/O without accounting is a few ns
     * in the model and some µs in the kernel. Also where the model simplifies (the javadoc of jvm-engine's BlkAccount).
     */
    static String readingBothSides(JmhSweep s, int t, Kernel k, Group head) {
        StringBuilder b = new StringBuilder("**Reading the two sides.** ");
        Stats.Spread modelBase = s.isEmpty() ? null : spread(List.copyOf(s.scoresByRound(key(OFF, "disk"), t).values()));
        // a native device's figure where there is one: under TCG every kernel instruction is emulated
        Group base = k.groups().keySet().stream().filter(g -> !g.dev().equals("nullb") && g.target().equals("disk")
                && g.tool().equals("fio") && !k.ignoresToggle(g) && k.ratio(g) != null).reduce((x, y) -> y).orElse(head);
        Stats.Spread kernelBase = base == null ? null : k.each(base, 0, KernelRuns.Row::taskClockNsPerIo);
        if (modelBase != null && kernelBase != null) {
            b.append("Without accounting the model's I/O costs ").append(Fmt.f(modelBase.median(), 1))
                    .append(" ns per thread (a bio through the Gendisk to a null_blk that completes inline: no system call, no "
                            + "request, no tag), the kernel's ").append(Fmt.f(kernelBase.median(), 0))
                    .append(" ns of task-clock (").append(k.label(base.dev())).append(", whole disk, fio, ").append(base.jobs())
                    .append(base.jobs() == 1 ? " job" : " jobs").append(": the read system call, blk-mq and the driver, fio itself included): the same "
                            + "accounting work weighs about ").append(Fmt.f(kernelBase.median() / modelBase.median(), 0))
                    .append(" times more in the model's ratio than in the kernel's, so set the ns columns side by side, not the "
                            + "ratios. ");
        }
        return b.append("Where the model simplifies (jvm-engine `lab.engine.block.BlkAccount`, `Partition`): the partition's "
                + "reference, in-flight counters and stamp share one padded line, as in v4.2's `hd_struct`, but its `percpu_ref` is "
                + "an object of its own; completion runs on the submitting slot; `lazy-ticks` keeps the partition lookup and the "
                + "per-cpu reference of the other modes, so it differs from all four only in the tick work (today's kernel takes "
                + "neither); `PartInFlightSum` sums slots no other core writes, so its ns are the sum's floor, while in `PartAcct` "
                + "the slots of the running threads are written by other cores.\n\n").toString();
    }

    private static Map<String, Object> headline(Fix fix, Stats.Spread jvm, int t, Stats.Spread kernel, Kernel k, RunDir run) {
        Group g = k.headlineGroup();
        String kernelLabel = "accounting cost (today's kernel, not the patch): iostats=1 / iostats=0 throughput"
                + (g == null ? "" : ", " + k.label(g.dev()) + " whole disk, fio, " + g.jobs() + (g.jobs() == 1 ? " job" : " jobs")) + k.headlineNote();
        Map<String, Object> h = Notebook.headline(fix, jvm == null ? null : jvm.median(), kernel == null ? null : kernel.median(),
                "seed: all four patches / before, fio randread over null_blk, dual socket (~15%; the first two alone ~8%); jvm: "
                        + "`percpu-ref+percpu-inflight` / `atomic` total throughput, bios to the whole disk, HZ " + HZ + ", " + SLOTS
                        + " slots, at " + t + " threads on " + run.manifest().path("cores").asText("?") + " cores; kernel: "
                        + kernelLabel + ". The kernel figure is not the seed's metric: today's kernel has the patches and cannot "
                        + "switch them off, only accounting itself");
        h.put("metric", "all four patches / before (seed, JVM: " + (jvm == null ? "not in this run" : t + (t == 1 ? " thread" : " threads"))
                + "); kernel: " + kernelLabel);
        h.put("seed_first_two", SEED_TWO);
        h.put("jvm_spread", json(jvm));
        h.put("kernel_spread", json(kernel));
        h.put("kernel_label", kernelLabel);
        return h;
    }

    /** A spread as summary.json writes it; null for none. */
    static Map<String, Object> json(Stats.Spread s) {
        if (s == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", s.median());
        m.put("min", s.min());
        m.put("max", s.max());
        m.put("rounds", s.n());
        return m;
    }
}
