package lab.fix.zraminitlock;

import lab.notebook.Fix;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.notebook.Notebook;
import lab.notebook.RunDir;
import lab.notebook.Section;
import lab.notebook.SectionOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import lab.analysis.JmhSweep;
import lab.analysis.Stats;
import lab.analysis.chart.LineChart;
import lab.analysis.compare.Comparison;
import lab.analysis.compare.Crossover;
import lab.analysis.compare.LkpTable;
import lab.analysis.compare.Sample;

/**
 * zram-init-lock (seed 001_8702db15985e6798.txt): the JVM model's four meta guards per rw mode
 * and data pattern across threads, today's real zram for the same jobs, and the seed's table.
 *
 * <p>Reads {@code raw/zram-init-lock/zram-rR-tT.json} (LZO-RLE), {@code zram-lz4-rR-tT.json}
 * and {@code raw/zram-init-lock/kernel/}.
 */
final class ZramInitLockSection implements Section {
    static final String ID = "zram-init-lock";
    static final String BASE = "rwsem";
    static final List<String> GUARDS = List.of("rwsem", "srcu", "atomic-ref", "none");
    /** The seed's measurement: SRCU vs rwsem, perf stat -r 10, 4 CPUs, compressible data. */
    static final Map<String, Double> SEED_PCT = Map.of("randread", -0.63, "randwrite", 1.24, "randrw", 2.3);
    /** Where "marginal" stops: the guard costing more than this share of throughput. */
    static final double MARGINAL = 0.10;

    @Override
    public String id() { return ID; }

    @Override
    public Optional<SectionOutput> render(RunDir run) throws IOException {
        Path dir = run.raw().resolve(ID);
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        JmhSweep lzo = JmhSweep.read(dir, "zram", run::gap);
        JmhSweep lz4 = JmhSweep.read(dir, "zram-lz4", run::gap);
        KernelRuns kernel = KernelRuns.read(run, dir.resolve("kernel"));
        Fix fix = ZramInitLock.FIX;
        String id = run.id();
        String data = run.manifest().path("command").asText("./lab pair " + ID);
        String regen = "./lab notebook results/" + id;
        StringBuilder md = new StringBuilder("## zram-init-lock: ").append(fix.title()).append("\n\n");
        md.append(seedTable());
        Map<String, String> charts = new LinkedHashMap<>();
        Map<String, Object> summary = new LinkedHashMap<>();
        Double jvmHeadline = null;
        int headlineT = 0;
        if (!lzo.isEmpty()) {
            int maxT = lzo.threadCounts().last();
            headlineT = headlineThreads(lzo, run.manifest().path("cores").asInt(0));
            md.append("### JVM model: throughput of each guard over rwsem's (LZO-RLE)\n\n")
                    .append("Total ops/s of the guard over rwsem's at the same thread count, median [min–max] of per-round ratios ")
                    .append("(one round: a single ratio); ")
                    .append("1.00x = the guard costs what rwsem costs. `*`: the 95% confidence intervals of the two ns/op means do not overlap.\n\n")
                    .append(ratioMatrix(lzo));
            md.append("\n### LKP layout: rwsem (base) against each guard at ").append(maxT).append(" threads, ns per op per thread (lower is better)\n\n");
            for (String g : GUARDS.subList(1, GUARDS.size())) {
                List<Comparison> rows = new ArrayList<>();
                for (String rw : lzo.values("rw")) {
                    for (String p : lzo.values("pattern")) {
                        List<Double> a = lzo.samples(key(BASE, rw, p), maxT);
                        List<Double> b = lzo.samples(key(g, rw, p), maxT);
                        if (!a.isEmpty() && !b.isEmpty()) {
                            rows.add(new Comparison("ns_per_io." + rw + "." + p, new Sample(a), new Sample(b), false));
                        }
                    }
                }
                if (!rows.isEmpty()) {
                    md.append("`").append(BASE).append("` -> `").append(g).append("`:\n\n").append(LkpTable.block(BASE, g, rows)).append('\n');
                }
            }
            md.append(LkpTable.legend()).append('\n');
            md.append(seedVsModel(lzo, headlineT));
            md.append(marginal(lzo));
            for (String p : lzo.values("pattern")) {
                String name = "zram-sweep-randrw-" + p + ".svg";
                charts.put(name, sweepChart(lzo, "randrw", p));
                md.append("![randrw ").append(p).append(" thread sweep](charts/").append(name).append(")\n\nData: `").append(data)
                        .append("`; chart: `").append(regen).append("`\n\n");
            }
            md.append(allocation(lzo, maxT));
            jvmHeadline = ratio(lzo, "srcu", "randrw", "compressible50", headlineT);
            summary.put("jvm", jvmSummary(lzo));
        }
        if (!lz4.isEmpty()) {
            md.append("### LZ4 instead of LZO-RLE (compressible50)\n\n").append(ratioMatrix(lz4)).append('\n');
            summary.put("jvm_lz4", jvmSummary(lz4));
        }
        md.append(flamegraphs(run, lzo));
        if (!kernel.isEmpty()) {
            md.append("### Today's real zram (the `none` variant: no guard on the I/O path)\n\n")
                    .append("The same rw modes and patterns on a real zram device (").append(kernel.env().getOrDefault("device", "zram"))
                    .append(", kernel ").append(kernel.env().getOrDefault("kernel", "?")).append(", ")
                    .append(kernel.env().getOrDefault("environment", "native")).append("), through fio (psync), the bridge (psync) and ")
                    .append("the bridge (io_uring), under `perf stat -r ").append(kernel.env().getOrDefault("perf_repeats", "1"))
                    .append("`. task-clock per I/O counts the whole command (for the bridge: JVM start-up and JIT too).\n\n")
                    .append(kernel.table()).append('\n').append(modelVsKernel(lzo, kernel));
            summary.put("kernel", kernel.summary());
        } else {
            md.append("### Today's real zram\n\nNot in this run (the kernel side runs as root: `sudo ./lab pair zram-init-lock`).\n\n");
            summary.put("kernel", null);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> headline = Notebook.headline(fix, jvmHeadline, null,
                "SRCU / rwsem total throughput, randrw, compressible50 (fio buffer_compress_percentage=50), LZO-RLE, at "
                        + headlineT + " threads on " + run.manifest().path("cores").asText("?") + " cores (the seed: 4 workers on 4 CPUs,"
                        + " randrw +2.3%; the nearest this machine has without oversubscribing its cores, which the 4-thread rows do); "
                        + "kernel: null, because today's kernel has no init_lock on the I/O path to switch: the real zram runs are the"
                        + " model's `none` variant, paired per I/O below");
        headline.put("metric", "SRCU / rwsem throughput, randrw, compressible50 (seed: 4 workers on 4 CPUs; here: "
                + headlineT + " threads)");
        out.put("headline", headline);
        out.putAll(summary);
        return Optional.of(new SectionOutput(md.toString(), charts, out));
    }

    /** The seed's 4 workers where the machine has 4 cores, else the most threads that fit its cores. */
    static int headlineThreads(JmhSweep s, int cores) {
        int best = s.threadCounts().first();
        for (int t : s.threadCounts()) {
            if (t <= Math.max(cores, 1) && t <= 4) {
                best = t;
            }
        }
        return best;
    }

    static Map<String, String> key(String guard, String rw, String pattern) {
        return Map.of("guard", guard, "rw", rw, "pattern", pattern);
    }

    private static String seedTable() {
        return "The seed (" + ZramInitLock.FIX.seedFile() + "): fio on 1 GiB zram, 4 CPUs, `perf stat -r 10`, "
                + "SRCU against rwsem (`init_lock` `down_read` per I/O):\n\n| rw | SRCU vs rwsem |\n|---|---:|\n"
                + "| randread | -0.63% |\n| randwrite | +1.24% |\n| randrw | +2.3% |\n\n"
                + "The thread called it \"marginal\": the lock was ~0.5% of cycles in perf record, and the data pattern "
                + "(`scramble_buffers=0`, `zero_buffers`) decides how much compression hides it. Below: whether the model agrees "
                + "at the seed's conditions, and where it stops being marginal.\n\n";
    }

    /** Per round: guard throughput / rwsem throughput = score(rwsem) / score(guard); median [min–max] over rounds. */
    static Stats.Spread roundRatios(JmhSweep s, String guard, String rw, String p, int t) {
        List<Double> r = s.perRound(key(BASE, rw, p), key(guard, rw, p), t, (b, x) -> b / x);
        return r.isEmpty() ? null : Stats.spread(r);
    }

    static Double ratio(JmhSweep s, String guard, String rw, String p, int t) {
        List<Double> base = s.samples(key(BASE, rw, p), t);
        List<Double> g = s.samples(key(guard, rw, p), t);
        return base.isEmpty() || g.isEmpty() ? null : Stats.median(base) / Stats.median(g);
    }

    private static String ratioMatrix(JmhSweep s) {
        StringBuilder b = new StringBuilder("| rw | pattern | threads |");
        GUARDS.subList(1, GUARDS.size()).forEach(g -> b.append(' ').append(g).append(" / rwsem |"));
        b.append(" rwsem ns/op |\n|---|---|---:|");
        GUARDS.subList(1, GUARDS.size()).forEach(g -> b.append("---:|"));
        b.append("---:|\n");
        for (String rw : s.values("rw")) {
            for (String p : s.values("pattern")) {
                for (int t : s.threadCounts()) {
                    List<Double> base = s.samples(key(BASE, rw, p), t);
                    if (base.isEmpty()) {
                        continue;
                    }
                    b.append("| ").append(rw).append(" | ").append(p).append(" | ").append(t).append(" |");
                    for (String g : GUARDS.subList(1, GUARDS.size())) {
                        Stats.Spread r = roundRatios(s, g, rw, p, t);
                        List<Double> gs = s.samples(key(g, rw, p), t);
                        String sig = gs.isEmpty() ? "" : new Comparison("x", new Sample(base), new Sample(gs), false).significance()
                                == Comparison.Significance.SIGNIFICANT ? "*" : "";
                        b.append(' ').append(r == null ? "n/a" : Fmt.spread(r, 2) + "x" + sig).append(" |");
                    }
                    b.append(' ').append(Fmt.f(Stats.median(base), 0)).append(" |\n");
                }
            }
        }
        return b.toString();
    }

    /** Total throughput (M ops/s) of {@code guard} at each thread count. */
    static Map<Integer, Double> throughput(JmhSweep s, String guard, String rw, String p) {
        Map<Integer, Double> m = new TreeMap<>();
        for (int t : s.threadCounts()) {
            List<Double> v = s.samples(key(guard, rw, p), t);
            if (!v.isEmpty()) {
                m.put(t, t * 1e3 / Stats.median(v));
            }
        }
        return m;
    }

    /** The seed's SRCU-vs-rwsem change per rw mode beside the model's, at the seed's pattern and the headline thread count. */
    private static String seedVsModel(JmhSweep s, int t) {
        StringBuilder b = new StringBuilder("The seed's table beside the model's (compressible50, " + t + " threads; "
                + "SRCU throughput over rwsem's, as a change; significance from the ns/op confidence intervals):\n\n"
                + "| rw | seed: SRCU vs rwsem | model: SRCU vs rwsem | model significant? | the guards' own difference, from the zero pattern |\n"
                + "|---|---:|---:|---|---:|\n");
        for (String rw : List.of("randread", "randwrite", "randrw")) {
            List<Double> base = s.samples(key(BASE, rw, "compressible50"), t);
            List<Double> srcu = s.samples(key("srcu", rw, "compressible50"), t);
            String model = "n/a";
            String sig = "";
            if (!base.isEmpty() && !srcu.isEmpty()) {
                Comparison c = new Comparison("ns", new Sample(base), new Sample(srcu), false);
                model = String.format(java.util.Locale.ROOT, "%+.1f%%", 100 * (c.base().mean() / c.candidate().mean() - 1));
                sig = switch (c.significance()) {
                    case SIGNIFICANT -> "yes";
                    case NOT_SIGNIFICANT -> "no: within noise";
                    case UNKNOWN -> "unknown (one sample)";
                };
            }
            b.append("| ").append(rw).append(" | ").append(String.format(java.util.Locale.ROOT, "%+.2f%%", SEED_PCT.get(rw)))
                    .append(" | ").append(model).append(" | ").append(sig).append(" | ").append(guardShare(s, rw, t)).append(" |\n");
        }
        return b.append("\nThe last column isolates the guards: with the zero pattern an op is a same-filled page (no compression), so ")
                .append("rwsem's and srcu's ns/op differ by what the guards themselves cost; that difference, as a share of one ")
                .append("compressible50 op, is the change the guard alone can make at the seed's conditions. A measured change ")
                .append("larger than that, or of the other sign, is run-to-run noise: see the per-round [min–max] ranges of the first table.\n\n").toString();
    }

    /** (ns_rwsem(zero) - ns_srcu(zero)) / ns_rwsem(compressible50) at {@code t} threads, as a signed percent. */
    private static String guardShare(JmhSweep s, String rw, int t) {
        List<Double> rz = s.samples(key(BASE, rw, "zero"), t);
        List<Double> sz = s.samples(key("srcu", rw, "zero"), t);
        List<Double> rc = s.samples(key(BASE, rw, "compressible50"), t);
        if (rz.isEmpty() || sz.isEmpty() || rc.isEmpty()) {
            return "n/a";
        }
        double delta = Stats.median(rz) - Stats.median(sz);
        return String.format(java.util.Locale.ROOT, "%+.1f%% (%+.0f ns of %.0f)", 100 * delta / Stats.median(rc), delta, Stats.median(rc));
    }

    /** Where rwsem first costs more than MARGINAL against srcu, per rw and pattern. */
    private static String marginal(JmhSweep s) {
        if (s.threadCounts().size() < 2) {
            return "";
        }
        StringBuilder b = new StringBuilder("Where \"marginal\" stops being marginal (rwsem more than "
                + Math.round(MARGINAL * 100) + "% slower than srcu in total throughput):\n\n");
        for (String rw : s.values("rw")) {
            for (String p : s.values("pattern")) {
                Map<Integer, Double> rwsem = throughput(s, BASE, rw, p);
                Map<Integer, Double> srcu = throughput(s, "srcu", rw, p);
                if (rwsem.size() >= 2 && rwsem.keySet().equals(srcu.keySet())) {
                    b.append("- ").append(rw).append(", ").append(p).append(": ")
                            .append(Crossover.threshold("rwsem", rwsem, "srcu", srcu, MARGINAL).sentence())
                            .append("; curves: ").append(Crossover.find("rwsem", rwsem, "srcu", srcu).sentence()).append('\n');
                }
            }
        }
        return b.append('\n').toString();
    }

    private static String sweepChart(JmhSweep s, String rw, String p) {
        LineChart c = new LineChart("zram model, " + rw + ", " + p + ": total throughput by threads, per guard", "threads",
                "M ops/s (all threads)").log2X();
        for (String g : GUARDS) {
            List<LineChart.Point> pts = new ArrayList<>();
            for (int t : s.threadCounts()) {
                List<Double> v = s.samples(key(g, rw, p), t);
                if (!v.isEmpty()) {
                    Stats.Spread ns = Stats.spread(v);
                    pts.add(LineChart.Point.of(t, t * 1e3 / ns.median(), t * 1e3 / ns.max(), t * 1e3 / ns.min()));
                }
            }
            if (!pts.isEmpty()) {
                c.series(g, pts);
            }
        }
        return c.toSvg();
    }

    private static String allocation(JmhSweep s, int t) {
        StringBuilder b = new StringBuilder();
        for (String g : GUARDS) {
            double bytes = s.bytesPerOp(key(g, "randrw", "compressible50"), t);
            if (!Double.isNaN(bytes)) {
                b.append(b.isEmpty() ? "" : ", ").append('`').append(g).append("` ").append(Fmt.f(bytes, 3));
            }
        }
        return b.isEmpty() ? "" : "Allocation per op (JMH -prof gc, randrw compressible50, " + t + " threads, B/op): " + b + ".\n\n";
    }

    /** The model's `none` ns per op (1 thread) beside the kernel's task-clock per I/O (fio, 1 job), per rw and pattern. */
    private static String modelVsKernel(JmhSweep s, KernelRuns k) {
        StringBuilder b = new StringBuilder("Per-I/O cost, model `none` (1 thread, ns per op) against today's kernel "
                + "(fio psync, 1 job, task-clock ns per I/O, syscall and block layer included):\n\n"
                + "| rw | pattern | model ns/op | kernel ns/I/O | model / kernel |\n|---|---|---:|---:|---:|\n");
        boolean any = false;
        for (KernelRuns.Row r : k.rows()) {
            if (!r.tool().equals("fio") || !r.job().endsWith("-j1")) {
                continue;
            }
            String[] parts = r.job().substring(0, r.job().length() - 3).split("-", 2);
            if (parts.length != 2) {
                continue;
            }
            List<Double> v = s.samples(key("none", parts[0], parts[1]), 1);
            if (v.isEmpty()) {
                continue;
            }
            double model = Stats.median(v);
            any = true;
            b.append("| ").append(parts[0]).append(" | ").append(parts[1]).append(" | ").append(Fmt.f(model, 0)).append(" | ")
                    .append(Fmt.f(r.taskClockNsPerIo(), 0)).append(" | ").append(Fmt.f(model / r.taskClockNsPerIo(), 2)).append(" |\n");
        }
        return any ? b.append("\nThe model does the device's work only (slot lock, same-fill check, compression, pool); the kernel ")
                .append("row also pays the syscall, the block layer and fio itself.\n\n").toString() : "";
    }

    private static Map<String, Object> jvmSummary(JmhSweep s) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String rw : s.values("rw")) {
            for (String p : s.values("pattern")) {
                Map<String, Object> byT = new LinkedHashMap<>();
                for (int t : s.threadCounts()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (String g : GUARDS) {
                        List<Double> v = s.samples(key(g, rw, p), t);
                        if (!v.isEmpty()) {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("ns_per_op_median", Stats.median(v));
                            Double r = ratio(s, g, rw, p, t);
                            m.put("throughput_vs_rwsem", r);
                            row.put(g, m);
                        }
                    }
                    byT.put(Integer.toString(t), row);
                }
                out.put(rw + "/" + p, byT);
            }
        }
        return out;
    }

    private static String flamegraphs(RunDir run, JmhSweep s) throws IOException {
        Path dir = run.dir().resolve("flamegraphs").resolve(ID);
        String links = run.htmlLinks(dir);
        if (links.isEmpty()) {
            return "";
        }
        String slowest = null;
        if (!s.isEmpty()) {
            int t = s.threadCounts().last();
            double worst = -1;
            for (String g : GUARDS) {
                List<Double> v = s.samples(key(g, "randrw", "compressible50"), t);
                if (!v.isEmpty() && Stats.median(v) > worst) {
                    worst = Stats.median(v);
                    slowest = g;
                }
            }
        }
        StringBuilder b = new StringBuilder("CPU flamegraphs (async-profiler; randrw, compressible50, highest thread count): ").append(links);
        if (slowest != null && Files.exists(dir.resolve(slowest + ".html"))) {
            b.append(". The slowest guard here is `").append(slowest).append("`: [its flamegraph](flamegraphs/").append(ID).append('/')
                    .append(slowest).append(".html)");
        }
        return b.append(".\n\n").toString();
    }
}
