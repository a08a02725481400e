package lab.fix.thinbufiolock;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The raw files of a thin-bufio-lock run, under {@code raw/thin-bufio-lock/}: the contract the
 * pairing that writes them and the section that reads them share.
 *
 * <ul>
 *   <li>{@code thin-rR-tT.json}: JMH {@code ThinBufioLock}, every variant (and the A/A control
 *       {@code mutex~aa}) x cache {@code whole}, {@code small} on the thin volume, raw ({@code baseNs=0});</li>
 *   <li>{@code thin-linear-rR-tT.json}: JMH, the same job through dm-linear over the same data disk
 *       ({@code target=linear}: no btree, no bufio), raw, in the same round;</li>
 *   <li>{@code thin-cal-rR-tT.json}: every variant and the control calibrated ({@code baseNs} and
 *       {@code userNs} the calibration's), the thin volume at cache {@code whole};</li>
 *   <li>{@code calibration.json}, {@code calibration-prerun.json}: the base ({@code lab.analysis.fidelity.Calibration});</li>
 *   <li>{@code counts.json}: each variant's shared-line operations per I/O on the thin volume at either cache, and dm-linear's;</li>
 *   <li>{@code thin-costs-rR-tT.json} (and {@code -timed}, {@code -visits}): the cost sweep of those kinds ({@code lab.fix.CostSweep});</li>
 *   <li>{@code kernel/}: the scenario {@code thin-bufio-lock} (kernel-scripts/scenarios/thin-bufio-lock): per device
 *       DEV ({@code thin}: a thin volume of a pool over brd, written whole; {@code linear}: dm-linear over the pool's
 *       data disk), numjobs N and round K, {@code DEV-jN-rK.fio.json} with its {@code .perf.csv} and
 *       {@code .before/.after.stat}; where the runs went to the guest VM, the emulation probe
 *       {@code tcg-zram-host-rK.fio.*} and {@code tcg-zram-guest-rK.fio.*}; {@code env.txt},
 *       {@code thin-status.txt} (the pool's status after the fill and after the rounds), {@code dm-table.txt}; with
 *       the scenario's flamegraph, {@code thin-jN.fio.kernel.collapsed.gz} and {@code .svg} (perf record -g of one more
 *       thin run at the most jobs).</li>
 * </ul>
 */
final class ThinBufioLockRaw {
    private ThinBufioLockRaw() {}

    static final String BENCHMARK = "lab\\.engine\\.bench\\.ThinBufioLock\\.io$";
    static final String TABLE = "thin";
    static final String LINEAR = "thin-linear";
    static final String CALIBRATED = "thin-cal";
    static final String COSTS = "thin-costs";
    /** The kernel side's files of the pool, beside its runs. */
    static final String THIN_STATUS = "thin-status.txt";
    static final String DM_TABLE = "dm-table.txt";

    /** The kernel flamegraph of the thin volume at {@code jobs}: {@code thin-jN.fio.kernel.collapsed.gz}, or its {@code .svg}. */
    static String kernelFlamegraph(int jobs, boolean svg) {
        return "thin-j" + jobs + ".fio.kernel." + (svg ? "svg" : "collapsed.gz");
    }

    static Path file(Path raw, String prefix, int round, int threads) {
        return raw.resolve(prefix + "-r" + round + "-t" + threads + ".json");
    }

    /** One kernel run's name {@code DEV-jN-rK} (DEV thin or linear), parsed; null if not that form. */
    record KernelRun(String device, int jobs, int round) {
        private static final Pattern NAME = Pattern.compile("(thin|linear)-j(\\d+)-r(\\d+)");

        static KernelRun parse(String job) {
            Matcher m = NAME.matcher(job);
            return m.matches() ? new KernelRun(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))) : null;
        }
    }
}
