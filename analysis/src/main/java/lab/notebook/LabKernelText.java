package lab.notebook;

import java.util.List;
import java.util.Map;
import lab.analysis.estimate.Estimate;
import lab.analysis.fidelity.SwitchSweep;
import lab.analysis.fidelity.SwitchSweep.Count;
import lab.analysis.fidelity.SwitchSweep.Round;
import lab.analysis.parse.LabAb;

/**
 * The markdown of a {@link LabKernelPart}: the environment, a table per count N (for a share, a
 * table per round), the slope of Δ over the added operations with the N = 1 effect it implies,
 * stated as derived, under TCG the guest's CPU per I/O beside the model's base, and the model run
 * at the guest's CPU per I/O where the run has it.
 */
final class LabKernelText {
    private final LabKernelPart p;
    private final SwitchSweep s;

    LabKernelText(LabKernelPart p) {
        this.p = p;
        this.s = p.sweep();
    }

    String text(Double baseNs, Double predicted) {
        StringBuilder b = new StringBuilder("### The lab kernel: ").append(p.fix()).append("'s before behind a switch\n\n");
        b.append(environment()).append(s.share() ? shares() : counts()).append(s.share() ? "" : slope());
        if ("tcg".equals(p.fact("env"))) {
            b.append(tcg(baseNs, predicted));
        }
        if (p.model() != null) {
            b.append(model(p.model()));
        }
        if (p.amplified() != null && !s.share()) {
            b.append(amplified(p.amplified()));
        }
        if (p.contention() != null) {
            b.append(contention(p.contention()));
        } else if (p.modelContention() != null && !p.modelContention().ops().isEmpty()) {
            b.append(handoffs(p.modelContention()));
        }
        return b.toString();
    }

    /** The model's contention files, named. */
    private String modelFiles() {
        return "`raw/" + p.fix() + "/" + LabKernelPart.DIR + "/" + LabKernelPart.CONTENTION + "-rR.json` (host) and `"
                + LabKernelPart.AMP_GUEST + "/" + LabKernelPart.CONTENTION + "-rR.json` (guest), lab.engine.bench.ContentionMain's"
                + " counts of the amplified sweep's own cells at its threads and CPU per I/O, apart from the timed runs";
    }

    /** The model's counts at the kernel's cells: contentions and wait per I/O at the lock's counterpart, host and guest. */
    private String modelCells(LabKernelContention c, ContentionLineup l) {
        ModelContention any = l.host() != null ? l.host() : l.guest();
        StringBuilder b = new StringBuilder("The model at the same N, counted the same way (").append(modelFiles()).append("; the site `")
                .append(any.site()).append("`, the engine's counterpart of the kernel's lock; ").append(any.threads())
                .append(" thread(s); means over rounds with their 95% intervals):\n\n| N | variant | kernel: contentions per I/O |"
                        + " model: contentions per I/O | model in the guest | kernel: wait per I/O, ns | model: wait per I/O, ns |"
                        + " model in the guest |\n|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (LabKernelContention.Cell x : c.cells()) {
            ModelContention.Cell h = l.host() == null ? null : l.host().cell(x.count(), x.variant());
            ModelContention.Cell g = l.guest() == null ? null : l.guest().cell(x.count(), x.variant());
            b.append("| ").append(x.count()).append(" | ").append(x.variant()).append(" | ").append(Fmt.est(x.contendedPerIo(), 4))
                    .append(" | ").append(h == null ? "—" : Fmt.est(h.contendedPerIo(), 4)).append(" | ")
                    .append(g == null ? "—" : Fmt.est(g.contendedPerIo(), 4)).append(" | ").append(Fmt.est(x.waitNsPerIo(), 0))
                    .append(" | ").append(h == null ? "—" : Fmt.est(h.waitNsPerIo(), 0)).append(" | ")
                    .append(g == null ? "—" : Fmt.est(g.waitNsPerIo(), 0)).append(" |\n");
        }
        return b.append("\n").toString();
    }

    /** The agreement of the model's contention frequency with the kernel's on {@code a}'s side, in a sentence. */
    private static String within(ContentionLineup.Agreement a) {
        String who = a.where().equals("host") ? "The model on the host" : "The model in the guest";
        String ratio = Double.isNaN(a.lo()) ? "" : " (model / kernel " + Fmt.sig(a.lo()) + " to " + Fmt.sig(a.hi()) + ")";
        return switch (a.within()) {
            case INSIDE -> who + "'s added contentions per added acquisition are within a factor " + ContentionLineup.FACTOR
                    + " of the kernel's" + ratio + ".";
            case OUTSIDE -> who + "'s added contentions per added acquisition are not within a factor " + ContentionLineup.FACTOR
                    + " of the kernel's" + ratio + ".";
            case UNDECIDED -> who + "'s added contentions per added acquisition: undecided against a factor " + ContentionLineup.FACTOR
                    + " of the kernel's" + (ratio.isEmpty() ? " (too few rounds for the intervals)" : ratio) + ".";
            case NEITHER -> who + " found no added acquisition contended either, in any round: the same answer as the kernel's, with"
                    + " no ratio to take (0 of 0).";
        };
    }

    /** An atomic switch: the model's handoffs per I/O beside the kernel's counted operations per I/O. */
    private String handoffs(ContentionLineup l) {
        StringBuilder b = new StringBuilder("#### Contention counted: handoffs and operations\n\nAn atomic switch takes no lock: the model"
                + " counts the handoffs of its shared lines (a write by another thread than the line's last writer) in ")
                .append(modelFiles()).append("; the kernel counts its switch's operations (`lab-ab.tsv`'s ops_delta over the I/Os). The"
                        + " before, means over rounds with their 95% intervals:\n\n| N | handoffs per I/O (model) | in the guest (model) |"
                        + " operations per I/O (kernel) |\n|---:|---:|---:|---:|\n");
        for (ContentionLineup.OpsRow o : l.ops()) {
            b.append("| ").append(o.count()).append(" | ").append(o.hostHandoffsPerIo() == null ? "—" : Fmt.est(o.hostHandoffsPerIo(), 3))
                    .append(" | ").append(o.guestHandoffsPerIo() == null ? "—" : Fmt.est(o.guestHandoffsPerIo(), 3)).append(" | ")
                    .append(Fmt.est(o.kernelOpsPerIo(), 2)).append(" |\n");
        }
        return b.append("\nThe kernel's handoffs (HITM: a load that found the line modified in another core's cache) are not measured"
                + " here: no PMU that samples loads (lab-ab.txt's c2c line: ").append(l.c2c() == null ? "none" : l.c2c()).append(").\n\n")
                .toString();
    }

    /**
     * The kernel's own contention on the switched lock (perf lock, the traced trials), per count and
     * variant, and the scorecard's price per added acquisition split into how often an added
     * acquisition was contended and what wait it brought.
     */
    private String contention(LabKernelContention c) {
        StringBuilder b = new StringBuilder("#### Contention counted: the kernel's own events\n\nPer round, the before and the after ran once"
                + " more under `perf lock record` (the kernel's `lock:contention_begin`/`contention_end`, on the lock's slow paths; the"
                + " timed trials above ran untraced): ").append(c.traced()).append(". The lock: `").append(c.type())
                .append("` at ").append(String.join(", ", c.callers().stream().map(x -> "`" + x + "`").toList()))
                .append(" (the patch's Lab-Lock header; perf names a lock by its first caller outside the locking code). Data: `raw/")
                .append(p.fix()).append("/").append(LabKernelPart.DIR).append("/").append(LabKernelContention.TSV)
                .append("` and its `lock/` tables. Each figure is the mean over rounds with its 95% interval; waits are wall time from"
                        + " the first event to the second, perf's three significant digits.\n\n"
                        + "| N | variant | switch operations per I/O | contentions per I/O | wait per I/O, ns | wait per contention, ns |"
                        + " other callers' contentions per I/O | traced / timed IOPS |\n|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (LabKernelContention.Cell x : c.cells()) {
            b.append("| ").append(x.count()).append(" | ").append(x.variant()).append(" | ").append(Fmt.est(x.opsPerIo(), 2)).append(" | ")
                    .append(Fmt.est(x.contendedPerIo(), 4)).append(" | ").append(Fmt.est(x.waitNsPerIo(), 0)).append(" | ")
                    .append(Fmt.est(x.waitPerContentionNs(), 0)).append(" | ").append(Fmt.est(x.otherContendedPerIo(), 4)).append(" | ")
                    .append(Fmt.est(x.tracedOverTimed(), 3)).append(" |\n");
        }
        b.append("\n");
        ContentionLineup l = p.modelContention();
        if (l != null) {
            b.append(modelCells(c, l));
        }
        LabKernelContention.Added a = c.addedBefore();
        LabKernelPart.Scorecard sc = p.scorecard();
        if (a != null) {
            b.append(split(a, sc, l)).append("\n").append(verdict(c, a, sc));
            if (l != null) {
                l.agreements().forEach(x -> b.append(" ").append(within(x)));
            }
            b.append("\n\n");
        }
        return b.toString();
    }

    /**
     * The price per added acquisition split, the kernel's column, and where the model counted
     * ({@code l} not null) its columns on the host and in the guest.
     */
    private String split(LabKernelContention.Added a, LabKernelPart.Scorecard sc, ContentionLineup l) {
        ContentionLineup.Agreement h = l == null ? null : l.agreement("host");
        ContentionLineup.Agreement g = l == null ? null : l.agreement("guest");
        String head = l == null ? "| per added acquisition | kernel |\n|---|---:|\n"
                : "| per added acquisition | kernel | model | model in the guest |\n|---|---:|---:|---:|\n";
        StringBuilder b = new StringBuilder("The price per added acquisition, split (the before, N = ").append(a.from()).append(" to ")
                .append(a.to()).append(", per round: the added contentions and the added wait over the added operations per I/O")
                .append(l == null ? "" : "; the model's over its added acquisitions at the site").append("):\n\n").append(head)
                .append("| price: CPU ns per I/O (the slope above) | ").append(Fmt.est(this.s.slopeEstimate(), 1))
                .append(l == null ? "" : " | " + (sc == null || sc.model() == null ? "—" : sc.model().format(1)) + " | "
                        + (p.amplifiedGuest() == null ? "—" : Fmt.est(p.amplifiedGuest().slope(), 1)))
                .append(" |\n| how often contended: added contentions | ").append(Fmt.est(a.frequency(), 4))
                .append(l == null ? "" : " | " + (h == null ? "—" : Fmt.est(h.model().frequency(), 4)) + " | "
                        + (g == null ? "—" : Fmt.est(g.model().frequency(), 4)))
                .append(" |\n| wait it brought: added wait, ns (wall) | ").append(Fmt.est(a.waitPerOpNs(), 1))
                .append(l == null ? "" : " | " + (h == null ? "—" : Fmt.est(h.model().waitPerOpNs(), 1)) + " | "
                        + (g == null ? "—" : Fmt.est(g.model().waitPerOpNs(), 1)))
                .append(" |\n| what a contention cost: added wait per added contention, ns (wall) | ")
                .append(Fmt.est(a.waitPerContentionNs(), 0)).append(l == null ? "" : " | — | —").append(" |\n");
        return b.toString();
    }

    /** What the split says: whether the price is waiting or the line. */
    private static String verdict(LabKernelContention c, LabKernelContention.Added a, LabKernelPart.Scorecard sc) {
        Estimate f = a.frequency();
        String readers = "rwsem:R".equals(c.type()) ? " (readers alone take no slow path: each down_read and up_read is an atomic on the"
                + " one count word)" : "";
        if (!Double.isNaN(a.noneBound())) {
            return "None of the before's " + a.acquisitions() + " acquisitions at N = " + a.to() + " (every round's traced trial together)"
                    + " was contended: the chance that one is, is under 1 in " + Fmt.f(1 / a.noneBound(), 0) + " (95%, the rule of three)."
                    + " The price per added acquisition is not waiting but the acquisition itself, its shared line moving between CPUs"
                    + readers + ".";
        }
        if (f == null || !f.hasInterval()) {
            return a.contentions() + " of the before's " + a.acquisitions() + " acquisitions at N = " + a.to() + " were contended; too few"
                    + " units (rounds, or boots where the A/B booted more than once: three at least) for an interval on how often an added"
                    + " acquisition was.";
        }
        if (f.hi() <= 0.01) {
            return "Added acquisitions were contended at most " + Fmt.f(100 * f.hi(), 2) + "% of the time (the interval's upper end):"
                    + " the price per added acquisition is not waiting but the acquisition itself, its shared line moving between CPUs"
                    + readers + ".";
        }
        return "An added acquisition was contended " + f.format(3) + " of the time: part of the price is waiting"
                + (sc != null && sc.kernel() != null && a.waitPerOpNs() != null ? " (" + Fmt.f(a.waitPerOpNs().value(), 0)
                + " ns of wall wait per added acquisition beside " + Fmt.f(sc.kernel().value(), 0) + " ns of CPU: a sleeping waiter's wait"
                + " is not CPU, a spinning one's is)" : "") + ".";
    }

    /** The model amplified as the switch amplifies the kernel, and the scorecard: its slope beside the kernel's. */
    private String amplified(LabKernelPart.AmplifiedFigure a) {
        StringBuilder b = new StringBuilder("Like for like: the model amplified as the switch amplifies the kernel (`raw/").append(p.fix())
                .append("/").append(LabKernelPart.DIR).append("/").append(LabKernelPart.AMP).append("-rR-tT.json`): ")
                .append(a.fact("what")).append("; `").append(a.fact("variant")).append("` with `").append(a.fact("amp"))
                .append("` over N (").append(a.fact("counts")).append(") against ")
                .append(a.afterRepeats() ? "`" + a.afterVariant() + "` with it at the same N (" + a.fact("after_counts")
                        + ")" : a.facts().containsKey("after_variant") ? "`" + a.afterVariant() + "` with `" + a.fact("after_none") + "`"
                        : "it with `" + a.fact("none") + "`")
                .append(", ").append(a.opsPerCount() == Math.rint(a.opsPerCount()) ? Long.toString((long) a.opsPerCount()) : Fmt.sig(a.opsPerCount()))
                .append(" operations per I/O per unit of N")
                .append(a.counted() ? " (the engine's counter; stated " + a.fact("ops_per_count") + ")" : "").append(", at the guest's ")
                .append(a.fact("base_ns")).append(" ns per I/O on ").append(a.fact("threads")).append(" threads, ")
                .append(a.fact("rounds")).append(" rounds; A/A ")
                .append(a.floor() == null ? "none" : a.floor().aa().format(3) + "x" + (a.floor().failed() ? " (excludes 1)" : ""))
                .append(".\n\n");
        LabKernelPart.Scorecard sc = p.scorecard();
        b.append("| slope, ns per added operation per I/O | estimate [95% interval] over rounds |\n|---|---:|\n")
                .append("| kernel (the switch, per-round fits) | ").append(sc == null || sc.kernel() == null ? "—" : sc.kernel().format(2))
                .append(" |\n| model on the host (amplified the same way, at the guest's CPU per I/O) | ").append(a.slope() == null ? "—" : a.slope().format(2)).append(" |\n");
        b.append(ratioRow("model / kernel", sc));
        LabKernelPart.AmplifiedFigure g = p.amplifiedGuest();
        LabKernelPart.Scorecard gsc = p.guestScorecard();
        if (g != null) {
            b.append("| model in the guest (the same sweep on the A/B's vCPUs) | ").append(g.slope() == null ? "—" : g.slope().format(2))
                    .append(" |\n").append(ratioRow("model in the guest / kernel", gsc));
        }
        b.append("\nEach slope is fitted to each round's own difference, ns per I/O of the before at N less the after at N, over the"
                + " operations per I/O at N (the kernel's x from its switch's counter, the model's from its own"
                + (a.counted() ? " shared-line counter" : " stated count") + "), N ≥ 1, then estimated over rounds; the ratio's bounds"
                + " are its ends' ratios.");
        if (sc != null && sc.outsideTwofold()) {
            b.append(" The ratio lies outside [0.5, 2]: model and kernel disagree on the operation's cost by more than twofold.");
        }
        if (g != null) {
            b.append(" In the guest (`").append(LabKernelPart.AMP_GUEST).append("/`): ").append(g.fact("where")).append("; ")
                    .append(g.fact("rounds")).append(" rounds; A/A ")
                    .append(g.floor() == null ? "none" : g.floor().aa().format(3) + "x" + (g.floor().failed() ? " (excludes 1)" : ""))
                    .append(". The host's model pays the host's price of each operation at the guest's CPU per I/O; the guest's pays"
                            + " the emulated price of its own operations, under the emulation the kernel's slope is taken under.");
            if (gsc != null && gsc.outsideTwofold()) {
                b.append(" Its ratio too lies outside [0.5, 2]: the emulation alone does not account for the difference.");
            }
        }
        b.append("\n\n");
        if (a.afterRepeats() && a.beforeSlope() != null) {
            b.append(sides(a, g));
        }
        return b.toString();
    }

    /**
     * Each side alone, where the after repeats an operation of its own with N: the before's and the
     * after's own slopes on each side, which the Δ's slope is the difference of.
     */
    private String sides(LabKernelPart.AmplifiedFigure a, LabKernelPart.AmplifiedFigure g) {
        StringBuilder b = new StringBuilder("Each side alone (the after repeats an operation of its own with N, so the slope above is a"
                + " difference): ns per I/O at N less at N = 0 for the model, over the same x, fitted per round and estimated alike; the"
                + " kernel's over its N ≥ 1.\n\n| side, ns per added operation per I/O | kernel | model on the host | model in the guest |"
                + "\n|---|---:|---:|---:|\n");
        for (boolean before : new boolean[] {true, false}) {
            Estimate k = s.sideSlopeEstimate(before);
            Estimate h = before ? a.beforeSlope() : a.afterSlope();
            Estimate gs = g == null ? null : before ? g.beforeSlope() : g.afterSlope();
            b.append("| ").append(before ? "before (`" + a.fact("variant") + "`)" : "after (`" + a.afterVariant() + "`)").append(" | ")
                    .append(k == null ? "—" : k.format(2)).append(" | ").append(h == null ? "—" : h.format(2)).append(" | ")
                    .append(gs == null ? "—" : gs.format(2)).append(" |\n");
        }
        return b.append("\n").toString();
    }

    /** A scorecard's ratio row: the ratio with its bounds, or why it has none; nothing without a ratio. */
    private static String ratioRow(String name, LabKernelPart.Scorecard sc) {
        if (sc == null || sc.ratio() == null) {
            return "";
        }
        return "| " + name + " | " + Fmt.f(sc.ratio(), 2) + (sc.lo() == null ? " (the kernel's interval reaches 0: no bounds)"
                : " [" + Fmt.f(sc.lo(), 2) + "–" + Fmt.f(sc.hi(), 2) + "]") + " |\n";
    }

    private String environment() {
        // the stock value runs as a variant of its own only where it is neither the before nor the after
        String d = p.fact("default");
        String def = d.equals("?") || d.equals(p.fact("before")) || d.equals(p.fact("after")) ? ""
                : ", and at `" + d + "` (the stock value)";
        List<String> ns = s.counts().stream().map(c -> Integer.toString(c.n())).toList();
        return "Lab kernel `" + p.fact("kernel") + "` (" + p.fact("source") + ", patches `" + p.fact("patches") + "`), "
                + p.fact("env") + ", " + p.fact("cpus") + " CPUs, " + boots() + "; workload: " + p.fact("workload") + ". The switch `"
                + p.fact("switch") + "` (values " + p.fact("values") + ") at `" + p.fact("before") + "` (the fix's before) against `"
                + p.fact("after") + "` (what the seed compares with) and `" + p.fact("after") + "` again (the A/A)" + def + "; "
                + p.fact("rounds") + " rounds over N = " + String.join(", ", ns) + " (the switch's shared operations per site), the"
                + " trials' order alternating per round. " + opsPerIo() + " Data: `raw/" + p.fix()
                + "/lab-kernel/" + LabAb.TRIALS + "`, `" + LabAb.ITERATIONS + "`.\n\n";
    }

    /** The guest's boots in words: one, or how many and that the boot is the unit of every estimate ({@code Estimator.nested}). */
    private String boots() {
        int b = s.boots().size();
        return b <= 1 ? "one boot" : b + " boots (rounds numbered across them; the boot is the unit of every interval: the mean of the"
                + " boots' means, t on boots − 1, none under three boots)";
    }

    /**
     * Where the slope's operations per I/O come from: the switch's counter at the before (K per
     * unit of N), set beside the K the run states; the stated K alone where nothing counted.
     */
    private String opsPerIo() {
        Double counted = s.countedK();
        Double stated = s.statedK();
        String at = "With the switch at `" + p.fact("before") + "` and count N, ";
        if (counted == null) {
            return at + "its counter moved nothing this run can read, so the slope takes the stated " + (stated == null
                    ? "nothing: x = N" : "K = " + Fmt.sig(stated) + " per I/O (" + p.fact("ops_note") + ")") + ".";
        }
        String agree = stated == null ? " (the run states no K)"
                : Math.abs(counted / stated - 1) <= 0.05 ? " (the stated K is " + Fmt.sig(stated) + ": " + p.fact("ops_note") + ")"
                : " where the run states K = " + Fmt.sig(stated) + " (" + p.fact("ops_note") + "): the counter stands, the stated K is"
                        + " not used";
        return at + "its counter moved K = " + Fmt.sig(counted) + " operations per I/O per unit of N" + agree + "; the slope's x"
                + " is each trial's own count per I/O.";
    }

    private String counts() {
        StringBuilder b = new StringBuilder("| N | after/before, estimate [95% interval] | A/A | ns/I/O before | after | Δ |"
                + " switch ops per I/O |\n|---:|---:|---:|---:|---:|---:|---|\n");
        for (Count c : s.counts()) {
            b.append("| ").append(c.n()).append(" | ").append(Parts.ratioCell(c.ratio())).append(" | ").append(aa(c))
                    .append(" | ").append(ns(c.nsBefore())).append(" | ").append(ns(c.nsAfter())).append(" | ")
                    .append(c.delta() == null ? "—" : Fmt.spread(c.delta(), 0)).append(" | ").append(ops(c)).append(" |\n");
        }
        return b.append("\nafter/before: the after's IOPS over the before's in the same round, the geometric mean over rounds with its 95%"
                + " interval; A/A: the after again over the after, estimated the same way (its interval should hold 1); ns/I/O: task-clock of the fio command over its I/Os, median over"
                + " rounds; Δ: before − after, per round, median [min–max]; switch ops per I/O: the switch's counter over I/Os × N"
                + " (at the before it should be K, at an after that skips the operation 0).\n\n").toString();
    }

    private String shares() {
        StringBuilder b = new StringBuilder();
        for (Count c : s.counts()) {
            b.append("N = ").append(c.n()).append(": writer a over writer b with the switch at the after ")
                    .append(Parts.ratioCell(c.ratio())).append(", at the before ").append(Fmt.spread(c.before(), 2))
                    .append("x; A/A ").append(aa(c)).append(".\n\n| round | before a/b | after a/b | A/A a/b | root share before |"
                            + " root share after |\n|---:|---:|---:|---:|---:|---:|\n");
            for (Round r : c.rounds()) {
                b.append("| ").append(r.round()).append(" | ").append(metric(r.before())).append(" | ").append(metric(r.after()))
                        .append(" | ").append(metric(r.aa())).append(" | ").append(root(r.before())).append(" | ")
                        .append(root(r.after())).append(" |\n");
            }
            b.append('\n');
        }
        return b.append("a/b: the bandwidth of writer a over writer b's; root share: the share of the bytes the bottom device"
                + " charged to the root cgroup.\n\n").toString();
    }

    private String slope() {
        SwitchSweep.Slope sl = s.slope();
        if (sl == null) {
            return "No slope: the run has fewer than two counts with both variants.\n\n";
        }
        String x = s.countedK() != null ? "x (the counter's operations per I/O)" : s.statedK() == null ? "N (the run states no K)" : "K·N";
        StringBuilder b = new StringBuilder("Slope: Δ = a + b·" + x + " by least squares over N = ")
                .append(String.join(", ", s.counts().stream().filter(c -> c.delta() != null).map(c -> Integer.toString(c.n())).toList()))
                .append(": b = ").append(Fmt.f(sl.line().b(), 2)).append(" ns per added shared-line operation per I/O, a = ")
                .append(Fmt.f(sl.line().a(), 1)).append(" ns");
        if (sl.perRound() != null) {
            b.append("; fitted to each round alone, b = ").append(Fmt.spread(sl.perRound(), 2)).append(" ns");
        }
        b.append(sl.resolved() ? ": every round's slope above 0.\n\n"
                : ": not resolved (a round's slope at or below 0), so nothing is derived from it.\n\n");
        Count one = s.counts().getFirst();
        if (sl.delta1() != null) {
            b.append("Derived from the slope, not measured: the seed's single operation (N = 1) adds Δ(1) = b·x(1) = ")
                    .append(Fmt.f(sl.delta1(), 1)).append(" ns to the after's ").append(ns(one.nsAfter()))
                    .append(" ns per I/O, so after/before = ").append(Fmt.ratio(sl.ratio1()))
                    .append(" if an I/O's time is its CPU (the CPU-bound assumption). ");
        }
        if (one.n() == 1 && one.ratio() != null) {
            b.append("Measured at N = 1: ").append(Parts.ratioCell(one.ratio())).append(one.floor() == null
                    ? " (no A/A in this run)" : "").append('.');
        }
        return b.append("\n\n").toString();
    }

    private String tcg(Double baseNs, Double predicted) {
        Count c = s.headline();
        if (c.nsAfter() == null) {
            return "Under TCG the guest emulates the rest of the kernel slowly, which dilutes a contention ratio; this run has no CPU"
                    + " per I/O of the guest's to set beside the model's.\n\n";
        }
        return "Under TCG the guest emulates the rest of the kernel slowly, which dilutes a contention ratio: the guest's I/O costs "
                + ns(c.nsAfter()) + " ns of CPU (after, N = " + c.n() + ")" + (baseNs == null
                ? "; this run has no model calibration base to set beside it" : ", the model's calibration base "
                + Fmt.f(baseNs, 0) + " ns per I/O") + "." + atGuest(baseNs, predicted, c.nsAfter()) + "\n\n";
    }

    /**
     * The model's prediction carried to the guest's CPU per I/O: the extra time per I/O it implies
     * at its own base, {@code (p - 1)·B}, over the guest's {@code G} instead; derived, and an upper
     * bound (a shared line costs no more at a longer gap between visits).
     */
    static String atGuest(Double baseNs, Double predicted, double guestNs) {
        if (baseNs == null || predicted == null || guestNs <= 0) {
            return "";
        }
        return " Carried to the guest's CPU per I/O, the model's prediction, " + Fmt.ratio(predicted) + " at its base, becomes 1 + (p − 1)·B/G = "
                + Fmt.f(1 + (predicted - 1) * baseNs / guestNs, 4) + "x (derived: the model's extra time per I/O unchanged on the"
                + " guest's longer one, an upper bound, since a shared line costs no more at a longer gap), the effect the"
                + " measured N = 1 figure above would have to resolve.";
    }

    /** The model run at the guest's CPU per I/O, beside the measured N = 1 figure. */
    private String model(LabKernelPart.GuestModelFigure m) {
        Count one = s.counts().getFirst();
        String user = "0".equals(m.fact("user_ns")) ? "" : " (" + m.fact("device_ns") + " in the device, " + m.fact("user_ns")
                + " in the worker between I/Os)";
        return "The model calibrated to the guest's own CPU per I/O (`raw/" + p.fix() + "/" + LabKernelPart.DIR + "/"
                + LabKernelPart.MODEL + "-rR-tT.json`): " + m.fact("what") + ", at a base of " + m.fact("base_ns") + " ns per I/O" + user
                + ", the after's task-clock per I/O at N = 1 above (split " + m.fact("split") + "), on " + m.fact("threads")
                + " threads (the guest's CPUs), " + m.fact("rounds") + " rounds, each with the after's A/A: after/before "
                + Parts.ratioCell(m.ratio()) + (m.floor() == null ? " (no A/A)" : "")
                + (one.n() == 1 && one.ratio() != null ? "; the lab kernel measured " + Parts.ratioCell(one.ratio()) + " at N = 1"
                : "") + ".\n\n";
    }

    private static String aa(Count c) {
        return c.aa() == null ? "—" : c.aa().format(3) + "x" + (c.floor() != null && c.floor().failed() ? " (excludes 1)" : "");
    }

    private static String ns(Double v) {
        return v == null ? "—" : Fmt.f(v, 0);
    }

    private static String ops(Count c) {
        return "before " + (c.opsBefore() == null ? "—" : Fmt.f(c.opsBefore().median(), 2)) + ", after "
                + (c.opsAfter() == null ? "—" : Fmt.f(c.opsAfter().median(), 2));
    }

    private static String metric(LabAb.Trial t) {
        return t == null ? "—" : Fmt.f(t.metric(), 2);
    }

    private static String root(LabAb.Trial t) {
        Map<String, String> e = t == null ? Map.of() : t.extra();
        String v = e.get("root_pct");
        return v == null || v.equals("-") ? "—" : v + "%";
    }
}
