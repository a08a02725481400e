package lab.fix.primitives;

import java.nio.file.Path;

/**
 * The raw files of the primitives calibration, under {@code raw/primitives/} (flat in {@code raw/}
 * in the oldest runs): the contract {@link PrimitivesBench} writes and the section reads.
 *
 * <ul>
 *   <li>{@code primitives-rR-tT.json}: JMH, every primitive at T threads in round R, with the GC profiler;</li>
 *   <li>{@code kernel/}: the zram-floor scenario's runs ({@code RW-jN.TOOL.json}, {@code .perf.csv}, stats).</li>
 * </ul>
 */
final class PrimitivesRaw {
    private PrimitivesRaw() {}

    /** The JMH benchmark, as an include regex. */
    static final String BENCHMARK = "lab\\.engine\\.bench\\.Primitives\\.getPut$";
    /** The file-name prefix of the JMH sweep. */
    static final String PREFIX = "primitives";

    static Path file(Path raw, int round, int threads) {
        return raw.resolve(name(round, threads));
    }

    static String name(int round, int threads) {
        return PREFIX + "-r" + round + "-t" + threads + ".json";
    }

    /** Whether {@code name} is one of the sweep's files. */
    static boolean isSweepFile(String name) {
        return name.matches(PREFIX + "-r\\d+-t\\d+\\.json");
    }
}
