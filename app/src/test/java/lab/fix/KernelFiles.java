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
        long ios = 1000;
        Files.writeString(dir.resolve(name + ".fio.json"), String.format(Locale.ROOT, """
                {"fio version": "fio-3.33", "jobs": [{"jobname": "%s", "groupid": 0, "error": 0, "elapsed": 2,
                  "job options": {"numjobs": "1"},
                  "read": {"iops": %.1f, "total_ios": %d, "runtime": 1000},
                  "write": {"iops": 0, "total_ios": 0, "runtime": 0},
                  "job_runtime": 1000, "usr_cpu": 20.0, "sys_cpu": 70.0, "ctx": 10}]}
                """, name, iops, ios));
        double ms = nsPerIo * ios / 1e6;
        Files.writeString(dir.resolve(name + ".fio.perf.csv"), String.format(Locale.ROOT,
                "# started on Mon Nov 30 06:03:48 2026\n\n%.3f,msec,task-clock,%d,100.00,1.000,CPUs utilized\n", ms, (long) (ms * 1e6)));
        Files.writeString(dir.resolve(name + ".fio.before.stat"), "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
        Files.writeString(dir.resolve(name + ".fio.after.stat"), ios + " 0 " + ios + " 100 0 0 0 0 0 100 100 0 0 0 0 0 0\n");
    }
}
