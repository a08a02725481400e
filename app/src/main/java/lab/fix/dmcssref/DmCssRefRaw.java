package lab.fix.dmcssref;

import java.nio.file.Path;

/**
 * The raw files of a dm-css-ref run, under {@code raw/dm-css-ref/}: the contract the pairing that
 * writes them and the section that reads them share.
 *
 * <ul>
 *   <li>{@code dmcss-rR-tT.json}: JMH {@code DmCssRef}, variant (and the A/A control
 *       {@code percpu~aa}) x depth 0..5, over the ram disk, raw ({@code baseNs=0});</li>
 *   <li>{@code dmcss-inject-rR-tT.json}: JMH, variant none with the seed's experiment injected
 *       ({@code inject=clone:cmpxchg,end_io:cmpxchg}) x depth 0..5, raw, in the same round;</li>
 *   <li>{@code dmcss-cal-rR-tT.json}: JMH, every variant and the control at depth 5, calibrated
 *       ({@code baseNs} the calibration's);</li>
 *   <li>{@code calibration.json}, {@code calibration-prerun.json}: the base ({@code lab.analysis.fidelity.Calibration});</li>
 *   <li>{@code counts.json}: each variant's shared-line operations per I/O at depth 5, and the injected experiment's;</li>
 *   <li>{@code dmcss-costs-rR-tT.json} (and {@code -timed}): the cost sweep of those kinds ({@code lab.fix.CostSweep});</li>
 *   <li>{@code kernel/}: the scenario {@code dm-css-ref} (kernel-scripts/scenarios/dm-css-ref): per depth D, cgroup CG
 *       (root, child), numjobs N and round K, {@code dD-CG-jN-rK.TOOL.json} with its {@code .perf.csv} and
 *       {@code .before/.after.stat}, TOOL fio or bridge; where the runs went to the guest VM, the emulation probe
 *       {@code tcg-zram-host-rK.fio.*} and {@code tcg-zram-guest-rK.fio.*} (the same zram job on both sides of qemu);
 *       {@code env.txt}.</li>
 * </ul>
 */
final class DmCssRefRaw {
    private DmCssRefRaw() {}

    static final String BENCHMARK = "lab\\.engine\\.bench\\.DmCssRef\\.io$";
    static final String TABLE = "dmcss";
    static final String INJECT = "dmcss-inject";
    static final String CALIBRATED = "dmcss-cal";
    static final String COSTS = "dmcss-costs";

    static Path table(Path raw, int round, int threads) {
        return file(raw, TABLE, round, threads);
    }

    static Path inject(Path raw, int round, int threads) {
        return file(raw, INJECT, round, threads);
    }

    static Path calibrated(Path raw, int round, int threads) {
        return file(raw, CALIBRATED, round, threads);
    }

    private static Path file(Path raw, String prefix, int round, int threads) {
        return raw.resolve(prefix + "-r" + round + "-t" + threads + ".json");
    }

    /** One kernel run's name {@code dD-CG-jN-rK}, parsed; null if not that form. */
    record KernelRun(int depth, String cgroup, int jobs, int round) {
        private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("d(\\d+)-(root|child)-j(\\d+)-r(\\d+)");

        static KernelRun parse(String job) {
            java.util.regex.Matcher m = NAME.matcher(job);
            return m.matches() ? new KernelRun(Integer.parseInt(m.group(1)), m.group(2), Integer.parseInt(m.group(3)),
                    Integer.parseInt(m.group(4))) : null;
        }
    }
}
