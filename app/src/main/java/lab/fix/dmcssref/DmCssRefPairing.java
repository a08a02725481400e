package lab.fix.dmcssref;

import static lab.fix.dmcssref.DmCssRef.*;
import static lab.fix.JmhOptions.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.analysis.fidelity.Calibration;
import lab.engine.bench.DmCssRefCounts;
import lab.engine.count.SharedLineCounts;
import lab.fix.Calibrations;
import lab.fix.CostSweep;
import lab.fix.Counting;
import lab.fix.EmulationProbe;
import lab.fix.JmhFlamegraph;
import lab.fix.AmplifiedModel;
import lab.fix.GuestModel;
import lab.fix.JmhOptions;
import lab.fix.Pairing;
import lab.fix.Rounds;
import lab.fix.Trials;
import lab.fix.Adaptive;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import lab.notebook.KernelRuns;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * dm-css-ref: the JMH benchmark {@code lab.engine.bench.DmCssRef} (randrw bs=512 bios through
 * dm-linear x depth over the ram disk, each clone carrying the cgroup as the variant says) and the
 * kernel scenario {@code dm-css-ref} (real dm-linear stacks over brd, root and child cgroup), into
 * the files of {@link DmCssRefRaw}: per round and thread count the variant x depth table and the
 * seed's experiment injected over the same depths, both raw, and the calibrated variants at the
 * seed's depth; the counts at the seed's depth and the cost sweep of their kinds.
 */
final class DmCssRefPairing implements Pairing {
    /** Forks per trial of the calibrated table in a full run (as part-acct's: the fix's share of a µs I/O is a percent or so). */
    static final int CALIBRATED_FORKS = 3;

    @Override
    public String fixId() { return ID; }

    /**
     * The lab kernel's switch (6.1: one shared atomic per clone set up and per clone completion, on
     * today's per-cpu css) against the model's {@code atomic} (the css count shared: its get and put
     * per clone) and {@code percpu} (today's), dm-linear x5 over the ram disk.
     */
    @Override
    public GuestModel guestModel() {
        return new GuestModel(DmCssRefRaw.BENCHMARK, "variant", ATOMIC, PERCPU,
                Map.of("depth", Integer.toString(SEED_DEPTH), "device", "ram", "inject", "none"), true,
                "dm-linear x" + SEED_DEPTH + " over the ram disk, `" + ATOMIC + "` against `" + PERCPU + "`");
    }

    /**
     * The switch's "on" (kernel/patches/6.1/dm-css-ref.patch: N atomic_long_inc on one global word
     * at each clone set up, alloc_tio, and each clone completion, clone_endio, per dm layer, on
     * today's per-cpu css) as the model's injection at the same two per-layer stages, on `percpu`
     * (today's) over dm-linear x5: 2 x 5 operations per I/O per unit of N, as the switch's counter
     * counts 10 per I/O at N = 1; the model's own count run counts them at N = 1 and 2.
     */
    @Override
    public AmplifiedModel amplifiedModel() {
        IntFunction<String> inject = n -> n == 0 ? "none" : "clone:atomic:" + n + ",end_io:atomic:" + n;
        return AmplifiedModel.onToday(DmCssRefRaw.BENCHMARK, "variant", PERCPU, Map.of("depth", Integer.toString(SEED_DEPTH), "device", "ram"),
                "inject", inject, 2 * SEED_DEPTH, n -> DmCssRefCounts.of(PERCPU, SEED_DEPTH, inject.apply(n), Counting.IOS), true,
                "N atomic increments of one shared word at each clone's set-up and completion in each of the " + SEED_DEPTH
                        + " dm layers (the engine's `clone` and `end_io` injection stages), as the switch's dm_lab_css_ref_op", AmplifiedModel.LINES);
    }

    @Override
    public String kernelScenario() { return ID; }

    @Override
    public String jmhSettings(boolean quick) {
        return JmhOptions.describe(quick, "the calibrated table", CALIBRATED_FORKS);
    }

    @Override
    public void jvm(Ctx c) throws Exception {
        Calibration cal = Calibrations.derive(c, ID, DmCssRefPairing::kernelFigure,
                JmhOptions.of(DmCssRefRaw.BENCHMARK, 1, 1, 300, 3, 200).threads(1).param("variant", PERCPU)
                        .param("depth", Integer.toString(SEED_DEPTH)).param("device", "ram").param("inject", "none").param("baseNs", "0"),
                "`percpu` (today's css), dm-linear x" + SEED_DEPTH + " over the ram disk, 1 thread, without base:"
                        + " raw/dm-css-ref/calibration-prerun.json");
        Set<String> kinds = Counting.write(c.raw(), counts(cal != null, cal != null && cal.userNs() > 0));
        List<String> variants = new ArrayList<>(VARIANTS);
        variants.add(CONTROL);
        String[] depths = depths(c.quick()).stream().map(String::valueOf).toArray(String[]::new);
        Rounds.interleave(sweep(c.threads(), c.quick()), c.rounds(), c.progress(), "dm-css-ref sweep", (r, t) -> {
            c.progress().printf("lab: dm-css-ref round %d/%d, %d thread(s)%n", r, c.rounds(), t);
            Trials.run(c, DmCssRefRaw.TABLE, r, t, variants, v -> JmhOptions.of(DmCssRefRaw.BENCHMARK, c.quick()).threads(t)
                    .param("variant", v).param("depth", depths).param("device", "ram").param("inject", "none").param("baseNs", "0"),
                    DmCssRefRaw.table(c.raw(), r, t));
            run(JmhOptions.of(DmCssRefRaw.BENCHMARK, c.quick()).threads(t).param("variant", NONE)
                    .param("depth", depths).param("device", "ram").param("inject", SEED_INJECT).param("baseNs", "0"),
                    DmCssRefRaw.inject(c.raw(), r, t));
            if (cal != null) {
                Trials.run(c, DmCssRefRaw.CALIBRATED, r, t, variants, calibrated(c, cal, t), DmCssRefRaw.calibrated(c.raw(), r, t));
            }
        });
        Adaptive.run(c, headline(c, cal, variants));
        CostSweep.run(c, DmCssRefRaw.COSTS, kinds, cal == null ? 0 : cal.baseNs(),
                cal == null ? null : new long[] {cal.deviceNs(), cal.userNs()});
    }

    /** The shared-line counts at the seed's depth: every variant, and the injected experiment. */
    static List<SharedLineCounts> counts(boolean visits, boolean submitterWork) {
        List<SharedLineCounts> counts = new ArrayList<>();
        for (String v : VARIANTS) {
            counts.add(DmCssRefCounts.of(v, SEED_DEPTH, "none", Counting.IOS, visits, submitterWork));
        }
        counts.add(DmCssRefCounts.of(NONE, SEED_DEPTH, SEED_INJECT, Counting.IOS, visits, submitterWork));
        return counts;
    }

    /**
     * The depths of the raw table and the injected experiment: 0..{@value DmCssRef#SEED_DEPTH} in a
     * full run; in a quick one the headline's depth and 0, the ram disk alone, which the section
     * reads as well (a dm layer's cost from the two, the bare I/O of the fidelity table, the
     * injected experiment's control where no clone is made).
     */
    static List<Integer> depths(boolean quick) {
        return quick ? List.of(0, SEED_DEPTH) : DEPTHS;
    }

    /** One variant of the calibrated table at the seed's depth, at {@code t} threads. */
    private static Function<String, ChainedOptionsBuilder> calibrated(Ctx c, Calibration cal, int t) {
        return v -> JmhOptions.of(DmCssRefRaw.BENCHMARK, c.quick(), CALIBRATED_FORKS).threads(t).param("variant", v)
                .param("depth", Integer.toString(SEED_DEPTH)).param("device", "ram").param("inject", "none")
                .param("baseNs", Long.toString(cal.deviceNs())).param("userNs", Long.toString(cal.userNs()));
    }

    /**
     * The headline's cell for adaptive rounds: the seed's contrast, `atomic-cmpxchg` over `atomic`
     * (kernel (5) over (4)), at the seed's depth and the most threads, calibrated where the run has
     * a calibration, else raw; `percpu` (today's, the contrast beside it) and its A/A copy run with them.
     */
    static Adaptive.Cell headline(Ctx c, Calibration cal, List<String> all) {
        int t = Rounds.most(c.threads());
        List<String> variants = all.stream().filter(v -> !v.equals(NONE)).toList();
        String depth = Integer.toString(SEED_DEPTH);
        if (cal != null) {
            return new Adaptive.Cell(DmCssRefRaw.CALIBRATED, DmCssRefRaw.CALIBRATED, t, "variant", variants,
                    Map.of("depth", depth, "baseNs", Long.toString(cal.deviceNs()), "userNs", Long.toString(cal.userNs())),
                    CMPXCHG, ATOMIC, PERCPU, CONTROL, calibrated(c, cal, t), r -> DmCssRefRaw.calibrated(c.raw(), r, t));
        }
        return new Adaptive.Cell(DmCssRefRaw.TABLE, DmCssRefRaw.TABLE, t, "variant", variants, Map.of("depth", depth),
                CMPXCHG, ATOMIC, PERCPU, CONTROL, v -> JmhOptions.of(DmCssRefRaw.BENCHMARK, c.quick()).threads(t).param("variant", v)
                        .param("depth", depth).param("device", "ram").param("inject", "none").param("baseNs", "0"),
                r -> DmCssRefRaw.table(c.raw(), r, t));
    }

    /**
     * The kernel's CPU per I/O the model is calibrated to: the seed's job (randrw bs=512 direct,
     * fio psync) on the seed's stack (dm-linear x5 over brd), one job, the root cgroup, median over
     * rounds, scaled by the emulation probe where the stack ran in the guest VM under TCG (natively
     * and under KVM as measured); and fio's user
     * share of its CPU there (usr over usr + sys, the same rounds), which the calibrated model spends
     * in the worker between a completion and the next submission ({@link Calibration}), so that
     * one I/O's puts and the next one's gets meet the css line twice, as the kernel's do.
     */
    static Calibrations.KernelFigure kernelFigure(KernelRuns k) {
        return EmulationProbe.estimateKernelFigure(k, row -> {
            DmCssRefRaw.KernelRun run = DmCssRefRaw.KernelRun.parse(row.job());
            return run != null && run.depth() == SEED_DEPTH && run.cgroup().equals("root") && run.jobs() == 1;
        }, (env, rounds) -> "dm-linear x" + SEED_DEPTH + " over brd (" + env + "), fio psync randrw bs=512 direct, 1 job, root cgroup,"
                + " task-clock under perf stat, median of " + rounds + " round(s)");
    }

    /** One flamegraph per variant at the highest thread count, dm-linear x5 over the ram disk. */
    @Override
    public void flamegraphs(Ctx c) throws Exception {
        int t = c.threads().stream().mapToInt(Integer::intValue).max().orElse(1);
        for (String v : JmhFlamegraph.variants(c.quick(), VARIANTS, CMPXCHG, ATOMIC)) {
            JmhFlamegraph.record(JmhOptions.of(DmCssRefRaw.BENCHMARK, true).threads(t).param("variant", v)
                    .param("depth", Integer.toString(SEED_DEPTH)).param("device", "ram").param("inject", "none").param("baseNs", "0")
                    .measurementIterations(c.quick() ? 2 : 4).measurementTime(TimeValue.milliseconds(c.quick() ? 300 : 1000)),
                    c.flamegraphs().resolve(v + ".html"));
        }
    }
}
