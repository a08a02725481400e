package lab.fix.zraminitlock;

import static lab.fix.zraminitlock.ZramInitLock.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import lab.analysis.JmhSweep;
import lab.analysis.Stats;
import lab.analysis.fidelity.Calibration;
import lab.analysis.fidelity.NoiseFloor;
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
import lab.notebook.KernelRuns;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * zram-init-lock: the JMH benchmark {@code lab.engine.bench.ZramInitLock} and today's real zram
 * through the bridge and fio (scenario {@code zram-init-lock}, run first: its CPU per I/O is the
 * calibration), into the files of {@link ZramInitLockRaw}:
 * <ul>
 *   <li>the guard table: guard and the A/A control x rw x pattern x threads (the sweep always
 *       includes 4, the seed's worker count), raw; quick: patterns zero (the seed's) and
 *       compressible50, full: every pattern, and LZ4 on compressible50;</li>
 *   <li>the seed sweep: rwsem, srcu and the control at the seed's point (randrw, zero pages), raw
 *       and calibrated, at one thread and the headline's, {@value #FULL_FORKS} forks per trial in
 *       a full run, rounds added until the A/A floor is below the seed's effect or
 *       {@value #MAX_ROUNDS} rounds ({@link SeedSweep});</li>
 *   <li>the shared-line counts of every guard at the seed's point and the cost sweep of their kinds.</li>
 * </ul>
 */
final class ZramInitLockPairing implements Pairing {
    /** Forks per trial of the full seed sweep: JVM-to-JVM variance is part of the noise, so forks, not iterations. */
    static final int FULL_FORKS = 3;
    /** The full seed sweep's round limit. */
    static final int MAX_ROUNDS = 8;

    @Override
    public String fixId() { return ID; }

    /** The lab kernel's switch (rwsem against srcu) against the model's guards at the seed's point. */
    @Override
    public GuestModel guestModel() {
        return new GuestModel(ZramInitLockRaw.BENCHMARK, "guard", BASE, SRCU,
                Map.of("rw", SEED_RW, "pattern", SEED_PATTERN, "compressor", "lzo-rle"), false,
                "zram, " + SEED_RW + " on " + SEED_PATTERN + " pages, `" + BASE + "` against `" + SRCU + "`");
    }

    @Override
    public String kernelScenario() { return ID; }

    /** The thread sweep plus the seed's 4 workers. */
    @Override
    public List<Integer> sweep(List<Integer> threads) {
        TreeSet<Integer> t = new TreeSet<>(threads);
        t.add(SEED_WORKERS);
        return new ArrayList<>(t);
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
        return JmhOptions.describe(quick) + "; the seed sweep " + (quick ? "the same" : FULL_FORKS + " forks per trial, "
                + "rounds added up to " + MAX_ROUNDS + " until the A/A floor is below the seed's effect");
    }

    @Override
    public void jvm(Ctx c) throws Exception {
        Calibration cal = Calibrations.derive(c, ID, ZramInitLockPairing::kernelFigure,
                JmhOptions.of(ZramInitLockRaw.BENCHMARK, 1, 1, 300, 3, 200).threads(1).param("guard", NONE).param("rw", SEED_RW)
                        .param("pattern", SEED_PATTERN).param("compressor", "lzo-rle").param("baseNs", "0"),
                "`none` (no guard: today's zram), randrw, zero pages, 1 thread, without base: raw/zram-init-lock/calibration-prerun.json");
        List<SharedLineCounts> counts = new ArrayList<>();
        for (String g : GUARDS) {
            counts.add(ZramCounts.of(g, SEED_RW, SEED_PATTERN, Counting.IOS));
        }
        Set<String> kinds = Counting.write(c.raw(), counts);
        List<String> guards = new ArrayList<>(GUARDS);
        guards.add(CONTROL);
        Rounds.interleave(sweep(c.threads()), c.rounds(), (r, t) -> {
            c.progress().printf("lab: zram-init-lock round %d/%d, %d thread(s)%n", r, c.rounds(), t);
            table(c, r, guards, t, ZramInitLockRaw.lzo(c.raw(), r, t),
                    c.quick() ? new String[] {SEED_PATTERN, DataPattern.COMPRESSIBLE50.id()} : DataPattern.ids().toArray(String[]::new),
                    "lzo-rle");
            if (!c.quick()) {
                table(c, r, guards, t, ZramInitLockRaw.lz4(c.raw(), r, t), new String[] {DataPattern.COMPRESSIBLE50.id()}, "lz4");
            }
        });
        seedSweep(c, cal);
        CostSweep.run(c, ZramInitLockRaw.COSTS, kinds, cal == null ? 0 : cal.baseNs());
    }

    private static void table(Ctx c, int round, List<String> guards, int threads, Path out, String[] patterns, String compressor)
            throws Exception {
        Trials.run(c, compressor.equals("lz4") ? ZramInitLockRaw.LZ4 : ZramInitLockRaw.LZO, round, threads, guards,
                g -> JmhOptions.of(ZramInitLockRaw.BENCHMARK, c.quick()).threads(threads).param("guard", g)
                        .param("rw", RWS.toArray(String[]::new)).param("pattern", patterns).param("compressor", compressor)
                        .param("baseNs", "0"), out);
    }

    /**
     * The seed's point, rwsem against srcu and the control, raw and calibrated, at one thread and
     * the headline's; round after round (the thread counts interleaved as {@link Rounds} does) until
     * the calibrated A/A floor at the headline's thread count is below the seed's effect, or the limit.
     */
    private static void seedSweep(Ctx c, Calibration cal) throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        int ht = headlineThreads(c.threads(), cores);
        List<Integer> threads = ht == 1 ? List.of(1) : List.of(1, ht);
        String base = cal == null ? "0" : Long.toString(cal.baseNs());
        String[] bases = cal == null ? new String[] {"0"} : new String[] {"0", base};
        int forks = c.quick() ? 1 : FULL_FORKS;
        int maxRounds = c.quick() ? c.rounds() : Math.max(MAX_ROUNDS, c.rounds());
        double target = Math.abs(FIX.seedValue() - 1);
        List<SeedSweep.Round> log = new ArrayList<>();
        String stopped = SeedSweep.LIMIT;
        for (int r = 1; r <= maxRounds; r++) {
            long start = System.nanoTime();
            for (int t : r % 2 == 0 ? threads.reversed() : threads) {
                c.progress().printf("lab: zram-init-lock seed sweep round %d (at most %d), %d thread(s)%n", r, maxRounds, t);
                int n = t;
                Trials.run(c, ZramInitLockRaw.SEED, r, t, List.of(BASE, SRCU, CONTROL), g -> (c.quick()
                        ? JmhOptions.of(ZramInitLockRaw.BENCHMARK, true) : JmhOptions.of(ZramInitLockRaw.BENCHMARK, forks, 2, 500, 5, 500))
                        .threads(n).param("guard", g).param("rw", SEED_RW).param("pattern", SEED_PATTERN)
                        .param("compressor", "lzo-rle").param("baseNs", bases), ZramInitLockRaw.seed(c.raw(), r, t));
            }
            JmhSweep s = JmhSweep.read(c.raw(), ZramInitLockRaw.SEED, e -> {}).where("baseNs", base, "0");
            NoiseFloor f = NoiseFloor.of(s, GuardTable.seedKey(BASE), GuardTable.seedKey(CONTROL), ht);
            log.add(new SeedSweep.Round(r, f == null || !Double.isFinite(f.floor()) ? null : f.floor(), (System.nanoTime() - start) / 1e9));
            c.progress().printf("lab: zram-init-lock seed sweep: A/A floor after round %d: %s (the seed's effect: %.1f%%)%n", r,
                    f == null ? "n/a" : f.format(), 100 * target);
            if (r >= c.rounds() && f != null && Double.isFinite(f.floor()) && f.floor() < target) {
                stopped = SeedSweep.REACHED;
                break;
            }
        }
        new SeedSweep(target, ht, forks, maxRounds, log, stopped).write(c.raw());
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
        int t = sweep(c.threads()).getLast();
        for (String g : GUARDS) {
            JmhFlamegraph.record(JmhOptions.of(ZramInitLockRaw.BENCHMARK, true).threads(t).param("guard", g).param("rw", SEED_RW)
                    .param("pattern", SEED_PATTERN)
                    .measurementIterations(c.quick() ? 2 : 4).measurementTime(TimeValue.milliseconds(c.quick() ? 300 : 1000)),
                    c.flamegraphs().resolve(g + ".html"));
        }
    }

}
