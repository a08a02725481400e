package lab.fix.thinbufiolock;

import static lab.fix.thinbufiolock.ThinBufioLock.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.analysis.JmhSweep;
import lab.analysis.estimate.Estimate;
import lab.analysis.fidelity.Calibration;
import lab.analysis.fidelity.LineCost;
import lab.analysis.fidelity.LineCounts;
import lab.analysis.fidelity.NoiseFloor;
import lab.analysis.fidelity.Prediction;
import lab.analysis.estimate.SweepEstimates;
import lab.fix.CostSweep;
import lab.notebook.Estimated;
import lab.notebook.Fmt;
import lab.notebook.Headline;
import lab.notebook.KernelRuns;
import lab.notebook.LabKernelPart;
import lab.notebook.Page;
import lab.notebook.Parts;
import lab.notebook.PredictionText;
import lab.notebook.Section;
import lab.notebook.SectionOutput;
import lab.results.RunDir;

/**
 * The thin-bufio-lock section: the seed, the model's bufio lockings against the mutex per cache
 * size and thread count with dm-linear beside them (raw), then calibrated with the prediction from
 * the counted lock operations and the op cost the seed's 1.55x implies, the lock acquisitions per
 * I/O as counted, today's kernel (thin against linear per job count, beside the model's
 * {@code striped} and {@code mutex} against dm-linear, {@link ThinKernel}), and the headline.
 * Reads the files of {@link ThinBufioLockRaw}.
 */
final class ThinBufioLockSection implements Section {

    @Override
    public String id() { return ID; }

    /** `rwsem-walk` / `mutex` with the whole tree cached per thread count, as {@link LockTable#table} writes it: calibrated, and raw. */
    @Override
    public lab.notebook.HeadlineByThreads headlineByThreads() {
        return new lab.notebook.HeadlineByThreads("jvm.calibrated.{T}." + LockTable.HEADLINE.json(),
                "jvm.raw." + WHOLE + ".{T}." + LockTable.HEADLINE.json());
    }

    /**
     * The model's calibrated side, made: the table with the whole tree cached at the most threads
     * {@code t}, the fork CVs, raw, calibrated and predicted side by side, and where the run has
     * counts and costs, the prediction and its pricing per visit; {@code prediction} null where it
     * has neither.
     */
    private record CalibratedFigures(Calibration cal, int t, LockTable table, Parts.ForkCvs cv, List<Side> sides,
                                     PredictionText.Report prediction, PerVisit perVisit) {}

    /** One comparison at one thread count of the calibrated sweep: the raw model's ratio, the calibrated one, the prediction. */
    private record Side(int threads, LockTable.Comparison comparison, Estimate raw, Estimate calibrated, Double predicted) {}

    /**
     * The headline's prediction priced per visit ({@link #estimatePerVisit}): whether both sides count
     * visits, the prediction, and each side's visits per I/O.
     */
    private record PerVisit(boolean priced, Double predicted, double mutexVisits, double walkVisits) {}

    /** Every figure of the section, made: what {@link #render} prints. */
    private record Figures(List<String> caches, Map<String, LockTable> raw, LockTable whole, CalibratedFigures calibrated,
                           LineCounts counts, ThinKernel kernel, Optional<LabKernelPart> lab) {}

    @Override
    public Optional<Estimated> estimate(RunDir run) throws IOException {
        Path dir = run.raw().resolve(ID);
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        SweepEstimates table = SweepEstimates.read(dir, ThinBufioLockRaw.TABLE, run::gap);
        SweepEstimates linear = SweepEstimates.read(dir, ThinBufioLockRaw.LINEAR, run::gap);
        Calibration cal = Calibration.read(dir);
        SweepEstimates calibrated = cal == null ? null : calibratedSweep(dir, ThinBufioLockRaw.CALIBRATED, cal, run);
        ThinKernel kernel = ThinKernel.of(KernelRuns.read(run, dir.resolve("kernel")), table, linear);
        Map<String, LockTable> raw = new LinkedHashMap<>();
        LockTable whole = null;
        if (!table.isEmpty()) {
            for (String cache : CACHES) {
                if (table.values("cache").contains(cache)) {
                    raw.put(cache, LockTable.of(table, linear, cache, cache.equals(WHOLE)));
                }
            }
            whole = raw.containsKey(WHOLE) ? raw.get(WHOLE) : LockTable.of(table, linear, WHOLE, true);
        }
        LineCounts counts = LineCounts.read(dir);
        CalibratedFigures c = estimateCalibrated(cal, calibrated, table, counts, dir, run);
        Figures f = new Figures(table.values("cache"), raw, whole, c, counts, kernel, LabKernelPart.read(run, ID));
        return Optional.of(() -> render(run, f));
    }

    private static SectionOutput render(RunDir run, Figures f) throws IOException {
        Path dir = run.raw().resolve(ID);
        ThinKernel kernel = f.kernel();
        String cores = run.manifest().path("cores").asText("?");
        Page page = Page.of(run, ID).text("## thin-bufio-lock: " + FIX.title() + "\n\n" + seed());
        Map<String, Object> jvm = new LinkedHashMap<>();
        Headline head = Headline.of(FIX, run);
        LockTable whole = f.whole();
        int t = whole == null ? 1 : whole.threads().getLast();
        if (whole != null) {
            Map<String, Object> raw = new LinkedHashMap<>();
            page.text("### JVM model, raw: the bufio lockings on a fully provisioned thin volume\n\nThe seed ran " + SEED_JOBS
                    + " psync jobs; this machine has " + cores + " cores, so the thread sweep stops at " + t + ": every figure \"at the"
                    + " most threads\" below is at " + t + (t == 1 ? " thread" : " threads") + ", and the headline too. dm-linear over"
                    + " the same ram disk (no btree, no dm-bufio) is its own JMH run in the same rounds.\n\n");
            page.text(LockTable.quickNote(f.caches(), run.manifest().path("quick").asBoolean(false)));
            // a cache not measured is left out (a quick run's table has the headline's cache alone, and quickNote says so)
            f.raw().forEach((cache, table) -> {
                Map<String, Object> byT = new LinkedHashMap<>();
                page.text(table.table("raw, cache " + cache + (cache.equals(WHOLE) ? " (the whole btree cached)"
                        : " (fewer buffers than the btree: misses, evictions, re-reads)"), byT));
                raw.put(cache, byT);
            });
            page.chart("thin-bufio-lock-sweep.svg", whole.sweepChart(), "throughput by threads, whole tree cached")
                    .text(whole.allocation(t));
            jvm.put("raw", raw);
            LockTable.Row last = whole.row(t);
            head.raw(last.ratios().get(LockTable.HEADLINE)).floor(last.floor()).rawFloor(last.floor());
        } else {
            page.text("### JVM model\n\nNo variant table in this run (`raw/" + ID + "/thin-rR-tT.json`).\n\n");
        }
        LineCounts counts = f.counts();
        page.text(calibrated(f.calibrated(), head, jvm));
        Map<String, Object> locks = new LinkedHashMap<>();
        page.text(LockCounts.text(counts, locks));
        jvm.put("lock_counts", counts == null ? null : locks);
        String links = page.flamegraphLinks(ID);
        if (!links.isEmpty()) {
            page.text("CPU flamegraphs (async-profiler; the thin volume, whole tree cached, highest thread count), one per variant: "
                    + links + ".\n\n");
        }
        if (!kernel.isEmpty()) {
            Map<String, Object> k = new LinkedHashMap<>();
            page.text(kernel.text(run, dir.resolve("kernel"), k));
            page.put("kernel", k);
        } else {
            page.text("### The kernel\n\nNot in this run (the kernel side runs as root: `sudo ./lab pair " + ID + "`; on a host"
                    + " without device-mapper's thin pool it runs in the lab's guest VM, which needs qemu).\n\n");
            page.put("kernel", null);
        }
        Optional<LabKernelPart> lab = f.lab();
        lab.ifPresent(l -> page.text(l.text(head)).put("lab_kernel", l.summary()));
        page.put("jvm", jvm.isEmpty() ? null : jvm);
        head.metric("throughput `" + WALK + "` / `" + MUTEX + "` (mutex ns/op over rwsem-walk's), thin"
                        + " volume, whole tree cached (seed: " + SEED_JOBS + " psync jobs, 442 / 286 MiB/s; JVM: " + t
                        + (t == 1 ? " thread" : " threads") + ", the most here, on " + cores + " cores)")
                .kernel(null, "not in this run: the lab kernel's switch for this fix is in 6.12 (6.1's dm-bufio is the before"
                        + " itself, kernel-scripts/kernel/patches/6.1/thin-bufio-lock.none): the client mutex put back per btree node"
                        + " behind dm_bufio.lab_client_lock (kernel-scripts/kernel/patches/6.12/thin-bufio-lock.patch), run by"
                        + " `sudo ./lab pair " + ID + "`; the kernel's runs here measure a thin volume against dm-linear per job"
                        + " count, set beside the model's variant that kernel's dm-bufio is (in the section)")
                .note("jvm: `" + WALK + "` / `" + MUTEX + "` throughput with the whole tree cached at the most threads, calibrated"
                        + " where the run has a calibration, else raw; predicted: from the counted lock operations; implied_op_ns: what"
                        + " one shared-line operation must cost for the seed's 1.55x on top of the calibrated I/O");
        return page.build(lab.map(l -> l.onto(head)).orElse(head).toMap());
    }

    /** The calibrated sweep of {@code prefix} at the calibration's base. */
    private static SweepEstimates calibratedSweep(Path dir, String prefix, Calibration cal, RunDir run) throws IOException {
        return SweepEstimates.read(dir, prefix, run::gap).where("baseNs", Long.toString(cal.deviceNs()), "0")
                .where("userNs", Long.toString(cal.userNs()), "0");
    }

    private static String seed() {
        return "The seed (" + FIX.seedFile() + ", October 2022): Mikulas Patocka's four patches to dm-bufio and dm-thin \"reduce lock"
                + " contention when processing I/Os on already provisioned space\": (1) a dm-bufio call to lock the client once and"
                + " look up several buffers, (2) the client lock from a mutex to an rw_semaphore, so that lookups of several processes"
                + " proceed together, (3) a simpler `ro_spine`, (4) dm-thin walking a btree under one lock. On persistent memory"
                + " emulated with `memmap`: a 32 GiB thin pool, a 16 GiB thin volume written whole with dd, then `fio"
                + " --ioengine=psync --iodepth=1 --rw=randrw --bs=4k --direct=1 --numjobs=12 --time_based --runtime=10"
                + " --group_reporting`:\n\n| kernel | read | write |\n|---|---:|---:|\n| before | 286 MiB/s | 286 MiB/s |\n"
                + "| the four patches | 442 MiB/s | 442 MiB/s (" + Fmt.ratio(SEED_SPEEDUP) + ") |\n\n"
                + "In 2023 dm-bufio was reworked into lock-striped caches: rw locks over cache-aligned trees, one picked per block."
                + " The model's variants: `" + MUTEX + "` (before: the client mutex for every node read), `" + RWSEM + "` (patch 2"
                + " alone: the rw_semaphore, read-locked per node), `" + WALK + "` (the series: read-locked once per btree walk), `"
                + STRIPED + "` (the 2023 rework: the per-tree rw locks). One op is one psync randrw 4k I/O through a thin volume whose"
                + " every block is provisioned (each I/O's mapping found in the pool's btree: no allocation, as after the seed's dd),"
                + " down to a ram disk; `linear` runs the same job through dm-linear over the same ram disk: what the thin target"
                + " costs in all.\n\n";
    }

    /**
     * The calibrated side's figures; null without a calibrated model. Reads the cost sweeps after the
     * calibrated table, as the page prints them.
     */
    private static CalibratedFigures estimateCalibrated(Calibration cal, SweepEstimates calibrated, SweepEstimates raw, LineCounts counts,
                                                        Path dir, RunDir run) throws IOException {
        if (cal == null || calibrated == null || calibrated.isEmpty()) {
            return null;
        }
        int t = calibrated.threadCounts().last();
        LockTable table = LockTable.of(calibrated, null, WHOLE, false);
        List<String> all = new ArrayList<>(VARIANTS);
        all.add(CONTROL);
        Parts.ForkCvs cv = Parts.ForkCvs.estimate(calibrated, all, v -> key(v, WHOLE), t);
        JmhSweep scored = JmhSweep.read(dir, ThinBufioLockRaw.COSTS, run::gap);
        JmhSweep timed = JmhSweep.read(dir, CostSweep.timedPrefix(ThinBufioLockRaw.COSTS), run::gap);
        LineCost costs = LineCost.of(scored, timed, CostSweep.PROBES);
        LineCost withVisits = LineCost.of(scored, timed, JmhSweep.read(dir, CostSweep.visitsPrefix(ThinBufioLockRaw.COSTS), run::gap),
                CostSweep.PROBES);
        // priced per operation (the costs without the visits' sweep): every variant visits the same lines as often
        Prediction p = counts == null || costs.isEmpty() ? null : new Prediction(calibrated, raw.where("baseNs", "0", "0"),
                v -> key(v, WHOLE), v -> counts.get(v, point(THIN, WHOLE)), costs, cal.baseNs(), 0, MUTEX);
        List<Side> sides = estimateSideBySide(raw, calibrated, p);
        if (p == null) {
            return new CalibratedFigures(cal, t, table, cv, sides, null, null);
        }
        List<Prediction.Pair> pairs = LockTable.COMPARISONS.stream()
                .map(x -> new Prediction.Pair(x.base(), x.cand(), x.label() + (x == LockTable.HEADLINE ? " (the seed's, the headline)"
                        : ""))).toList();
        PredictionText.Report report = PredictionText.estimate(p, pairs, MUTEX, WALK, t, SEED_SPEEDUP, SEED_JOBS, "The seed ran "
                + SEED_JOBS + " psync jobs (its machine's cores unstated), where up to twelve threads, not " + t + ", meet on the client"
                + " lock's line.", cal.baseInterval());
        return new CalibratedFigures(cal, t, table, cv, sides, report, estimatePerVisit(calibrated, raw, counts, withVisits, cal, t));
    }

    private static String calibrated(CalibratedFigures f, Headline head, Map<String, Object> jvm) {
        StringBuilder b = new StringBuilder("### JVM model, calibrated to the device, and predicted from the lock operations\n\n");
        if (f == null) {
            return b.append("Not in this run: no calibrated model (`raw/" + ID + "/calibration.json`): neither its kernel side nor a"
                    + " committed run measured the kernel's CPU per I/O for the seed's job on a thin volume.\n\n").toString();
        }
        Calibration cal = f.cal();
        int t = f.t();
        b.append(Parts.calibration(cal));
        Map<String, Object> c = new LinkedHashMap<>();
        b.append(f.table().table("calibrated (+" + cal.baseNs() + " ns per I/O: " + cal.deviceNs()
                + " in the ram disk, " + cal.userNs() + " in the worker between I/Os), whole tree cached", c));
        Map<String, Object> cv = new LinkedHashMap<>();
        b.append(Parts.forkCv(f.cv(), cv));
        c.put("fork_cv", cv.isEmpty() ? null : cv);
        jvm.put("calibrated", c);
        LockTable.Row last = f.table().row(t);
        head.calibrated(last.ratios().get(LockTable.HEADLINE)).floor(last.floor()).base(cal);
        b.append(sideBySide(f.sides(), jvm));
        if (f.prediction() == null) {
            return b.append("No shared-line counts or cost sweep in this run: no prediction.\n\n").toString();
        }
        b.append("Predicted from the counted lock operations: one one-thread time for every variant, `" + MUTEX + "`'s (the calibrated"
                + " base plus the raw model's one-thread ns: the variants' raw one-thread times differ by less than their A/A floor here,"
                + " the 4 KiB copy in 512 MiB of ram disk varying from fork to fork, so a difference between them would be noise; left out"
                + " with it, the locked instructions' own uncontended cost), each variant's operations per I/O on shared lines as"
                + " counted in the model (the bufio locks as `mutex` or"
                + " `rwsem-read` pairs, a write lock's `cas` and `rmw`, the hold counts as `rmw`s, the bio prison's, `all_io_ds`' and the"
                + " pool's `root_lock`), and what one such operation costs here at the calibrated gap (the cost sweep, same run). The"
                + " seed's figure is `" + WALK + "` over `" + MUTEX + "`, which is where the implied cost comes from:\n\n");
        Map<String, Object> pj = PredictionText.report(f.prediction(), b, head);
        b.append(perVisit(f.perVisit(), pj));
        jvm.put("prediction", pj);
        return b.toString();
    }

    /**
     * The headline's prediction priced per visit instead ({@code costs} with the visits' sweep),
     * where the run counted visits and measured one at the I/O's rhythm, as dm-css-ref's is: where
     * the variants visit the same lines as often, only their one-thread times differ.
     */
    private static PerVisit estimatePerVisit(SweepEstimates calibrated, SweepEstimates raw, LineCounts counts, LineCost costs,
                                             Calibration cal, int t) {
        Prediction v = new Prediction(calibrated, raw.where("baseNs", "0", "0"), x -> key(x, WHOLE),
                x -> counts.get(x, point(THIN, WHOLE)), costs, cal.baseNs(), 0, MUTEX);
        if (!v.byVisits(MUTEX) || !v.byVisits(WALK)) {
            return new PerVisit(false, null, Double.NaN, Double.NaN);
        }
        return new PerVisit(true, v.predict(MUTEX, WALK, t), counts.get(MUTEX, point(THIN, WHOLE)).visits(),
                counts.get(WALK, point(THIN, WHOLE)).visits());
    }

    /** {@link #estimatePerVisit}'s figures in words, and into the prediction's summary. */
    private static String perVisit(PerVisit v, Map<String, Object> pj) {
        if (!v.priced()) {
            pj.put("predicted_per_visit", null);
            return "";
        }
        Double pv = v.predicted();
        pj.put("predicted_per_visit", pv);
        return "Priced per visit instead (a visit: a thread's operations on one line between two stretches of the I/O's work, the"
                + " line paid for once, at the I/O's rhythm, as dm-css-ref prices them): `" + MUTEX + "` visits shared lines "
                + Fmt.f(v.mutexVisits(), 2) + " times per I/O and `" + WALK + "` " + Fmt.f(v.walkVisits(), 2) + ", so the prediction is "
                + (pv == null ? "n/a" : Fmt.f(pv, 3) + "x") + (v.mutexVisits() == v.walkVisits() ? ": no difference, the series"
                + " changing how many lock operations a visit to dm-bufio's line holds, not how often it is visited, which is why the"
                + " headline's prediction prices operations" : "") + ".\n\n";
    }

    /**
     * Every comparison at every thread count of the calibrated sweep, whole tree cached: the raw
     * model's ratio, the calibrated one (each against its own A/A floor) and the prediction.
     */
    private static List<Side> estimateSideBySide(SweepEstimates raw, SweepEstimates calibrated, Prediction p) {
        List<Side> out = new ArrayList<>();
        for (int t : calibrated.threadCounts()) {
            for (LockTable.Comparison c : LockTable.COMPARISONS) {
                out.add(new Side(t, c, LockTable.estimateRatio(raw, c, WHOLE, t), LockTable.estimateRatio(calibrated, c, WHOLE, t),
                        p == null ? null : p.predict(c.base(), c.cand(), t)));
            }
        }
        return out;
    }

    /** {@link #estimateSideBySide}'s rows as a table, and into the summary. */
    private static String sideBySide(List<Side> sides, Map<String, Object> jvm) {
        StringBuilder b = new StringBuilder("Raw, calibrated and predicted side by side (whole tree cached; throughput of the candidate"
                + " over the base; raw and calibrated each with its 95% interval over rounds; the prediction as below):\n\n"
                + "| threads | comparison | raw | calibrated | predicted |\n|---:|---|---:|---:|---:|\n");
        Map<String, Object> out = new LinkedHashMap<>();
        for (Side s : sides) {
            Estimate r = s.raw();
            Estimate k = s.calibrated();
            Double pr = s.predicted();
            b.append("| ").append(s.threads()).append(" | ").append(s.comparison().label()).append(" | ").append(Parts.ratioCell(r))
                    .append(" | ").append(Parts.ratioCell(k)).append(" | ").append(pr == null ? "n/a" : Fmt.f(pr, 3) + "x").append(" |\n");
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("raw", Parts.json(r));
            m.put("calibrated", Parts.json(k));
            m.put("predicted", pr);
            @SuppressWarnings("unchecked")
            Map<String, Object> row = (Map<String, Object>) out.computeIfAbsent(Integer.toString(s.threads()), x -> new LinkedHashMap<>());
            row.put(s.comparison().json(), m);
        }
        jvm.put("raw_calibrated_predicted", out);
        return b.append('\n').toString();
    }
}
