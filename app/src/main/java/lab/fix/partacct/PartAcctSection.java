package lab.fix.partacct;

import static lab.fix.partacct.PartAcct.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.analysis.compare.LkpTable;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.estimate.Estimate;
import lab.analysis.fidelity.Calibration;
import lab.notebook.Fix;
import lab.notebook.Estimated;
import lab.notebook.Headline;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.notebook.LabKernelPart;
import lab.notebook.Notebook;
import lab.notebook.Page;
import lab.notebook.Parts;
import lab.results.RunDir;
import lab.notebook.Section;
import lab.notebook.SectionOutput;

/**
 * The part-acct section: the seed, the JVM model's variant table ({@link VariantTable}), the
 * flamegraphs, Jens Axboe's concern over slots x HZ ({@link CrossoverGrid}) and the sum's own cost
 * ({@link SumCost}), today's kernel with {@code queue/iostats} on and off ({@link IostatsKernel}),
 * the fidelity of the two ({@link AccountingFidelity}), the lab kernel's accounting switch where
 * the run has it ({@link LabKernelPart}) and the headline. Reads the files of
 * {@link PartAcctRaw}.
 */
final class PartAcctSection implements Section {

    @Override
    public String id() { return ID; }

    /**
     * All four patches over `atomic`, bios to the whole disk, per thread count, as {@link VariantTable#summary} writes it:
     * calibrated, and raw (its A/A is the headline's alone: the summary holds none per thread count).
     */
    @Override
    public lab.notebook.HeadlineByThreads headlineByThreads() {
        return new lab.notebook.HeadlineByThreads("jvm.calibrated.disk.{T}." + FOUR + ".throughput_vs_atomic",
                "jvm.table.disk.{T}." + FOUR + ".throughput_vs_atomic");
    }

    /** Every figure of the section, made: what {@link #render} prints. */
    private record Figures(VariantTable table, Map<String, List<LkpTable.Row>> lkp, Calibrated.Figures calibrated, CrossoverGrid grid,
                           SumCost sum, Path kdir, KernelRuns kernelRuns, IostatsKernel kernel, AccountingFidelity.Model fidelity,
                           Optional<LabKernelPart> lab) {}

    @Override
    public Optional<Estimated> estimate(RunDir run) throws IOException {
        Path dir = run.raw().resolve(ID);
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        SweepEstimates all = SweepEstimates.read(dir, PartAcctRaw.TABLE, run::gap);
        Calibration cal = Calibration.read(dir);
        SweepEstimates table = all.where("baseNs", "0", "0");
        SweepEstimates calibrated = cal == null || cal.baseNs() == 0 ? null
                : SweepEstimates.read(dir, PartAcctRaw.CALIBRATED, run::gap).where("baseNs", Long.toString(cal.deviceNs()), "0")
                        .where("userNs", Long.toString(cal.userNs()), "0");
        SweepEstimates grid = SweepEstimates.read(dir, PartAcctRaw.GRID, run::gap);
        SweepEstimates sum = SweepEstimates.read(dir, PartAcctRaw.SUM_FILES, run::gap);
        Path kdir = dir.resolve("kernel");
        KernelRuns kernelRuns = KernelRuns.read(run, kdir);
        IostatsKernel kernel = IostatsKernel.of(kernelRuns);
        int tableT = table.isEmpty() ? 0 : table.threadCounts().last();
        VariantTable t = table.isEmpty() ? null : VariantTable.of(table);
        Map<String, List<LkpTable.Row>> lkp = table.isEmpty() ? null : VariantTable.estimateLkp(table, tableT);
        Calibrated.Figures c = Calibrated.estimate(cal, calibrated, table, dir, run);
        Figures f = new Figures(t, lkp, c, grid.isEmpty() ? null : CrossoverGrid.of(grid), sum.isEmpty() ? null : SumCost.of(sum), kdir,
                kernelRuns, kernel, AccountingFidelity.estimate(table, tableT), LabKernelPart.read(run, ID));
        return Optional.of(() -> render(run, f));
    }

    private static SectionOutput render(RunDir run, Figures f) throws IOException {
        VariantTable table = f.table();
        IostatsKernel kernel = f.kernel();
        String cores = run.manifest().path("cores").asText("?");
        Page page = Page.of(run, ID).text("## part-acct: " + FIX.title() + "\n\n" + seed(FIX));
        Map<String, Object> jvm = new LinkedHashMap<>();
        int tableT = 0;
        Headline head = Headline.of(FIX, run);
        if (table != null) {
            tableT = table.threads().last();
            page.text(table.quickNote(run.manifest().path("quick").asBoolean(false))).text(table.table(cores, "JVM model, raw: each variant's throughput and its ratio to `atomic` (HZ "
                    + HZ + ", " + SLOTS + " slots)") + table.growth());
            for (String target : TARGETS) {
                if (table.has(BASE, target, tableT)) {
                    page.chart("part-acct-sweep-" + target + ".svg", table.sweepChart(target), target + " thread sweep");
                }
            }
            page.text(VariantTable.lkp(f.lkp(), tableT) + table.allocation(tableT));
            head.raw(table.vsBase(FOUR, "disk", tableT)).floor(table.floor("disk", tableT)).rawFloor(table.floor("disk", tableT));
            jvm.put("table", table.summary());
        } else {
            page.text("### JVM model\n\nNo variant table in this run (`raw/part-acct/part-acct-rR-tT.json`).\n\n");
        }
        page.text(Calibrated.text(f.calibrated(), cores, head, jvm));
        page.text(flamegraphs(page));
        page.text("### Jens Axboe's concern, measured: the per-tick sum over slots x HZ\n\n");
        CrossoverGrid g = f.grid();
        if (g != null) {
            page.text(g.text()).chart("part-acct-crossover.svg", g.chart(), "all four over the first two by slots and HZ");
            jvm.put("grid", g.summary());
        } else {
            page.text("No crossover grid in this run (`raw/part-acct/part-acct-grid-rR-tT.json`).\n\n");
        }
        SumCost.Fit fit = null;
        if (f.sum() != null) {
            SumCost cost = f.sum();
            fit = cost.fit();
            page.text(cost.text()).chart("part-acct-sum.svg", cost.chart(), "ns per part_in_flight() sum by slots")
                    .text(cost.cpuTable());
            jvm.put("sum", cost.summary());
        } else {
            page.text("No sum benchmark in this run (`raw/part-acct/part-acct-sum-rR.json`).\n\n");
        }
        Map<String, Object> extrapolated = new LinkedHashMap<>();
        page.text(SumCost.extrapolation(g, fit, extrapolated));
        if (!extrapolated.isEmpty()) {
            jvm.put("extrapolated_crossover_slots", extrapolated);
        }
        page.text(kernel.text(run, f.kdir(), f.kernelRuns()));
        Estimate kernelAcct = kernel.headlineGroup() == null ? null : kernel.ratio(kernel.headlineGroup());
        Map<String, Object> fidelity = new LinkedHashMap<>();
        page.text(AccountingFidelity.text(f.fidelity(), kernel, fidelity));
        Optional<LabKernelPart> lab = f.lab();
        lab.ifPresent(l -> page.text(l.text(head)));
        page.put("jvm", jvm.isEmpty() ? null : jvm).put("kernel", kernel.isEmpty() ? null : kernel.summary(f.kernelRuns()))
                .put("fidelity", fidelity);
        lab.ifPresent(l -> page.put("lab_kernel", l.summary()));
        Headline h = headline(head, tableT, kernelAcct, kernel, run);
        return page.build(lab.map(l -> l.onto(h)).orElse(h).toMap());
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

    private static String flamegraphs(Page page) throws IOException {
        String links = page.flamegraphLinks(ID);
        return links.isEmpty() ? "" : "CPU flamegraphs (async-profiler; bios to the whole disk, HZ " + HZ + ", " + SLOTS
                + " slots, highest thread count), one per variant: " + links + ".\n\n";
    }

    private static Headline headline(Headline head, int t, Estimate kernelAcct, IostatsKernel k, RunDir run) {
        IostatsKernel.Group g = k.headlineGroup();
        String acct = kernelAcct == null ? "no accounting on/off pair in this run"
                : "accounting on/off (iostats=1 / iostats=0) is " + kernelAcct.format(2) + "x on " + k.label(g.dev())
                        + " whole disk, fio, " + g.jobs() + (g.jobs() == 1 ? " job" : " jobs") + k.headlineNote();
        return head.metric("all four patches / before, total throughput (seed: fio randread over null_blk, dual socket; JVM: bios"
                        + " to the whole disk, HZ " + HZ + ", " + SLOTS + " slots, " + t + (t == 1 ? " thread" : " threads") + " on "
                        + run.manifest().path("cores").asText("?") + " cores)")
                .kernel(null, "today's kernel has every patch and cannot switch them off; " + acct)
                .note("seed: all four patches ~15%, the first two ~8% (" + Fmt.ratio(SEED_TWO) + "). jvm: `percpu-ref+percpu-inflight` / "
                        + "`atomic`, calibrated where the run has a calibration, else raw")
                .extra("seed_first_two", SEED_TWO);
    }
}
