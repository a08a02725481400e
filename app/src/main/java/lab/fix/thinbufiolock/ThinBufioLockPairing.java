package lab.fix.thinbufiolock;

import static lab.fix.thinbufiolock.ThinBufioLock.*;
import static lab.fix.JmhOptions.run;

import java.util.ArrayList;
import java.util.List;
import lab.fix.AmplifiedModel;
import java.util.Map;
import java.util.Set;
import lab.analysis.fidelity.Calibration;
import lab.engine.bench.ThinBufioLockCounts;
import lab.engine.count.SharedLineCounts;
import lab.fix.Calibrations;
import lab.fix.CostSweep;
import lab.fix.Counting;
import lab.fix.EmulationProbe;
import lab.fix.JmhFlamegraph;
import lab.fix.GuestModel;
import lab.fix.JmhOptions;
import lab.fix.Pairing;
import lab.fix.Rounds;
import lab.fix.Trials;
import lab.fix.Adaptive;
import java.util.function.Function;
import lab.notebook.KernelRuns;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * thin-bufio-lock: the JMH benchmark {@code lab.engine.bench.ThinBufioLock} (psync randrw 4k I/Os
 * of examples/thin-bufio-lock.fio through a thin volume whose every block is provisioned, each
 * I/O's mapping looked up in the pool's btree through dm-bufio locked as the variant says; and the
 * same job through dm-linear over the same data disk) and the kernel scenario
 * {@code thin-bufio-lock} (a real thin pool over brd, the volume written whole, against dm-linear
 * over its data disk), into the files of {@link ThinBufioLockRaw}: per round and thread count the
 * variant x cache table and dm-linear, both raw, and the variants calibrated at the whole-tree
 * cache; the counts of every variant at either cache and the cost sweep of their kinds.
 */
final class ThinBufioLockPairing implements Pairing {
    /** Forks per trial of the calibrated tables in a full run (as dm-css-ref's: a lock's share of a µs I/O is a few percent). */
    static final int CALIBRATED_FORKS = 3;

    @Override
    public String fixId() { return ID; }

    /**
     * The lab kernel's switch (6.12: the client mutex again per btree node, against 6.12's
     * lock-striped cache) against the model's {@code mutex} and {@code striped}, the thin volume
     * with the whole tree cached.
     */
    @Override
    public GuestModel guestModel() {
        return new GuestModel(ThinBufioLockRaw.BENCHMARK, "variant", MUTEX, STRIPED, Map.of("target", THIN, "cache", WHOLE), true,
                "the thin volume, whole tree cached, `" + MUTEX + "` against `" + STRIPED + "`");
    }

    /**
     * The switch's "on" (kernel/patches/6.12/thin-bufio-lock.patch, dm_bufio.lab_client_lock_count
     * N: N empty lock/unlock pairs of the client mutex on new_read()'s cache-hit path and at the top
     * of dm_bufio_release(), on 6.12's path) as the benchmark's {@code amp} on `striped` (6.12's
     * lock-striped cache), against `striped` alone (the switch off), the thin volume with the whole
     * tree cached: 2 per node, 3 nodes a lookup, 6 per I/O per unit of N (the count run counts them).
     */
    @Override
    public AmplifiedModel amplifiedModel() {
        return AmplifiedModel.onToday(ThinBufioLockRaw.BENCHMARK, "variant", STRIPED, Map.of("target", THIN, "cache", WHOLE), "amp",
                Integer::toString, 2 * NODES_PER_LOOKUP,
                n -> ThinBufioLockCounts.of(STRIPED, n, THIN, WHOLE, Counting.IOS, false, false), true,
                "N empty lock/unlock pairs of the bufio client mutex at each btree node's get (a hit) and release on `" + STRIPED
                        + "` (the benchmark's `amp`, lab.engine.bufio.CacheLock's AmpStripedLock), as the switch's dm_bufio_lab_lock_op",
                "bufio.lock mutex");
    }

    /** Nodes a lookup visits in the benchmark's 512 MiB volume (ThinBufioLockCountsTest holds the count run to it). */
    static final int NODES_PER_LOOKUP = 3;

    @Override
    public String kernelScenario() { return ID; }

    @Override
    public String jmhSettings(boolean quick) {
        return JmhOptions.describe(quick, "the calibrated tables", CALIBRATED_FORKS);
    }

    @Override
    public void jvm(Ctx c) throws Exception {
        Calibration cal = Calibrations.derive(c, ID, ThinBufioLockPairing::kernelFigure,
                options(JmhOptions.of(ThinBufioLockRaw.BENCHMARK, 1, 1, 300, 3, 200).threads(1), new String[] {MUTEX}, THIN, WHOLE)
                        .param("baseNs", "0"),
                "`" + MUTEX + "` (the seed's before, and the dm-bufio of kernels before 6.4, as the guest's 6.1), the thin volume, cache " + WHOLE + ", 1 thread, without base:"
                        + " raw/" + ID + "/" + Calibrations.PRERUN);
        Set<String> kinds = Counting.write(c.raw(), counts(cal != null, cal != null && cal.userNs() > 0));
        List<String> variants = new ArrayList<>(VARIANTS);
        variants.add(CONTROL);
        String[] thin = variants.toArray(String[]::new);
        String[] linear = {MUTEX};
        Rounds.interleave(sweep(c.threads(), c.quick()), c.rounds(), c.progress(), ID + " sweep", (r, t) -> {
            c.progress().printf("lab: %s round %d/%d, %d thread(s)%n", ID, r, c.rounds(), t);
            Trials.run(c, ThinBufioLockRaw.TABLE, r, t, variants, v -> options(JmhOptions.of(ThinBufioLockRaw.BENCHMARK, c.quick())
                    .threads(t), new String[] {v}, THIN, caches(c.quick()).toArray(String[]::new)).param("baseNs", "0"),
                    ThinBufioLockRaw.file(c.raw(), ThinBufioLockRaw.TABLE, r, t));
            run(options(JmhOptions.of(ThinBufioLockRaw.BENCHMARK, c.quick()).threads(t), linear, LINEAR, WHOLE).param("baseNs", "0"),
                    ThinBufioLockRaw.file(c.raw(), ThinBufioLockRaw.LINEAR, r, t));
            if (cal != null) {
                Trials.run(c, ThinBufioLockRaw.CALIBRATED, r, t, variants, calibratedOne(c, cal, t),
                        ThinBufioLockRaw.file(c.raw(), ThinBufioLockRaw.CALIBRATED, r, t));
            }
        });
        Adaptive.run(c, headline(c, cal, variants));
        CostSweep.run(c, ThinBufioLockRaw.COSTS, kinds, cal == null ? 0 : cal.baseNs(),
                cal == null ? null : new long[] {cal.deviceNs(), cal.userNs()});
    }

    /** The shared-line counts of every variant at either cache, and of dm-linear. */
    static List<SharedLineCounts> counts(boolean visits, boolean submitterWork) {
        List<SharedLineCounts> counts = new ArrayList<>();
        for (String cache : CACHES) {
            for (String v : VARIANTS) {
                counts.add(ThinBufioLockCounts.of(v, THIN, cache, Counting.IOS, visits, submitterWork));
            }
        }
        counts.add(ThinBufioLockCounts.of(MUTEX, LINEAR, WHOLE, Counting.IOS, visits, submitterWork));
        return counts;
    }

    /**
     * The raw table's caches: the whole btree cached and a small cache in a full run; in a quick
     * one the whole tree alone, the headline's (and the calibrated table's, the prediction's).
     */
    static List<String> caches(boolean quick) {
        return quick ? List.of(WHOLE) : CACHES;
    }

    /** One variant of the calibrated table (thin, the whole btree cached) at {@code t} threads. */
    private static Function<String, ChainedOptionsBuilder> calibratedOne(Ctx c, Calibration cal, int t) {
        return v -> calibrated(options(JmhOptions.of(ThinBufioLockRaw.BENCHMARK, c.quick(), CALIBRATED_FORKS).threads(t),
                new String[] {v}, THIN, WHOLE), cal);
    }

    /**
     * The headline's cell for adaptive rounds: `mutex` over `rwsem-walk` (the seed's fix), thin,
     * the whole btree cached, the most threads, calibrated where the run has a calibration, else
     * raw; every variant and the A/A copy run with them, as the table shows them all.
     */
    static Adaptive.Cell headline(Ctx c, Calibration cal, List<String> variants) {
        int t = Rounds.most(c.threads());
        if (cal != null) {
            return new Adaptive.Cell(ThinBufioLockRaw.CALIBRATED, ThinBufioLockRaw.CALIBRATED, t, "variant", variants,
                    Map.of("target", THIN, "cache", WHOLE, "baseNs", Long.toString(cal.deviceNs()), "userNs", Long.toString(cal.userNs())),
                    MUTEX, WALK, MUTEX, CONTROL, calibratedOne(c, cal, t),
                    r -> ThinBufioLockRaw.file(c.raw(), ThinBufioLockRaw.CALIBRATED, r, t));
        }
        return new Adaptive.Cell(ThinBufioLockRaw.TABLE, ThinBufioLockRaw.TABLE, t, "variant", variants,
                Map.of("target", THIN, "cache", WHOLE, "baseNs", "0"), MUTEX, WALK, MUTEX, CONTROL,
                v -> options(JmhOptions.of(ThinBufioLockRaw.BENCHMARK, c.quick()).threads(t), new String[] {v}, THIN, WHOLE)
                        .param("baseNs", "0"), r -> ThinBufioLockRaw.file(c.raw(), ThinBufioLockRaw.TABLE, r, t));
    }

    /** {@code o} over {@code variants} on {@code target} at {@code caches}. */
    private static ChainedOptionsBuilder options(ChainedOptionsBuilder o, String[] variants, String target, String... caches) {
        return o.param("variant", variants).param("target", target).param("cache", caches);
    }

    /** {@code o} with the calibration's work per I/O: in the device, and in the worker between I/Os. */
    private static ChainedOptionsBuilder calibrated(ChainedOptionsBuilder o, Calibration cal) {
        return o.param("baseNs", Long.toString(cal.deviceNs())).param("userNs", Long.toString(cal.userNs()));
    }

    /**
     * The kernel's CPU per I/O the model is calibrated to: the seed's job (psync randrw 4k direct)
     * on the thin volume, one job, median over rounds, scaled by the emulation probe where the pool
     * ran in the guest VM under TCG (natively and under KVM as measured); and fio's user share of
     * its CPU there, which the calibrated model spends in the worker between a completion and the
     * next submission ({@link Calibration}).
     */
    static Calibrations.KernelFigure kernelFigure(KernelRuns k) {
        return EmulationProbe.estimateKernelFigure(k, row -> {
            ThinBufioLockRaw.KernelRun run = ThinBufioLockRaw.KernelRun.parse(row.job());
            return run != null && run.device().equals(THIN) && run.jobs() == 1;
        }, (env, rounds) -> "a thin volume of a pool over brd, written whole (" + env + "), fio psync randrw 4k direct, 1 job,"
                + " task-clock under perf stat, median of " + rounds + " round(s)");
    }

    /** One flamegraph per variant at the highest thread count, the thin volume with the whole tree cached. */
    @Override
    public void flamegraphs(Ctx c) throws Exception {
        int t = c.threads().stream().mapToInt(Integer::intValue).max().orElse(1);
        for (String v : JmhFlamegraph.variants(c.quick(), VARIANTS, MUTEX, WALK)) {
            JmhFlamegraph.record(options(JmhOptions.of(ThinBufioLockRaw.BENCHMARK, true).threads(t), new String[] {v}, THIN, WHOLE)
                    .param("baseNs", "0").measurementIterations(c.quick() ? 2 : 4)
                    .measurementTime(TimeValue.milliseconds(c.quick() ? 300 : 1000)), c.flamegraphs().resolve(v + ".html"));
        }
    }
}
