package lab.analysis;

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
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.estimate.Verdict;
import lab.analysis.fidelity.NoiseFloor;
import lab.jobspec.report.FioJob;
import lab.jobspec.report.FioReport;

/**
 * The bridge beside fio on the same job file and device, computed from {@code raw/} alone.
 *
 * <p>{@code raw/rows.tsv} lists the rows in order ({@code ROW<TAB>description}); each run is
 * {@code raw/ROW-rREP-fio.json} (fio 3.33 {@code --output-format=json}) or
 * {@code raw/ROW-rREP-bridge*.json} (the bridge's fio-style JSON; {@code bridge-c1} and the like
 * are the bridge under other JVM options), each with a {@code .time} file beside it. The ratio of
 * a repetition compares runs a few seconds apart; the table gives their geometric mean with a 95%
 * interval over repetitions, judged by the interval against ±5% ({@link #PARITY}).
 *
 * <p>The A/A control: each repetition also runs fio a second time, {@code raw/ROW-rREP-fio-aa.json},
 * with the bridge between the two fio runs (fio, bridge, fio again; the two fio runs swap places
 * every other repetition). Its per-repetition ratio, second fio over first, is what fio against
 * itself gives two runs apart, estimated as every ratio is: its interval should hold 1.
 *
 * <p>Every figure is estimated when the report is read, so that its printers ({@link #markdown},
 * {@link #summary}) only print: a notebook renders them with estimation forbidden.
 *
 * <p>Job-thread CPU per I/O is the CPU time of the I/O threads (fio's {@code usr_cpu + sys_cpu}
 * percent of each clone's {@code job_runtime}, summed over clones; the bridge reports the same
 * per worker thread), per million completed I/Os. Whole-command CPU is {@code /usr/bin/time}'s
 * user+sys of the process, which also holds start-up, ramp and the io-wq workers.
 */
public final class BridgeVsFioReport {
    private static final Pattern NAME = Pattern.compile("(.+)-r(\\d+)-(fio|fio-aa|bridge[a-z0-9-]*)\\.json");
    /** The A/A control's tool name: fio run a second time in the same repetition. */
    public static final String AA = "fio-aa";

    /**
     * One run's totals. {@code commandCpuSec}: user+sys of the whole command from
     * {@code /usr/bin/time} (its {@code .time} file), null when absent.
     */
    record Run(double iops, long ios, double threadCpuSec, long ctx, Double commandCpuSec) {
        double cpuSecPerMillion() {
            return threadCpuSec / ios * 1e6;
        }
    }

    /**
     * One bridge variant against fio in one row, every figure the table, the LKP blocks and the
     * summary print: the repetitions that ran both, the medians, each ratio's estimate over the
     * repetitions (IOPS as it is, and with its non-positive repetitions left out, the chart's and
     * the headline's), and the LKP rows by metric.
     */
    private record Pairing(int reps, double fioIops, double toolIops, Estimate iops, Estimate iopsPositive, double fioCpu,
                           double toolCpu, Estimate cpu, double cpuMedian, String fioCommandCpu, String toolCommandCpu,
                           double fioCtx, double toolCtx, Map<String, lab.analysis.compare.LkpTable.Row> lkp) {}

    /** Row id -> description, in order. */
    private final Map<String, String> rows;
    /** Row -> rep -> tool -> run. */
    private final Map<String, Map<Integer, Map<String, Run>>> runs;
    /** Row -> its IOPS and CPU A/A (null where the row has none): made with the report, as every figure of it. */
    private final Map<String, NoiseFloor> iopsFloors = new LinkedHashMap<>();
    private final Map<String, NoiseFloor> cpuFloors = new LinkedHashMap<>();
    /** Row -> bridge variant -> its figures (none where it has no repetition beside fio). */
    private final Map<String, Map<String, Pairing>> pairings = new LinkedHashMap<>();
    /** The headline's figures: the median over rows and tools of the IOPS ratios, and of the rows' A/A reaches. */
    private final Double iopsAcrossRows;
    private final Double floorAcrossRows;

    /** The report of {@code runs}, every figure of it estimated here: printing it estimates nothing. */
    private BridgeVsFioReport(Map<String, String> rows, Map<String, Map<Integer, Map<String, Run>>> runs) {
        this.rows = rows;
        this.runs = runs;
        for (String row : rows.keySet()) {
            iopsFloors.put(row, floor(iopsRatios(row, AA)));
            cpuFloors.put(row, floor(cpuRatios(row, AA)));
            Map<String, Pairing> byTool = new LinkedHashMap<>();
            for (String tool : tools(row)) {
                List<Double> ratio = iopsRatios(row, tool);
                if (!ratio.isEmpty()) {
                    byTool.put(tool, pairing(row, tool, ratio));
                }
            }
            pairings.put(row, byTool);
        }
        iopsAcrossRows = estimateIopsAcrossRows();
        floorAcrossRows = estimateFloorAcrossRows();
    }

    private Pairing pairing(String row, String tool, List<Double> ratio) {
        Map<String, lab.analysis.compare.LkpTable.Row> lkp = new LinkedHashMap<>();
        for (String metric : List.of("iops", "job_cpu_s_per_million_io", "context_switches_per_io")) {
            lkp.put(metric, estimateLkpRow(metric, row, tool));
        }
        return new Pairing(ratio.size(), Stats.median(each(row, "fio", Run::iops)), Stats.median(each(row, tool, Run::iops)),
                Estimator.of(ratio), Estimator.of(ratio.stream().filter(x -> x > 0 && Double.isFinite(x)).toList()),
                Stats.median(each(row, "fio", Run::cpuSecPerMillion)), Stats.median(each(row, tool, Run::cpuSecPerMillion)),
                Estimator.of(cpuRatios(row, tool)), Stats.median(cpuRatios(row, tool)), commandCpu(row, "fio"), commandCpu(row, tool),
                Stats.median(each(row, "fio", r -> (double) r.ctx() / r.ios())), Stats.median(each(row, tool, r -> (double) r.ctx() / r.ios())),
                lkp);
    }

    private Pairing pairing(String row, String tool) {
        return pairings.getOrDefault(row, Map.of()).get(tool);
    }

    public static BridgeVsFioReport read(Path rawDir) throws IOException, MalformedResultException {
        Path index = rawDir.resolve("rows.tsv");
        if (!Files.exists(index)) {
            throw new MalformedResultException(index, "missing: the row index written by the benchmark script");
        }
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(index)) {
            if (!line.isBlank()) {
                String[] f = line.split("\t", 2);
                rows.put(f[0], f.length > 1 ? f[1] : f[0]);
            }
        }
        Map<String, Map<Integer, Map<String, Run>>> runs = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(rawDir)) {
            for (Path f : files.sorted().toList()) {
                Matcher m = NAME.matcher(f.getFileName().toString());
                if (m.matches() && rows.containsKey(m.group(1))) {
                    runs.computeIfAbsent(m.group(1), k -> new TreeMap<>())
                            .computeIfAbsent(Integer.parseInt(m.group(2)), k -> new TreeMap<>())
                            .put(m.group(3), readRun(f, rawDir.resolve(m.group(1) + "-r" + m.group(2) + "-" + m.group(3) + ".time")));
                }
            }
        }
        return new BridgeVsFioReport(rows, runs);
    }

    static Run readRun(Path f, Path time) throws MalformedResultException, IOException {
        FioReport r = FioResults.read(f);
        double iops = 0;
        long ios = 0;
        double cpu = 0;
        long ctx = 0;
        for (FioJob j : r.jobs()) {
            if (j.error() != 0) {
                throw new MalformedResultException(f, "job " + j.jobname() + " ended with error " + j.error());
            }
            iops += j.read().iops() + j.write().iops();
            ios += j.read().totalIos() + j.write().totalIos();
            cpu += (j.usrCpu() + j.sysCpu()) / 100.0 * j.jobRuntime() / 1000.0;
            ctx += j.ctx();
        }
        if (ios == 0) {
            throw new MalformedResultException(f, "no completed I/O");
        }
        Double command = null;
        if (Files.exists(time)) {
            String[] t = Files.readString(time).trim().split("\\s+");
            try {
                command = Double.parseDouble(t[t.length - 3]) + Double.parseDouble(t[t.length - 2]);
            } catch (RuntimeException e) {
                throw new MalformedResultException(time, "not '/usr/bin/time -f \"%U %S %e\"' output");
            }
        }
        return new Run(iops, ios, cpu, ctx, command);
    }

    /** {@code f(tool's run, fio's run)} for each repetition that has both. */
    private List<Double> perRep(String row, String tool, java.util.function.ToDoubleBiFunction<Run, Run> f) {
        List<Double> out = new ArrayList<>();
        for (Map<String, Run> rep : runs.getOrDefault(row, Map.of()).values()) {
            if (rep.containsKey("fio") && rep.containsKey(tool)) {
                out.add(f.applyAsDouble(rep.get(tool), rep.get("fio")));
            }
        }
        return out;
    }

    /** Row id -> description, in the order of {@code rows.tsv}. */
    public Map<String, String> rows() {
        return rows;
    }

    /** IOPS of each repetition of {@code tool} ({@code fio}, {@code bridge}, ...) in {@code row}. */
    public List<Double> iops(String row, String tool) {
        return each(row, tool, Run::iops);
    }

    /** Job-thread CPU seconds per million I/Os of each repetition. */
    public List<Double> cpuPerMillion(String row, String tool) {
        return each(row, tool, Run::cpuSecPerMillion);
    }

    /** Context switches per I/O of each repetition. */
    public List<Double> ctxPerIo(String row, String tool) {
        return each(row, tool, r -> (double) r.ctx() / r.ios());
    }

    /** bridge / fio IOPS of each repetition that ran both. */
    public List<Double> iopsRatios(String row, String tool) {
        return perRep(row, tool, (b, f) -> b.iops() / f.iops());
    }

    /** bridge / fio job-thread CPU per I/O of each repetition that ran both. */
    public List<Double> cpuRatios(String row, String tool) {
        return perRep(row, tool, (b, f) -> b.cpuSecPerMillion() / f.cpuSecPerMillion());
    }

    /** bridge / fio context switches per I/O of each repetition that ran both (NaN where fio had none). */
    public List<Double> ctxRatios(String row, String tool) {
        return perRep(row, tool, (b, f) -> ((double) b.ctx() / b.ios()) / ((double) f.ctx() / f.ios()));
    }

    /**
     * One LKP row of {@code metric} ("iops", "job_cpu_s_per_million_io", "context_switches_per_io"):
     * the means ± stddev of fio and {@code tool}, and the change from the per-repetition ratios'
     * estimate, within noise where its interval holds 1; null where a side is missing.
     */
    public lab.analysis.compare.LkpTable.Row lkpRow(String metric, String row, String tool) {
        Pairing p = pairing(row, tool);
        return p == null ? null : p.lkp().get(metric);
    }

    private lab.analysis.compare.LkpTable.Row estimateLkpRow(String metric, String row, String tool) {
        List<Double> base = switch (metric) {
            case "iops" -> iops(row, "fio");
            case "job_cpu_s_per_million_io" -> cpuPerMillion(row, "fio");
            default -> ctxPerIo(row, "fio");
        };
        List<Double> cand = switch (metric) {
            case "iops" -> iops(row, tool);
            case "job_cpu_s_per_million_io" -> cpuPerMillion(row, tool);
            default -> ctxPerIo(row, tool);
        };
        List<Double> ratios = switch (metric) {
            case "iops" -> iopsRatios(row, tool);
            case "job_cpu_s_per_million_io" -> cpuRatios(row, tool);
            default -> ctxRatios(row, tool);
        };
        List<Double> positive = ratios.stream().filter(x -> x > 0 && Double.isFinite(x)).toList();
        if (base.isEmpty() || cand.isEmpty() || positive.isEmpty()) {
            return null;
        }
        Estimate e = Estimator.of(positive);
        return new lab.analysis.compare.LkpTable.Row(metric, new lab.analysis.compare.Sample(base), new lab.analysis.compare.Sample(cand),
                100 * (e.value() - 1), e.hasInterval() && !e.excludes(1));
    }

    /** {@code tool}'s IOPS over fio's per repetition, estimated over repetitions; null where none. */
    public Estimate iopsRatio(String row, String tool) {
        Pairing p = pairing(row, tool);
        return p == null ? null : p.iopsPositive();
    }

    /** The headline's bridge / fio IOPS: the median over rows and tools of each one's estimate; null for none. */
    public Double iopsAcrossRows() {
        return iopsAcrossRows;
    }

    private Double estimateIopsAcrossRows() {
        List<Double> v = new ArrayList<>();
        for (String row : rows().keySet()) {
            for (String tool : tools(row)) {
                Estimate e = iopsRatio(row, tool);
                if (e != null) {
                    v.add(e.value());
                }
            }
        }
        return v.isEmpty() ? null : Stats.median(v);
    }

    /** The median of the rows' A/A reaches from 1 (IOPS), for orientation; null in a run without the A/A. */
    public Double floorAcrossRows() {
        return floorAcrossRows;
    }

    private Double estimateFloorAcrossRows() {
        List<Double> v = new ArrayList<>();
        for (String row : rows().keySet()) {
            if (iopsFloor(row) != null) {
                v.add(iopsFloor(row).floor());
            }
        }
        return v.isEmpty() ? null : Stats.median(v);
    }

    /** The bridge variants run for {@code row} ({@code bridge}, {@code bridge-c1}, ...). */
    public List<String> tools(String row) {
        return runs.getOrDefault(row, Map.of()).values().stream().flatMap(m -> m.keySet().stream())
                .filter(t -> !t.equals("fio") && !t.equals(AA)).distinct().sorted().toList();
    }

    /** The row's IOPS noise floor from its A/A, null when the row has none. */
    public NoiseFloor iopsFloor(String row) {
        return iopsFloors.get(row);
    }

    /** The row's job-thread CPU per I/O noise floor from its A/A, null when the row has none. */
    public NoiseFloor cpuFloor(String row) {
        return cpuFloors.get(row);
    }

    /** The A/A over its repetitions, estimated as every ratio is; null without one. */
    static NoiseFloor floor(List<Double> aa) {
        return NoiseFloor.of(Estimator.of(aa));
    }

    /** What bridge/fio parity means here: no difference larger than ±5%. */
    static final double PARITY = 0.05;

    /** A ratio over the repetitions with its 95% interval and the interval's verdict at {@link #PARITY}, gated by the row's A/A (null: none). */
    static String cell(Estimate ratio, NoiseFloor control) {
        return Verdict.cell(ratio, control == null ? null : control.aa(), PARITY);
    }

    /** Median whole-command CPU s per million I/Os over the runs that have a {@code .time} file, or "-". */
    private String commandCpu(String row, String tool) {
        List<Double> v = new ArrayList<>();
        for (Map<String, Run> rep : runs.getOrDefault(row, Map.of()).values()) {
            Run r = rep.get(tool);
            if (r != null && r.commandCpuSec() != null) {
                v.add(r.commandCpuSec() / r.ios() * 1e6);
            }
        }
        return v.isEmpty() ? "-" : String.format("%.1f", Stats.median(v));
    }

    private List<Double> each(String row, String tool, java.util.function.ToDoubleFunction<Run> f) {
        List<Double> out = new ArrayList<>();
        for (Map<String, Run> rep : runs.getOrDefault(row, Map.of()).values()) {
            Run r = rep.get(tool);
            if (r != null) {
                out.add(f.applyAsDouble(r));
            }
        }
        return out;
    }

    /** Per row and bridge variant: medians, the IOPS ratio and the CPU ratio to fio, with ranges. */
    public Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String row : rows.keySet()) {
            for (String tool : tools(row)) {
                Pairing p = pairing(row, tool);
                if (p == null) {
                    continue;
                }
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("description", rows.get(row));
                m.put("tool", tool);
                m.put("reps", p.reps());
                m.put("fio_iops_median", p.fioIops());
                m.put("bridge_iops_median", p.toolIops());
                Estimate r = p.iops();
                m.put("iops_ratio", r.json());
                NoiseFloor control = iopsFloor(row);
                m.put("iops_verdict", Verdict.of(r, control == null ? null : control.aa(), PARITY).code);
                m.put("iops_verdict_text", Verdict.words(r, control == null ? null : control.aa(), PARITY));
                m.put("fio_cpu_s_per_million_median", p.fioCpu());
                m.put("bridge_cpu_s_per_million_median", p.toolCpu());
                m.put("cpu_ratio_median", p.cpuMedian());
                NoiseFloor floor = iopsFloor(row);
                NoiseFloor cpuFloor = cpuFloor(row);
                if (floor != null) { // runs made before the A/A control keep the summary they had
                    m.put("aa_reps", floor.rounds());
                    m.put("aa_iops_ratio", floor.aa().json());
                    m.put("aa_cpu_ratio", cpuFloor == null ? null : cpuFloor.aa().json());
                }
                out.put(row + "/" + tool, m);
            }
        }
        return out;
    }

    /** Whether any row has its A/A control (runs made before the control have none). */
    public boolean hasAa() {
        return rows.keySet().stream().anyMatch(row -> iopsFloor(row) != null);
    }

    /**
     * The notebook section. {@code command} reproduces the whole table. A run without the A/A
     * control (made before it) keeps the table it was committed with.
     */
    public String markdown(String command) {
        boolean aa = hasAa();
        StringBuilder sb = new StringBuilder("## The bridge beside fio: same job file, same device\n\n");
        if (aa) {
            sb.append("Each repetition runs fio, the bridge, then fio again (the two fio runs swap places every other ")
              .append("repetition); ratios are per repetition (bridge / fio), reported as their geometric mean with a 95% ")
              .append("interval over repetitions (Student's t on the logs), and judged by that interval: parity where it lies ")
              .append("inside ±5% (\"no effect larger than ±5%\"), a difference where it leaves out 1. The A/A control is fio's ")
              .append("second run over its first in the same repetition, estimated the same way: its interval should hold 1. ");
        } else {
            sb.append("Runs alternate fio and the bridge (ABBA); ratios are per repetition (bridge / fio), ")
              .append("geometric mean with a 95% interval over repetitions, judged by the interval. ");
        }
        sb.append("Job-thread CPU: user+sys of the I/O threads over the measured runtime ")
          .append("(fio's usr_cpu/sys_cpu; the bridge's getrusage per thread), in seconds per million I/Os. ")
          .append("Whole-command CPU: `/usr/bin/time` user+sys of the whole process (start-up, ramp, ")
          .append("the rings' io-wq workers; for the bridge also the JVM's JIT and GC) per million measured I/Os.\n\n");
        sb.append("| row | bridge | reps | fio IOPS | bridge IOPS | IOPS bridge/fio |").append(aa ? " A/A IOPS fio/fio |" : "")
          .append(" job-thread CPU s/M I/O fio / bridge | CPU bridge/fio | whole-command CPU s/M I/O fio / bridge |")
          .append(" job-thread context switches per I/O fio / bridge |\n");
        sb.append("|---|---|---:|---:|---:|---:|").append(aa ? "---:|" : "").append("---:|---:|---:|---:|\n");
        for (String row : rows.keySet()) {
            NoiseFloor floor = iopsFloor(row);
            for (String tool : tools(row)) {
                Pairing p = pairing(row, tool);
                if (p == null) {
                    sb.append("| ").append(rows.get(row)).append(" | ").append(tool).append(" | 0 | no paired runs | | | |")
                      .append(aa ? " |" : "").append(" | | |\n");
                    continue;
                }
                sb.append(String.format("| %s | %s | %d | %.0f | %.0f | %s |",
                        rows.get(row), tool, p.reps(), p.fioIops(), p.toolIops(), cell(p.iops(), floor)));
                if (aa) {
                    sb.append(' ').append(floor == null ? "no A/A" : floor.aa().format(2)
                            + (floor.failed() ? " (excludes 1: drift or order)" : "")).append(" |");
                }
                sb.append(String.format(" %.2f / %.2f | %s | %s / %s | %.2f / %.2f |%n", p.fioCpu(), p.toolCpu(),
                        cell(p.cpu(), cpuFloor(row)), p.fioCommandCpu(), p.toolCommandCpu(), p.fioCtx(), p.toolCtx()));
            }
        }
        sb.append("\nReproduce: `").append(command).append("`\n");
        return sb.toString();
    }
}
