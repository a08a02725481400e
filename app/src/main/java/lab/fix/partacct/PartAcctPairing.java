package lab.fix.partacct;

import static lab.fix.partacct.PartAcct.*;
import static lab.fix.JmhOptions.run;

import java.util.ArrayList;
import java.util.List;
import lab.fix.AmplifiedModel;
import java.util.Map;
import java.util.Set;
import lab.analysis.Stats;
import lab.analysis.fidelity.Calibration;
import lab.engine.bench.PartAcctCounts;
import lab.engine.bench.Variants;
import lab.engine.count.SharedLineCounts;
import lab.fix.Calibrations;
import lab.fix.CostSweep;
import lab.fix.Counting;
import lab.fix.JmhFlamegraph;
import lab.fix.GuestModel;
import lab.fix.JmhOptions;
import lab.fix.Pairing;
import lab.fix.Rounds;
import lab.fix.Trials;
import lab.fix.Adaptive;
import java.util.function.Function;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import lab.notebook.KernelRuns;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * part-acct: the JMH benchmark {@code lab.engine.bench.PartAcct} (4k randread bios over NullBlk
 * through the partition accounting) and {@code lab.engine.bench.PartInFlightSum} (one
 * {@code part_in_flight()} sum), and today's kernel with {@code queue/iostats} 1 and 0 (scenario
 * {@code part-acct}), into the files of {@link PartAcctRaw}: per round and thread count the
 * variant table (every variant and the A/A control of {@code atomic} x target at the table's HZ
 * and slots, raw and calibrated: {@code baseNs} 0 and the {@link Calibration}'s) and the crossover
 * grid (percpu-ref and all four x HZ x slots, bios to the partition; quick: HZ 100, 1000 x slots 2,
 * 256), the shared-line counts of every variant (operations, and visits as the calibrated run
 * spaces them), the cost sweep of their kinds and of a visit at the calibrated rhythm
 * ({@link CostSweep}), and per round the sum's cost by slots, one thread.
 */
final class PartAcctPairing implements Pairing {
    /**
     * Forks per trial of the calibrated table in a full run: a calibrated I/O is microseconds, the
     * fix's share of it a percent or so, and the forks differ from each other by about that much.
     */
    static final int CALIBRATED_FORKS = 3;

    @Override
    public String jmhSettings(boolean quick) {
        return JmhOptions.describe(quick, "the calibrated table", CALIBRATED_FORKS);
    }

    @Override
    public String fixId() { return ID; }

    /**
     * The lab kernel's switch (a shared atomic reference get/put and in-flight inc/dec per I/O,
     * against today's per-cpu path) against the model's {@code atomic} and {@code percpu-inflight},
     * the whole disk accounted, as the calibrated table.
     */
    @Override
    public GuestModel guestModel() {
        return new GuestModel(PartAcctRaw.IO, "variant", BASE, FOUR, Map.of("target", "disk", "hz", HZ, "slots", SLOTS), true,
                "the disk accounted, `" + BASE + "` against `" + FOUR + "`");
    }

    /**
     * The switch's "atomic" at count N (kernel/patches/6.1/part-acct.patch, __lab_part_acct: N
     * get and in_flight[rw] increments at accounting start, N decrements at done, on words of the
     * accounted block_device, next to today's per-cpu counting) as the benchmark's {@code amp} on
     * `lazy-ticks` (the model's today's: per-cpu reference and in-flight, update_io_ticks), against
     * `lazy-ticks` alone (the switch's percpu), the whole disk accounted: 4 per I/O per unit of N.
     */
    @Override
    public AmplifiedModel amplifiedModel() {
        return AmplifiedModel.onToday(PartAcctRaw.IO, "variant", LAZY, Map.of("target", "disk", "hz", HZ, "slots", SLOTS), "amp",
                Integer::toString, 4, n -> PartAcctCounts.of(LAZY, n, "disk", Counting.IOS, false), true,
                "N shared atomic increments of the accounted disk's reference and in_flight[rw] words at accounting start and"
                        + " N decrements at done, on a line of their own, on `" + LAZY + "` (the benchmark's `amp`,"
                        + " lab.engine.block.LabPartAcct), as the switch's __lab_part_acct", AmplifiedModel.LINES);
    }

    @Override
    public String kernelScenario() { return ID; }

    @Override
    public void jvm(Ctx c) throws Exception {
        Calibration cal = Calibrations.derive(c, ID, PartAcctPairing::kernelFigure,
                JmhOptions.of(PartAcctRaw.IO, 1, 1, 300, 3, 200).threads(1).param("variant", LAZY).param("target", "disk")
                        .param("hz", HZ).param("slots", SLOTS).param("baseNs", "0"),
                "lazy-ticks (today's accounting), bios to the whole disk, 1 thread, without base: raw/part-acct/calibration-prerun.json");
        Set<String> kinds = Counting.write(c.raw(), counts(cal != null && cal.userNs() > 0));
        List<String> variants = new ArrayList<>(VARIANTS);
        variants.add(Variants.control(BASE)); // the A/A: the noise floor of this run
        Rounds.interleave(sweep(c.threads(), c.quick()), c.rounds(), c.progress(), "part-acct sweep", (r, t) -> {
            c.progress().printf("lab: part-acct round %d/%d, %d thread(s)%n", r, c.rounds(), t);
            Trials.run(c, PartAcctRaw.TABLE, r, t, variants, raw(c, t, targets(c.quick()).toArray(String[]::new)), PartAcctRaw.table(c.raw(), r, t));
            if (cal != null) {
                Trials.run(c, PartAcctRaw.CALIBRATED, r, t, variants, calibrated(c, cal, t), PartAcctRaw.calibrated(c.raw(), r, t));
            }
            if (gridAt(c.quick(), t, Rounds.most(c.threads()))) {
                run(JmhOptions.of(PartAcctRaw.IO, c.quick()).threads(t).param("variant", TWO, FOUR)
                        .param("target", "part").param("hz", gridHz(c.quick())).param("slots", gridSlots(c.quick()))
                        .param("baseNs", "0"), PartAcctRaw.grid(c.raw(), r, t));
            }
        });
        Adaptive.run(c, headline(c, cal));
        CostSweep.run(c, PartAcctRaw.COSTS, kinds, cal == null ? 0 : cal.baseNs(),
                cal == null ? null : new long[] {cal.deviceNs(), cal.userNs()});
        for (int r = 1; r <= c.rounds(); r++) {
            c.progress().printf("lab: part-acct round %d/%d, part_in_flight() sum, 1 thread%n", r, c.rounds());
            run(JmhOptions.of(PartAcctRaw.SUM, c.quick()).threads(1).param("slots", sumSlots(c.quick())),
                    PartAcctRaw.sum(c.raw(), r));
        }
    }

    /** The shared-line counts of every variant and target. */
    static List<SharedLineCounts> counts(boolean submitterWork) {
        List<SharedLineCounts> counts = new ArrayList<>();
        for (String v : VARIANTS) {
            for (String target : TARGETS) {
                counts.add(PartAcctCounts.of(v, target, Counting.IOS, submitterWork));
            }
        }
        return counts;
    }

    /** One variant of the raw table over {@code targets} at {@code t} threads. */
    private static Function<String, ChainedOptionsBuilder> raw(Ctx c, int t, String... targets) {
        return v -> JmhOptions.of(PartAcctRaw.IO, c.quick()).threads(t).param("variant", v).param("target", targets)
                .param("hz", HZ).param("slots", SLOTS).param("baseNs", "0");
    }

    /** One variant of the calibrated table (the whole disk) at {@code t} threads. */
    private static Function<String, ChainedOptionsBuilder> calibrated(Ctx c, Calibration cal, int t) {
        return v -> JmhOptions.of(PartAcctRaw.IO, c.quick(), CALIBRATED_FORKS).threads(t).param("variant", v).param("target", "disk")
                .param("hz", HZ).param("slots", SLOTS).param("baseNs", Long.toString(cal.deviceNs()))
                .param("userNs", Long.toString(cal.userNs()));
    }

    /**
     * The headline's cell for adaptive rounds: all four patches against before, `atomic` over
     * `percpu-inflight`, the whole disk, the most threads, calibrated where the run has a
     * calibration, else raw; the first two patches (`percpu-ref`) and the A/A copy run with them.
     */
    static Adaptive.Cell headline(Ctx c, Calibration cal) {
        int t = Rounds.most(c.threads());
        List<String> variants = List.of(BASE, TWO, FOUR, Variants.control(BASE));
        if (cal != null) {
            return new Adaptive.Cell(PartAcctRaw.CALIBRATED, PartAcctRaw.CALIBRATED, t, "variant", variants,
                    Map.of("target", "disk", "baseNs", Long.toString(cal.deviceNs()), "userNs", Long.toString(cal.userNs())),
                    BASE, FOUR, BASE, Variants.control(BASE), calibrated(c, cal, t), r -> PartAcctRaw.calibrated(c.raw(), r, t));
        }
        return new Adaptive.Cell(PartAcctRaw.TABLE, PartAcctRaw.TABLE, t, "variant", variants, Map.of("target", "disk", "baseNs", "0"),
                BASE, FOUR, BASE, Variants.control(BASE), raw(c, t, "disk"), r -> PartAcctRaw.table(c.raw(), r, t));
    }

    /**
     * The kernel's CPU per I/O the model is calibrated to: the whole disk through fio at one job
     * with accounting on, median over rounds, on the first device that has it of null_blk where it
     * ran natively (the seed's device, on this host's kernel: env.txt's {@code environment} lists it
     * among the native devices), zram (native: a RAM-backed bio device, the nearest to the seed's
     * null_blk in work per I/O where that ran in the guest), loop (native, blk-mq, but each I/O also
     * goes through the backing file, several times null_blk's work) and null_blk in the guest VM
     * (the seed's device, but in a guest, under TCG emulated, where every instruction costs many
     * times what it does natively); and fio's user share of its CPU there, median over the same
     * rounds, which the calibrated model spends outside the accounting window ({@link Calibration}).
     */
    static Calibrations.KernelFigure kernelFigure(KernelRuns k) {
        IostatsKernel.Where nullb = IostatsKernel.nullbWhere(k.env());
        List<String> order = nullb == IostatsKernel.Where.NATIVE ? List.of("nullb", "zram", "loop") : List.of("zram", "loop", "nullb");
        for (String dev : order) {
            List<Double> ns = new ArrayList<>();
            List<Double> user = new ArrayList<>();
            for (KernelRuns.Row row : k.rows()) {
                PartAcctRaw.KernelRun run = PartAcctRaw.KernelRun.parse(row.job());
                if (run != null && run.dev().equals(dev) && run.target().equals("disk") && run.iostats() == 1 && run.jobs() == 1
                        && row.tool().equals("fio") && Double.isFinite(row.taskClockNsPerIo())) {
                    ns.add(row.taskClockNsPerIo());
                    if (Double.isFinite(row.userShare())) {
                        user.add(row.userShare());
                    }
                }
            }
            if (!ns.isEmpty()) {
                String where = !dev.equals("nullb") ? dev + " (native)" : switch (nullb) {
                    case NATIVE -> "null_blk (native)";
                    case TCG -> "null_blk in the guest VM (emulated)";
                    case KVM -> "null_blk in the guest VM (KVM: virtualised, not emulated)";
                    case GUEST -> "null_blk in the guest VM";
                };
                return Calibrations.KernelFigure.of(ns, where + ", whole disk, fio psync 4k randread, 1 job,"
                        + " queue/iostats=1, median of " + ns.size() + " round(s)", user.isEmpty() ? Double.NaN : Stats.median(user));
            }
        }
        return null;
    }

    /**
     * The raw table's targets: the whole disk and the partition in a full run; in a quick one the
     * whole disk alone, the headline's (and the calibrated table's, the prediction's, the fidelity's).
     */
    static List<String> targets(boolean quick) {
        return quick ? List.of("disk") : TARGETS;
    }

    /**
     * Whether the crossover grid runs at {@code t} threads: every thread count in a full run, only
     * the most in a quick one ({@link CrossoverGrid} reads the grid's highest thread count alone).
     */
    static boolean gridAt(boolean quick, int t, int most) {
        return !quick || t == most;
    }

    static String[] gridHz(boolean quick) {
        return quick ? new String[] {"100", "1000"} : new String[] {"100", "250", "1000"};
    }

    static String[] gridSlots(boolean quick) {
        return quick ? new String[] {"2", "256"} : new String[] {"2", "16", "64", "256"};
    }

    static String[] sumSlots(boolean quick) {
        return quick ? new String[] {"2", "16", "64", "256"} : new String[] {"2", "4", "8", "16", "32", "64", "128", "256"};
    }

    /** One flamegraph per variant at the highest thread count, bios to the whole disk, HZ 1000, 64 slots. */
    @Override
    public void flamegraphs(Ctx c) throws Exception {
        int t = Rounds.most(c.threads());
        for (String v : JmhFlamegraph.variants(c.quick(), VARIANTS, BASE, FOUR)) {
            JmhFlamegraph.record(JmhOptions.of(PartAcctRaw.IO, true).threads(t).param("variant", v).param("target", "disk")
                    .param("hz", HZ).param("slots", SLOTS)
                    .measurementIterations(c.quick() ? 2 : 4).measurementTime(TimeValue.milliseconds(c.quick() ? 300 : 1000)),
                    c.flamegraphs().resolve(v + ".html"));
        }
    }
}
