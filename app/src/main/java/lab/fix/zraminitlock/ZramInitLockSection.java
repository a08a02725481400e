package lab.fix.zraminitlock;

import static lab.fix.zraminitlock.ZramInitLock.*;

import lab.notebook.Estimated;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.notebook.LabKernelPart;
import lab.notebook.Notebook;
import lab.results.RunDir;
import lab.notebook.Page;
import lab.notebook.Parts;
import lab.notebook.Section;
import lab.notebook.SectionOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.analysis.compare.LkpTable;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.fidelity.NoiseFloor;
import lab.notebook.Headline;

/**
 * zram-init-lock (seed 001_8702db15985e6798.txt): the JVM model's four meta guards per rw mode
 * and data pattern across threads, today's real zram for the same jobs, the lab kernel's
 * init_lock switch where the run has it, and the seed's table.
 *
 * <p>Reads {@code raw/zram-init-lock/zram-rR-tT.json} (LZO-RLE), {@code zram-lz4-rR-tT.json},
 * {@code raw/zram-init-lock/kernel/} and {@code raw/zram-init-lock/lab-kernel/}.
 */
final class ZramInitLockSection implements Section {
    @Override
    public String id() { return ID; }

    /** The seed's point per thread count, srcu / rwsem, as {@link SeedPoint#text} writes it: calibrated, and raw. */
    @Override
    public lab.notebook.HeadlineByThreads headlineByThreads() {
        return new lab.notebook.HeadlineByThreads("jvm.seed_point.calibrated.{T}.srcu_vs_rwsem", "jvm.seed_point.raw.{T}.srcu_vs_rwsem");
    }

    /**
     * Every figure of the section, made: the LZO-RLE and LZ4 tables (null: not in the run), the
     * LKP rows at the table's most threads, the seed's point, the kernel's runs, the lab kernel.
     */
    private record Figures(GuardTable lzo, Map<String, List<LkpTable.Row>> lkp, GuardTable lz4, int ht, SeedPoint.Figures seed,
                           KernelRuns kernel, Optional<LabKernelPart> lab) {}

    @Override
    public Optional<Estimated> estimate(RunDir run) throws IOException {
        Path dir = run.raw().resolve(ID);
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        SweepEstimates lzo = SweepEstimates.read(dir, ZramInitLockRaw.LZO, run::gap);
        SweepEstimates lz4 = SweepEstimates.read(dir, ZramInitLockRaw.LZ4, run::gap);
        KernelRuns kernel = KernelRuns.read(run, dir.resolve("kernel"));
        int ht = ZramInitLockPairing.headlineThreads(lzo.isEmpty() ? List.of(1) : lzo.threadCounts(), run.manifest().path("cores").asInt(0));
        GuardTable table = lzo.isEmpty() ? null : GuardTable.of(lzo, true);
        Map<String, List<LkpTable.Row>> lkp = lzo.isEmpty() ? null : GuardTable.estimateLkp(lzo, lzo.threadCounts().last());
        Figures f = new Figures(table, lkp, lz4.isEmpty() ? null : GuardTable.of(lz4, false), ht, SeedPoint.estimate(run, dir, ht), kernel,
                LabKernelPart.read(run, ID));
        return Optional.of(() -> render(run, f));
    }

    private static SectionOutput render(RunDir run, Figures f) throws IOException {
        GuardTable lzo = f.lzo();
        KernelRuns kernel = f.kernel();
        int ht = f.ht();
        Page page = Page.of(run, ID).text("## zram-init-lock: " + FIX.title() + "\n\n" + seedTable());
        String cores = run.manifest().path("cores").asText("?");
        Headline head = Headline.of(FIX, run);
        Map<String, Object> jvm = new LinkedHashMap<>();
        if (lzo != null) {
            int maxT = lzo.threads().last();
            page.text("### JVM model, raw: throughput of each guard over rwsem's (LZO-RLE)\n\n"
                    + "Total ops/s of the guard over rwsem's at the same thread count, in the notebook's estimator, checked against the"
                    + " row's A/A floor (rwsem against a copy of itself, where the run has it); 1.00x = the guard costs what rwsem costs.\n\n")
                    .text(lzo.quickNote(run.manifest().path("quick").asBoolean(false))).text(lzo.ratioMatrix());
            page.text(GuardTable.lkp(f.lkp(), maxT)).text(lzo.seedVsModel(ht)).text(lzo.marginal());
            for (String p : lzo.patterns()) {
                page.chart("zram-sweep-randrw-" + p + ".svg", lzo.sweepChart("randrw", p), "randrw " + p + " thread sweep");
            }
            page.text(lzo.allocation(maxT));
            NoiseFloor floor = lzo.floor(SEED_RW, SEED_PATTERN, ht);
            head.raw(lzo.ratio(SRCU, SEED_RW, SEED_PATTERN, ht)).floor(floor).rawFloor(floor);
            jvm.put("table", lzo.summary());
        }
        if (f.lz4() != null) {
            page.text("### LZ4 instead of LZO-RLE (compressible50)\n\n" + f.lz4().ratioMatrix() + '\n');
            jvm.put("lz4", f.lz4().summary());
        }
        page.text(SeedPoint.text(f.seed(), ht, head, jvm));
        page.text(flamegraphs(page, lzo));
        if (!kernel.isEmpty()) {
            page.text("### Today's real zram (the `none` variant: no guard on the I/O path)\n\n"
                    + "The same rw modes and patterns on a real zram device (" + kernel.env().getOrDefault("device", "zram")
                    + ", kernel " + kernel.env().getOrDefault("kernel", "?") + ", "
                    + kernel.env().getOrDefault("environment", "native") + "), through fio (psync), the bridge (psync) and "
                    + "the bridge (io_uring), under `perf stat -r " + kernel.env().getOrDefault("perf_repeats", "1")
                    + "`. task-clock per I/O counts the whole command (for the bridge: JVM start-up and JIT too).\n\n"
                    + kernel.table() + '\n' + KernelRuns.quickNote(kernel.env(), ID) + modelVsKernel(lzo, kernel));
            page.put("kernel", kernel.summary());
        } else {
            page.text("### Today's real zram\n\nNot in this run (the kernel side runs as root: `sudo ./lab pair zram-init-lock`).\n\n");
            page.put("kernel", null);
        }
        Optional<LabKernelPart> lab = f.lab();
        lab.ifPresent(l -> page.text(l.text(head)).put("lab_kernel", l.summary()));
        page.put("jvm", jvm.isEmpty() ? null : jvm);
        head.metric("SRCU / rwsem throughput, randrw, zero pages (the seed's job; seed: 4 workers on 4 CPUs;"
                        + " here: " + ht + (ht == 1 ? " thread" : " threads") + " on " + cores + " cores)")
                .kernel(null, "today's kernel has no init_lock on the I/O path to switch on: the real zram runs are the model's `none`,"
                        + " set beside it per I/O in the section")
                .note("jvm: srcu / rwsem at the seed's point, calibrated where the run has a calibration, else raw (the guard table's"
                        + " where the run predates the seed sweep)");
        return page.build(lab.map(l -> l.onto(head)).orElse(head).toMap());
    }

    private static String seedTable() {
        return "The seed (" + FIX.seedFile() + "): fio on 1 GiB zram, 4 CPUs, `perf stat -r 10`, "
                + "SRCU against rwsem (`init_lock` `down_read` per I/O):\n\n| rw | SRCU vs rwsem |\n|---|---:|\n"
                + "| randread | -0.63% |\n| randwrite | +1.24% |\n| randrw | +2.3% |\n\n"
                + "The thread called it \"marginal\": the lock was ~0.5% of cycles in perf record, and the data pattern "
                + "(`scramble_buffers=0`, `zero_buffers`) decides how much compression hides it. Below: whether the model agrees "
                + "at the seed's conditions, and where it stops being marginal.\n\n";
    }

    /** The model's `none` ns per op (1 thread) beside the kernel's task-clock per I/O (fio, 1 job), per rw and pattern. */
    private static String modelVsKernel(GuardTable s, KernelRuns k) {
        StringBuilder b = new StringBuilder("Per-I/O cost, model `none` (1 thread, ns per op) against today's kernel "
                + "(fio psync, 1 job, task-clock ns per I/O, syscall and block layer included):\n\n"
                + "| rw | pattern | model ns/op | kernel ns/I/O | model / kernel |\n|---|---|---:|---:|---:|\n");
        boolean any = false;
        for (KernelRuns.Row r : k.rows()) {
            String[] parts = r.tool().equals("fio") ? ZramInitLockRaw.oneJob(r.job()) : null;
            if (parts == null) {
                continue;
            }
            Estimate v = s == null ? null : s.ns(NONE, parts[0], parts[1], 1);
            if (v == null) {
                continue;
            }
            double model = v.value();
            any = true;
            b.append("| ").append(parts[0]).append(" | ").append(parts[1]).append(" | ").append(Fmt.f(model, 0)).append(" | ")
                    .append(Fmt.f(r.taskClockNsPerIo(), 0)).append(" | ").append(Fmt.f(model / r.taskClockNsPerIo(), 2)).append(" |\n");
        }
        return any ? b.append("\nThe model does the device's work only (slot lock, same-fill check, compression, pool); the kernel ")
                .append("row also pays the syscall, the block layer and fio itself.\n\n").toString() : "";
    }

    private static String flamegraphs(Page page, GuardTable s) throws IOException {
        String links = page.flamegraphLinks(ID);
        if (links.isEmpty()) {
            return "";
        }
        String slowest = null;
        if (s != null) {
            int t = s.threads().last();
            double worst = -1;
            for (String g : GUARDS) {
                Estimate v = s.ns(g, SEED_RW, SEED_PATTERN, t);
                if (v != null && v.value() > worst) {
                    worst = v.value();
                    slowest = g;
                }
            }
        }
        StringBuilder b = new StringBuilder("CPU flamegraphs (async-profiler; randrw, zero pages, highest thread count): ").append(links);
        if (slowest != null && Files.exists(page.run().dir().resolve("flamegraphs").resolve(ID).resolve(slowest + ".html"))) {
            b.append(". The slowest guard here is `").append(slowest).append("`: [its flamegraph](flamegraphs/").append(ID).append('/')
                    .append(slowest).append(".html)");
        }
        return b.append(".\n\n").toString();
    }
}
