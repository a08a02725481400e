package lab.fix.zraminitlock;

import java.nio.file.Path;

/**
 * The raw files of a zram-init-lock run, under {@code raw/zram-init-lock/}: the contract the
 * pairing that writes them and the section that reads them share.
 *
 * <ul>
 *   <li>{@code zram-rR-tT.json}: JMH, guard x rw x pattern, LZO-RLE;</li>
 *   <li>{@code zram-lz4-rR-tT.json}: JMH, guard x rw, compressible50, LZ4 (full runs);</li>
 *   <li>{@code kernel/RW-PATTERN-jN.TOOL.json} (and {@code .perf.csv}, {@code .before/.after.stat}):
 *       the kernel scenario's runs, TOOL fio, bridge or bridge-uring.</li>
 * </ul>
 */
final class ZramInitLockRaw {
    private ZramInitLockRaw() {}

    /** The JMH benchmark, as an include regex. */
    static final String BENCHMARK = "lab\\.engine\\.bench\\.ZramInitLock\\..*";
    /** File-name prefixes of the two JMH sweeps. */
    static final String LZO = "zram";
    static final String LZ4 = "zram-lz4";

    static Path lzo(Path raw, int round, int threads) {
        return raw.resolve(LZO + "-r" + round + "-t" + threads + ".json");
    }

    static Path lz4(Path raw, int round, int threads) {
        return raw.resolve(LZ4 + "-r" + round + "-t" + threads + ".json");
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
