package lab.notebook;

import lab.results.RunDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lab.analysis.FioResults;
import lab.analysis.MalformedResultException;
import lab.analysis.parse.DiskStat;
import lab.analysis.parse.PerfStat;
import lab.jobspec.report.FioJob;
import lab.jobspec.report.FioReport;

/**
 * The kernel side of a pairing as kernel-scripts leave it (see kernel-scripts/README.md): per
 * job NAME and tool, {@code NAME.TOOL.json} (fio JSON or the bridge's), {@code NAME.TOOL.perf.csv}
 * ({@code perf stat -x,}, maybe {@code -r N}) and {@code NAME.TOOL.before/after.stat}; plus
 * {@code env.txt} and {@code perf-missing.txt}.
 *
 * <p>Per-I/O figures divide perf's per-run mean by the I/Os of one run, taken from the
 * {@code /sys/block} stat delta over all repeats divided by the repeats (so both are means over
 * the same runs; fio's JSON holds only the last run). Where the stat files are missing, fio's
 * own I/O count is used and the row says so.
 */
public final class KernelRuns {
    private static final Pattern JSON = Pattern.compile("(.+)\\.(fio|bridge[a-z0-9-]*)\\.json");

    /**
     * One job through one tool. {@code cpus}: task-clock over the job's runtime (CPUs busy);
     * {@code userShare}: the job threads' user CPU over their user + system CPU (fio's
     * {@code usr_cpu} and {@code sys_cpu}), NaN where the tool reported neither.
     */
    public record Row(String job, String tool, double iops, double iosPerRun, double taskClockNsPerIo,
                      double ctxPerIo, double cpus, boolean iosFromStat, Map<String, Double> perIo, double userShare) {}

    /** Hardware events shown as columns when this machine counted them (they are absent under most VMs). */
    static final List<String> HW = List.of("cycles", "instructions", "cache-misses", "branch-misses");

    private final Map<String, String> env;
    private final List<Row> rows;
    private final List<String> missing;

    private KernelRuns(Map<String, String> env, List<Row> rows, List<String> missing) {
        this.env = env;
        this.rows = rows;
        this.missing = missing;
    }

    /** Reads {@code dir}; empty when it holds no job results. Broken files become gaps of {@code run}. */
    public static KernelRuns read(RunDir run, Path dir) throws IOException {
        Map<String, String> env = readEnv(dir.resolve("env.txt"));
        List<String> missing = Files.exists(dir.resolve("perf-missing.txt"))
                ? Files.readAllLines(dir.resolve("perf-missing.txt")).stream().filter(l -> !l.isBlank()).toList() : List.of();
        int repeats = Integer.parseInt(env.getOrDefault("perf_repeats", "1"));
        List<Row> rows = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path f : s.sorted().toList()) {
                    Matcher m = JSON.matcher(f.getFileName().toString());
                    if (m.matches()) {
                        try {
                            rows.add(row(dir, m.group(1), m.group(2), repeats));
                        } catch (MalformedResultException e) {
                            run.gap(e);
                        }
                    }
                }
            }
        }
        return new KernelRuns(env, rows, missing);
    }

    private static Row row(Path dir, String job, String tool, int repeats) throws MalformedResultException {
        String base = job + "." + tool;
        FioReport r = FioResults.read(dir.resolve(base + ".json"));
        double iops = 0;
        long ios = 0;
        long runtimeMs = 0;
        double usr = 0;
        double sys = 0;
        for (FioJob j : r.jobs()) {
            if (j.error() != 0) {
                throw new MalformedResultException(dir.resolve(base + ".json"), "job " + j.jobname() + " ended with error " + j.error());
            }
            iops += j.read().iops() + j.write().iops();
            ios += j.read().totalIos() + j.write().totalIos();
            runtimeMs = Math.max(runtimeMs, wallMs(j, r.jobs().size()));
            usr += j.usrCpu() * j.jobRuntime();
            sys += j.sysCpu() * j.jobRuntime();
        }
        PerfStat perf = PerfStat.read(dir.resolve(base + ".perf.csv"));
        double iosPerRun = ios;
        boolean fromStat = false;
        Path before = dir.resolve(base + ".before.stat");
        Path after = dir.resolve(base + ".after.stat");
        if (Files.exists(before) && Files.exists(after)) {
            DiskStat d = DiskStat.delta(DiskStat.read(before), DiskStat.read(after));
            long statIos = d.readIos() + d.writeIos();
            if (statIos > 0) {
                iosPerRun = (double) statIos / repeats;
                fromStat = true;
            }
        }
        double taskNs = perf.get("task-clock").filter(c -> !c.absent()).map(PerfStat::taskClockNs).orElse(Double.NaN);
        double ctx = perf.get("context-switches").filter(c -> !c.absent()).map(c -> c.value().getAsDouble()).orElse(Double.NaN);
        // task-clock is summed over every thread of the command; runtimeMs is the job's wall time.
        double cpus = runtimeMs == 0 ? Double.NaN : taskNs / (runtimeMs * 1e6);
        Map<String, Double> perIo = new TreeMap<>();
        for (PerfStat.Counter c : perf.counters()) {
            if (!c.absent() && !c.baseEvent().equals("task-clock")) {
                perIo.put(c.baseEvent(), c.value().getAsDouble() / iosPerRun);
            }
        }
        return new Row(job, tool, iops, iosPerRun, taskNs / iosPerRun, ctx / iosPerRun, cpus, fromStat, perIo,
                usr + sys > 0 ? usr / (usr + sys) : Double.NaN);
    }

    /**
     * The job's wall time in ms. fio's {@code job_runtime} is per clone, but with group_reporting
     * one entry stands for {@code numjobs} clones and holds their sum; the bridge does the same.
     */
    static long wallMs(FioJob j, int entries) {
        int clones = 1;
        if (entries == 1 && j.jobOptions() != null) {
            try {
                clones = Math.max(1, Integer.parseInt(j.jobOptions().getOrDefault("numjobs", "1").trim()));
            } catch (NumberFormatException e) {
                clones = 1;
            }
        }
        return j.jobRuntime() / clones;
    }

    /** A kernel folder's {@code env.txt}: its {@code key: value} lines, by key; empty where there is no file. */
    public static Map<String, String> readEnv(Path f) throws IOException {
        Map<String, String> env = new TreeMap<>();
        if (Files.exists(f)) {
            for (String line : Files.readAllLines(f)) {
                int i = line.indexOf(": ");
                if (i > 0) {
                    env.put(line.substring(0, i), line.substring(i + 2));
                }
            }
        }
        return env;
    }

    /**
     * What a quick run's kernel side left out, in one paragraph, from {@code env}'s
     * {@code quick_leaves_out} (the scenario writes it with {@code --quick}: a quick scenario runs
     * what the quick notebook reads, and no more), with the commands that run the rest; "" where
     * env.txt has no such line (a full run, or one made before quick scenarios were cut).
     */
    public static String quickNote(Map<String, String> env, String fix) {
        String out = env.get("quick_leaves_out");
        if (out == null || out.isBlank()) {
            return "";
        }
        return "A quick run (`--quick`): its kernel side ran only what this section reads, and left out " + out
                + ". Every run of it: `sudo ./lab pair " + fix + "` (the kernel side alone: `sudo ./lab kernel run " + fix + "`).\n\n";
    }

    public boolean isEmpty() { return rows.isEmpty(); }

    public List<Row> rows() { return rows; }

    public Map<String, String> env() { return env; }

    /** The perf events this machine could not count (kernel-scripts' probe). */
    public List<String> missingCounters() { return missing; }

    /** The markdown table of every row, with what the figures mean. */
    public String table() {
        List<String> hw = HW.stream().filter(e -> rows.stream().anyMatch(r -> r.perIo().containsKey(e))).toList();
        StringBuilder b = new StringBuilder("| job | tool | IOPS | task-clock ns per I/O | context switches per I/O | CPUs busy |");
        hw.forEach(e -> b.append(' ').append(e).append(" per I/O |"));
        b.append("\n|---|---|---:|---:|---:|---:|");
        hw.forEach(e -> b.append("---:|"));
        b.append('\n');
        for (Row r : rows) {
            b.append("| ").append(r.job()).append(" | ").append(r.tool()).append(" | ").append(Fmt.f(r.iops(), 0))
                    .append(" | ").append(Fmt.f(r.taskClockNsPerIo(), 0)).append(r.iosFromStat() ? "" : " (fio's I/O count)")
                    .append(" | ").append(Fmt.f(r.ctxPerIo(), 3)).append(" | ").append(Fmt.f(r.cpus(), 2)).append(" |");
            hw.forEach(e -> b.append(' ').append(Fmt.f(r.perIo().getOrDefault(e, Double.NaN), 0)).append(" |"));
            b.append('\n');
        }
        return b.toString();
    }

    /** Rows as summary.json objects. */
    public Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("environment", env.getOrDefault("environment", "native"));
        out.put("kernel", env.get("kernel"));
        out.put("device", env.get("device"));
        out.put("perf_repeats", Integer.parseInt(env.getOrDefault("perf_repeats", "1")));
        out.put("counters_absent", missing);
        Map<String, Object> jobs = new LinkedHashMap<>();
        for (Row r : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("iops", r.iops());
            m.put("task_clock_ns_per_io", r.taskClockNsPerIo());
            m.put("context_switches_per_io", r.ctxPerIo());
            m.put("cpus_busy", r.cpus());
            m.put("counters_per_io", r.perIo());
            jobs.put(r.job() + "/" + r.tool(), m);
        }
        out.put("jobs", jobs);
        return out;
    }

    /** perf record flamegraphs of each kernel job (kernel-scripts' --flamegraph), or why there are none. */
    public static String flamegraphs(RunDir run, Path dir) throws IOException {
        List<String> svgs;
        List<String> missing;
        try (Stream<Path> s = Files.list(dir)) {
            List<String> names = s.map(p -> p.getFileName().toString()).sorted().toList();
            svgs = names.stream().filter(n -> n.endsWith(".kernel.svg")).toList();
            missing = names.stream().filter(n -> n.endsWith(".kernel-flamegraph-missing.txt")).toList();
        }
        if (svgs.isEmpty() && missing.isEmpty()) {
            return "Kernel flamegraphs: not recorded in this run.\n\n";
        }
        String rel = run.relative(dir);
        StringBuilder b = new StringBuilder();
        if (!svgs.isEmpty()) {
            b.append("Kernel flamegraphs (`perf record -e cpu-clock -g -a`, one more run of the job; kernel frames orange): ")
                    .append(String.join(", ", svgs.stream().map(n -> "[" + n.replace(".kernel.svg", "") + "](" + rel + "/" + n + ")").toList()))
                    .append(".\n\n");
        }
        if (!missing.isEmpty()) {
            b.append("No kernel flamegraph where perf could not record: ").append(String.join(", ", missing.stream()
                    .map(n -> "[" + n.replace(".kernel-flamegraph-missing.txt", "") + "](" + rel + "/" + n + ")").toList())).append(".\n\n");
        }
        return b.toString();
    }

    /** {@code raw/steps.tsv}'s line for {@code fix}'s {@code step} as "status: detail", or null when there is none. */
    public static String stepStatus(RunDir run, String fix, String step) throws IOException {
        Path steps = run.raw().resolve("steps.tsv");
        if (Files.exists(steps)) {
            for (String line : Files.readAllLines(steps)) {
                String[] c = line.split("\t", 4);
                if (c.length == 4 && c[0].equals(fix) && c[1].equals(step)) {
                    return c[2] + ": " + c[3];
                }
            }
        }
        return null;
    }
}
