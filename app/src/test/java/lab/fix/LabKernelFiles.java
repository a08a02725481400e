package lab.fix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Hand-made {@code lab-kernel.sh} output for the sections' tests: a fix's switch A/B
 * ({@code raw/<fix>/lab-kernel/}) at N = 1 and 16 over 3 rounds, CPU-bound (the after 1000 ns
 * per I/O, the before 10 + 2·K·N more, K = 2: 1014 ns at N = 1, 1074 at N = 16). The before does
 * 2,000,000 IOPS times the round's drift (1.001, 1.002, 1.003); the after {@link #ratio} times the
 * before ({@code (1010 + 4N)/1000} times 1.001, 0.999, then 1.0, so the rounds' ratios differ and
 * the interval has a width); the A/A the after's IOPS times {@link #aaFactor} (1.004, 0.998, then
 * 1.001), so an A/A taken against anything but the after, or the after taken in its place, shows.
 * Every IOPS is exact at the 6 decimals written. The boots' form ({@link #iops(Path, String, int,
 * int)}) runs 4 or 6 rounds, 2 a boot, with a {@code boot} column: rounds 4 to 6 times 1.003, 0.997
 * and 1.002, their A/A 1.002, 0.997 and 1.0. Or, for a share, writer a over b: the after
 * {@link #afterShare} (1.98, 2.02, then 2.00), the A/A {@link #aaShare} (2.00, 2.01, then 1.99),
 * the before 1.0, as kernel/ab-rows.py writes a share (no CPU per I/O, no intervals, a root share it
 * could not tell as {@code -}); and the run's overhead ({@code raw/lab-kernel/overhead.tsv}).
 */
public final class LabKernelFiles {
    private LabKernelFiles() {}

    /** The rounds of the switch A/B's files: the fewest that give an interval. */
    public static final int ROUNDS = 3;
    /** Each round's factor on the after's ratio, rounds 1 to 6. */
    private static final double[] DRIFT = {1.001, 0.999, 1.0, 1.003, 0.997, 1.002};
    /** Each round's A/A over the after, rounds 1 to 6. */
    private static final double[] AA = {1.004, 0.998, 1.001, 1.002, 0.997, 1.0};

    /** The after's IOPS over the before's at count {@code n} in round {@code r}: (1010 + 4n)/1000, times 1.001, 0.999, 1.0, ... */
    public static double ratio(int n, int r) {
        return (1010 + 4 * n) / 1000.0 * DRIFT[r - 1];
    }

    /** The A/A's IOPS over the after's in round {@code r}: 1.004, 0.998, 1.001, ... */
    public static double aaFactor(int r) {
        return AA[r - 1];
    }

    /** The share form's after in round {@code r}: 1.98, 2.02, then 2.00. */
    public static double afterShare(int r) {
        return r == 1 ? 1.98 : r == 2 ? 2.02 : 2.00;
    }

    /** The share form's A/A in round {@code r}: 2.00, 2.01, then 1.99. */
    public static double aaShare(int r) {
        return r == 1 ? 2.00 : r == 2 ? 2.01 : 1.99;
    }

    private static final String HEADER = "count\tround\tslot\tvariant\tvalue\tjobs\tios\truntime_s\tmetric\ttask_clock_ns\tns_per_io"
            + "\tops_delta\textra\n";

    /** A throughput fix's files in {@code raw/<fix>/lab-kernel/}: {@link #ROUNDS} rounds in one boot. */
    public static void iops(Path raw, String fix) throws IOException {
        iops(raw, fix, ROUNDS, 0);
    }

    /**
     * A throughput fix's files over {@code rounds} rounds (at most 6), {@code perBoot} rounds a boot in a {@code boot}
     * column (0: no such column, one boot).
     */
    public static void iops(Path raw, String fix, int rounds, int perBoot) throws IOException {
        Path dir = Files.createDirectories(raw.resolve(fix).resolve("lab-kernel"));
        StringBuilder ab = new StringBuilder(perBoot > 0 ? HEADER.replace("\n", "\tboot\n") : HEADER);
        StringBuilder it = new StringBuilder("count\tround\tvariant\ti\tmetric\n");
        for (int n : new int[] {1, 16}) {
            for (int r = 1; r <= rounds; r++) {
                int slot = 0;
                for (String v : new String[] {"before", "after", "aa"}) {
                    double ns = v.equals("before") ? 1000 + 10 + 4 * n : 1000;
                    double before = 2_000_000 * (1 + 0.001 * r);
                    double after = before * ratio(n, r);
                    double iops = v.equals("before") ? before : v.equals("aa") ? after * aaFactor(r) : after;
                    ab.append(String.format(Locale.ROOT, "%d\t%d\t%d\t%s\t%s\t2\t100000\t5\t%.6f\t%.0f\t%.1f\t%d\t-", n, r, ++slot, v,
                            v.equals("before") ? "1" : "0", iops, ns * 1e5, ns, v.equals("before") ? 200000 * n : 0))
                            .append(perBoot > 0 ? "\t" + ((r - 1) / perBoot + 1) : "").append('\n');
                    for (int i = 1; i <= 3; i++) {
                        it.append(String.format(Locale.ROOT, "%d\t%d\t%s\t%d\t%.3f%n", n, r, v, i, iops * (1 + 0.005 * (i - 2))));
                    }
                }
            }
        }
        Files.writeString(dir.resolve("lab-ab.tsv"), ab);
        Files.writeString(dir.resolve("lab-iter.tsv"), it);
        Files.writeString(dir.resolve("lab-ab.txt"), "fix: " + fix + "\nswitch: /sys/module/x/parameters/lab_before\nvalues: 0 1\n"
                + "before: 1\nafter: 0\nrounds: " + rounds + "\ncounts: 1 16\nops_per_io: 2\nops_note: two atomics per I/O\nmetric: iops\n"
                + "workload: fio randread 4k, 2 jobs\nenv: tcg\nkernel: 6.1.0-lab+\nsource: linux-source-6.1 6.1.192-3\n"
                + "patches: 0123abc\ncpus: 2\n");
    }

    /** A share fix's files (dm-blkcg-clone's form) in {@code raw/<fix>/lab-kernel/}. */
    public static void share(Path raw, String fix) throws IOException {
        Path dir = Files.createDirectories(raw.resolve(fix).resolve("lab-kernel"));
        StringBuilder ab = new StringBuilder(HEADER);
        for (int r = 1; r <= ROUNDS; r++) {
            int slot = 0;
            for (String v : new String[] {"before", "after", "aa"}) {
                double share = v.equals("before") ? 1.0 : v.equals("aa") ? aaShare(r) : afterShare(r);
                ab.append(String.format(Locale.ROOT, "1\t%d\t%d\t%s\t%s\t2\t1000\t10\t%.4f\t0\t0\t0\t"
                        + "a_mibs=%.2f;b_mibs=20.00;root_pct=%s%n", r, ++slot, v, v.equals("before") ? "0" : "1", share, 20 * share,
                        v.equals("before") ? (r == 1 ? "-" : "100.0") : "0.0"));
            }
        }
        Files.writeString(dir.resolve("lab-ab.tsv"), ab);
        Files.writeString(dir.resolve("lab-iter.tsv"), "count\tround\tvariant\ti\tmetric\n");
        Files.writeString(dir.resolve("lab-ab.txt"), "fix: " + fix + "\nswitch: /sys/module/dm_mod/parameters/lab_clone\nbefore: 0\n"
                + "after: 1\nrounds: 3\nmetric: share\nworkload: two writers, weights 1000:500\nenv: tcg\nkernel: 6.1.0-lab+\ncpus: 2\n");
    }

    /**
     * {@code raw/lab-kernel/overhead.tsv} and {@code .txt}: 3 rounds, Debian's kernel at 100000 IOPS and the lab kernel at
     * 80000, 82000, then 81000 (0.80, 0.82, then 0.81 of it), each boot's second repetition 1% up in round 1, 1% down in
     * round 2 and 0.5% up in round 3.
     */
    public static void overhead(Path raw) throws IOException {
        Path dir = Files.createDirectories(raw.resolve("lab-kernel"));
        StringBuilder b = new StringBuilder("round\tslot\tkernel\trep\tios\truntime_s\tiops\ttask_clock_ns\tns_per_io\n");
        for (int r = 1; r <= 3; r++) {
            for (String k : new String[] {"debian", "lab"}) {
                for (int rep = 1; rep <= 2; rep++) {
                    double iops = (k.equals("lab") ? (r == 1 ? 80000 : r == 2 ? 82000 : 81000) : 100000)
                            * (rep == 1 ? 1.0 : r == 1 ? 1.01 : r == 2 ? 0.99 : 1.005);
                    b.append(String.format(Locale.ROOT, "%d\t%d\t%s\t%d\t100000\t1\t%.0f\t500000000\t%d%n", r, k.equals("lab") ? 2 : 1, k,
                            rep, iops, k.equals("lab") ? 6000 : 5000));
                }
            }
        }
        Files.writeString(dir.resolve("overhead.tsv"), b);
        Files.writeString(dir.resolve("overhead.txt"), "workload: fio randread 4k, 5 s\nenv: tcg\nrounds: 3\ndebian_kernel: 6.1.0-28-amd64\n"
                + "lab_kernel: 6.1.0-lab+\n");
    }
}
