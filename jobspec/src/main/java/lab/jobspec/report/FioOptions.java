package lab.jobspec.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lab.jobspec.BlockSizes;
import lab.jobspec.Inject;
import lab.jobspec.Cpus;
import lab.jobspec.Job;

/**
 * The {@code "global options"} and {@code "job options"} maps of a report. fio lists the keys as
 * written in the job file; a {@link Job} has {@code [global]} merged in and defaults applied, so
 * this class lists instead every key whose value differs from fio 3.33's default (see
 * {@link Job}), with values in canonical form: sizes in bytes, times as {@code N} (seconds),
 * {@code Nms} or {@code Nus}, booleans as {@code 0}/{@code 1}. {@code global options} are the keys
 * every job of a file shares with the same value (for two or more jobs); {@code job options} are a
 * job's remaining keys, as fio separates its own two maps.
 */
public final class FioOptions {

    private FioOptions() {
    }

    /** The non-default options of {@code job}, in the order of {@link Job}'s components. */
    public static Map<String, String> of(Job job) {
        Map<String, String> m = new LinkedHashMap<>();
        put(m, "filename", job.filename(), null);
        put(m, "rw", job.rw().name().toLowerCase(Locale.ROOT) + (job.walk().seqAdd() != 0 ? ":" + job.walk().seqAdd()
                : job.walk().seqNr() != 1 ? ":" + job.walk().seqNr() : ""), "read");
        put(m, "rwmixread", job.rwmixread(), 50);
        BlockSizes r = job.readBs();
        BlockSizes w = job.writeBs(); // bs=8k,32k: fixed sizes that differ
        put(m, "bs", r.isFixed() && w.isFixed() && r.min() != w.min() ? r.min() + "," + w.min()
                : Integer.toString(job.bs()), "4096");
        put(m, "size", job.sizeOfTarget() ? null : job.size(), 0L); // size-less: the target's, once known
        put(m, "offset", job.offset(), 0L);
        put(m, "offset_increment", job.walk().offsetIncrement(), 0L);
        put(m, "fill_device", bool(job.walk().fillDevice()), "0");
        put(m, "continue_on_error", classes(job.onError().classes()), "none");
        put(m, "ignore_error", ignored(job.onError()), null);
        Job.Latency lat = job.pace().latency();
        put(m, "latency_target", time(lat.targetNs()), "0");
        put(m, "latency_window", time(lat.windowNs()), "0");
        put(m, "latency_percentile", lat.percentile() == 100.0 ? null : Double.toString(lat.percentile()), null);
        put(m, "latency_run", bool(lat.run()), "0");
        put(m, "dedupe_percentage", job.dedupe().percentage(), 0);
        put(m, "dedupe_mode", job.dedupe().workingSet() ? "working_set" : null, null);
        put(m, "dedupe_working_set_percentage", job.dedupe().workingSetPercentage(), 5);
        put(m, "dedupe_global", bool(job.dedupe().global()), "0");
        put(m, "numjobs", job.numjobs(), 1);
        put(m, "iodepth", job.iodepth(), 1);
        put(m, "iodepth_batch_submit", job.iodepthBatchSubmit(), 1);
        put(m, "iodepth_batch_complete_min", job.iodepthBatchCompleteMin(), 1);
        put(m, "iodepth_batch_complete_max", job.iodepthBatchCompleteMax(), job.iodepthBatchCompleteMin());
        put(m, "runtime", time(job.runtimeNs()), "0");
        put(m, "time_based", bool(job.timeBased()), "0");
        put(m, "ramp_time", time(job.rampTimeNs()), "0");
        put(m, "direct", bool(job.direct()), "0");
        put(m, "ioengine", job.ioengine().fioName(), "psync");
        put(m, "zero_buffers", bool(job.zeroBuffers()), "0");
        put(m, "scramble_buffers", bool(job.scrambleBuffers()), "1");
        put(m, "buffer_compress_percentage", job.bufferCompressPercentage(), 0);
        put(m, "refill_buffers", bool(job.refillBuffers()), "0");
        put(m, "randrepeat", bool(job.randrepeat()), "1");
        put(m, "randseed", job.randseed(), 0x89L);
        put(m, "group_reporting", bool(job.groupReporting()), "0");
        put(m, "thread", bool(job.thread()), "0");
        put(m, "fixedbufs", bool(job.fixedbufs()), "0");
        put(m, "registerfiles", bool(job.registerfiles()), "0");
        put(m, "hipri", bool(job.hipri()), "0");
        put(m, "sqthread_poll", bool(job.sqthreadPoll()), "0");
        put(m, "userspace_reap", bool(job.userspaceReap()), "0");
        put(m, "verify", job.verify().fioName(), "none");
        put(m, "verify_pattern", job.verifyPattern(), null);
        put(m, "do_verify", bool(job.checks().doVerify()), "1");
        put(m, "verify_backlog", job.checks().backlog(), 0L);
        put(m, "verify_backlog_batch", job.checks().backlogBatch(), 0L);
        put(m, "verify_interval", job.checks().interval(), 0);
        put(m, "verify_fatal", bool(job.checks().fatal()), "0");
        put(m, "verify_async", job.checks().async(), 0);
        put(m, "verify_only", bool(job.checks().only()), "0");
        put(m, "bssplit", sizes(job, true), null);
        put(m, "bsrange", sizes(job, false), null);
        put(m, "percentage_random", job.percentageRandomRead() == job.percentageRandomWrite()
                ? Integer.toString(job.percentageRandomRead())
                : job.percentageRandomRead() + "," + job.percentageRandomWrite(), "100");
        put(m, "norandommap", bool(job.norandommap()), "0");
        put(m, "random_generator", job.randomGenerator().name().toLowerCase(Locale.ROOT), "tausworthe");
        put(m, "allrandrepeat", bool(job.allrandrepeat()), "0");
        put(m, "io_size", job.ioSize(), 0L);
        put(m, "number_ios", job.numberIos(), 0L);
        put(m, "stonewall", bool(job.order().stonewall()), "0");
        put(m, "new_group", bool(job.order().newGroup()), "0");
        put(m, "wait_for", job.order().waitFor(), null);
        put(m, "cpus_allowed", job.cpus().format(), "");
        put(m, "cpus_allowed_policy", job.cpus().split() ? "split" : "shared", "shared");
        put(m, "directory", job.directory(), null);
        put(m, "filesize", job.filesize(), 0L);
        put(m, "ioscheduler", job.ioscheduler(), null);
        put(m, "nrfiles", Integer.toString(job.nrfiles()), "1");
        put(m, "file_service_type", job.fileService().toString(), "roundrobin");
        put(m, "loops", job.walk().loops(), 1L);
        put(m, "blockalign", job.walk().blockAlignRead() == job.walk().blockAlignWrite()
                ? Integer.toString(job.walk().blockAlignRead())
                : job.walk().blockAlignRead() + "," + job.walk().blockAlignWrite(), "0");
        put(m, "random_distribution", job.walk().distribution().fio(), "random");
        pace(m, job.pace());
        placement(m, job.placement());
        put(m, "exitall", bool(job.order().exitall()), "0");
        put(m, "exit_what", job.order().exitWhat().name().toLowerCase(Locale.ROOT), "group");
        put(m, "base_ns", job.baseNs(), 0L); // the lab's key: fio has none such
        put(m, "inject", Inject.format(job.inject()), ""); // the lab's key too
        return m;
    }

    /** Rate, think time, start delay, flow and steady state ({@link Job.Pace}), where not fio's defaults. */
    private static void pace(Map<String, String> m, Job.Pace p) {
        put(m, "rate", perDir(p.rate()), null);
        put(m, "rate_iops", perDir(p.rateIops()), null);
        put(m, "rate_min", perDir(p.rateMin()), null);
        put(m, "rate_iops_min", perDir(p.rateIopsMin()), null);
        put(m, "rate_cycle", p.rateCycleNs() / 1_000_000, 1000L);
        put(m, "rate_process", p.poisson() ? "poisson" : "linear", "linear");
        put(m, "io_submit_mode", p.offload() ? "offload" : "inline", "inline");
        put(m, "rate_ignore_thinktime", bool(p.rateIgnoreThinktime()), "0");
        put(m, "thinktime", p.thinktimeNs() == 0 ? "0" : time(p.thinktimeNs()), "0");
        put(m, "thinktime_spin", p.thinktimeSpinNs() == 0 ? "0" : time(p.thinktimeSpinNs()), "0");
        put(m, "thinktime_blocks", p.thinktimeBlocks(), 1L);
        put(m, "thinktime_blocks_type", p.thinktimeIssue() ? "issue" : "complete", "complete");
        put(m, "thinktime_iotime", time(p.thinktimeIotimeNs()), "0");
        put(m, "startdelay", p.startDelayNs() == p.startDelayMaxNs() ? time(p.startDelayNs())
                : time(p.startDelayNs()) + "-" + time(p.startDelayMaxNs()), "0");
        put(m, "flow", p.flow(), 0L);
        put(m, "flow_id", p.flowId(), 0L);
        put(m, "flow_sleep", p.flowSleepNs() == 0 ? "0" : time(p.flowSleepNs()), "0");
        Job.Steady ss = p.steadyState();
        if (ss != null) {
            put(m, "steadystate", (ss.bw() ? "bw" : "iops") + (ss.slope() ? "_slope" : "") + ":" + ss.limit()
                    + (ss.percent() ? "%" : ""), null);
            put(m, "steadystate_duration", Integer.toString(ss.seconds()), null);
            put(m, "steadystate_ramp_time", time(ss.rampNs()), "0");
        }
    }

    /** NUMA and priorities ({@link Job.Placement}), where set. */
    private static void placement(Map<String, String> m, Job.Placement p) {
        put(m, "numa_cpu_nodes", p.cpuNodes().isEmpty() ? null : new Cpus(p.cpuNodes(), false).format(), null);
        put(m, "numa_mem_policy", p.memPolicy() == null ? null : p.memPolicy()
                + (p.memNodes().isEmpty() ? "" : ":" + new Cpus(p.memNodes(), false).format()), null);
        put(m, "prioclass", p.prioClass(), 0);
        put(m, "prio", p.prio(), 0);
        put(m, "cmdprio_percentage", perDir(p.cmdprioPercentage()), null);
        if (!p.cmdprioSplitRead().isEmpty() || !p.cmdprioSplitWrite().isEmpty()) {
            put(m, "cmdprio_bssplit", split(p.cmdprioSplitRead()) + "," + split(p.cmdprioSplitWrite()), null);
        }
        if (p.cmdprioPercentage().any()) {
            put(m, "cmdprio_class", perDir(p.cmdprioClass()), null);
            put(m, "cmdprio", perDir(p.cmdprio()), null);
        }
    }

    /** A {@code READ,WRITE} option as written (one value when both are the same), or null when both are 0. */
    private static String perDir(Job.PerDir v) {
        if (!v.any() && v.read() == 0) {
            return null;
        }
        return v.read() == v.write() ? Long.toString(v.read()) : v.read() + "," + v.write();
    }

    /** The options every one of {@code jobs} has with the same value; empty for fewer than two jobs. */
    public static Map<String, String> global(List<Job> jobs) {
        Map<String, String> common = new LinkedHashMap<>();
        if (jobs.size() < 2) {
            return common;
        }
        common.putAll(of(jobs.getFirst()));
        for (Job job : jobs.subList(1, jobs.size())) {
            common.entrySet().retainAll(of(job).entrySet());
        }
        return common;
    }

    /** {@code job}'s options less those in {@code global}. */
    public static Map<String, String> jobOnly(Job job, Map<String, String> global) {
        Map<String, String> own = of(job);
        own.entrySet().removeAll(global.entrySet());
        return own;
    }

    /** A time in fio's units: whole seconds bare, else milliseconds or microseconds with a suffix. */
    static String time(long ns) {
        if (ns % 1_000_000_000L == 0) {
            return Long.toString(ns / 1_000_000_000L);
        }
        if (ns % 1_000_000L == 0) {
            return ns / 1_000_000L + "ms";
        }
        return ns / 1_000L + "us";
    }

    /**
     * {@code bssplit} ({@code split}) or {@code bsrange} as {@code READ,WRITE} (one value when both
     * are the same), or null when neither direction has that kind of sizes; a direction without
     * shows its {@code bs} (a split) or {@code bs-bs} (a range).
     */
    private static String sizes(Job job, boolean split) {
        BlockSizes r = job.readBs();
        BlockSizes w = job.writeBs();
        boolean any = split ? !r.split().isEmpty() || !w.split().isEmpty()
                : (r.split().isEmpty() && !r.isFixed()) || (w.split().isEmpty() && !w.isFixed());
        if (!any) {
            return null;
        }
        String rs = split || !r.isFixed() ? r.fio() : r.min() + "-" + r.max();
        String ws = split || !w.isFixed() ? w.fio() : w.min() + "-" + w.max();
        return rs.equals(ws) ? rs : rs + "," + ws;
    }

    private static String bool(boolean b) {
        return b ? "1" : "0";
    }

    /** {@code continue_on_error} in fio's words ({@code io} and {@code all} for those sets); "none" for none. */
    private static String classes(int c) {
        return switch (c) {
            case 0 -> "none";
            case Job.OnError.READ | Job.OnError.WRITE -> "io";
            case Job.OnError.READ | Job.OnError.WRITE | Job.OnError.VERIFY -> "all";
            default -> String.join(",", java.util.stream.Stream.of("read", "write", "verify")
                    .filter(n -> (c & (n.equals("read") ? 1 : n.equals("write") ? 2 : 4)) != 0).toList());
        };
    }

    /** {@code ignore_error}'s lists as numbers ({@code ,28,}); null when it gives none. */
    private static String ignored(Job.OnError e) {
        List<List<Integer>> lists = List.of(e.read(), e.write(), e.verify());
        if (lists.stream().allMatch(List::isEmpty)) {
            return null;
        }
        return String.join(",", lists.stream().map(l -> String.join(":", l.stream().map(String::valueOf).toList()))
                .toList());
    }

    /** {@code cmdprio_bssplit}'s entries of one direction in fio's long form, {@code bs/percent/class/level:...}. */
    private static String split(List<Job.PrioSplit> entries) {
        return String.join(":", entries.stream().map(e -> e.bs() + "/" + e.percent() + "/" + e.cls() + "/" + e.level())
                .toList());
    }

    private static void put(Map<String, String> m, String key, Object value, Object dflt) {
        if (value != null && !value.equals(dflt)) {
            m.put(key, String.valueOf(value));
        }
    }
}
