package lab.jobspec;

import java.util.Map;
import java.util.Set;

/**
 * The job-file keys the lab accepts, fio's aliases for them, and which are flags.
 * Anything else is an unknown key: the lab refuses a job it would run differently from fio.
 * Two keys are the lab's own, not fio's: {@code base_ns} (see {@link JobBuilder}) and {@code inject} ({@link Inject}).
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
            Map.entry("numjobs", "numjobs"),
            Map.entry("iodepth", "iodepth"),
            Map.entry("iodepth_batch_submit", "iodepth_batch_submit"),
            Map.entry("iodepth_batch", "iodepth_batch_submit"),
            Map.entry("iodepth_batch_complete_min", "iodepth_batch_complete_min"),
            Map.entry("runtime", "runtime"),
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
            Map.entry("verify", "verify"),
            Map.entry("base_ns", "base_ns"),
            Map.entry("inject", "inject"));

    /** Keys that may stand alone, meaning {@code =1}, and otherwise take 0 or 1. */
    private static final Set<String> FLAGS = Set.of(
            "time_based", "direct", "zero_buffers", "scramble_buffers", "refill_buffers", "randrepeat",
            "group_reporting", "thread", "fixedbufs", "registerfiles", "hipri", "sqthread_poll");

    private Keys() {
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
