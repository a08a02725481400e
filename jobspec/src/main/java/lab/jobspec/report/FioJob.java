package lab.jobspec.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;

/**
 * One entry of a fio JSON {@code jobs[]} array (fio stat.c, {@code show_thread_status_json}):
 * one clone, or with {@code group_reporting} the sum of a group of clones (see {@link FioGroups}).
 *
 * @param jobname     the job's name; for a group, the first clone's
 * @param groupid     fio's reporting group ({@link lab.jobspec.JobOrder#groupIds}): 0, and one
 *                    more at each {@code stonewall}/{@code new_group} job after the first
 * @param error       errno of the first failed I/O ({@code EIO} = 5), 0 when none
 * @param elapsed     whole seconds from the start barrier to the end of the entry's last clone
 * @param jobOptions  the job's options that differ from fio's defaults and from
 *                    {@code global options}, as fio lists the keys of the job's own section
 * @param jobRuntime  milliseconds the clones ran after {@code ramp_time}, summed over the group
 * @param usrCpu      user CPU time in percent of {@code job_runtime}, as fio
 * @param sysCpu      system CPU time in percent of {@code job_runtime}, as fio
 * @param ctx         context switches of the clone threads (0 where the platform does not say)
 * @param lab         the lab's additions
 * @param latencyDepth with {@code latency_target}: the depth its search settled on (fio's
 *                    {@code latency_depth}; for a group, its first clone's); absent without
 */
@JsonPropertyOrder({"jobname", "groupid", "error", "elapsed", "job options", "read", "write", "trim",
    "job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "lab"})
public record FioJob(
        String jobname,
        int groupid,
        int error,
        long elapsed,
        @JsonProperty("job options") Map<String, String> jobOptions,
        FioDirStats read,
        FioDirStats write,
        FioDirStats trim,
        @JsonProperty("job_runtime") long jobRuntime,
        @JsonProperty("usr_cpu") double usrCpu,
        @JsonProperty("sys_cpu") double sysCpu,
        long ctx,
        long majf,
        long minf,
        FioLab lab,
        @JsonProperty("latency_depth") @JsonInclude(JsonInclude.Include.NON_NULL) Integer latencyDepth) {

    /** CPU time in percent of a runtime, as fio computes {@code usr_cpu}/{@code sys_cpu}. */
    public static double cpuPercent(long cpuNs, long runtimeNs) {
        return runtimeNs == 0 ? 0.0 : cpuNs * 100.0 / runtimeNs;
    }
}
