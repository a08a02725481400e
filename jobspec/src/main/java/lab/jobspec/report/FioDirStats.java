package lab.jobspec.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One direction ({@code read}, {@code write}, {@code trim}) of a fio JSON job entry, with the
 * fields the lab's analysis reads (fio stat.c, {@code add_ddir_status_json}).
 *
 * @param ioBytes  bytes transferred
 * @param ioKbytes {@code io_bytes >> 10}
 * @param bwBytes  {@code 1000 * io_bytes / runtime} (bytes/s, integer division, as fio)
 * @param bw       {@code bw_bytes / 1024} (KiB/s)
 * @param iops     {@code 1000.0 * total_ios / runtime}
 * @param runtime  milliseconds; 0 for a direction without I/O, as fio
 * @param totalIos completed I/Os
 */
@JsonPropertyOrder({"io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "total_ios",
    "short_ios", "drop_ios", "slat_ns", "clat_ns", "lat_ns"})
public record FioDirStats(
        @JsonProperty("io_bytes") long ioBytes,
        @JsonProperty("io_kbytes") long ioKbytes,
        @JsonProperty("bw_bytes") long bwBytes,
        long bw,
        double iops,
        long runtime,
        @JsonProperty("total_ios") long totalIos,
        @JsonProperty("short_ios") long shortIos,
        @JsonProperty("drop_ios") long dropIos,
        @JsonProperty("slat_ns") FioLatency slatNs,
        @JsonProperty("clat_ns") FioLatency clatNs,
        @JsonProperty("lat_ns") FioLatency latNs) {

    private static final FioDirStats NONE = of(0, 0, 0, FioLatency.none(), FioLatency.none(), FioLatency.none());

    /**
     * A direction's stats with the derived fields computed as fio computes them.
     *
     * @param runtimeMs the job's runtime in ms; ignored (reported as 0) when {@code totalIos} is 0
     */
    public static FioDirStats of(long ioBytes, long totalIos, long runtimeMs,
                                 FioLatency slat, FioLatency clat, FioLatency lat) {
        long runt = totalIos == 0 ? 0 : runtimeMs;
        long bwBytes = runt == 0 ? 0 : 1000 * ioBytes / runt;
        double iops = runt == 0 ? 0.0 : 1000.0 * totalIos / runt;
        return new FioDirStats(ioBytes, ioBytes >> 10, bwBytes, bwBytes / 1024, iops, runt,
                totalIos, 0, 0, slat, clat, lat);
    }

    /** The block fio writes for a direction that did no I/O. */
    public static FioDirStats none() {
        return NONE;
    }
}
