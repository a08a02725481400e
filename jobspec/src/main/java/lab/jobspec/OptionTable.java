package lab.jobspec;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every option fio 3.33 has, with what the lab does when a job file sets it ({@link OptionClass}):
 * one row per option, with all its spellings, so that a key is either one of fio's, with a known
 * fate, or not fio's at all.
 *
 * <p>The rows are the {@code .. option::} entries of fio 3.33's {@code HOWTO.rst} (general,
 * I/O-engine-specific and profile options; the tiobench profile's {@code size} is the general
 * {@code size}), plus what fio 3.33 has but {@code HOWTO.rst} leaves out: the options
 * {@code log_prio}, io_uring's and pvsync2's {@code uncached}, mmap's {@code thp} and gfapi's
 * {@code volume}, {@code brick} and {@code single-instance}, and the aliases {@code timeout},
 * {@code fileoffset}, {@code nr_files}, {@code ratemin}, {@code ratecycle} and libhdfs's
 * {@code chunck_size} (found with {@code fio --cmdhelp=all}, {@code fio --enghelp=ENGINE} and
 * fio's {@code options.c}). A row's name is fio's own ({@code rw}, {@code bs}), which
 * {@code HOWTO.rst} sometimes lists second.
 *
 * <p>{@link Keys} stays the parser's source for the implemented keys; the implemented rows here
 * hold exactly the fio spellings it accepts (a test checks it). The lab's own keys,
 * {@code base_ns} and {@code inject}, are not fio's and are not here. Rows are grouped by their
 * reason, one constant per theme.
 */
public final class OptionTable {
    // ---- no effect ----
    private static final String COMMENT = "a description of the job: nothing run depends on it";
    private static final String REPORT = "reporting only: the lab writes its own report";
    private static final String LOGS = "fio's log files only: the lab writes none";
    private static final String CLOCK = "how fio times its own statistics: the lab measures with its own clock";
    private static final String LAYOUT_ORDER = "when or in what order the jobs make and lay out their files: the lab"
            + " makes and lays out every file before any job starts, one after another, whatever it says";

    // ---- refused ----
    private static final String UNITS = "not implemented by the lab yet: it changes how the job file's sizes are read";
    private static final String NOT_YET_IO = "not implemented by the lab yet: it changes the I/O issued";
    private static final String IO_URING_NOT_YET =
            "not implemented by the lab yet: an io_uring option that changes the I/O issued";
    private static final String MEMORY =
            "not implemented by the lab yet: it changes the memory behind the I/O buffers or left to the system";
    private static final String FILES =
            "not implemented by the lab yet: it changes which files the job uses or how they are prepared";
    private static final String TIMING =
            "not implemented by the lab yet: it changes when I/O is issued or when the job stops";
    private static final String VERIFY =
            "not implemented by the lab yet: it changes how written data is checked (the lab checks each block as it is read"
                    + " back, with verify=crc32c, crc32, md5, sha1, sha256, meta or pattern, do_verify, verify_backlog,"
                    + " verify_interval and verify_fatal)";
    private static final String ERRORS = "not implemented by the lab yet: it changes what a job does on an I/O error";
    private static final String PLACEMENT =
            "not implemented by the lab yet: it changes where or at what priority the job runs (the lab pins CPUs with"
                    + " cpus_allowed, cpumask and numa_cpu_nodes, sets numa_mem_policy, prioclass, prio and cmdprio_*)";
    private static final String PROCESS = "out of scope: it runs other programs or changes the job's user";
    private static final String REPLAY = "I/O replay is out of scope: the lab runs the job file's own workload";
    private static final String ZONED = "zoned devices are out of scope";
    private static final String PROFILES = "fio's predefined workloads (profile=) are out of scope";
    private static final String PROFILE_OPTION = "an option of one of fio's predefined workloads (profile=act or"
            + " tiobench): fio 3.33 reads it only with profile= and ignores it in a job without one, as the lab does"
            + " (profile= itself is refused)";
    private static final String NETWORK = "network and remote-storage engines are out of scope";
    private static final String OTHER_ENGINE =
            "an option of an I/O engine the lab does not run (the lab runs psync, sync, pvsync, io_uring and libaio)";

    private static final List<FioOption> ROWS = List.of(
            // ---- implemented: Keys accepts exactly these spellings (OptionTableTest checks it) ----
            implemented("name"),
            implemented("numjobs"),
            implemented("runtime", "timeout"),
            implemented("time_based"),
            implemented("ramp_time"),
            implemented("filename"),
            implemented("direct"),
            implemented("rw", "readwrite"),
            implemented("randrepeat"),
            implemented("randseed"),
            implemented("offset", "fileoffset"),
            implemented("offset_increment"),
            implemented("fill_device", "fill_fs"),
            implemented("continue_on_error"),
            implemented("ignore_error"),
            implemented("fallocate"),
            implemented("latency_target"),
            implemented("latency_window"),
            implemented("latency_percentile"),
            implemented("latency_run"),
            implemented("dedupe_percentage"),
            implemented("dedupe_mode"),
            implemented("dedupe_working_set_percentage"),
            implemented("dedupe_global"),
            implemented("rwmixread"),
            implemented("rwmixwrite"),
            implemented("bs", "blocksize"),
            implemented("zero_buffers"),
            implemented("refill_buffers"),
            implemented("scramble_buffers"),
            implemented("buffer_compress_percentage"),
            implemented("size"),
            implemented("ioengine"),
            implemented("fixedbufs"),
            implemented("registerfiles"),
            implemented("sqthread_poll"),
            implemented("hipri"),
            implemented("iodepth"),
            implemented("iodepth_batch", "iodepth_batch_submit"),
            implemented("iodepth_batch_complete_min", "iodepth_batch_complete"),
            implemented("iodepth_batch_complete_max"),
            implemented("userspace_reap"),
            implemented("thread"),
            implemented("verify"),
            implemented("group_reporting"),
            implemented("norandommap"),
            implemented("random_generator"),
            implemented("allrandrepeat"),
            implemented("percentage_random"),
            implemented("bsrange", "blocksize_range"),
            implemented("bssplit"),
            implemented("io_size", "io_limit"),
            implemented("number_ios"),
            implemented("buffered"),
            implemented("stonewall", "wait_for_previous"),
            implemented("new_group"),
            implemented("wait_for"),
            implemented("verify_pattern"),
            implemented("cpus_allowed"),
            implemented("cpumask"),
            implemented("cpus_allowed_policy"),
            implemented("directory"),
            implemented("ioscheduler"),
            implemented("filesize"),
            implemented("nrfiles", "nr_files"),
            implemented("file_service_type"),
            implemented("loops"),
            implemented("ba", "blockalign"),
            implemented("random_distribution"),
            implemented("rate"),
            implemented("rate_iops"),
            implemented("rate_min", "ratemin"),
            implemented("rate_iops_min"),
            implemented("rate_cycle", "ratecycle"),
            implemented("rate_process"),
            implemented("rate_ignore_thinktime"),
            implemented("io_submit_mode"),
            implemented("thinktime"),
            implemented("thinktime_spin"),
            implemented("thinktime_blocks"),
            implemented("thinktime_blocks_type"),
            implemented("thinktime_iotime"),
            implemented("startdelay"),
            implemented("flow"),
            implemented("flow_id"),
            implemented("flow_sleep"),
            implemented("exitall"),
            implemented("exit_what"),
            implemented("steadystate", "ss"),
            implemented("steadystate_duration", "ss_dur"),
            implemented("steadystate_ramp_time", "ss_ramp"),
            implemented("numa_cpu_nodes"),
            implemented("numa_mem_policy"),
            implemented("prioclass"),
            implemented("prio"),
            implemented("cmdprio_percentage"),
            implemented("cmdprio_class"),
            implemented("cmdprio"),
            implemented("cmdprio_bssplit"),
            implemented("do_verify"),
            implemented("verify_backlog"),
            implemented("verify_backlog_batch"),
            implemented("verify_interval"),
            implemented("verify_fatal"),
            implemented("verify_async"),
            implemented("verify_only"),
            implemented("verify_offset"),
            // ---- accepted, no effect: one notice per line that sets one ----
            noEffect(COMMENT, "description"),
            noEffect(LAYOUT_ORDER, "create_serialize"),
            noEffect(LAYOUT_ORDER, "create_on_open"),
            noEffect(REPORT, "unit_base"),
            noEffect(REPORT, "unified_rw_reporting"),
            noEffect(REPORT, "verify_dump"),
            noEffect("whether fio saves its verify state to a file when a check fails: the lab writes no such file"
                    + " (a failed check is in its report)", "verify_state_save"),
            noEffect("which CPUs fio's verify_async threads run on: the lab checks each block on the clone's own"
                    + " thread, so there are none to pin", "verify_async_cpus"),
            noEffect(REPORT, "stats"),
            noEffect(REPORT, "block_error_percentiles"),
            noEffect(REPORT, "bwavgtime"),
            noEffect(REPORT, "iopsavgtime"),
            noEffect(REPORT, "disk_util"),
            noEffect(REPORT, "slat_percentiles"),
            noEffect(REPORT, "clat_percentiles"),
            noEffect(REPORT, "lat_percentiles"),
            noEffect(REPORT, "percentile_list"),
            noEffect(REPORT, "significant_figures"),
            noEffect(REPORT, "error_dump"),
            noEffect(LOGS, "write_iolog"),
            noEffect(LOGS, "per_job_logs"),
            noEffect(LOGS, "write_bw_log"),
            noEffect(LOGS, "write_lat_log"),
            noEffect(LOGS, "write_hist_log"),
            noEffect(LOGS, "write_iops_log"),
            noEffect(LOGS, "log_entries"),
            noEffect(LOGS, "log_avg_msec"),
            noEffect(LOGS, "log_hist_msec"),
            noEffect(LOGS, "log_hist_coarseness"),
            noEffect(LOGS, "log_max_value"),
            noEffect(LOGS, "log_offset"),
            noEffect(LOGS, "log_compression"),
            noEffect(LOGS, "log_compression_cpus"),
            noEffect(LOGS, "log_store_compressed"),
            noEffect(LOGS, "log_unix_epoch"),
            noEffect(LOGS, "log_alternate_epoch"),
            noEffect(LOGS, "log_alternate_epoch_clock_id"),
            noEffect(LOGS, "log_prio"),
            noEffect(CLOCK, "clocksource"),
            noEffect(CLOCK, "gtod_reduce"),
            noEffect(CLOCK, "disable_lat"),
            noEffect(CLOCK, "disable_clat"),
            noEffect(CLOCK, "disable_slat"),
            noEffect(CLOCK, "disable_bw_measurement", "disable_bw"),
            // ---- refused, giving the reason ----
            refused(UNITS, "kb_base"),
            refused(NOT_YET_IO, "atomic"),
            refused(NOT_YET_IO, "rw_sequencer"),
            refused(NOT_YET_IO, "fadvise_hint"),
            refused(NOT_YET_IO, "write_hint"),
            refused(NOT_YET_IO, "offset_align"),
            refused(NOT_YET_IO, "fsync"),
            refused(NOT_YET_IO, "fdatasync"),
            refused(NOT_YET_IO, "write_barrier"),
            refused(NOT_YET_IO, "sync_file_range"),
            refused(NOT_YET_IO, "overwrite"),
            refused(NOT_YET_IO, "end_fsync"),
            refused(NOT_YET_IO, "fsync_on_close"),
            refused(NOT_YET_IO, "softrandommap"),
            refused(NOT_YET_IO, "bs_unaligned", "blocksize_unaligned"),
            refused(NOT_YET_IO, "bs_is_seq_rand"),
            refused(NOT_YET_IO, "buffer_compress_chunk"),
            refused(NOT_YET_IO, "buffer_pattern"),
            refused(NOT_YET_IO, "invalidate"),
            refused(NOT_YET_IO, "sync"),
            refused(NOT_YET_IO, "iodepth_low"),
            refused(NOT_YET_IO, "serialize_overlap"),
            refused(NOT_YET_IO, "trim_percentage"),
            refused(NOT_YET_IO, "trim_verify_zero"),
            refused(NOT_YET_IO, "trim_backlog"),
            refused(NOT_YET_IO, "trim_backlog_batch"),
            refused(IO_URING_NOT_YET, "nonvectored"),
            refused(IO_URING_NOT_YET, "force_async"),
            refused(IO_URING_NOT_YET, "sqthread_poll_cpu"),
            refused(IO_URING_NOT_YET, "nowait"),
            refused(IO_URING_NOT_YET, "uncached"),
            refused(MEMORY, "mem", "iomem"),
            refused(MEMORY, "iomem_align", "mem_align"),
            refused(MEMORY, "hugepage-size"),
            refused(MEMORY, "lockmem"),
            refused(FILES, "filename_format"),
            refused(FILES, "unique_filename"),
            refused(FILES, "opendir"),
            refused(FILES, "lockfile"),
            refused(FILES, "openfiles"),
            refused(FILES, "create_fsync"),
            refused(FILES, "create_only"),
            refused(FILES, "allow_file_create"),
            refused(FILES, "allow_mounted_write"),
            refused(FILES, "pre_read"),
            refused(FILES, "unlink"),
            refused(FILES, "unlink_each_loop"),
            refused(FILES, "file_append"),
            refused(TIMING, "max_latency"),
            refused(VERIFY, "verify_state_load"),
            refused(VERIFY, "experimental_verify"),
            refused(ERRORS, "exitall_on_error"),
            refused(PLACEMENT, "gtod_cpu"),
            refused(PLACEMENT, "nice"),
            refused(PLACEMENT, "cgroup"),
            refused(PLACEMENT, "cgroup_weight"),
            refused(PLACEMENT, "cgroup_nodelete"),
            refused(PROCESS, "exec_prerun"),
            refused(PROCESS, "exec_postrun"),
            refused(PROCESS, "uid"),
            refused(PROCESS, "gid"),
            refused(REPLAY, "read_iolog"),
            refused(REPLAY, "read_iolog_chunked"),
            refused(REPLAY, "merge_blktrace_file"),
            refused(REPLAY, "merge_blktrace_scalars"),
            refused(REPLAY, "merge_blktrace_iters"),
            refused(REPLAY, "replay_no_stall"),
            refused(REPLAY, "replay_time_scale"),
            refused(REPLAY, "replay_redirect"),
            refused(REPLAY, "replay_align"),
            refused(REPLAY, "replay_scale"),
            refused(REPLAY, "replay_skip"),
            refused(ZONED, "zonemode"),
            refused(ZONED, "zonerange"),
            refused(ZONED, "zonesize"),
            refused(ZONED, "zonecapacity"),
            refused(ZONED, "zoneskip"),
            refused(ZONED, "read_beyond_wp"),
            refused(ZONED, "max_open_zones"),
            refused(ZONED, "job_max_open_zones"),
            refused(ZONED, "ignore_zone_limits"),
            refused(ZONED, "zone_reset_threshold"),
            refused(ZONED, "zone_reset_frequency"),
            refused(PROFILES, "profile"),
            noEffect(PROFILE_OPTION, "device-names"),
            noEffect(PROFILE_OPTION, "load"),
            noEffect(PROFILE_OPTION, "test-duration"),
            noEffect(PROFILE_OPTION, "threads-per-queue"),
            noEffect(PROFILE_OPTION, "read-req-num-512-blocks"),
            noEffect(PROFILE_OPTION, "large-block-op-kbytes"),
            noEffect(PROFILE_OPTION, "prep"),
            noEffect(PROFILE_OPTION, "block"),
            noEffect(PROFILE_OPTION, "numruns"),
            noEffect(PROFILE_OPTION, "dir"),
            noEffect(PROFILE_OPTION, "threads"),
            refused(NETWORK, "namenode"),
            refused(NETWORK, "port"),
            refused(NETWORK, "hostname"),
            refused(NETWORK, "serverip"),
            refused(NETWORK, "direct_write_to_pmem"),
            refused(NETWORK, "busy_wait_polling"),
            refused(NETWORK, "interface"),
            refused(NETWORK, "ttl"),
            refused(NETWORK, "nodelay"),
            refused(NETWORK, "protocol", "proto"),
            refused(NETWORK, "listen"),
            refused(NETWORK, "pingpong"),
            refused(NETWORK, "window_size"),
            refused(NETWORK, "mss"),
            refused(NETWORK, "clustername"),
            refused(NETWORK, "rbdname"),
            refused(NETWORK, "clientname"),
            refused(NETWORK, "conf"),
            refused(NETWORK, "busy_poll"),
            refused(NETWORK, "touch_objects"),
            refused(NETWORK, "pool"),
            refused(NETWORK, "cont"),
            refused(NETWORK, "chunk_size", "chunck_size"),
            refused(NETWORK, "object_class"),
            refused(NETWORK, "hdfsdirectory"),
            refused(NETWORK, "verb"),
            refused(NETWORK, "bindname"),
            refused(NETWORK, "http_host"),
            refused(NETWORK, "http_user"),
            refused(NETWORK, "http_pass"),
            refused(NETWORK, "https"),
            refused(NETWORK, "http_mode"),
            refused(NETWORK, "http_s3_region"),
            refused(NETWORK, "http_s3_key"),
            refused(NETWORK, "http_s3_keyid"),
            refused(NETWORK, "http_s3_sse_customer_key"),
            refused(NETWORK, "http_s3_sse_customer_algorithm"),
            refused(NETWORK, "http_s3_storage_class"),
            refused(NETWORK, "http_swift_auth_token"),
            refused(NETWORK, "http_verbose"),
            refused(NETWORK, "uri"),
            refused(NETWORK, "nfs_url"),
            refused(NETWORK, "volume"),
            refused(NETWORK, "brick"),
            refused(NETWORK, "single-instance"),
            refused(OTHER_ENGINE, "cmd_type"),
            refused(OTHER_ENGINE, "hipri_percentage"),
            refused(OTHER_ENGINE, "cpuload"),
            refused(OTHER_ENGINE, "cpuchunks"),
            refused(OTHER_ENGINE, "cpumode"),
            refused(OTHER_ENGINE, "exit_on_io_done"),
            refused(OTHER_ENGINE, "donorname"),
            refused(OTHER_ENGINE, "inplace"),
            refused(OTHER_ENGINE, "skip_bad"),
            refused(OTHER_ENGINE, "stat_type"),
            refused(OTHER_ENGINE, "readfua"),
            refused(OTHER_ENGINE, "writefua"),
            refused(OTHER_ENGINE, "sg_write_mode"),
            refused(OTHER_ENGINE, "stream_id"),
            refused(OTHER_ENGINE, "gpu_dev_ids"),
            refused(OTHER_ENGINE, "cuda_io"),
            refused(OTHER_ENGINE, "program"),
            refused(OTHER_ENGINE, "arguments"),
            refused(OTHER_ENGINE, "grace_time"),
            refused(OTHER_ENGINE, "std_redirect"),
            refused(OTHER_ENGINE, "xnvme_async"),
            refused(OTHER_ENGINE, "xnvme_sync"),
            refused(OTHER_ENGINE, "xnvme_admin"),
            refused(OTHER_ENGINE, "xnvme_dev_nsid"),
            refused(OTHER_ENGINE, "xnvme_iovec"),
            refused(OTHER_ENGINE, "thp")
    );

    /** Every spelling (names and aliases) to its row; a spelling in two rows keeps the first (a test refuses that). */
    private static final Map<String, FioOption> BY_SPELLING = index();

    private OptionTable() {
    }

    private static FioOption implemented(String name, String... aliases) {
        return new FioOption(name, List.of(aliases), OptionClass.IMPLEMENTED, null);
    }

    private static FioOption noEffect(String reason, String name, String... aliases) {
        return new FioOption(name, List.of(aliases), OptionClass.NO_EFFECT, reason);
    }

    private static FioOption refused(String reason, String name, String... aliases) {
        return new FioOption(name, List.of(aliases), OptionClass.REFUSED, reason);
    }

    private static Map<String, FioOption> index() {
        Map<String, FioOption> m = new HashMap<>();
        for (FioOption o : ROWS) {
            o.spellings().forEach(s -> m.putIfAbsent(s, o));
        }
        return Map.copyOf(m);
    }

    /** Every row, grouped by reason as written here. */
    public static List<FioOption> all() {
        return ROWS;
    }

    /** The rows of {@code optionClass}, sorted by name. */
    public static List<FioOption> of(OptionClass optionClass) {
        return ROWS.stream()
                .filter(o -> o.optionClass() == optionClass)
                .sorted(Comparator.comparing(FioOption::name))
                .toList();
    }

    /** The option {@code key} spells, as name or alias (case-sensitive, as fio is), if fio 3.33 has it. */
    public static Optional<FioOption> find(String key) {
        return Optional.ofNullable(BY_SPELLING.get(key));
    }

    /** Every spelling of the rows of {@code optionClass}: names and aliases. */
    public static Set<String> spellings(OptionClass optionClass) {
        return ROWS.stream()
                .filter(o -> o.optionClass() == optionClass)
                .flatMap(o -> o.spellings().stream())
                .collect(Collectors.toUnmodifiableSet());
    }
}
