package lab.fix.zraminitlock;

import java.nio.file.Path;

/**
 * The raw files of a zram-init-lock run, under {@code raw/zram-init-lock/}: the contract the
 * pairing that writes them and the section that reads them share.
 *
 * <ul>
 *   <li>{@code zram-rR-tT.json}: JMH, guard (and the A/A control {@code rwsem~aa}) x rw x pattern,
 *       LZO-RLE, raw ({@code baseNs=0});</li>
 *   <li>{@code zram-lz4-rR-tT.json}: JMH, the same guards x rw, compressible50, LZ4 (full runs);</li>
 *   <li>{@code zram-seed-rR-tT.json}: JMH at the seed's point (randrw, zero pages): rwsem, srcu and
 *       the control, raw and calibrated ({@code baseNs} 0 and the calibration's), more forks in a
 *       full run, rounds added until the floor is below the seed's effect or the limit is reached;</li>
 *   <li>{@code seed-sweep.json}: how that sweep went: the floor after each round, seconds per round,
 *       the target and why it stopped;</li>
 *   <li>{@code calibration.json}, {@code calibration-prerun.json}: the base ({@code lab.analysis.fidelity.Calibration});</li>
 *   <li>{@code counts.json}: each guard's shared-line operations per I/O at the seed's point;</li>
 *   <li>{@code zram-costs-rR-tT.json}: the cost sweep of those operations' kinds ({@code lab.fix.CostSweep});</li>
 *   <li>{@code kernel/RW-PATTERN-jN.TOOL.json} (and {@code .perf.csv}, {@code .before/.after.stat}):
 *       the kernel scenario's runs, TOOL fio, bridge or bridge-uring.</li>
 * </ul>
 */
final class ZramInitLockRaw {
    private ZramInitLockRaw() {}

    /** The JMH benchmark, as an include regex. */
    static final String BENCHMARK = "lab\\.engine\\.bench\\.ZramInitLock\\..*";
    /** File-name prefixes of the JMH sweeps. */
    static final String LZO = "zram";
    static final String LZ4 = "zram-lz4";
    static final String SEED = "zram-seed";
    static final String COSTS = "zram-costs";
    /** The seed sweep's own log. */
    static final String SEED_SWEEP = "seed-sweep.json";

    static Path lzo(Path raw, int round, int threads) {
        return file(raw, LZO, round, threads);
    }

    static Path lz4(Path raw, int round, int threads) {
        return file(raw, LZ4, round, threads);
    }

    static Path seed(Path raw, int round, int threads) {
        return file(raw, SEED, round, threads);
    }

    private static Path file(Path raw, String prefix, int round, int threads) {
        return raw.resolve(prefix + "-r" + round + "-t" + threads + ".json");
    }

    /** A kernel run's name, {@code RW-PATTERN-jN}, split into its rw mode and pattern at one job; null if not that form. */
    static String[] oneJob(String job) {
        if (!job.endsWith("-j1")) {
            return null;
        }
        String[] parts = job.substring(0, job.length() - 3).split("-", 2);
        return parts.length == 2 ? parts : null;
    }
}
