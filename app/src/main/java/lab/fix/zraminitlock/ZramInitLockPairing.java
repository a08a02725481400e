package lab.fix.zraminitlock;

import static lab.fix.zraminitlock.ZramInitLock.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.fix.AmplifiedModel;
import java.util.function.IntFunction;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import lab.analysis.fidelity.Calibration;
import lab.engine.bench.ZramCounts;
import lab.engine.count.SharedLineCounts;
import lab.engine.load.DataPattern;
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
import lab.notebook.KernelRuns;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * zram-init-lock: the JMH benchmark {@code lab.engine.bench.ZramInitLock} and today's real zram
 * through the bridge and fio (scenario {@code zram-init-lock}, run first: its CPU per I/O is the
 * calibration), into the files of {@link ZramInitLockRaw}:
 * <ul>
 *   <li>the guard table: guard and the A/A control x rw x pattern x threads (the sweep includes 4,
 *       the seed's worker count, but in a quick run on fewer cores), raw; full: every rw mode and
 *       pattern, and LZ4 on compressible50; quick: the headline's cells alone, randrw on zero
 *       pages, every guard;</li>
 *   <li>the seed point: rwsem, srcu and the control at the seed's point (randrw, zero pages), raw
 *       and calibrated, at one thread and the headline's, {@value #FULL_FORKS} forks per trial in
 *       a full run, then adaptive rounds of its headline cell ({@link lab.fix.Adaptive}; runs made
 *       before them have a seed sweep of their own, {@link SeedSweep}, which the notebook still reads);</li>
 *   <li>the shared-line counts of every guard at the seed's point and the cost sweep of their kinds.</li>
 * </ul>
 */
final class ZramInitLockPairing implements Pairing {
    /** Forks per trial of the full seed point: JVM-to-JVM variance is part of the noise, so forks, not iterations. */
    static final int FULL_FORKS = 3;

    @Override
    public String fixId() { return ID; }

    /** The lab kernel's switch (rwsem against srcu) against the model's guards at the seed's point. */
    @Override
    public GuestModel guestModel() {
        return new GuestModel(ZramInitLockRaw.BENCHMARK, "guard", BASE, SRCU,
                Map.of("rw", SEED_RW, "pattern", SEED_PATTERN, "compressor", "lzo-rle"), false,
                "zram, " + SEED_RW + " on " + SEED_PATTERN + " pages, `" + BASE + "` against `" + SRCU + "`");
    }

    /**
     * The switch's count (kernel/patches/6.1/zram-init-lock.patch, zram.lab_init_lock_count N:
     * N-1 extra read sections entered and left before the one held across the I/O, in rwsem mode
     * and in srcu mode alike) as the benchmark's {@code sections}: `rwsem` with N sections against
     * `srcu` with N, at the guest model's point; N = 0 (no count in the kernel) is 1 section on both,
     * as N = 1. One rwsem read pair per section: 1 per I/O per unit of N, as the switch's counter;
     * srcu's sections write no shared line, so the count run counts the before's.
     */
    @Override
    public AmplifiedModel amplifiedModel() {
        IntFunction<String> sections = n -> Integer.toString(Math.max(1, n));
        return new AmplifiedModel(ZramInitLockRaw.BENCHMARK, "guard", BASE, SRCU,
                Map.of("rw", SEED_RW, "pattern", SEED_PATTERN, "compressor", "lzo-rle"), "sections", sections, sections, 1,
                n -> ZramCounts.of(BASE, Math.max(1, n), SEED_RW, SEED_PATTERN, "lzo-rle", COUNT_SIZE_MIB, Counting.IOS), false,
                "N read sections of the guard per I/O, N-1 of them entered and left back to back before the one held across the"
                        + " I/O (the benchmark's `sections`, lab.engine.zram.SectionsGuard), for `" + BASE + "` and for `" + SRCU
                        + "` alike, as the switch's zram_lab_lock", "zram.init_lock read");
    }

    /** The count run's device: the benchmark's default size (the guard's operations do not depend on it). */
    static final int COUNT_SIZE_MIB = 16;

    @Override
    public String kernelScenario() { return ID; }

    /** The thread sweep plus the seed's 4 workers (a quick run on fewer cores: the sweep as asked). */
    @Override
    public List<Integer> sweep(List<Integer> threads, boolean quick) {
        return sweep(threads, quick, Runtime.getRuntime().availableProcessors());
    }

    /**
     * The guard table's thread counts: {@code threads} and the seed's {@value ZramInitLock#SEED_WORKERS}
     * workers; a quick run adds them only where the machine has that many cores, as the headline
     * is measured at the most threads that fit the cores ({@link #headlineThreads}).
     */
    static List<Integer> sweep(List<Integer> threads, boolean quick, int cores) {
        TreeSet<Integer> t = new TreeSet<>(threads);
        if (!quick || cores >= SEED_WORKERS) {
            t.add(SEED_WORKERS);
        }
        return new ArrayList<>(t);
    }

    /** The guard table's rw modes: every one of the seed's; a quick run the headline's alone ({@link ZramInitLock#SEED_RW}). */
    static List<String> tableRws(boolean quick) {
        return quick ? List.of(SEED_RW) : RWS;
    }

    /**
     * The guard table's LZO-RLE patterns: every pattern in a full run; a quick run the headline's
     * alone ({@link ZramInitLock#SEED_PATTERN}), with its rw mode: the headline's cells, every guard.
     */
    static List<String> tablePatterns(boolean quick) {
        return quick ? List.of(SEED_PATTERN) : DataPattern.ids();
    }

    /** The headline's thread count: the seed's 4 workers where the machine has 4 cores, else the most that fit its cores. */
    static int headlineThreads(Iterable<Integer> threads, int cores) {
        int best = 1;
        for (int t : threads) {
            if (t <= Math.max(cores, 1) && t <= SEED_WORKERS && t > best) {
                best = t;
            }
        }
        return best;
    }

    @Override
    public String jmhSettings(boolean quick) {
        return JmhOptions.describe(quick) + "; the seed point " + (quick ? "the same" : FULL_FORKS + " forks per trial")
                + ", its headline cell given adaptive rounds until its verdict settles";
    }

    @Override
    public void jvm(Ctx c) throws Exception {
        Calibration cal = Calibrations.derive(c, ID, ZramInitLockPairing::kernelFigure,
                JmhOptions.of(ZramInitLockRaw.BENCHMARK, 1, 1, 300, 3, 200).threads(1).param("guard", NONE).param("rw", SEED_RW)
                        .param("pattern", SEED_PATTERN).param("compressor", "lzo-rle").param("baseNs", "0"),
                "`none` (no guard: today's zram), randrw, zero pages, 1 thread, without base: raw/zram-init-lock/calibration-prerun.json");
        Set<String> kinds = Counting.write(c.raw(), counts());
        List<String> guards = new ArrayList<>(GUARDS);
        guards.add(CONTROL);
        Rounds.interleave(sweep(c.threads(), c.quick()), c.rounds(), c.progress(), "zram-init-lock sweep", (r, t) -> {
            c.progress().printf("lab: zram-init-lock round %d/%d, %d thread(s)%n", r, c.rounds(), t);
            table(c, r, guards, t, ZramInitLockRaw.lzo(c.raw(), r, t), tableRws(c.quick()), tablePatterns(c.quick()), "lzo-rle");
            if (!c.quick()) {
                table(c, r, guards, t, ZramInitLockRaw.lz4(c.raw(), r, t), RWS, List.of(DataPattern.COMPRESSIBLE50.id()), "lz4");
            }
        });
        seedSweep(c, cal);
        CostSweep.run(c, ZramInitLockRaw.COSTS, kinds, cal == null ? 0 : cal.baseNs());
    }

    /** The shared-line counts of every guard at the seed's point. */
    static List<SharedLineCounts> counts() {
        List<SharedLineCounts> counts = new ArrayList<>();
        for (String g : GUARDS) {
            counts.add(ZramCounts.of(g, SEED_RW, SEED_PATTERN, Counting.IOS));
        }
        return counts;
    }

    private static void table(Ctx c, int round, List<String> guards, int threads, Path out, List<String> rws, List<String> patterns,
                              String compressor) throws Exception {
        Trials.run(c, compressor.equals("lz4") ? ZramInitLockRaw.LZ4 : ZramInitLockRaw.LZO, round, threads, guards,
                g -> JmhOptions.of(ZramInitLockRaw.BENCHMARK, c.quick()).threads(threads).param("guard", g)
                        .param("rw", rws.toArray(String[]::new)).param("pattern", patterns.toArray(String[]::new)).param("compressor", compressor)
                        .param("baseNs", "0"), out);
    }

    /**
     * The seed's point, rwsem against srcu and the control, raw and calibrated, at one thread and
     * the headline's, for the run's rounds (the thread counts interleaved as {@link Rounds} does);
     * then the headline cell (calibrated where the run has a calibration, at the headline's thread
     * count) gets adaptive rounds ({@link Adaptive}) until its verdict settles, as every fix's does.
     */
    private static void seedSweep(Ctx c, Calibration cal) throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        int ht = headlineThreads(c.threads(), cores);
        List<Integer> threads = ht == 1 ? List.of(1) : List.of(1, ht);
        String base = cal == null ? "0" : Long.toString(cal.baseNs());
        String[] bases = cal == null ? new String[] {"0"} : new String[] {"0", base};
        Rounds.interleave(threads, c.rounds(), c.progress(), "zram-init-lock seed point", (r, t) -> {
            c.progress().printf("lab: zram-init-lock seed point round %d/%d, %d thread(s)%n", r, c.rounds(), t);
            Trials.run(c, ZramInitLockRaw.SEED, r, t, SEED_GUARDS, seedOptions(c, t, bases), ZramInitLockRaw.seed(c.raw(), r, t));
        });
        Adaptive.run(c, new Adaptive.Cell(ZramInitLockRaw.SEED, ZramInitLockRaw.SEED, ht, "guard", SEED_GUARDS,
                Map.of("rw", SEED_RW, "pattern", SEED_PATTERN, "baseNs", base), BASE, SRCU, BASE, CONTROL,
                seedOptions(c, ht, new String[] {base}), r -> ZramInitLockRaw.seed(c.raw(), r, ht)));
    }

    /** The seed point's guards: rwsem, srcu and rwsem's A/A copy. */
    private static final List<String> SEED_GUARDS = List.of(BASE, SRCU, CONTROL);

    /** One guard at the seed's point at {@code t} threads and {@code bases}: {@value #FULL_FORKS} forks in a full run. */
    private static Function<String, ChainedOptionsBuilder> seedOptions(Ctx c, int t, String[] bases) {
        return g -> (c.quick() ? JmhOptions.of(ZramInitLockRaw.BENCHMARK, true)
                : JmhOptions.of(ZramInitLockRaw.BENCHMARK, FULL_FORKS, 2, 500, 5, 500))
                .threads(t).param("guard", g).param("rw", SEED_RW).param("pattern", SEED_PATTERN)
                .param("compressor", "lzo-rle").param("baseNs", bases);
    }

    /**
     * The kernel's CPU per I/O the model is calibrated to: today's zram, randrw on zero pages (the
     * seed's job), fio psync, 1 job, median over the scenario's perf repeats.
     */
    static Calibrations.KernelFigure kernelFigure(KernelRuns k) {
        List<Double> ns = new ArrayList<>();
        for (KernelRuns.Row row : k.rows()) {
            if (row.job().equals(SEED_RW + "-" + SEED_PATTERN + "-j1") && row.tool().equals("fio") && Double.isFinite(row.taskClockNsPerIo())) {
                ns.add(row.taskClockNsPerIo());
            }
        }
        return ns.isEmpty() ? null : Calibrations.KernelFigure.of(ns,
                "zram (native), randrw on zero pages (the seed's job), fio psync 4k, 1 job, task-clock under perf stat", Double.NaN);
    }

    /** One flamegraph per guard at the highest thread count, on the seed's job (randrw, zero pages). */
    @Override
    public void flamegraphs(Ctx c) throws Exception {
        int t = sweep(c.threads(), c.quick()).getLast();
        for (String g : JmhFlamegraph.variants(c.quick(), GUARDS, BASE, SRCU)) {
            JmhFlamegraph.record(JmhOptions.of(ZramInitLockRaw.BENCHMARK, true).threads(t).param("guard", g).param("rw", SEED_RW)
                    .param("pattern", SEED_PATTERN)
                    .measurementIterations(c.quick() ? 2 : 4).measurementTime(TimeValue.milliseconds(c.quick() ? 300 : 1000)),
                    c.flamegraphs().resolve(g + ".html"));
        }
    }

}
