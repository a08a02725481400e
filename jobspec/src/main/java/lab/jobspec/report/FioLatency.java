package lab.jobspec.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;

/**
 * One latency block of a fio JSON direction: {@code slat_ns}, {@code clat_ns} or {@code lat_ns}
 * (fio stat.c, {@code add_ddir_status_json}). All values are nanoseconds; {@code stddev} is the
 * sample standard deviation, as fio's {@code struct io_stat} computes it.
 *
 * <p>{@code percentile} is present only on {@code clat_ns} and only when there were samples; fio
 * omits it for a direction without I/O, and so does this record (it is null then).
 *
 * @param percentile fio's percentile list, keyed {@code "%f"} ({@code "99.900000"}), see
 *                   {@link FioPercentiles}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"min", "max", "mean", "stddev", "N", "percentile"})
public record FioLatency(
        long min,
        long max,
        double mean,
        double stddev,
        @JsonProperty("N") long n,
        Map<String, Long> percentile) {

    private static final FioLatency NONE = new FioLatency(0, 0, 0.0, 0.0, 0, null);

    /** The block fio writes for a direction that did no I/O. */
    public static FioLatency none() {
        return NONE;
    }

    /** The same moments without percentiles, as fio writes {@code lat_ns} and {@code slat_ns}. */
    public FioLatency withoutPercentiles() {
        return new FioLatency(min, max, mean, stddev, n, null);
    }
}
