package lab.fix.partacct;

import static lab.fix.partacct.PartAcct.*;
import static lab.fix.partacct.VariantTable.key;

import java.util.List;
import java.util.Map;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.notebook.Parts;

/**
 * The cost of accounting, model against kernel: {@code lazy-ticks} against {@code iostats=0} in
 * the model beside iostats=1 against 0 in today's kernel, and why the two sides' ratios differ.
 */
final class AccountingFidelity {
    private AccountingFidelity() {}

    /**
     * The model's side at {@code t} threads, whole disk: {@code lazy-ticks} over {@code iostats=0}
     * in throughput ({@code ratio}) and in ns per I/O ({@code ns}, with − without, per round), and
     * {@code iostats=0}'s own ns per I/O ({@code base}); {@code measured} false where the run has no
     * raw table (then all null).
     */
    record Model(boolean measured, int t, Estimate ratio, Estimate ns, Estimate base) {}

    /** The model's side of the fidelity from the raw table {@code s} at {@code t} threads. */
    static Model estimate(SweepEstimates s, int t) {
        if (s.isEmpty()) {
            return new Model(false, t, null, null, null);
        }
        return new Model(true, t, s.ratio(key(OFF, "disk"), key(LAZY, "disk"), t),
                s.perRound(key(LAZY, "disk"), key(OFF, "disk"), t, "lazy-off", (lazy, off) -> lazy - off), s.ns(key(OFF, "disk"), t));
    }

    /** The engine's predicted cost of accounting (lazy-ticks vs iostats=0) beside the kernel's measured iostats on/off. */
    static String text(Model m, IostatsKernel k, Map<String, Object> out) {
        int t = m.t();
        StringBuilder b = new StringBuilder("### Fidelity: the cost of accounting, model against kernel\n\n"
                + "The model's prediction is `lazy-ticks` (today's accounting) against `iostats=0` (none), bios to the whole disk, HZ "
                + HZ + ", " + SLOTS + " slots, at its highest thread count; the kernel's is iostats=1 against iostats=0. Ratios are "
                + "taken within a round, then their geometric mean with its 95% interval; differences within a round, then their mean"
                + " with its 95% interval. The model's ns are per I/O per thread (wall time of a "
                + "busy thread); the kernel's are task-clock per I/O.\n\n"
                + "| side | condition | throughput with / without accounting | ns per I/O: with − without |\n|---|---|---:|---:|\n");
        Estimate ratio = m.ratio();
        Estimate ns = m.ns();
        b.append("| JVM model | `lazy-ticks` vs `iostats=0`, whole disk, ").append(!m.measured() ? "not in this run" : t + (t == 1 ? " thread" : " threads")).append(" | ")
                .append(ratio == null ? "n/a" : ratio.format(3) + "x").append(" | ").append(Fmt.est(ns, 1)).append(" |\n");
        out.put("jvm_throughput_ratio", Parts.json(ratio));
        out.put("jvm_ns_per_io", Parts.json(ns));
        IostatsKernel.Group head = k.headlineGroup();
        for (IostatsKernel.Group g : k.groups().keySet()) {
            Estimate r = k.ratio(g);
            if (r == null) {
                continue;
            }
            boolean h = g.equals(head);
            b.append("| ").append(h ? "**kernel**" : "kernel").append(" | ").append(k.label(g.dev())).append(", ").append(g.target())
                    .append(", ").append(g.jobs()).append(g.jobs() == 1 ? " job, " : " jobs, ").append(g.tool())
                    .append(k.ignoresToggle(g) ? " (toggle ignored: not the accounting cost)" : "").append(" | ")
                    .append(r.format(3)).append("x | ").append(Fmt.est(k.cost(g), 0)).append(" |\n");
        }
        if (head != null) {
            out.put("kernel_row", head.name());
            out.put("kernel_throughput_ratio", Parts.json(k.ratio(head)));
            out.put("kernel_ns_per_io", Parts.json(k.cost(head)));
            b.append("\nIn bold: the kernel row the headline uses (the whole disk through fio at the most jobs, on the first of "
                    + "null_blk (the seed's device), loop and zram where the toggle takes)").append(k.headlineNote()).append('.');
        } else {
            out.put("kernel_row", null);
            b.append("\nNo whole-disk fio row with both iostats settings on a device where the toggle takes: the headline has no "
                    + "kernel figure").append(k.headlineNote()).append('.');
        }
        b.append(" Below 1.00x accounting costs throughput; a model prediction far from the kernel's says the model's "
                + "accounting is too cheap or too dear.\n\n");
        return b.append(readingBothSides(m.base(), k, head)).toString();
    }

    /**
     * Why the ratios of the two sides differ even where the accounting costs the same: the I/O without accounting is a few ns
     * in the model and some µs in the kernel. Also where the model simplifies (the javadoc of jvm-engine's BlkAccount).
     */
    static String readingBothSides(Estimate modelBase, IostatsKernel k, IostatsKernel.Group head) {
        StringBuilder b = new StringBuilder("**Reading the two sides.** ");
        // a native device's figure where there is one: in the guest VM (under TCG above all) the kernel's ns are not native ones
        IostatsKernel.Group base = k.groups().keySet().stream().filter(g -> (!g.dev().equals("nullb") || k.nullbNative())
                && g.target().equals("disk")
                && g.tool().equals("fio") && !k.ignoresToggle(g) && k.ratio(g) != null).reduce((x, y) -> y).orElse(head);
        Estimate kernelBase = base == null ? null : k.nsPerIo(base, 0);
        if (modelBase != null && kernelBase != null) {
            b.append("Without accounting the model's I/O costs ").append(Fmt.f(modelBase.value(), 1))
                    .append(" ns per thread (a bio through the Gendisk to a null_blk that completes inline: no system call, no "
                            + "request, no tag), the kernel's ").append(Fmt.f(kernelBase.value(), 0))
                    .append(" ns of task-clock (").append(k.label(base.dev())).append(", whole disk, fio, ").append(base.jobs())
                    .append(base.jobs() == 1 ? " job" : " jobs").append(": the read system call, blk-mq and the driver, fio itself included): the same "
                            + "accounting work weighs about ").append(Fmt.f(kernelBase.value() / modelBase.value(), 0))
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
}
