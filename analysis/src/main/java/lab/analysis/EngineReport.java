package lab.analysis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import lab.jobspec.report.FioDirStats;
import lab.jobspec.report.FioJob;
import lab.jobspec.report.FioReport;

/** A table of fio-style results (engine, bridge or fio itself): IOPS, bandwidth, latency, CPU. */
public final class EngineReport {
    /** One job entry of one file, with the device it ran on. */
    record Row(Path file, String device, FioJob job) {}

    private final List<Row> rows;

    private EngineReport(List<Row> rows) {
        this.rows = rows;
    }

    /** Reads fio-style JSON files; an unreadable or foreign one is named in the exception. */
    public static EngineReport read(List<Path> files) throws MalformedResultException {
        List<Row> rows = new ArrayList<>();
        for (Path f : files) {
            FioReport r = FioResults.read(f);
            for (FioJob j : r.jobs()) {
                String dev = j.lab() != null && j.lab().device() != null ? j.lab().device() : "?";
                rows.add(new Row(f, dev, j));
            }
        }
        return new EngineReport(rows);
    }

    /** Per device and job: read/write IOPS and clat percentiles. */
    public Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Row r : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("read_iops", r.job().read().iops());
            m.put("write_iops", r.job().write().iops());
            m.put("read_clat_p50_ns", percentile(r.job().read(), "50.000000"));
            m.put("read_clat_p99_ns", percentile(r.job().read(), "99.000000"));
            m.put("usr_cpu", r.job().usrCpu());
            m.put("sys_cpu", r.job().sysCpu());
            out.put(r.device() + "/" + jobLabel(r.job()), m);
        }
        return out;
    }

    /** The markdown section; {@code command} gives the reproducing command for a device. */
    public String markdown(Function<String, String> command) {
        StringBuilder sb = new StringBuilder("## The sample job through the JVM engine\n\n");
        sb.append("| device | job | read IOPS | write IOPS | read MiB/s | write MiB/s | read clat p50 / p99 (ns) | usr / sys CPU % |\n");
        sb.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            FioDirStats rd = r.job().read();
            FioDirStats wr = r.job().write();
            sb.append(String.format("| %s | %s | %.0f | %.0f | %.1f | %.1f | %s / %s | %.0f / %.0f |%n",
                    r.device(), jobLabel(r.job()), rd.iops(), wr.iops(), rd.bwBytes() / 1048576.0,
                    wr.bwBytes() / 1048576.0, percentile(rd, "50.000000"), percentile(rd, "99.000000"),
                    r.job().usrCpu(), r.job().sysCpu()));
        }
        sb.append('\n');
        rows.stream().map(Row::device).distinct()
                .forEach(d -> sb.append("Reproduce (").append(d).append("): `").append(command.apply(d)).append("`\n"));
        return sb.toString();
    }

    /** The job's name, with its CPU slots when clones are reported one by one (fio repeats the name). */
    private static String jobLabel(FioJob j) {
        if (j.lab() == null || j.lab().cpus() == null) {
            return j.jobname();
        }
        return j.jobname() + " (cpu " + j.lab().cpus().stream().map(String::valueOf)
                .collect(java.util.stream.Collectors.joining(",")) + ")";
    }

    private static Object percentile(FioDirStats d, String key) {
        if (d == null || d.clatNs() == null || d.clatNs().percentile() == null) {
            return "-";
        }
        Long v = d.clatNs().percentile().get(key);
        return v == null ? "-" : v;
    }
}
