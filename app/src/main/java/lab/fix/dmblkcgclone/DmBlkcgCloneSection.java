package lab.fix.dmblkcgclone;

import static lab.fix.dmblkcgclone.DmBlkcgClone.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.fidelity.NoiseFloor;
import lab.engine.bench.DmBlkcgClone.Config;
import lab.fix.dmblkcgclone.DmBlkcgClone.Weights;
import lab.fix.dmblkcgclone.ModelRuns.Point;
import lab.notebook.Estimated;
import lab.notebook.Fmt;
import lab.notebook.Headline;
import lab.notebook.LabKernelPart;
import lab.notebook.Page;
import lab.notebook.Parts;
import lab.notebook.Section;
import lab.notebook.SectionOutput;
import lab.results.RunDir;

/**
 * The dm-blkcg-clone section: the seed; the model's a/b ratios per stack, path and weights for
 * both variants, checked against the weights and against 1, with where the disk charged the bytes
 * ({@link ModelTable}); the model at the kernel's bandwidth beside the raw one with the charges'
 * prediction; today's kernel ({@link DmBlkcgCloneKernel}); the lab kernel's clone switch where the
 * run has it ({@link LabKernelPart}: then the headline's kernel figure); the cumulative ratio over
 * time; what it all says; and the headline. Reads the files of {@link DmBlkcgCloneRaw}.
 */
final class DmBlkcgCloneSection implements Section {
    /** The headline's point. */
    static final Point HEAD = new Point(HEAD_STACK, HEAD_PATH, SEED_WEIGHTS);

    @Override
    public String id() {
        return ID;
    }

    /** The model's runs, raw and calibrated, and the kernel's, each estimated as it is read; the lab kernel's part. */
    @Override
    public Optional<Estimated> estimate(RunDir run) throws IOException {
        Path dir = run.raw().resolve(ID);
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        ModelRuns raw = new ModelRuns(DmBlkcgCloneRaw.rounds(run, dir, DmBlkcgCloneRaw.MODEL));
        ModelRuns cal = new ModelRuns(DmBlkcgCloneRaw.rounds(run, dir, DmBlkcgCloneRaw.CALIBRATED));
        DmBlkcgCloneKernel kernel = DmBlkcgCloneKernel.read(run, dir.resolve(DmBlkcgCloneRaw.KERNEL));
        Optional<LabKernelPart> lab = LabKernelPart.read(run, ID);
        return Optional.of(() -> render(run, dir, raw, cal, kernel, lab));
    }

    private static SectionOutput render(RunDir run, Path dir, ModelRuns raw, ModelRuns cal, DmBlkcgCloneKernel kernel,
                                        Optional<LabKernelPart> lab) throws IOException {
        Page page = Page.of(run, ID).text("## " + ID + ": " + FIX.title() + "\n\n" + seed());
        Headline head = Headline.of(FIX, run);
        Map<String, Object> jvm = new LinkedHashMap<>();
        NoiseFloor rawFloor = raw.floor(HEAD_STACK, HEAD_PATH);
        NoiseFloor calFloor = cal.floor(HEAD_STACK, HEAD_PATH);
        if (raw.isEmpty()) {
            page.text("### JVM model\n\nNo model results in this run (`raw/" + ID + "/model-rK.json`).\n\n");
        } else {
            Map<String, Object> table = new LinkedHashMap<>();
            page.text(model(raw, rawFloor)).text(ModelTable.raw(raw, rawFloor, table)).text(checks(raw));
            String chart = ModelTable.chart(raw, HEAD);
            if (chart != null) {
                page.chart(ID + "-converge.svg", chart, "the cumulative a/b ratio over time, " + HEAD.stack() + " " + HEAD.path() + " "
                        + HEAD.weights() + ", both variants, round 1");
            }
            jvm.put("raw", table);
            jvm.put("noise_floor", rawFloor == null ? null : rawFloor.floor());
            head.raw(raw.ratio(TRANSFER, HEAD)).floor(rawFloor).rawFloor(rawFloor).predicted(raw.predicted(TRANSFER, HEAD));
        }
        page.text(calibrated(raw, cal, kernel, rawFloor, calFloor, jvm, head));
        page.text("CPU flamegraphs: none (" + run.relative(run.dir().resolve("flamegraphs").resolve(ID)) + " holds the note): "
                + DmBlkcgClonePairing.NO_FLAMEGRAPH + "\n\n");
        Map<String, Object> k = new LinkedHashMap<>();
        page.text(kernel.text(run, dir.resolve(DmBlkcgCloneRaw.KERNEL), k));
        lab.ifPresent(l -> page.text(l.text(head)));
        page.put("jvm", jvm.isEmpty() ? null : jvm).put("kernel", k);
        lab.ifPresent(l -> page.put("lab_kernel", l.summary()));
        page.text(reading(raw, kernel));
        Headline h = headline(head, raw, cal, kernel, lab.isPresent());
        return page.build(lab.map(l -> l.onto(h).extra("kernel_environment", "lab kernel " + l.fact("kernel") + ", "
                + l.fact("env"))).orElse(h).toMap());
    }

    /** The headline; {@code lab}: the lab kernel's switch gives the kernel figure (else today's kernel does). */
    private static Headline headline(Headline head, ModelRuns raw, ModelRuns cal, DmBlkcgCloneKernel kernel, boolean lab) {
        Estimate kfig = kernel.figure();
        Estimate lostRaw = raw.ratio(LOST, HEAD);
        Estimate lostCal = cal.ratio(LOST, HEAD);
        Estimate lost = lostCal != null ? lostCal : lostRaw;
        return head.metric("bandwidth of the writer at blkio.weight 1000 over the one at 500, a thin volume, buffered writes, with the"
                        + " fix (`" + TRANSFER + "`) (seed: dd on LVM-thin, 29.9 / 15.6 MB/s; JVM: one writer per cgroup, bs=1M, BFQ)")
                .kernel(kfig, kfig == null ? kernel.whyNoFigure() : null)
                .note("jvm: `" + TRANSFER + "` a/b at " + HEAD.stack() + ", " + HEAD.path() + ", " + HEAD.weights() + ", at the kernel's"
                        + " disk bandwidth where the run has it (calibrated), else the model's own; jvm_lost: the same for `" + LOST
                        + "` (before the fix); predicted: from where the disk charged the bytes (counted, not timed); kernel: "
                        + (lab ? "the lab kernel's switch at the after (kernel_note)" : "today's kernel, which has the fix, "
                        + (kernel.headlineCell() != null && kernel.headlineCell().env().equals(DmBlkcgCloneKernel.NATIVE) ? "natively"
                        : "in the guest VM") + " (kernel_environment)"))
                .extra("jvm_lost", lost == null ? null : lost.value())
                .extra("jvm_lost_raw", Parts.json(lostRaw))
                .extra("jvm_lost_calibrated", Parts.json(lostCal))
                .extra("kernel_environment", kfig == null ? null : kernel.headlineEnvironment());
    }

    private static String seed() {
        return "The seed (" + FIX.seedFile() + ", March 2016): bio-based dm devices cloned bios without the source bio's blkcg"
                + " association, so the io controller of the disk below saw the clones in the root group and `blkio.weight` did"
                + " nothing through LVM. Mike Snitzer's patch copies the association in `__bio_clone_fast` (Tejun Heo: \"the only"
                + " thing necessary is dm transferring bio cgroup tags\"). Nikolay Borisov's test with the patch, two containers on"
                + " LVM-thin, `dd bs=1M`:\n\n| writes | weights | c1501 | c1500 | ratio |\n|---|---|---:|---:|---:|\n"
                + seedRow("direct", "500:500", 19.0, 18.9) + seedRow("direct", "1000:500", 20.8, 20.0)
                + seedRow("buffered", "500:500", 27.4, 26.2) + seedRow("buffered", "1000:500", 31.8, 25.6)
                + seedRow("buffered, 6 GB vs 3 GB", "1000:500", 29.9, 15.6) + "\n"
                + "\"for buffered IO your patch does indeed make a difference\"; direct writes were not yet fixed. The seed's figure is"
                + " the last row (the 3 GB copy ran while the 6 GB one did). The model's variants: `" + LOST + "` (the clone gets no"
                + " association, before the patch) and `" + TRANSFER + "` (the clone copies the source's, the patch).\n\n";
    }

    private static String seedRow(String writes, String weights, double a, double b) {
        return "| " + writes + " | " + weights + " | " + Fmt.f(a, 1) + " MB/s | " + Fmt.f(b, 1) + " MB/s | " + Fmt.ratio(a / b) + " |\n";
    }

    /** What the model is and how it was run, from the results' own configs. */
    private static String model(ModelRuns raw, NoiseFloor floor) {
        Config c = raw.anyConfig();
        return "### JVM model: two weighted writers through a dm stack over one BFQ disk\n\n"
                + "The engine's experiment `lab.engine.bench.DmBlkcgClone`: cgroups a and b with their blkio weights, one sequential"
                + " writer each (bs=1M), through dm-linear x1..3 or a thin volume (every block unprovisioned at the start, as the"
                + " seed's fresh files: each write provisions, so the pool's worker issues it) over a null_blk-like disk of "
                + Fmt.f(c.mibPerSec(), 0) + " MiB/s whose elevator is BFQ (per-cgroup queues served by weight, budgets in sectors)."
                + " `direct`: the writer submits each bio itself, with no association (2016: only writeback associated a bio; the"
                + " disk charges a bio without one to the task that submits it); `" + DIRECT_ASSOC + "`: the same, each bio associated"
                + " with the writer's cgroup as it is made (since 5.0 every bio is: today's direct writes); `buffered`: the writer"
                + " dirties its cgroup's pages"
                + " and the cgroup's flusher, a kernel thread, writes them back in bios associated with the cgroup. Each measurement:"
                + " " + c.rampMs() + " ms of ramp, then the bytes each writer wrote in a " + c.runMs() + " ms window (direct: completed;"
                + " buffered: dirtied, what dd counts); " + raw.rounds() + " round(s), both variants in each, their order alternating."
                + " The ratio is a's bandwidth over b's in each round's window, the geometric mean over rounds with its 95% interval;"
                + " the A/A control is `" + TRANSFER + "` at " + EQUAL + " on " + HEAD_STACK + ", " + HEAD_PATH + ", the window's"
                + " a/b in each round, estimated the same way: "
                + (floor == null ? "n/a (no control in this run)" : Parts.ratioCell(floor.aa())) + "; a ratio whose interval holds 1"
                + " prints \"(holds 1)\"."
                + " Convergence: the first sample (every " + lab.engine.bench.DmBlkcgClone.SAMPLE_MS + " ms) from which the cumulative"
                + " ratio stays within " + Math.round(100 * lab.engine.bench.DmBlkcgClone.CONVERGED) + "% of the window's. Charged:"
                + " the share of the bytes the disk served in the window that BFQ charged to a, to b and to the root group, and how"
                + " (tagged: the bios carried an association; by task: charged to the submitting thread's cgroup)"
                + (raw.errors() > 0 ? ". **" + raw.errors() + " I/Os failed in these runs.**" : "") + ":\n\n";
    }

    /** Which points pass the check, said once under the table. */
    private static String checks(ModelRuns raw) {
        List<String> pass = new ArrayList<>();
        List<String> fail = new ArrayList<>();
        for (Point p : raw.points()) {
            if (p.weights().a() != p.weights().b()) {
                (ModelTable.holds(raw, p) ? pass : fail).add(p.stack() + " " + p.path() + " " + p.weights());
            }
        }
        return "The check (`" + TRANSFER + "` within " + Math.round(100 * WITHIN) + "% of the weights' ratio and `" + LOST + "` within "
                + Math.round(100 * WITHIN) + "% of 1, at unequal weights) holds at " + (pass.isEmpty() ? "no point" : String.join(", ", pass))
                + (fail.isEmpty() ? "" : "; not at " + String.join(", ", fail) + ", for the reason its row gives") + ".\n\n";
    }

    private static String calibrated(ModelRuns raw, ModelRuns cal, DmBlkcgCloneKernel kernel, NoiseFloor rawFloor, NoiseFloor calFloor,
                                     Map<String, Object> jvm, Headline head) {
        StringBuilder b = new StringBuilder("### JVM model at the kernel's disk bandwidth, and predicted from the charges\n\n");
        DmBlkcgCloneKernel.Bandwidth bw = kernel.bandwidth();
        if (cal.isEmpty()) {
            b.append("No calibrated model in this run (`raw/" + ID + "/calibrated-rK.json`): ")
                    .append(bw == null ? kernel.whyNoBandwidth() : "the kernel measured a bandwidth, but the files are missing")
                    .append(". ");
        } else {
            b.append("Calibrated: the same experiment with the disk's bandwidth set to the kernel's, ")
                    .append(Fmt.f(cal.bandwidths().getFirst(), 1))
                    .append(" MiB/s (").append(bw == null ? "its source is not in this run's kernel folder" : bw.source())
                    .append("): the real device's time per 1 MiB write, at ").append(String.join(", ", SHORT_STACKS)).append(", every path, ")
                    .append(String.join(", ", QUICK_WEIGHTS.stream().map(Weights::toString).toList())).append(", ").append(cal.rounds())
                    .append(" round(s); the model's two writers together reached ")
                    .append(Fmt.spread(cal.totalMibPerSec(TRANSFER, HEAD), 0)).append(" MiB/s of it at ").append(HEAD.stack()).append(", ")
                    .append(HEAD.path()).append(", ").append(HEAD.weights()).append("; A/A ")
                    .append(calFloor == null ? "n/a" : Parts.ratioCell(calFloor.aa())).append(" (the raw model's ")
                    .append(rawFloor == null ? "n/a" : Parts.ratioCell(rawFloor.aa())).append(", each ratio with its own interval). ");
            head.calibrated(cal.ratio(TRANSFER, HEAD)).floor(calFloor).base(null, "the disk's bandwidth, "
                    + Fmt.f(cal.bandwidths().getFirst(), 1) + " MiB/s: " + (bw == null ? "the kernel's" : bw.source()));
            jvm.put("calibrated_mib_per_sec", cal.bandwidths().getFirst());
            jvm.put("calibrated_noise_floor", calFloor == null ? null : calFloor.floor());
        }
        b.append("Predicted, from where the disk charged each window's bytes (counted, not timed): where BFQ charged every byte to the"
                + " writers' own groups (the root group's share at most " + Math.round(100 * Charges.CLEAR) + "%), their weights' ratio;"
                + " where it charged every byte to the root group, 1.0 (both writers in one queue, served in arrival order at equal"
                + " depth); otherwise no prediction. Beside it, each writer's window bytes charged to its own group (raw model; the"
                + " window's edges cut a writer's bytes and the disk's a few bios apart, so these sit near, not at, 100%):\n\n");
        Map<String, Object> side = new LinkedHashMap<>();
        if (!raw.isEmpty()) {
            b.append(ModelTable.sideBySide(raw, cal, rawFloor, calFloor, side));
        }
        jvm.put("raw_calibrated_predicted", side);
        return b.toString();
    }

    /** (5): what the seed, the model and today's kernel say, each figure from this run. */
    private static String reading(ModelRuns raw, DmBlkcgCloneKernel kernel) {
        StringBuilder b = new StringBuilder("### What it says\n\nThe seed measured, with the patch, buffered writes at 29.9 vs 15.6 MB/s"
                + " (" + Fmt.ratio(29.9 / 15.6) + ", weights 1000:500) and direct writes at 20.8 vs 20.0 MB/s ("
                + Fmt.ratio(20.8 / 20.0) + "): the weights held for buffered writes only. ");
        List<String> model = new ArrayList<>();
        for (String[] x : new String[][] {{"buffered", THIN, BUFFERED}, {"direct", THIN, DIRECT}, {"direct through one dm-linear", LINEAR1,
                DIRECT}}) {
            String v = variants(raw, new Point(x[1], x[2], SEED_WEIGHTS));
            if (v != null) {
                model.add(x[0] + " " + v);
            }
        }
        if (!model.isEmpty()) {
            b.append("The model, thin volume, 1000:500: ").append(String.join("; ", model)).append(". ");
        }
        b.append("Why direct differs: in 2016 only the writeback path associated a bio with a cgroup, and a bio without one was charged"
                + " to the task that submitted it. A buffered write reaches the disk from a flusher, a kernel thread in the root group:"
                + " only the association it carries, copied to every clone by the patch, keeps it in its group. A direct write through"
                + " dm-linear is cloned and submitted by the writer's own thread, so it is charged to the writer's group by task, with or"
                + " without the patch. A direct write to an unprovisioned block of a thin volume is deferred to the pool's worker, a"
                + " kernel thread, and its bio carries no association to copy: root either way, the seed's \"not yet fixed\". Since 5.0"
                + " every bio is associated with its submitter's cgroup at submission, and dm's clones copy it, so weights can hold below"
                + " dm for direct writes too, and only with the fix");
        String assoc = variants(raw, new Point(THIN, DIRECT_ASSOC, SEED_WEIGHTS));
        b.append(assoc == null ? ". " : " (the model's `" + DIRECT_ASSOC + "`, thin, 1000:500: " + assoc + "). ");
        b.append(today(kernel));
        return b.append("\n\nEvery figure of this section: `./lab pair ").append(ID).append("` (quick: `--quick`).\n\n").toString();
    }

    /** "`lost` X, `transfer` Y" at {@code p}; null where the run has neither. */
    private static String variants(ModelRuns m, Point p) {
        List<String> out = new ArrayList<>();
        for (String v : VARIANTS) {
            Estimate s = m.ratio(v, p);
            if (s != null) {
                out.add("`" + v + "` " + s.format(2) + "x");
            }
        }
        return out.isEmpty() ? null : String.join(", ", out);
    }

    /** Today's kernel at the seed's weights, cell by cell, as runs.tsv says. */
    private static String today(DmBlkcgCloneKernel kernel) {
        if (kernel.isEmpty()) {
            return "Today's kernel: not in this run (" + kernel.whyNoFigure() + ").";
        }
        List<String> cells = new ArrayList<>();
        boolean v1Lost = false;
        for (DmBlkcgCloneKernel.Cell c : kernel.cells()) {
            Estimate r = kernel.ratio(c);
            if (c.weights().equals(SEED_WEIGHTS) && r != null) {
                String check = DmBlkcgCloneKernel.check(r.value(), SEED_WEIGHTS);
                cells.add(c.env() + " " + c.stack() + " " + c.path() + " " + r.format(2) + "x (" + check + ")");
                v1Lost |= c.env().equals(DmBlkcgCloneKernel.NATIVE) && c.path().equals(BUFFERED) && check.startsWith("lost");
            }
        }
        String cgroup = kernel.nativeFact("cgroup");
        boolean v1 = cgroup != null && cgroup.startsWith("v1");
        List<String> tagged = kernel.chargedButNotHeld(SEED_WEIGHTS).stream().map(c -> c.env() + " " + c.stack() + " " + c.path()).toList();
        return "Today's kernel at 1000:500 (the table above; its environment in env.txt): " + (cells.isEmpty() ? "no 1000:500 row"
                : String.join("; ", cells)) + "." + (v1 && v1Lost ? " Natively the cgroups are v1 (env.txt), which has no cgroup"
                + " writeback: buffered writes are written back without their writer's cgroup, whatever the stack below does." : "")
                + (tagged.isEmpty() ? "" : " Where the bytes reached the bottom device charged to their writers' cgroups (the root's"
                + " share at most 1%) and still did not split as the weights ask (" + String.join("; ", tagged) + "), the association"
                + " survived the stack, which is all the fix does; what BFQ made of it is beyond the model, whose disk serves every"
                + " charged bio by its group's weight. The model does not say why (candidates, unmeasured here: one submitting task, the"
                + " thin pool's worker, for both cgroups' bios; BFQ's handling of writeback, which it neither idles for nor weighs as"
                + " it does sync I/O; the short windows).");
    }
}
