package lab.jobspec.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * A run's result in the shape of fio 3.33's {@code --output-format=json}, restricted to the fields
 * the lab's analysis reads, plus a {@code "lab"} object per job. Written by the JVM engine
 * ({@code fio version} = {@code "lab-engine-VERSION"}) and by the native bridge
 * ({@code "lab-bridge-VERSION"}). Immutable.
 *
 * @param fioVersion    who wrote it, e.g. {@code "lab-engine-0.1.0"}; fio writes {@code "fio-3.33"}
 * @param timestamp     start of the run, Unix seconds
 * @param timestampMs   start of the run, Unix milliseconds
 * @param time          start of the run in {@code ctime(3)} form, as fio
 * @param globalOptions options every job shares (see {@link FioOptions#global})
 */
@JsonPropertyOrder({"fio version", "timestamp", "timestamp_ms", "time", "global options", "jobs"})
public record FioReport(
        @JsonProperty("fio version") String fioVersion,
        long timestamp,
        @JsonProperty("timestamp_ms") long timestampMs,
        String time,
        @JsonProperty("global options") Map<String, String> globalOptions,
        List<FioJob> jobs) {

    /** Writes this report as fio-style JSON; leaves {@code out} open. */
    public void writeJson(OutputStream out) throws IOException {
        FioJson.write(this, out);
    }

    /** Reads a report written by {@link #writeJson}. */
    public static FioReport readJson(InputStream in) throws IOException {
        return FioJson.read(in);
    }
}
