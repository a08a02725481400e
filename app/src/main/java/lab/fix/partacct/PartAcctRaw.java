package lab.fix.partacct;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The raw files of a part-acct run, under {@code raw/part-acct/}: the one contract the pairing
 * that writes them and the section that reads them share.
 *
 * <ul>
 *   <li>{@code part-acct-rR-tT.json}: JMH, every variant and the A/A control {@code atomic~aa} x
 *       target at the table's HZ and slots, raw ({@code baseNs=0});</li>
 *   <li>{@code part-acct-cal-rR-tT.json}: JMH, the same variants and control, bios to the whole
 *       disk, calibrated ({@code baseNs} the calibration's device share, {@code userNs} its
 *       submitter's share; a run before the split has no {@code userNs} and spent all in the
 *       device), more forks in a full run;</li>
 *   <li>{@code part-acct-grid-rR-tT.json}: JMH, percpu-ref and all four x HZ x slots, bios to the partition;</li>
 *   <li>{@code part-acct-sum-rR.json}: JMH, ns per {@code part_in_flight()} sum by slots, one thread;</li>
 *   <li>{@code part-acct-costs-rR-tT.json} and {@code part-acct-costs-timed-rR-tT.json}: JMH, the
 *       primitives pricing each kind of shared-line operation the counts hold, shared and private,
 *       by gap ({@code lab.fix.CostSweep});</li>
 *   <li>{@code part-acct-costs-visits-rR-tT.json}: JMH, the timed RMW pair, shared and private, at
 *       the calibrated I/O's rhythm ({@code gapNs} the device's share of the base, {@code userGapNs}
 *       the submitter's): what one visit to the hot line costs ({@code lab.fix.CostSweep});</li>
 *   <li>{@code counts.json}: the shared-line operations per I/O and per tick of every variant and
 *       target, and the visits per I/O to each line as the calibrated run spaces them
 *       ({@code lab.analysis.fidelity.LineCounts});</li>
 *   <li>{@code calibration.json} and {@code calibration-prerun.json}: the base cost and where it
 *       came from ({@code lab.analysis.fidelity.Calibration});</li>
 *   <li>{@code kernel/DEV-TARGET-iostatsS-jN-rK.TOOL.json} (and {@code .perf.csv}, {@code .before/.after.stat}):
 *       the kernel scenario's runs, DEV zram|loop|nullb, TARGET disk|part, S the queue/iostats value;</li>
 *   <li>{@code kernel/DEV-TARGET-iostatsS-jN.TOOL.kernel.collapsed.gz} and {@code .svg}: the kernel
 *       flamegraphs of round 1, with {@code --flamegraph}.</li>
 * </ul>
 */
final class PartAcctRaw {
    private PartAcctRaw() {}

    /** The JMH benchmarks, as include regexes. */
    static final String IO = "lab\\.engine\\.bench\\.PartAcct\\.io";
    static final String SUM = "lab\\.engine\\.bench\\.PartInFlightSum\\.sum";

    /** File-name prefixes of the three JMH sweeps ({@code PREFIX-rR-tT.json}, the sum's {@code PREFIX-rR.json}). */
    static final String TABLE = "part-acct";
    static final String CALIBRATED = "part-acct-cal";
    static final String GRID = "part-acct-grid";
    static final String SUM_FILES = "part-acct-sum";
    /** The cost sweep's prefix ({@code lab.fix.CostSweep}: c(kind, threads, gap)). */
    static final String COSTS = "part-acct-costs";

    /** A kernel run's name: {@code DEV-TARGET-iostatsS-jN-rK}. */
    private static final Pattern KERNEL_RUN = Pattern.compile("([a-z0-9_]+)-(disk|part)-iostats([01])-j(\\d+)-r(\\d+)");
    /** A kernel flamegraph's file name: {@code DEV-TARGET-iostatsS-jN.TOOL.kernel.collapsed.gz} or {@code .svg}. */
    private static final Pattern KERNEL_FLAMEGRAPH =
            Pattern.compile("[a-z0-9_]+-(disk|part)-iostats[01]-j\\d+\\.[a-z-]+\\.kernel\\.(collapsed\\.gz|svg)");

    /** Whether {@code fileName} is one of the scenario's kernel flamegraphs. */
    static boolean isKernelFlamegraph(String fileName) {
        return KERNEL_FLAMEGRAPH.matcher(fileName).matches();
    }

    static Path table(Path raw, int round, int threads) {
        return raw.resolve(TABLE + "-r" + round + "-t" + threads + ".json");
    }

    static Path calibrated(Path raw, int round, int threads) {
        return raw.resolve(CALIBRATED + "-r" + round + "-t" + threads + ".json");
    }

    static Path grid(Path raw, int round, int threads) {
        return raw.resolve(GRID + "-r" + round + "-t" + threads + ".json");
    }

    static Path sum(Path raw, int round) {
        return raw.resolve(SUM_FILES + "-r" + round + ".json");
    }

    /** One kernel run, parsed from its name. */
    record KernelRun(String dev, String target, int iostats, int jobs, int round) {
        /** The run named {@code job}, or null when the name is not one of the scenario's. */
        static KernelRun parse(String job) {
            Matcher m = KERNEL_RUN.matcher(job);
            return m.matches() ? new KernelRun(m.group(1), m.group(2), Integer.parseInt(m.group(3)),
                    Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5))) : null;
        }

        String name() {
            return dev + "-" + target + "-iostats" + iostats + "-j" + jobs + "-r" + round;
        }
    }
}
