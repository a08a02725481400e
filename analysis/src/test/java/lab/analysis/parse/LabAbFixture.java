package lab.analysis.parse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Hand-made {@code lab-kernel.sh lab-ab} output for the tests, CPU-bound by construction: the
 * after costs {@value #NS_AFTER} ns per I/O, the before {@code 5 + 2·K·N} more (K = {@value #K}),
 * so Δ over K·N has slope 2 and intercept 5; IOPS is inversely proportional to the CPU per I/O,
 * the before's off by {@code 0.1%·(round − 2)} so the ratios spread; the A/A is the after's IOPS
 * times {@link #aaFactor} (1.004, 0.998, 1.003, 0.999 in rounds 1 to 4, then again), so an A/A
 * taken against anything but the after, or the after taken in its place, shows; each trial's
 * 500 ms intervals are its IOPS ± {@code 1%·(i − 2)}. The after's IOPS are whole thousands, so
 * the A/A's are whole numbers and each round's aa/after is exactly its factor.
 */
public final class LabAbFixture {
    public static final double NS_AFTER = 400;
    public static final double K = 2;
    public static final long IOS = 100_000;

    /** The A/A's IOPS over the after's, per mille off 1, in rounds 1 to 4 (then again). */
    private static final int[] AA_PER_MILLE = {4, -2, 3, -1};

    /** The share's A/A over the after's share, in hundredths, in rounds 1 to 4 (then again). */
    private static final int[] AA_SHARE_HUNDREDTHS = {2, -1, 1, -2};

    private LabAbFixture() {}

    /** The A/A's IOPS over the after's in round {@code r}: 1.004, 0.998, 1.003, 0.999, then again. */
    public static double aaFactor(int r) {
        return 1 + AA_PER_MILLE[(r - 1) % AA_PER_MILLE.length] / 1000.0;
    }

    /** The A/A's IOPS in round {@code r}: the after's times {@link #aaFactor}, a whole number. */
    public static double aaIops(int r) {
        return afterIops(r) * aaFactor(r);
    }

    /** The share form's after in round {@code r}: 2.0 + 0.05·(r − 2). */
    public static double afterShare(int r) {
        return 2.0 + 0.05 * (r - 2);
    }

    /** The share form's A/A in round {@code r}: the after's share plus 0.02, −0.01, +0.01, −0.02, then again. */
    public static double aaShare(int r) {
        return afterShare(r) + AA_SHARE_HUNDREDTHS[(r - 1) % AA_SHARE_HUNDREDTHS.length] / 100.0;
    }

    /** Δ(N) of the fixture. */
    public static double delta(int n) {
        return 5 + 2 * K * n;
    }

    /** The after's IOPS in round {@code r}. */
    public static double afterIops(int r) {
        return 1e9 / NS_AFTER + 1000 * r;
    }

    /** The before's IOPS at count {@code n} in round {@code r}. */
    public static double beforeIops(int n, int r) {
        return afterIops(r) * NS_AFTER / (NS_AFTER + delta(n)) * (1 + 0.001 * (r - 2));
    }

    /** Writes lab-ab.tsv, lab-iter.tsv and lab-ab.txt for {@code counts} over {@code rounds} into {@code dir}. */
    public static void iops(Path dir, int rounds, int... counts) throws IOException {
        Files.createDirectories(dir);
        StringBuilder ab = new StringBuilder("count\tround\tslot\tvariant\tvalue\tjobs\tios\truntime_s\tmetric\ttask_clock_ns\tns_per_io"
                + "\tops_delta\textra\n");
        StringBuilder it = new StringBuilder("count\tround\tvariant\ti\tmetric\n");
        for (int n : counts) {
            for (int r = 1; r <= rounds; r++) {
                String[] order = r % 2 == 1 ? new String[] {"before", "after", "aa"} : new String[] {"aa", "after", "before"};
                for (int slot = 0; slot < order.length; slot++) {
                    String v = order[slot];
                    boolean before = v.equals("before");
                    double iops = before ? beforeIops(n, r) : v.equals("aa") ? aaIops(r) : afterIops(r);
                    double ns = before ? NS_AFTER + delta(n) : NS_AFTER;
                    double ops = before ? K * n * IOS : 0;
                    ab.append(String.format(Locale.ROOT, "%d\t%d\t%d\t%s\t%s\t2\t%d\t5.0\t%.3f\t%.1f\t%.3f\t%.0f\t-%n", n, r, slot + 1, v,
                            before ? "rwsem" : "srcu", IOS, iops, ns * IOS, ns, ops));
                    for (int i = 1; i <= 3; i++) {
                        it.append(String.format(Locale.ROOT, "%d\t%d\t%s\t%d\t%.3f%n", n, r, v, i, iops * (1 + 0.01 * (i - 2))));
                    }
                }
            }
        }
        Files.writeString(dir.resolve("lab-ab.tsv"), ab);
        Files.writeString(dir.resolve("lab-iter.tsv"), it);
        Files.writeString(dir.resolve("lab-ab.txt"), """
                fix: zram-init-lock
                switch: /sys/module/zram/parameters/lab_init_lock
                values: rwsem srcu none
                before: rwsem
                after: srcu
                default: none
                rounds: %d
                ops_per_io: 2
                ops_note: down_read and up_read on init_lock per I/O
                metric: iops
                workload: fio randread 4k psync, 2 jobs, 1 GiB zram
                env: tcg
                kernel: 6.1.0-lab+
                source: linux-source-6.1 6.1.192-3
                patches: 0123abc
                cpus: 2
                future_key: ignored
                """.formatted(rounds));
    }

    /**
     * dm-blkcg-clone's form: count 1, the metric a share (writer a over b), root_pct in extra; after
     * {@link #afterShare} (2.0 ± 0.05), the A/A {@link #aaShare} (the after's ± 0.01 or 0.02), before 1.0.
     */
    public static void share(Path dir, int rounds) throws IOException {
        Files.createDirectories(dir);
        StringBuilder ab = new StringBuilder("count\tround\tslot\tvariant\tvalue\tjobs\tios\truntime_s\tmetric\ttask_clock_ns\tns_per_io"
                + "\tops_delta\textra\n");
        StringBuilder it = new StringBuilder("count\tround\tvariant\ti\tmetric\n");
        for (int r = 1; r <= rounds; r++) {
            int slot = 0;
            for (String v : new String[] {"before", "after", "aa"}) {
                double share = v.equals("before") ? 1.0 : v.equals("aa") ? aaShare(r) : afterShare(r);
                String root = v.equals("before") ? "100" : "0";
                ab.append(String.format(Locale.ROOT, "1\t%d\t%d\t%s\t%s\t2\t1000\t10\t%.3f\t1000000000\t1000000\t%d\ta_mibs=%.1f;b_mibs=20;"
                        + "root_pct=%s%n", r, ++slot, v, v.equals("before") ? "0" : "1", share, v.equals("before") ? 1000 : 0, 20 * share,
                        root));
                for (int i = 1; i <= 3; i++) {
                    it.append(String.format(Locale.ROOT, "1\t%d\t%s\t%d\t%.3f%n", r, v, i, share * (1 + 0.02 * (i - 2))));
                }
            }
        }
        Files.writeString(dir.resolve("lab-ab.tsv"), ab);
        Files.writeString(dir.resolve("lab-iter.tsv"), it);
        Files.writeString(dir.resolve("lab-ab.txt"), """
                fix: dm-blkcg-clone
                switch: /sys/module/dm_mod/parameters/lab_clone_blkcg
                before: 0
                after: 1
                rounds: %d
                ops_per_io: 1
                metric: share
                workload: two dd-like writers, bs=1M, weights 1000:500, thin over null_blk
                env: tcg
                kernel: 6.1.0-lab+
                cpus: 2
                """.formatted(rounds));
    }
}
