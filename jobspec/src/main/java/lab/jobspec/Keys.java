package lab.jobspec;

import java.util.Map;
import java.util.Set;

/**
 * The job-file keys the lab implements, fio's aliases for them, and which are flags.
 * Two keys are the lab's own, not fio's: {@code base_ns} (see {@link JobBuilder}) and {@code inject} ({@link Inject}).
 * Any other key is looked up in {@link OptionTable}, whose implemented rows are exactly the fio
 * spellings here: an option with no effect on what is measured is accepted with a {@link Notice},
 * any other option of fio's is refused with its reason, and a key fio does not know is unknown.
 */
final class Keys {
    /** Every accepted spelling, mapped to the name the rest of the parser uses. */
    private static final Map<String, String> CANONICAL = Map.ofEntries(
            Map.entry("name", "name"),
            Map.entry("filename", "filename"),
            Map.entry("rw", "rw"),
            Map.entry("readwrite", "rw"),
            Map.entry("rwmixread", "rwmixread"),
            Map.entry("rwmixwrite", "rwmixread"),
            Map.entry("bs", "bs"),
            Map.entry("blocksize", "bs"),
            Map.entry("size", "size"),
            Map.entry("offset", "offset"),
            Map.entry("fileoffset", "offset"),
            Map.entry("offset_increment", "offset_increment"),
            Map.entry("fill_device", "fill_device"),
            Map.entry("fill_fs", "fill_device"),
            Map.entry("continue_on_error", "continue_on_error"),
            Map.entry("ignore_error", "ignore_error"),
            Map.entry("fallocate", "fallocate"),
            Map.entry("latency_target", "latency_target"),
            Map.entry("latency_window", "latency_window"),
            Map.entry("latency_percentile", "latency_percentile"),
            Map.entry("latency_run", "latency_run"),
            Map.entry("dedupe_percentage", "dedupe_percentage"),
            Map.entry("dedupe_mode", "dedupe_mode"),
            Map.entry("dedupe_working_set_percentage", "dedupe_working_set_percentage"),
            Map.entry("dedupe_global", "dedupe_global"),
            Map.entry("numjobs", "numjobs"),
            Map.entry("iodepth", "iodepth"),
            Map.entry("iodepth_batch_submit", "iodepth_batch_submit"),
            Map.entry("iodepth_batch", "iodepth_batch_submit"),
            Map.entry("iodepth_batch_complete_min", "iodepth_batch_complete_min"),
            Map.entry("iodepth_batch_complete", "iodepth_batch_complete_min"),
            Map.entry("iodepth_batch_complete_max", "iodepth_batch_complete_max"),
            Map.entry("runtime", "runtime"),
            Map.entry("timeout", "runtime"),
            Map.entry("time_based", "time_based"),
            Map.entry("ramp_time", "ramp_time"),
            Map.entry("direct", "direct"),
            Map.entry("ioengine", "ioengine"),
            Map.entry("zero_buffers", "zero_buffers"),
            Map.entry("scramble_buffers", "scramble_buffers"),
            Map.entry("buffer_compress_percentage", "buffer_compress_percentage"),
            Map.entry("refill_buffers", "refill_buffers"),
            Map.entry("randrepeat", "randrepeat"),
            Map.entry("randseed", "randseed"),
            Map.entry("group_reporting", "group_reporting"),
            Map.entry("thread", "thread"),
            Map.entry("fixedbufs", "fixedbufs"),
            Map.entry("registerfiles", "registerfiles"),
            Map.entry("hipri", "hipri"),
            Map.entry("sqthread_poll", "sqthread_poll"),
            Map.entry("userspace_reap", "userspace_reap"),
            Map.entry("verify", "verify"),
            Map.entry("norandommap", "norandommap"),
            Map.entry("random_generator", "random_generator"),
            Map.entry("allrandrepeat", "allrandrepeat"),
            Map.entry("percentage_random", "percentage_random"),
            Map.entry("bsrange", "bsrange"),
            Map.entry("blocksize_range", "bsrange"),
            Map.entry("bssplit", "bssplit"),
            Map.entry("io_size", "io_size"),
            Map.entry("io_limit", "io_size"),
            Map.entry("number_ios", "number_ios"),
            Map.entry("buffered", "buffered"),
            Map.entry("stonewall", "stonewall"),
            Map.entry("wait_for_previous", "stonewall"),
            Map.entry("new_group", "new_group"),
            Map.entry("wait_for", "wait_for"),
            Map.entry("verify_pattern", "verify_pattern"),
            Map.entry("cpus_allowed", "cpus_allowed"),
            Map.entry("cpumask", "cpumask"),
            Map.entry("cpus_allowed_policy", "cpus_allowed_policy"),
            Map.entry("directory", "directory"),
            Map.entry("ioscheduler", "ioscheduler"),
            Map.entry("filesize", "filesize"),
            Map.entry("nrfiles", "nrfiles"),
            Map.entry("nr_files", "nrfiles"),
            Map.entry("file_service_type", "file_service_type"),
            Map.entry("loops", "loops"),
            Map.entry("blockalign", "blockalign"),
            Map.entry("ba", "blockalign"),
            Map.entry("random_distribution", "random_distribution"),
            Map.entry("rate", "rate"),
            Map.entry("rate_iops", "rate_iops"),
            Map.entry("rate_min", "rate_min"),
            Map.entry("ratemin", "rate_min"),
            Map.entry("rate_iops_min", "rate_iops_min"),
            Map.entry("rate_cycle", "rate_cycle"),
            Map.entry("ratecycle", "rate_cycle"),
            Map.entry("rate_process", "rate_process"),
            Map.entry("rate_ignore_thinktime", "rate_ignore_thinktime"),
            Map.entry("io_submit_mode", "io_submit_mode"),
            Map.entry("thinktime", "thinktime"),
            Map.entry("thinktime_spin", "thinktime_spin"),
            Map.entry("thinktime_blocks", "thinktime_blocks"),
            Map.entry("thinktime_blocks_type", "thinktime_blocks_type"),
            Map.entry("thinktime_iotime", "thinktime_iotime"),
            Map.entry("startdelay", "startdelay"),
            Map.entry("flow", "flow"),
            Map.entry("flow_id", "flow_id"),
            Map.entry("flow_sleep", "flow_sleep"),
            Map.entry("exitall", "exitall"),
            Map.entry("exit_what", "exit_what"),
            Map.entry("steadystate", "steadystate"),
            Map.entry("ss", "steadystate"),
            Map.entry("steadystate_duration", "steadystate_duration"),
            Map.entry("ss_dur", "steadystate_duration"),
            Map.entry("steadystate_ramp_time", "steadystate_ramp_time"),
            Map.entry("ss_ramp", "steadystate_ramp_time"),
            Map.entry("numa_cpu_nodes", "numa_cpu_nodes"),
            Map.entry("numa_mem_policy", "numa_mem_policy"),
            Map.entry("prioclass", "prioclass"),
            Map.entry("prio", "prio"),
            Map.entry("cmdprio_percentage", "cmdprio_percentage"),
            Map.entry("cmdprio_class", "cmdprio_class"),
            Map.entry("cmdprio", "cmdprio"),
            Map.entry("cmdprio_bssplit", "cmdprio_bssplit"),
            Map.entry("do_verify", "do_verify"),
            Map.entry("verify_backlog", "verify_backlog"),
            Map.entry("verify_backlog_batch", "verify_backlog_batch"),
            Map.entry("verify_interval", "verify_interval"),
            Map.entry("verify_fatal", "verify_fatal"),
            Map.entry("verify_async", "verify_async"),
            Map.entry("verify_only", "verify_only"),
            Map.entry("verify_offset", "verify_offset"),
            Map.entry("base_ns", "base_ns"),
            Map.entry("inject", "inject"));

    /** Keys that may stand alone, meaning {@code =1}, and otherwise take 0 or 1. */
    private static final Set<String> FLAGS = Set.of(
            "time_based", "direct", "zero_buffers", "scramble_buffers", "refill_buffers", "randrepeat",
            "group_reporting", "thread", "fixedbufs", "registerfiles", "hipri", "sqthread_poll",
            "userspace_reap", "norandommap", "buffered", "stonewall", "new_group", "rate_ignore_thinktime", "exitall",
            "do_verify", "verify_fatal", "fill_device", "latency_run", "dedupe_global",
            "verify_only");

    /** The lab's own keys, which fio does not know. */
    private static final Set<String> LAB_KEYS = Set.of("base_ns", "inject");

    private Keys() {
    }

    /** Every accepted spelling: fio's and the lab's own. */
    static Set<String> spellings() {
        return CANONICAL.keySet();
    }

    /** The lab's own keys ({@code base_ns}, {@code inject}), accepted but not fio's. */
    static Set<String> labKeys() {
        return LAB_KEYS;
    }

    /** The canonical name of {@code key} as written, or null when the lab does not accept it. */
    static String canonical(String key) {
        return CANONICAL.get(key);
    }

    /** {@code canonical} is a 0/1 flag that may be written bare. */
    static boolean isFlag(String canonical) {
        return FLAGS.contains(canonical);
    }
}
