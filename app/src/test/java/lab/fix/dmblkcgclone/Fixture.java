package lab.fix.dmblkcgclone;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lab.engine.bench.DmBlkcgClone.Config;
import lab.engine.bench.DmBlkcgClone.Result;
import lab.engine.bench.DmBlkcgClone.Sample;
import lab.engine.iosched.RequestQueue.Charge;

/**
 * A hand-made dm-blkcg-clone run folder, every figure chosen so the tests can work it out by
 * hand: 3 rounds of the model (1000 MiB/s) and of the calibrated model (295 MiB/s) at linear1 and
 * thin, direct and buffered, 1000:500 and 500:500, 200 ms ramp and 500 ms window, a timeline every
 * 10 ms from 10 to 700 ms; writer b writes 200 MiB in every window, writer a as the ratio says:
 *
 * <ul>
 *   <li>buffered: {@code transfer} the weights' ratio (at 1000:500 x 0.95 in round 2 and x 1.05 in round 3
 *       of the model, x 0.9 in round 1 and x 0.95 in round 3 of the calibrated), its bytes charged to /a and /b,
 *       tagged; {@code lost} 1.0, 1.02, then 0.99, all charged to the root group;</li>
 *   <li>direct through linear1: both variants the weights' ratio, charged to /a and /b by task;</li>
 *   <li>direct through thin: both variants 1.0, 1.02, then 0.99, the root group's;</li>
 *   <li>the A/A ({@code transfer}, thin, buffered, 500:500): b's bytes per 100 ms span +2%, +2%,
 *       +2%, -2%, 0 over the window in round 1, -2%, -2%, -2%, +2%, 0 in round 2 and +2%, 0, 0, 0, 0
 *       in round 3, a's even: a's window mean over b's 209715200 / 211392920, 209715200 / 208037480
 *       and 209715200 / 210554060 (the 4 MiB per 10 ms written as 4278190 and 4110418 bytes at ±2%),
 *       not 1, and not the same in any two rounds; in the calibrated model ±1% (4236247 and 4152361
 *       bytes): 209715200 / 210554060, 209715200 / 208876340 and 209715200 / 210134630.</li>
 * </ul>
 *
 * The kernel side ({@code kernel/runs.tsv}): native loop direct 500:500, writers at 150 + 150 MiB/s,
 * 140 + 150, then 145 + 150 (the calibration: 295 MiB/s, the median of 300, 290 and 295); native loop
 * buffered 1000:500 at 10 + 10 MiB/s, charges unknown ({@code -}); guest thin buffered 1000:500 at
 * 20 / 10, 21 / 10, then 19.5 / 10 MiB/s, 600 + 300 of 1000 bytes charged to a and b; env.txt as the
 * scenario writes it.
 */
public final class Fixture {
    private Fixture() {}

    static final long MIB = 1 << 20;
    static final String RUN_ID = "dbc-run";
    static final double CALIBRATED_MIB = 295;

    /** The a/b ratio of a model measurement, as the class comment says. */
    static double ratio(String variant, String stack, String path, int wa, int wb, int round, boolean calibrated) {
        double weights = (double) wa / wb;
        double one = round == 1 ? 1.0 : round == 2 ? 1.02 : 0.99;
        if (path.equals("buffered")) {
            if (variant.equals("lost")) {
                return one;
            }
            return wa == wb ? 1.0 : weights * (calibrated ? (round == 1 ? 0.9 : round == 2 ? 1.0 : 0.95)
                    : (round == 1 ? 1.0 : round == 2 ? 0.95 : 1.05));
        }
        return stack.equals("thin") ? one : weights;
    }

    /** One measurement with a linear timeline (the A/A's b jittered per span), its window's bytes and charges. */
    static Result result(String variant, String stack, String path, int wa, int wb, int round, double mib) {
        boolean cal = mib != 1000;
        double r = ratio(variant, stack, path, wa, wb, round, cal);
        boolean aa = variant.equals("transfer") && stack.equals("thin") && path.equals("buffered") && wa == wb;
        // per 10 ms: b 4 MiB (200 MiB in the 500 ms window), a r times as much
        long incB = 4 * MIB;
        long incA = Math.round(r * 4 * MIB);
        List<Sample> t = new ArrayList<>();
        long a = 0;
        long b = 0;
        for (long ms = 10; ms <= 700; ms += 10) {
            long span = (ms - 10) / 100; // the span this 10 ms ends in: 200..300 is span 2
            // the A/A's b: +2% (calibrated: +1%) in spans 2-4 and -2% in span 5 in round 1, the other way round in round 2,
            // +2% in span 2 alone in round 3
            double step = cal ? 0.01 : 0.02;
            double jitter = !aa || span < 2 || span > 5 ? 0 : round == 3 ? (span == 2 ? step : 0)
                    : (span < 5) == (round == 1) ? step : -step;
            a += incA;
            b += Math.round(incB * (1 + jitter));
            t.add(new Sample(ms, a, b));
        }
        long bytesA = 50 * incA;
        long bytesB = 50 * incB;
        Map<String, Charge> charged = new LinkedHashMap<>();
        boolean root = path.equals("buffered") ? variant.equals("lost") : stack.equals("thin");
        boolean tagged = path.equals("buffered");
        charged.put("/", root ? new Charge((bytesA + bytesB) / MIB, bytesA + bytesB, 0) : new Charge(0, 0, 0));
        if (!root) {
            charged.put("/a", new Charge(bytesA / MIB, bytesA, tagged ? bytesA / MIB : 0));
            charged.put("/b", new Charge(bytesB / MIB, bytesB, tagged ? bytesB / MIB : 0));
        }
        return new Result(new Config(variant, stack, path, wa, wb, mib, 200, 500), bytesA, bytesB, 500_000_000L, charged, List.copyOf(t), 0);
    }

    /** Every point of a round at {@code mib}, both variants in the round's order. */
    static List<Result> round(int round, double mib) {
        List<Result> out = new ArrayList<>();
        for (String stack : List.of("linear1", "thin")) {
            for (String path : List.of("direct", "buffered")) {
                for (int[] w : new int[][] {{1000, 500}, {500, 500}}) {
                    for (String v : round == 1 ? List.of("lost", "transfer") : List.of("transfer", "lost")) {
                        out.add(result(v, stack, path, w[0], w[1], round, mib));
                    }
                }
            }
        }
        return out;
    }

    /** A fio JSON file of one writer at {@code mibPerSec}. */
    static void fio(Path f, String job, double mibPerSec) throws IOException {
        long bw = Math.round(mibPerSec * MIB);
        Files.writeString(f, String.format(Locale.ROOT, """
                {"fio version": "fio-3.33", "jobs": [{"jobname": "%s", "groupid": 0, "error": 0, "elapsed": 5,
                  "job options": {"rw": "write", "bs": "1M"},
                  "read": {"io_bytes": 0, "bw_bytes": 0, "iops": 0, "runtime": 0, "total_ios": 0},
                  "write": {"io_bytes": %d, "bw_bytes": %d, "iops": %.1f, "runtime": 5000, "total_ios": %d},
                  "job_runtime": 5000, "usr_cpu": 1.0, "sys_cpu": 5.0, "ctx": 100}]}
                """, job, 5 * bw, bw, mibPerSec, 5 * bw / MIB));
    }

    static final String HEADER = String.join("\t", DmBlkcgCloneRaw.COLUMNS);

    /** The kernel folder of the class comment. */
    static void kernel(Path k) throws IOException {
        Object[][] runs = {
            {"native", "loop", "direct", 500, 500, 1, 150.0, 150.0, "-", "-", "-"},
            {"native", "loop", "direct", 500, 500, 2, 140.0, 150.0, "-", "-", "-"},
            {"native", "loop", "direct", 500, 500, 3, 145.0, 150.0, "-", "-", "-"},
            {"native", "loop", "buffered", 1000, 500, 1, 10.0, 10.0, "-", "-", "2000"},
            {"guest", "thin", "buffered", 1000, 500, 1, 20.0, 10.0, "600", "300", "1000"},
            {"guest", "thin", "buffered", 1000, 500, 2, 21.0, 10.0, "600", "300", "1000"},
            {"guest", "thin", "buffered", 1000, 500, 3, 19.5, 10.0, "600", "300", "1000"},
            {"guest", "thin", "direct", 1000, 500, 1, 15.0, 15.0, "500", "500", "1000"},
        };
        kernelRuns(k, runs);
        Files.writeString(k.resolve("env.txt"), """
                environment: native (loop); guest VM, tcg, qemu -smp 2 (linear thin)
                kernel: native: 6.18.44 | guest: 6.1.0-57-amd64
                cgroup: native: v1 blkio at /sys/fs/cgroup/blkio | guest: v2 at /sys/fs/cgroup
                bottom: native: loop devices over files in a tmpfs | guest: null_blk devices, 32 MiB/s
                scheduler: bfq
                """);
    }

    /**
     * The kernel folder of a host whose kernel has dm-mod and dm-thin-pool, as the scenario writes
     * it: every stack natively ({@code environment: native (loop linear thin)}, per-side facts for
     * the native side alone, the guest not needed): the native loop rows of {@link #kernel}, and
     * native thin buffered 1000:500 at 19 / 10, 20 / 10, then 19.5 / 10 MiB/s, 650 + 330 of 1000 bytes
     * charged to a and b; thin direct 1000:500 16 / 16 (1:1); linear buffered 1000:500 18 / 10 (1.80,
     * within 10% of the weights' 2: held). With {@code guest}: the guest thin buffered rows of {@link #kernel} too,
     * and env.txt as a run with both sides would say it.
     */
    static void nativeKernel(Path k, boolean guest) throws IOException {
        List<Object[]> runs = new ArrayList<>(List.of(new Object[][] {
            {"native", "loop", "direct", 500, 500, 1, 150.0, 150.0, "-", "-", "-"},
            {"native", "loop", "direct", 500, 500, 2, 140.0, 150.0, "-", "-", "-"},
            {"native", "loop", "direct", 500, 500, 3, 145.0, 150.0, "-", "-", "-"},
            {"native", "loop", "buffered", 1000, 500, 1, 10.0, 10.0, "-", "-", "2000"},
            {"native", "linear", "buffered", 1000, 500, 1, 18.0, 10.0, "640", "350", "1000"},
            {"native", "thin", "buffered", 1000, 500, 1, 19.0, 10.0, "650", "330", "1000"},
            {"native", "thin", "buffered", 1000, 500, 2, 20.0, 10.0, "650", "330", "1000"},
            {"native", "thin", "buffered", 1000, 500, 3, 19.5, 10.0, "650", "330", "1000"},
            {"native", "thin", "direct", 1000, 500, 1, 16.0, 16.0, "500", "500", "1000"},
        }));
        if (guest) {
            runs.add(new Object[] {"guest", "thin", "buffered", 1000, 500, 1, 20.0, 10.0, "600", "300", "1000"});
            runs.add(new Object[] {"guest", "thin", "buffered", 1000, 500, 2, 21.0, 10.0, "600", "300", "1000"});
            runs.add(new Object[] {"guest", "thin", "buffered", 1000, 500, 3, 19.5, 10.0, "600", "300", "1000"});
        }
        kernelRuns(k, runs.toArray(new Object[0][]));
        Files.writeString(k.resolve("env.txt"), guest ? """
                environment: native (loop linear thin); guest VM, kvm, qemu -smp 4, cpu host (Debian's kernel; under KVM: virtualised, not emulated) (linear thin)
                kernel: native: 6.18.44 | guest: 6.1.0-57-amd64
                cgroup: native: v2 at /sys/fs/cgroup | guest: v2 at /sys/fs/cgroup
                bottom: native: loop devices over files in a tmpfs | guest: null_blk devices, 32 MiB/s
                scheduler: bfq
                modules: native: loaded by the lab, unloaded after: dm_thin_pool, dm_mod
                guest: ran: linear and thin in the guest VM (guest/ has its console and log)
                native_why: none: linear and thin ran natively (this kernel has dm-mod and dm-thin-pool)
                guest_why: none: linear and thin ran in the guest VM
                """ : """
                environment: native (loop linear thin)
                kernel: native: 6.18.44
                cgroup: native: v2 at /sys/fs/cgroup
                bottom: native: loop devices over files in a tmpfs
                scheduler: bfq
                modules: native: loaded by the lab, unloaded after: dm_thin_pool, dm_mod
                guest: skipped: not needed: this kernel has dm-mod and dm-thin-pool (linear and thin ran natively)
                native_why: none: linear and thin ran natively (this kernel has dm-mod and dm-thin-pool)
                guest_why: not needed: this kernel has dm-mod and dm-thin-pool (linear and thin ran natively)
                """);
    }

    /**
     * The kernel folder of a host whose kernel has no BFQ, as the scenario writes it: every stack in
     * the guest VM, the loop stack too (loop direct 500:500 at 100 + 100 MiB/s; thin buffered
     * 1000:500 as in {@link #kernel}), the native side's reason in env.txt.
     */
    static void guestOnlyKernel(Path k) throws IOException {
        kernelRuns(k, new Object[][] {
            {"guest", "loop", "direct", 500, 500, 1, 100.0, 100.0, "500", "500", "1000"},
            {"guest", "thin", "buffered", 1000, 500, 1, 20.0, 10.0, "600", "300", "1000"},
            {"guest", "thin", "buffered", 1000, 500, 2, 21.0, 10.0, "600", "300", "1000"},
            {"guest", "thin", "buffered", 1000, 500, 3, 19.5, 10.0, "600", "300", "1000"},
        });
        Files.writeString(k.resolve("env.txt"), """
                environment: guest VM, tcg, qemu -smp 2, cpu qemu64 (loop linear thin)
                kernel: guest: 6.1.0-57-amd64
                cgroup: guest: v2 at /sys/fs/cgroup
                bottom: guest: loop: a loop device over a file in a tmpfs; linear, thin: null_blk devices, 32 MiB/s
                scheduler: bfq
                guest: ran: loop, linear, thin in the guest VM (guest/ has its console and log)
                native_why: loop, linear, thin: this kernel has no bfq I/O scheduler
                guest_why: none: loop, linear, thin ran in the guest VM
                """);
    }

    /** runs.tsv of {@code runs} (env, stack, path, weights, round, a and b MiB/s, a/b/device bytes) and their fio files. */
    private static void kernelRuns(Path k, Object[][] runs) throws IOException {
        Files.createDirectories(k);
        List<String> rows = new ArrayList<>(List.of(HEADER));
        for (Object[] r : runs) {
            String name = r[0] + "-" + r[1] + "-" + r[2] + "-" + r[3] + "-" + r[4] + "-r" + r[5];
            fio(k.resolve(name + "-a.fio.json"), "a", (double) r[6]);
            fio(k.resolve(name + "-b.fio.json"), "b", (double) r[7]);
            rows.add(String.join("\t", r[0].toString(), r[1].toString(), r[2].toString(), r[3].toString(), r[4].toString(),
                    r[5].toString(), name + "-a.fio.json", name + "-b.fio.json", r[8].toString(), r[9].toString(), r[10].toString(),
                    "6.5"));
        }
        Files.writeString(k.resolve(DmBlkcgCloneRaw.RUNS), String.join("\n", rows) + "\n");
    }

    /** The whole run folder under {@code dir}: manifest, the model's and the calibrated model's rounds, the kernel side. */
    public static Path run(Path dir) throws IOException {
        Path run = dir.resolve(RUN_ID);
        Path raw = run.resolve("raw/dm-blkcg-clone");
        Files.createDirectories(raw);
        Files.writeString(run.resolve("manifest.json"), "{\"run_id\": \"" + RUN_ID + "\", \"command\": \"./lab pair dm-blkcg-clone --rounds 3"
                + " --id " + RUN_ID + "\", \"cores\": 2}");
        for (int r = 1; r <= 3; r++) {
            DmBlkcgCloneRaw.write(DmBlkcgCloneRaw.file(raw, DmBlkcgCloneRaw.MODEL, r), round(r, 1000));
            DmBlkcgCloneRaw.write(DmBlkcgCloneRaw.file(raw, DmBlkcgCloneRaw.CALIBRATED, r), round(r, CALIBRATED_MIB));
        }
        kernel(raw.resolve(DmBlkcgCloneRaw.KERNEL));
        return run;
    }
}
