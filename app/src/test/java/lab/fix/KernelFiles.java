package lab.fix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Hand-made kernel-side files for the sections' tests, as kernel-scripts' {@code _counted} leaves
 * them: one fio run of 1000 I/Os (1 job, usr 20% and sys 70% of its CPU) with its perf stat and
 * the device's stat before and after.
 */
public final class KernelFiles {
    private KernelFiles() {}

    /** {@code NAME.fio.json}, {@code .perf.csv}, {@code .before.stat}, {@code .after.stat} in {@code dir}: {@code nsPerIo} of task-clock per I/O at {@code iops}. */
    public static void fio(Path dir, String name, double nsPerIo, double iops) throws IOException {
        run(dir, name, "fio", nsPerIo, iops);
    }

    /**
     * A dm scenario's kernel side made native: {@code env.txt} replaced by {@code env} and the
     * emulation probe's files ({@code tcg-zram-*}, which only a guest run has) removed from {@code dir}.
     */
    public static void nativeEnv(Path dir, String env) throws IOException {
        Files.writeString(dir.resolve("env.txt"), env);
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("tcg-zram-")).toList()) {
                Files.delete(f);
            }
        }
    }

    /** Every file of {@code dir} removed (a kernel folder to be written again in another shape, a quick run's, say). */
    public static void clear(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
    }

    /** The same as {@link #fio} for {@code tool} ({@code fio}, or {@code bridge}: the bridge's fio-compatible JSON): {@code NAME.TOOL.*}. */
    public static void run(Path dir, String name, String tool, double nsPerIo, double iops) throws IOException {
        long ios = 1000;
        Files.writeString(dir.resolve(name + "." + tool + ".json"), String.format(Locale.ROOT, """
                {"fio version": "fio-3.33", "jobs": [{"jobname": "%s", "groupid": 0, "error": 0, "elapsed": 2,
                  "job options": {"numjobs": "1"},
                  "read": {"iops": %.1f, "total_ios": %d, "runtime": 1000},
                  "write": {"iops": 0, "total_ios": 0, "runtime": 0},
                  "job_runtime": 1000, "usr_cpu": 20.0, "sys_cpu": 70.0, "ctx": 10}]}
                """, name, iops, ios));
        double ms = nsPerIo * ios / 1e6;
        Files.writeString(dir.resolve(name + "." + tool + ".perf.csv"), String.format(Locale.ROOT,
                "# started on Mon Nov 30 06:03:48 2026\n\n%.3f,msec,task-clock,%d,100.00,1.000,CPUs utilized\n", ms, (long) (ms * 1e6)));
        Files.writeString(dir.resolve(name + "." + tool + ".before.stat"), "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
        Files.writeString(dir.resolve(name + "." + tool + ".after.stat"), ios + " 0 " + ios + " 100 0 0 0 0 0 100 100 0 0 0 0 0 0\n");
    }
}
