package lab.fix.primitives;

import lab.analysis.estimate.Estimate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import lab.analysis.chart.BarChart;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.results.RunDir;

/**
 * The calibration's kernel side, scenario {@code zram-floor}: today's real zram per I/O (fio and
 * the bridge, psync), its CPU per I/O by job, its scaling, and one shared atomic as a share of
 * one real I/O's CPU.
 */
final class ZramFloor {
    private ZramFloor() {}

    /** Kernel CPU per I/O, job by job, fio beside the bridge. */
    static String perIoChart(KernelRuns k) {
        List<String> jobs = k.rows().stream().map(KernelRuns.Row::job).distinct().toList();
        List<String> tools = k.rows().stream().map(KernelRuns.Row::tool).distinct().sorted().toList();
        BarChart c = new BarChart("Today's zram: task-clock ns per I/O (whole command, perf stat)", "ns per I/O").categories(jobs);
        for (String tool : tools) {
            List<BarChart.Bar> bars = new ArrayList<>();
            for (String job : jobs) {
                bars.add(k.rows().stream().filter(r -> r.job().equals(job) && r.tool().equals(tool))
                        .filter(r -> !Double.isNaN(r.taskClockNsPerIo())).findFirst()
                        .map(r -> BarChart.Bar.of(r.taskClockNsPerIo())).orElse(BarChart.Bar.missing()));
            }
            c.series(tool, bars);
        }
        return c.toSvg();
    }

    /** One shared atomic (and its per-cpu fix) at T threads as a share of one real I/O's CPU. */
    static String jvmVsKernel(PrimitivesReport r, KernelRuns k, int t) {
        KernelRuns.Row io = k.rows().stream().filter(x -> x.tool().equals("fio") && x.job().equals("randread-j" + t))
                .findFirst().orElse(null);
        if (io == null || Double.isNaN(io.taskClockNsPerIo())) {
            return "";
        }
        StringBuilder b = new StringBuilder("Against one real I/O (fio 4k randread, " + t + " job(s): "
                + Fmt.f(io.taskClockNsPerIo(), 0) + " ns of CPU per I/O), one get+put pair at " + t + " threads costs:\n\n"
                + "| primitive | ns per pair | share of one I/O's CPU |\n|---|---:|---:|\n");
        for (String p : r.primitives()) {
            if (r.nsPerPair(p, t) != null) {
                double ns = r.nsPerPair(p, t).value();
                b.append("| `").append(p).append("` | ").append(Fmt.f(ns, 1)).append(" | ")
                        .append(Fmt.f(100 * ns / io.taskClockNsPerIo(), 2)).append("% |\n");
            }
        }
        return b.append("\nA fix that removes one such pair per I/O can gain at most that share; one taken at every layer ")
                .append("of a stack (dm-linear x5: five) gains it five times.\n\n").toString();
    }

    static String kernelIntro(KernelRuns k) {
        return "Real zram on this host (" + k.env().getOrDefault("environment", "native") + ", kernel "
                + k.env().getOrDefault("kernel", "?") + "; " + k.env().getOrDefault("device", "zram") + "), 4k psync O_DIRECT, "
                + "each job through fio and through the lab's bridge, under `perf stat -r " + k.env().getOrDefault("perf_repeats", "1")
                + "`. task-clock and context switches are perf's per-run means divided by one run's I/Os (the /sys/block stat "
                + "delta over the repeats); CPUs busy is task-clock over the job's runtime. task-clock counts the whole command: "
                + "for the bridge that includes the JVM's start-up, JIT compilers and GC, which a short "
                + "--quick run spreads over few I/Os; the bridge-vs-fio calibration separates the I/O threads' own CPU.\n\n";
    }

    static String counterNote(KernelRuns k) {
        if (k.missingCounters().isEmpty()) {
            return "";
        }
        return "Counters absent on this machine (perf reports them `<not supported>`; never counted as 0): "
                + String.join(", ", k.missingCounters()) + ". Per-I/O cycles and instructions need a machine that exposes them.\n\n";
    }

    /** fio randread IOPS at T jobs over 1 job, or null when the run lacks either. */
    static Estimate kernelScaling(KernelRuns k, int t) {
        Double one = null;
        Double at = null;
        for (KernelRuns.Row r : k.rows()) {
            if (r.tool().equals("fio") && r.job().equals("randread-j1")) {
                one = r.iops();
            }
            if (r.tool().equals("fio") && r.job().equals("randread-j" + t)) {
                at = r.iops();
            }
        }
        return one == null || at == null || t == 1 ? null : Estimate.single(at / one);
    }

    static String kernelSkipReason(RunDir run) throws IOException {
        String step = KernelRuns.stepStatus(run, "primitives", "kernel");
        return step != null ? step : "this run has no raw/primitives/kernel/ (the kernel side runs with `sudo ./lab pair primitives`).";
    }
}
