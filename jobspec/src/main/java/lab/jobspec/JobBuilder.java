package lab.jobspec;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Turns the settings of one job section (with {@code [global]} already merged in) into a
 * {@link Job}: parses each value, applies fio 3.33's defaults, and checks the bounds below.
 *
 * <p>Bounds (fio's where it has one, the lab's otherwise): {@code bs} 1..16 MiB (fio has no
 * upper bound; the engine allocates {@code iodepth} buffers of {@code bs} per worker);
 * {@code size} at least {@code bs}; {@code offset + size} within 2^63-1; {@code numjobs}
 * 1..4096; {@code iodepth} 1..65536; {@code rwmixread}, {@code rwmixwrite} and
 * {@code buffer_compress_percentage} 0..100; {@code iodepth_batch_complete_min} at most
 * {@code iodepth}; flags 0 or 1. {@code iodepth_batch_submit} is clamped to {@code iodepth},
 * and 0 means {@code iodepth}, as fio does.
 *
 * <p>{@code fixedbufs}, {@code registerfiles}, {@code hipri} and {@code sqthread_poll} are options
 * of fio's io_uring engine, {@code userspace_reap} of its libaio engine: fio registers an engine's
 * options only for jobs of that engine and refuses them elsewhere, so a job of another engine
 * that sets one (even to 0) is refused here.
 *
 * <p>{@code iodepth_batch_complete_max} caps the completions one reap takes. Unset (or 0, or
 * below {@code iodepth_batch_complete_min}) it is {@code iodepth_batch_complete_min}, as fio
 * 3.33's {@code fixup_options()} makes it: by default a reap takes one completion.
 *
 * <p>{@code base_ns} is a lab key, not fio's: nanoseconds of uncontended CPU the JVM engine's
 * device spends per I/O in its submit path, standing for the kernel's own per-I/O work (0, the
 * default, spends nothing); a plain count, 0..{@value #MAX_BASE_NS} (10 ms, more CPU than any
 * kernel I/O takes). fio does not know it and would refuse a job file that has it, so a job file
 * meant for fio must leave it out; the lab itself accepts it everywhere (the bridge, which drives
 * real devices, ignores it). {@link lab.jobspec.report.FioOptions} echoes it when set.
 *
 * <p>{@code inject} is the lab's other key ({@link Inject}): contention points the JVM engine adds
 * on every bio's path, {@code STAGE:KIND[:COUNT]} separated by commas; like {@code base_ns} fio
 * would refuse it, and the bridge ignores it.
 *
 * <p>Sizes and counts of I/O (fio's meaning, see {@link IoSequence}): {@code bsrange} and
 * {@code bssplit} ({@link BlockSizes}; sizes 1..16 MiB like {@code bs}; not both) replace
 * {@code bs} for the direction they give, and {@code size} must be at least the smallest size the
 * job issues, as fio checks; {@code percentage_random} 0..100 per direction; {@code io_size} and
 * {@code number_ios} sizes/counts, 0 meaning unset; {@code random_generator} one of fio's three
 * names; {@code norandommap} a flag, also set, as fio sets it, by a {@code blockalign} other than
 * a direction's smallest size in a random job; {@code allrandrepeat} 0 or 1 (fio wants a value).
 * Refused where fio would run the job but the lab cannot run it as fio does: a random map of more
 * than 2^31 blocks (set {@code norandommap}). {@code allrandrepeat=1} seeds every stream from the default seed whatever
 * {@code randseed} and {@code randrepeat} say, as fio 3.33 does ({@code td_fill_rand_seeds()}).
 *
 * <p>Without {@code size} and {@code filesize} the job covers its target from {@code offset} to the
 * end, as fio's: {@link Job#sizeOfTarget()}, sized by the bridge once it has stat'ed the target
 * ({@link Job#withTargetSize}); the JVM engine, which has no file to ask, refuses such a job, and
 * so does a job with {@code nrfiles} (the lab makes those files). {@code loops}, {@code rw}'s
 * offset modifier ({@code read:8k}, {@code read:-8k}, {@code randread:8}), {@code blockalign} and
 * {@code random_distribution} make the job's {@link Job.Walk}; the zoned distributions are refused
 * with fio's random map (set {@code norandommap}). A problem between two keys ({@code size < bs}) is reported at whichever
 * of the two was written last. With {@code randrepeat=0} and no {@code randseed}, fio seeds from
 * the system; here the seed is drawn once, now, and stored in the {@link Job}, so the run can
 * still be repeated from what the job records.
 */
final class JobBuilder {
    static final long DEFAULT_RANDSEED = 0x89;
    static final int MAX_BS = 16 << 20;
    static final int MAX_NUMJOBS = 4096;
    static final int MAX_IODEPTH = 65536;
    /** The most files a clone may have ({@code nrfiles}): each is a descriptor held open for the run. */
    static final int MAX_NRFILES = 1024;
    /** {@code base_ns}'s upper bound: 10 ms. */
    static final long MAX_BASE_NS = 10_000_000;
    /** The most blocks a random map may track: 2^31 bits, 256 MiB per clone (fio's axmap has no bound). */
    static final long MAX_MAP_BLOCKS = 1L << 31;
    /**
     * Options only one of fio's engines has, with that engine: fio registers an engine's options
     * only for jobs of that engine and refuses them elsewhere ({@code fio --enghelp=ENGINE}).
     */
    static final Map<String, IoEngine> ENGINE_KEYS = Map.of(
            "fixedbufs", IoEngine.IO_URING,
            "registerfiles", IoEngine.IO_URING,
            "hipri", IoEngine.IO_URING,
            "sqthread_poll", IoEngine.IO_URING,
            "userspace_reap", IoEngine.LIBAIO);

    private final Path file;
    private final Map<String, Setting> settings;

    private JobBuilder(Path file, Map<String, Setting> settings) {
        this.file = file;
        this.settings = settings;
    }

    /**
     * @param section     the name in the section header
     * @param sectionLine the header's line
     * @param settings    canonical key to its last setting, global ones included
     */
    static Job build(Path file, String section, int sectionLine, Map<String, Setting> settings)
            throws JobSpecException {
        return new JobBuilder(file, settings).job(section, sectionLine);
    }

    private Job job(String section, int sectionLine) throws JobSpecException {
        boolean sizeOfTarget = !settings.containsKey("size") && !settings.containsKey("filesize");
        int[] bsDirs = perDirSize("bs", 4096); // fio's bs=8k,32k: reads 8k, writes (and trims) 32k
        int bs = bsDirs[0];
        long offset = size("offset", 0, 0, Long.MAX_VALUE);
        long filesize = size("filesize", 0, 1, Long.MAX_VALUE);
        int nrfiles = nrfiles();
        Rw rw = rw();
        BlockSizes[] sizes = trimSizes(rw, blockSizes(bsDirs));
        String bsKey = settings.containsKey("bssplit") ? "bssplit" : settings.containsKey("bsrange") ? "bsrange" : "bs";
        int minBs = minOf(rw, sizes);
        if (sizeOfTarget && nrfiles > 1) {
            throw new JobSpecException(file, settings.get("nrfiles").line(), "nrfiles", "job '" + section + "' has"
                    + " nrfiles=" + nrfiles + " and no size or filesize: the lab makes those files and needs their size");
        }
        // a size-less job takes its target's size (Job.withTargetSize); until then its region is one block
        long size = sizeOfTarget ? minBs : size("size", Long.MAX_VALUE, 1, Long.MAX_VALUE);
        if (filesize > 0) {
            // fio's setup_files(): each file's io_size is filesize - offset; size is capped at their sum
            if (offset >= filesize) {
                throw fail(later("offset", "filesize"), "offset " + offset + " is at or beyond filesize " + filesize);
            }
            size = Math.min(size, filesize - offset > Long.MAX_VALUE / nrfiles ? Long.MAX_VALUE
                    : (filesize - offset) * nrfiles);
        } else if (nrfiles > 1) {
            // fio's setup_files(): size / nrfiles each, the first (size - that * nrfiles) / minbs files
            // one smallest block more; size becomes their sum
            long each = size / nrfiles;
            if (each < minBs) {
                throw fail(later("nrfiles", "size"), "size " + size + " over nrfiles=" + nrfiles + " gives each file "
                        + each + " bytes, less than the smallest block size " + minBs);
            }
            size = each * nrfiles + (size - each * nrfiles) / minBs * minBs;
        }
        checkOrder(bsKey, minBs, settings.containsKey("size") ? "size" : "filesize", size,
                "size is smaller than " + (bsKey.equals("bs") ? "bs" : "the smallest block size"));
        if (offset > Long.MAX_VALUE - size) {
            throw fail(later("offset", "size"), "offset + size overflows");
        }
        int iodepth = (int) count("iodepth", 1, 1, MAX_IODEPTH);
        int completeMin = (int) count("iodepth_batch_complete_min", 1, 0, MAX_IODEPTH);
        checkOrder("iodepth_batch_complete_min", completeMin, "iodepth", iodepth,
                "iodepth_batch_complete_min is larger than iodepth");
        int completeMax = Math.max((int) count("iodepth_batch_complete_max", 0, 0, MAX_IODEPTH), completeMin);
        int submit = (int) count("iodepth_batch_submit", 1, 0, MAX_IODEPTH);
        submit = submit == 0 ? iodepth : Math.min(submit, iodepth);
        boolean randrepeat = flag("randrepeat", true);
        boolean allrandrepeat = flag("allrandrepeat", false);
        int[] ba = blockAlign();
        boolean norandommap = flag("norandommap", false) || blockAlignTurnsOffMap(rw, sizes, ba);
        RandomGenerator generator = randomGenerator();
        int[] percentageRandom = percentageRandom();
        Verify verify = verify();
        // the random maps cover every file's region, which with filesize can sum to more than size
        long mapped = nrfiles > 1 && filesize > 0
                ? (filesize - offset > Long.MAX_VALUE / nrfiles ? Long.MAX_VALUE : (filesize - offset) * nrfiles) : size;
        checkSizes(rw, sizes, mapped, norandommap, generator, bsKey);
        IoEngine engine = ioengine();
        checkEngineKeys(engine);
        Job.Walk walk = walk(rw, sizes, ba, norandommap, generator);
        fallocate();
        Job.Pace pace = pace();
        Job.Placement placement = placement(engine);
        Job job = new Job(
                text("name", section),
                text("filename", null),
                rw,
                rwmixread(),
                bs,
                size,
                offset,
                (int) count("numjobs", 1, 1, MAX_NUMJOBS),
                iodepth,
                submit,
                completeMin,
                completeMax,
                time("runtime"),
                flag("time_based", false),
                time("ramp_time"),
                direct(),
                engine,
                flag("zero_buffers", false),
                flag("scramble_buffers", true),
                (int) count("buffer_compress_percentage", 0, 0, 100),
                flag("refill_buffers", false),
                randrepeat,
                randseed(randrepeat, allrandrepeat),
                flag("group_reporting", false),
                flag("thread", false),
                flag("fixedbufs", false),
                flag("registerfiles", false),
                flag("hipri", false),
                flag("sqthread_poll", false),
                flag("userspace_reap", false),
                verify,
                count("base_ns", 0, 0, MAX_BASE_NS),
                inject(),
                sizes[0],
                sizes[1],
                percentageRandom[0],
                percentageRandom[1],
                norandommap,
                generator,
                allrandrepeat,
                size("io_size", 0, 0, Long.MAX_VALUE),
                size("number_ios", 0, 0, Long.MAX_VALUE),
                file.toString(),
                sectionLine,
                new Job.Order(flag("stonewall", false), flag("new_group", false), text("wait_for", null),
                        flag("exitall", false), exitWhat()),
                verifyPattern(),
                cpus(),
                directory(),
                filesize,
                ioscheduler(),
                nrfiles,
                fileService(),
                walk,
                pace,
                placement,
                sizeOfTarget,
                checks(),
                onError(),
                dedupe(size, nrfiles));
        checkVerifyOffset(job);
        return job;
    }

    /**
     * {@code verify_offset} must move the header clear of itself and keep it within each
     * {@code verify_interval} piece, whose header it is: fio refuses an offset below its header's
     * size ({@code minval}), and the lab's header ({@link Verify#headerBytes}) is the one moved here.
     */
    private void checkVerifyOffset(Job job) throws JobSpecException {
        int off = job.checks().offset();
        int hdr = job.verify().headerBytes();
        if (off == 0 || hdr == 0) {
            return;
        }
        if (off < hdr) {
            throw fail(settings.get("verify_offset"), off + " would overlap the header it moves: at least " + hdr
                    + " bytes, the lab's header for verify=" + job.verify().fioName());
        }
        if (off + hdr > job.verifyInterval()) {
            throw fail(later("verify_offset", settings.containsKey("verify_interval") ? "verify_interval" : "bs"),
                    "the " + hdr + "-byte header at " + off + " ends past the " + job.verifyInterval() + "-byte piece it"
                    + " belongs to (verify_interval, by default the smallest write)");
        }
    }

    /**
     * {@code direct}, or the inverse of {@code buffered} (fio's {@code .inverse} pair over one
     * field): the one written last wins, a job section's over {@code [global]}'s.
     */
    private boolean direct() throws JobSpecException {
        Setting direct = settings.get("direct");
        Setting buffered = settings.get("buffered");
        if (buffered != null && (direct == null || buffered.line() > direct.line())) {
            flag("direct", false); // a bad direct= is still an error
            return !flag("buffered", true);
        }
        return flag("direct", false);
    }

    private String text(String key, String absent) {
        Setting s = settings.get(key);
        return s == null ? absent : s.value();
    }

    private long size(String key, long absent, long min, long max) throws JobSpecException {
        return bounded(key, absent, min, max, FioUnits::size);
    }

    private long count(String key, long absent, long min, long max) throws JobSpecException {
        return bounded(key, absent, min, max, FioUnits::count);
    }

    private long time(String key) throws JobSpecException {
        return bounded(key, 0, 0, Long.MAX_VALUE, FioUnits::timeNs);
    }

    private boolean flag(String key, boolean absent) throws JobSpecException {
        Setting s = settings.get(key);
        if (s == null) {
            return absent;
        }
        return switch (s.value()) {
            case "1" -> true;
            case "0" -> false;
            default -> throw fail(s, "'" + s.value() + "' is not 0 or 1");
        };
    }

    private long bounded(String key, long absent, long min, long max, ToLongFunction<String> parse)
            throws JobSpecException {
        Setting s = settings.get(key);
        if (s == null) {
            return absent;
        }
        long v;
        try {
            v = parse.applyAsLong(s.value());
        } catch (IllegalArgumentException e) {
            throw fail(s, e.getMessage());
        }
        if (v < min || v > max) {
            throw fail(s, "'" + s.value() + "' (" + v + ") is out of range [" + min + ", " + max + "]");
        }
        return v;
    }

    /** Fails at the later of the two keys' lines when {@code low > high}. */
    private void checkOrder(String lowKey, long low, String highKey, long high, String problem)
            throws JobSpecException {
        if (low > high) {
            throw fail(later(lowKey, highKey), problem + " (" + low + " > " + high + ")");
        }
    }

    /** The one of two settings written last; at least one of them is present. */
    private Setting later(String a, String b) {
        Setting sa = settings.get(a);
        Setting sb = settings.get(b);
        if (sa == null) {
            return sb;
        }
        return sb == null || sa.line() > sb.line() ? sa : sb;
    }

    private int rwmixread() throws JobSpecException {
        int v = (int) count("rwmixread", 50, 0, 100);
        Setting s = settings.get("rwmixread");
        return s != null && s.key().equals("rwmixwrite") ? 100 - v : v;
    }

    private long randseed(boolean randrepeat, boolean allrandrepeat) throws JobSpecException {
        Setting s = settings.get("randseed");
        if (s == null) {
            return randrepeat || allrandrepeat ? DEFAULT_RANDSEED : ThreadLocalRandom.current().nextLong();
        }
        long seed;
        try {
            seed = FioUnits.unsigned64(s.value());
        } catch (IllegalArgumentException e) {
            throw fail(s, e.getMessage());
        }
        return allrandrepeat ? DEFAULT_RANDSEED : seed; // fio: allrandrepeat reseeds every stream, randseed or not
    }

    /**
     * {@code loops}, {@code rw}'s offset modifier, {@code blockalign} and {@code random_distribution}
     * ({@link Job.Walk}), with the combinations the lab does not run as fio does refused.
     */
    private Job.Walk walk(Rw rw, BlockSizes[] sizes, int[] ba, boolean norandommap, RandomGenerator generator)
            throws JobSpecException {
        long loops = Math.max(1, count("loops", 1, 0, Integer.MAX_VALUE)); // fio: loops=0 runs once
        long seqAdd = 0;
        int seqNr = 1;
        Setting rwSetting = settings.get("rw");
        String postfix = rwSetting == null ? null : rwPostfix(rwSetting.value());
        if (postfix != null && rw.random()) {
            long nr;
            try {
                nr = Long.parseLong(postfix);
            } catch (NumberFormatException e) {
                nr = 0;
            }
            if (nr < 1 || nr > Integer.MAX_VALUE) {
                throw fail(rwSetting, "':" + postfix + "' is not a positive count of I/Os per random offset (fio reads"
                        + " it with atoi(), and 0 or a word gives no random offset at all: write a sequential rw=)");
            }
            seqNr = (int) nr;
        } else if (postfix != null) {
            boolean back = postfix.startsWith("-");
            try {
                seqAdd = FioUnits.size(back ? postfix.substring(1) : postfix);
            } catch (IllegalArgumentException e) {
                throw fail(rwSetting, "':" + postfix + "': " + e.getMessage());
            }
            seqAdd = back ? -seqAdd : seqAdd;
        }
        RandomDistribution dist = distribution();
        boolean map = !norandommap && generator != RandomGenerator.LFSR;
        Setting distSetting = settings.get("random_distribution");
        if (distSetting != null && !dist.withoutMap() && dist.kind() != RandomDistribution.Kind.RANDOM) {
            if (map || generator == RandomGenerator.LFSR) {
                throw fail(distSetting, "random_distribution=" + dist.kind().name().toLowerCase(Locale.ROOT)
                        + " is implemented by the lab with norandommap and a tausworthe generator only (fio checks its"
                        + " random map at the block's place within the zone, not in the file, and its LFSR ignores"
                        + " the zones); set norandommap");
            }
        }
        Setting inc = settings.get("offset_increment");
        if (inc != null && inc.value().strip().endsWith("%")) {
            throw fail(inc, "a percentage offset_increment is not implemented by the lab yet (fio takes it of the file's"
                    + " size, aligned to offset_align); give bytes");
        }
        boolean fill = flag("fill_device", false);
        if (fill && !rw.writes()) {
            throw fail(settings.get("fill_device"), "fill_device on a job that does not write is not implemented by the"
                    + " lab (fio first fills the file system, then reads what it wrote)");
        }
        return new Job.Walk(loops, seqAdd, seqNr, ba[0], ba[1], dist, size("offset_increment", 0, 0, Long.MAX_VALUE),
                fill);
    }

    /**
     * fio's rate control, think time and start delay ({@link Job.Pace}): {@code rate},
     * {@code rate_min} sizes per second and {@code rate_iops}, {@code rate_iops_min} counts, each
     * {@code READ[,WRITE[,TRIM]]} (one value for all; an empty part none); {@code rate_cycle} in
     * milliseconds; {@code thinktime}, {@code thinktime_spin} times whose bare numbers are
     * microseconds, {@code thinktime_iotime} and {@code startdelay} seconds ({@code startdelay}
     * may be a range {@code LOW-HIGH}).
     */
    private Job.Pace pace() throws JobSpecException {
        Job.PerDir rate = perDir("rate", FioUnits::size);
        Job.PerDir rateIops = perDir("rate_iops", FioUnits::count);
        Job.PerDir rateMin = perDir("rate_min", FioUnits::size);
        Job.PerDir rateIopsMin = perDir("rate_iops_min", FioUnits::count);
        // fio's fixup_options(): "rate and rate_iops are mutually exclusive", "minimum rate exceeds rate"
        if ((rate.any() && rateIops.any()) || (rateMin.any() && rateIopsMin.any())) {
            throw fail(rate.any() && rateIops.any() ? later("rate", "rate_iops") : later("rate_min", "rate_iops_min"),
                    "rate and rate_iops (and rate_min and rate_iops_min) are mutually exclusive, as in fio");
        }
        for (boolean read : new boolean[] {true, false}) {
            if ((rate.of(read) > 0 && rate.of(read) < rateMin.of(read))
                    || (rateIops.of(read) > 0 && rateIops.of(read) < rateIopsMin.of(read))) {
                throw fail(rate.of(read) > 0 ? later("rate", "rate_min") : later("rate_iops", "rate_iops_min"),
                        "the minimum rate of " + (read ? "reads" : "writes") + " exceeds its rate (fio: \"minimum rate"
                        + " exceeds rate\")");
            }
        }
        long cycleMs = count("rate_cycle", 1000, 1, Integer.MAX_VALUE);
        boolean poisson = choice("rate_process", false, "linear, poisson", v -> switch (v) {
            case "linear" -> Boolean.FALSE;
            case "poisson" -> Boolean.TRUE;
            default -> null;
        });
        boolean offload = choice("io_submit_mode", false, "inline, offload", v -> switch (v) {
            case "inline" -> Boolean.FALSE;
            case "offload" -> Boolean.TRUE;
            default -> null;
        });
        long think = bounded("thinktime", 0, 0, Long.MAX_VALUE, v -> FioUnits.timeNs(v, 1_000));
        long spin = bounded("thinktime_spin", 0, 0, Long.MAX_VALUE, v -> FioUnits.timeNs(v, 1_000));
        checkOrder("thinktime_spin", spin, "thinktime", think, "thinktime_spin is longer than thinktime");
        long blocks = count("thinktime_blocks", 1, 0, Integer.MAX_VALUE);
        boolean issue = choice("thinktime_blocks_type", false, "complete, issue", v -> switch (v) {
            case "complete" -> Boolean.FALSE;
            case "issue" -> Boolean.TRUE;
            default -> null;
        });
        long iotime = time("thinktime_iotime");
        long[] delay = startDelay();
        return new Job.Pace(rate, rateIops, rateMin, rateIopsMin, cycleMs * 1_000_000L, poisson, offload,
                flag("rate_ignore_thinktime", false), think, spin, blocks, settings.containsKey("thinktime_blocks"),
                issue, iotime, delay[0], delay[1], count("flow", 0, 0, 1000),
                count("flow_id", 0, 0, Integer.MAX_VALUE),
                bounded("flow_sleep", 0, 0, Long.MAX_VALUE, v -> FioUnits.timeNs(v, 1_000)), steady(), latency());
    }

    /** {@code latency_target}, {@code latency_window} (bare numbers microseconds), {@code latency_percentile}, {@code latency_run}. */
    private Job.Latency latency() throws JobSpecException {
        long target = bounded("latency_target", 0, 0, Long.MAX_VALUE, v -> FioUnits.timeNs(v, 1_000));
        long window = bounded("latency_window", 0, 0, Long.MAX_VALUE, v -> FioUnits.timeNs(v, 1_000));
        Setting p = settings.get("latency_percentile");
        double pct = 100.0;
        if (p != null) {
            try {
                pct = Double.parseDouble(p.value().strip().replace("%", ""));
            } catch (NumberFormatException e) {
                throw fail(p, "'" + p.value() + "' is not a percentage");
            }
            if (!(pct > 0 && pct <= 100)) {
                throw fail(p, "'" + p.value() + "' is out of range (0, 100]");
            }
        }
        return target == 0 && window == 0 && p == null && !settings.containsKey("latency_run") ? Job.Latency.NONE
                : new Job.Latency(target, window, pct, flag("latency_run", false));
    }

    /**
     * {@code steadystate=KIND:LIMIT[%]} (fio's default {@code iops_slope:0.01%}), {@code ss_dur} and
     * {@code ss_ramp} (bare numbers seconds); null when {@code ss_dur} is 0, as fio checks nothing then.
     */
    private Job.Steady steady() throws JobSpecException {
        long durNs = time("steadystate_duration");
        long rampNs = time("steadystate_ramp_time");
        Setting s = settings.get("steadystate");
        String v = s == null ? "iops_slope:0.01%" : s.value().strip();
        int colon = v.indexOf(':');
        String kind = colon < 0 ? v : v.substring(0, colon).strip();
        boolean bw;
        boolean slope;
        switch (kind) {
            case "iops" -> { bw = false; slope = false; }
            case "iops_slope" -> { bw = false; slope = true; }
            case "bw" -> { bw = true; slope = false; }
            case "bw_slope" -> { bw = true; slope = true; }
            default -> throw fail(s, "'" + kind + "' is not one of iops, iops_slope, bw, bw_slope");
        }
        if (colon < 0) {
            throw fail(s, "steadystate needs a limit after its criterion (" + kind + ":1%)");
        }
        String limit = v.substring(colon + 1).strip();
        boolean percent = limit.endsWith("%");
        double value;
        try {
            if (percent) {
                value = Double.parseDouble(limit.substring(0, limit.length() - 1).strip());
            } else if (bw) {
                value = FioUnits.size(limit);
            } else {
                value = Double.parseDouble(limit);
            }
        } catch (IllegalArgumentException e) {
            throw fail(s, "'" + limit + "' is not a limit (a number, a size for bw, or a percentage)");
        }
        if (value < 0) {
            throw fail(s, "a limit below 0 is never met");
        }
        if (durNs == 0) {
            return null;
        }
        if (durNs / 1_000_000_000L < (slope ? 2 : 1)) {
            throw fail(settings.get("steadystate_duration"), "ss_dur of " + durNs / 1_000_000_000L + " whole seconds"
                    + " leaves no window: fio samples once a second, and a slope needs two samples");
        }
        return new Job.Steady(bw, slope, value, percent, (int) Math.min(Integer.MAX_VALUE, durNs / 1_000_000_000L),
                rampNs);
    }

    /**
     * {@code fallocate}: the lab lays out every file it makes sparse, extended with
     * {@code ftruncate()} and nothing allocated, so it runs {@code none} and {@code truncate} as
     * they are; fio's preallocating modes ({@code native}, its default, {@code posix},
     * {@code keep}, {@code 1}) are refused.
     */
    private void fallocate() throws JobSpecException {
        choice("fallocate", "none", "none, truncate, 0 (the lab's files are sparse: fio's preallocating native, posix,"
                + " keep and 1 are not implemented)", v -> switch (v) {
                    case "none", "0", "truncate" -> v;
                    default -> null;
                });
    }

    /**
     * {@code dedupe_percentage}, {@code dedupe_mode} ({@code repeat}, {@code working_set}),
     * {@code dedupe_working_set_percentage} and {@code dedupe_global} ({@link Job.Dedupe}), with
     * fio's checks of the working set: it needs {@code size}, one file, and room for the
     * deduplicated share beside it.
     */
    private Job.Dedupe dedupe(long size, int nrfiles) throws JobSpecException {
        int pct = (int) count("dedupe_percentage", 0, 0, 100);
        boolean ws = choice("dedupe_mode", false, "repeat, working_set", v -> switch (v) {
            case "repeat" -> false;
            case "working_set" -> true;
            default -> null;
        });
        int wsp = (int) count("dedupe_working_set_percentage", 5, 0, 100);
        boolean global = flag("dedupe_global", false);
        if (pct > 0 && ws) {
            Setting mode = settings.get("dedupe_mode");
            if (!settings.containsKey("size")) {
                throw fail(mode, "dedupe_mode=working_set needs size= (fio: \"pregenerated dedupe working set requires"
                        + " size to be set\")");
            }
            if (nrfiles != 1) {
                throw fail(later("dedupe_mode", "nrfiles"), "dedupe_mode=working_set works with one file per job"
                        + " (fio's check), but nrfiles=" + nrfiles);
            }
            if (pct + wsp > 100) {
                throw fail(later("dedupe_percentage", "dedupe_working_set_percentage"), "dedupe_percentage " + pct
                        + " and dedupe_working_set_percentage " + wsp + " exceed 100 together (fio: the working set's"
                        + " pages are unique)");
            }
        }
        return new Job.Dedupe(pct, ws, wsp, global);
    }

    /** fio's {@code str2error()}: the names {@code ignore_error} takes, errno 1 up to 34. */
    private static final List<String> ERRNO_NAMES = List.of("EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG",
            "ENOEXEC", "EBADF", "ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST", "EXDEV",
            "ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG", "ENOSPC", "ESPIPE",
            "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE");

    /**
     * {@code continue_on_error} ({@code none}, {@code read}, {@code write}, {@code io}, {@code verify},
     * {@code all}; {@code 0} and {@code 1} for none and all) and {@code ignore_error}
     * ({@code READ,WRITE,VERIFY} lists of errno names, fio's 34 of {@code str2error()}, or numbers,
     * {@code :}-separated) as {@link Job.OnError}.
     */
    private Job.OnError onError() throws JobSpecException {
        int classes = choice("continue_on_error", 0, "none, read, write, io, verify, all, 0, 1", v -> switch (v) {
            case "none", "0" -> 0;
            case "read" -> Job.OnError.READ;
            case "write" -> Job.OnError.WRITE;
            case "io" -> Job.OnError.READ | Job.OnError.WRITE;
            case "verify" -> Job.OnError.VERIFY;
            case "all", "1" -> Job.OnError.READ | Job.OnError.WRITE | Job.OnError.VERIFY;
            default -> null;
        });
        Setting s = settings.get("ignore_error");
        if (s == null) {
            return classes == 0 ? Job.OnError.NONE : new Job.OnError(classes, List.of(), List.of(), List.of());
        }
        String[] parts = s.value().split(",", -1);
        if (parts.length > 3) {
            throw fail(s, "'" + s.value() + "' has more than three parts (READ,WRITE,VERIFY)");
        }
        List<List<Integer>> lists = new java.util.ArrayList<>(List.of(List.of(), List.of(), List.of()));
        for (int i = 0; i < parts.length; i++) {
            List<Integer> errs = new java.util.ArrayList<>();
            for (String name : parts[i].strip().split(":")) {
                if (name.isEmpty()) {
                    break; // fio's ignore_error_type(): the list ends at an empty name
                }
                int e;
                if (name.startsWith("E")) {
                    e = ERRNO_NAMES.indexOf(name) + 1;
                } else {
                    try {
                        e = Math.abs(Integer.parseInt(name));
                    } catch (NumberFormatException x) {
                        e = 0;
                    }
                }
                if (e == 0) {
                    throw fail(s, "unknown error '" + name + "': give a number, or one of fio's names " + ERRNO_NAMES.getFirst()
                            + " .. " + ERRNO_NAMES.getLast());
                }
                errs.add(e);
            }
            if (!errs.isEmpty()) {
                lists.set(i, List.copyOf(errs));
                classes |= 1 << i; // fio: a list turns its class on
            }
        }
        return new Job.OnError(classes, lists.get(0), lists.get(1), lists.get(2));
    }

    /**
     * {@code do_verify}, {@code verify_backlog}, {@code verify_backlog_batch}, {@code verify_interval},
     * {@code verify_fatal}, {@code verify_async} and {@code verify_offset} ({@link Job.Checks});
     * without {@code verify} they change nothing, as in fio.
     */
    private Job.Checks checks() throws JobSpecException {
        return new Job.Checks(flag("do_verify", true), count("verify_backlog", 0, 0, Long.MAX_VALUE),
                count("verify_backlog_batch", 0, 0, Long.MAX_VALUE),
                (int) size("verify_interval", 0, 0, Integer.MAX_VALUE), flag("verify_fatal", false),
                (int) count("verify_async", 0, 0, 1024), flag("verify_only", false),
                (int) size("verify_offset", 0, 1, Integer.MAX_VALUE));
    }

    /**
     * fio's NUMA and priority options ({@link Job.Placement}): node lists as {@code cpus_allowed}'s
     * ({@code 0-1,3}); {@code numa_mem_policy=MODE[:NODES]}; {@code prioclass} 1..3, {@code prio}
     * 0..7; {@code cmdprio_percentage} 0..100, {@code cmdprio_class} 1..3, {@code cmdprio} 0..7,
     * each {@code READ[,WRITE]}: options of io_uring and libaio only, as fio registers them.
     */
    private Job.Placement placement(IoEngine engine) throws JobSpecException {
        List<Integer> cpuNodes = nodes("numa_cpu_nodes", settings.get("numa_cpu_nodes"));
        String mode = null;
        List<Integer> memNodes = List.of();
        Setting mp = settings.get("numa_mem_policy");
        if (mp != null) {
            int colon = mp.value().indexOf(':');
            mode = (colon < 0 ? mp.value() : mp.value().substring(0, colon)).strip();
            String list = colon < 0 ? "" : mp.value().substring(colon + 1).strip();
            switch (mode) {
                case "default", "local" -> {
                    if (!list.isEmpty()) {
                        throw fail(mp, "numa_mem_policy=" + mode + " takes no node list");
                    }
                }
                case "prefer", "bind", "interleave" -> {
                    if (list.isEmpty()) {
                        throw fail(mp, "numa_mem_policy=" + mode + " needs its nodes (" + mode + ":0)");
                    }
                    memNodes = nodes("numa_mem_policy", new Setting(mp.key(), list, mp.line()));
                    if (mode.equals("prefer") && memNodes.size() != 1) {
                        throw fail(mp, "numa_mem_policy=prefer takes one node");
                    }
                }
                default -> throw fail(mp, "'" + mode + "' is not one of default, prefer, bind, interleave, local");
            }
        }
        int prioClass = (int) count("prioclass", 0, 1, 3);
        int prio = (int) count("prio", 0, 0, 7);
        if (prioClass == 0 && settings.containsKey("prio")) {
            prioClass = 2; // fio: prio alone is a level of the best-effort class
        }
        for (String k : List.of("cmdprio_percentage", "cmdprio_class", "cmdprio", "cmdprio_bssplit")) {
            Setting s = settings.get(k);
            if (s != null && engine != IoEngine.IO_URING && engine != IoEngine.LIBAIO) {
                throw fail(s, "an option of ioengine=io_uring and libaio, but this job's ioengine is " + engine.fioName()
                        + " (fio refuses an option its engine lacks)");
            }
        }
        Job.PerDir pct = perDir("cmdprio_percentage", FioUnits::count);
        Job.PerDir cls = perDir("cmdprio_class", FioUnits::count);
        Job.PerDir lvl = perDir("cmdprio", FioUnits::count);
        for (boolean read : new boolean[] {true, false}) {
            if (pct.of(read) > 100) {
                throw fail(settings.get("cmdprio_percentage"), "'" + pct.of(read) + "' is out of range [0, 100]");
            }
            if (settings.containsKey("cmdprio_class") && (cls.of(read) < 1 || cls.of(read) > 3)) {
                throw fail(settings.get("cmdprio_class"), "'" + cls.of(read) + "' is not a class 1..3");
            }
            if (lvl.of(read) > 7) {
                throw fail(settings.get("cmdprio"), "'" + lvl.of(read) + "' is out of range [0, 7]");
            }
        }
        Job.PerDir classes = settings.containsKey("cmdprio_class") ? cls : new Job.PerDir(1, 1);
        List<List<Job.PrioSplit>> split = cmdprioSplit(classes, lvl);
        return new Job.Placement(cpuNodes, mode, memNodes, prioClass, prio, pct, classes, lvl, split.get(0),
                split.get(1));
    }

    /**
     * {@code cmdprio_bssplit=READ[,WRITE[,TRIM]]}, each part {@code bs/percent[/class/level]}
     * entries joined by {@code :} (fio's {@code parse_cmdprio_bssplit()}; one part for both
     * directions, the trim part ignored as fio ignores it); the short form takes the job's
     * {@code cmdprio_class} and {@code cmdprio}. Refused beside {@code cmdprio_percentage}, as fio
     * refuses the two together, and where a size's percentages sum past 100.
     */
    private List<List<Job.PrioSplit>> cmdprioSplit(Job.PerDir cls, Job.PerDir lvl) throws JobSpecException {
        Setting s = settings.get("cmdprio_bssplit");
        if (s == null) {
            return List.of(List.of(), List.of());
        }
        if (settings.containsKey("cmdprio_percentage")) {
            throw fail(later("cmdprio_bssplit", "cmdprio_percentage"), "cmdprio_bssplit and cmdprio_percentage are"
                    + " mutually exclusive (fio refuses both)");
        }
        String[] parts = s.value().split(",", -1);
        if (parts.length > 3) {
            throw fail(s, "'" + s.value() + "' has more than three parts (READ,WRITE,TRIM)");
        }
        List<List<Job.PrioSplit>> out = new java.util.ArrayList<>();
        for (int d = 0; d < 2; d++) {
            boolean read = d == 0;
            String part = parts[Math.min(d, parts.length - 1)].strip();
            List<Job.PrioSplit> entries = new java.util.ArrayList<>();
            Map<Integer, Integer> sums = new java.util.HashMap<>();
            for (String e : part.isEmpty() ? new String[0] : part.split(":")) {
                String[] f = e.strip().split("/");
                if (f.length != 2 && f.length != 4) {
                    throw fail(s, "'" + e + "' is not bs/percentage or bs/percentage/class/level");
                }
                try {
                    int bs = (int) FioUnits.size(f[0].strip());
                    int pct = (int) FioUnits.count(f[1].strip());
                    int c = f.length == 4 ? (int) FioUnits.count(f[2].strip()) : (int) cls.of(read);
                    int l = f.length == 4 ? (int) FioUnits.count(f[3].strip()) : (int) lvl.of(read);
                    if (pct > 100 || c < 1 || c > 3 || l > 7) {
                        throw fail(s, "'" + e + "': percentage 0..100, class 1..3, level 0..7");
                    }
                    if (sums.merge(bs, pct, Integer::sum) > 100) {
                        throw fail(s, "the percentages of size " + bs + " sum past 100");
                    }
                    entries.add(new Job.PrioSplit(bs, pct, c, l));
                } catch (IllegalArgumentException x) {
                    throw fail(s, "'" + e + "': " + x.getMessage());
                }
            }
            out.add(List.copyOf(entries));
        }
        return out;
    }

    /** A node list ({@code 0}, {@code 0-1,3}) of {@code s}, or none when absent. */
    private List<Integer> nodes(String key, Setting s) throws JobSpecException {
        if (s == null) {
            return List.of();
        }
        try {
            return Cpus.parseList(s.value(), Integer.MAX_VALUE);
        } catch (IllegalArgumentException e) {
            throw fail(s, e.getMessage().replace("CPU", "node"));
        }
    }

    /** {@code exit_what}: group (fio's default), stonewall or all. */
    private Job.ExitWhat exitWhat() throws JobSpecException {
        return choice("exit_what", Job.ExitWhat.GROUP, "group, stonewall, all", v -> switch (v) {
            case "group" -> Job.ExitWhat.GROUP;
            case "stonewall" -> Job.ExitWhat.STONEWALL;
            case "all" -> Job.ExitWhat.ALL;
            default -> null;
        });
    }

    /** A {@code READ[,WRITE[,TRIM]]} option: one value for all directions; an empty part is 0. */
    private Job.PerDir perDir(String key, ToLongFunction<String> parse) throws JobSpecException {
        return perDir(key, 0, parse);
    }

    /**
     * A {@code READ[,WRITE[,TRIM]]} option, as fio parses one with an offset per direction: one
     * value for all directions; a direction left out, or an empty part, keeps {@code absent}.
     */
    private Job.PerDir perDir(String key, long absent, ToLongFunction<String> parse) throws JobSpecException {
        Setting s = settings.get(key);
        if (s == null) {
            return new Job.PerDir(absent, absent);
        }
        String[] parts = s.value().split(",", -1);
        if (parts.length > 3) {
            throw fail(s, "'" + s.value() + "' has more than three parts (READ,WRITE,TRIM)");
        }
        long[] v = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].strip();
            try {
                v[i] = part.isEmpty() ? absent : parse.applyAsLong(part);
            } catch (IllegalArgumentException e) {
                throw fail(s, e.getMessage());
            }
        }
        return parts.length == 1 ? new Job.PerDir(v[0], v[0]) : new Job.PerDir(v[0], v[1]);
    }

    /** {@code startdelay=TIME} or {@code LOW-HIGH} (fio's {@code irange}), bare numbers seconds: {LOW, HIGH}. */
    private long[] startDelay() throws JobSpecException {
        Setting s = settings.get("startdelay");
        if (s == null) {
            return new long[] {0, 0};
        }
        String[] parts = s.value().split("-", -1);
        if (parts.length > 2) {
            throw fail(s, "'" + s.value() + "' is not a time or a range LOW-HIGH");
        }
        long[] out = new long[2];
        try {
            out[0] = FioUnits.timeNs(parts[0].strip());
            out[1] = parts.length == 2 ? FioUnits.timeNs(parts[1].strip()) : out[0];
        } catch (IllegalArgumentException e) {
            throw fail(s, e.getMessage());
        }
        if (out[1] < out[0]) {
            throw fail(s, "the range '" + s.value() + "' ends before it starts");
        }
        return out;
    }

    /** What follows {@code rw}'s first ':' (fio's {@code get_opt_postfix()}), or null. */
    private static String rwPostfix(String value) {
        int colon = value.indexOf(':');
        if (colon < 0) {
            return null;
        }
        String p = value.substring(colon + 1).strip();
        return p.isEmpty() ? null : p;
    }

    /**
     * fio's {@code fixup_options()}: "Any use of blockalign= turns off randommap", in a random job
     * whose {@code blockalign} differs from a direction's smallest size.
     */
    private static boolean blockAlignTurnsOffMap(Rw rw, BlockSizes[] sizes, int[] ba) {
        return rw.random() && (ba[0] != 0 && ba[0] != sizes[0].min() || ba[1] != 0 && ba[1] != sizes[1].min());
    }

    /** {@code blockalign} (alias {@code ba}) as {@code READ[,WRITE[,TRIM]]}; 0 for fio's default. */
    private int[] blockAlign() throws JobSpecException {
        return perDirSize("blockalign", 0);
    }

    /**
     * A size option of {@code READ[,WRITE[,TRIM]]} ({@link #perDir}), each within
     * [1, {@value #MAX_BS}] (fio's {@code minval}); {@code absent} for a direction it leaves out.
     */
    private int[] perDirSize(String key, int absent) throws JobSpecException {
        Job.PerDir v = perDir(key, part -> {
            long x = FioUnits.size(part);
            if (x < 1 || x > MAX_BS) {
                throw new IllegalArgumentException("'" + part + "' (" + x + ") is out of range [1, " + MAX_BS + "]");
            }
            return x;
        });
        return new int[] {v.read() == 0 ? absent : (int) v.read(), v.write() == 0 ? absent : (int) v.write()};
    }

    /** {@code random_distribution} ({@link RandomDistribution}); fio's {@code random} when absent. */
    private RandomDistribution distribution() throws JobSpecException {
        Setting s = settings.get("random_distribution");
        if (s == null) {
            return RandomDistribution.RANDOM;
        }
        try {
            return RandomDistribution.parse(s.value());
        } catch (IllegalArgumentException e) {
            throw fail(s, e.getMessage());
        }
    }

    /** {@code rw}, less an offset modifier ({@code read:-8k}, {@code randread:8}; {@link #walk}). */
    private Rw rw() throws JobSpecException {
        Setting s = settings.get("rw");
        if (s == null) {
            return Rw.READ;
        }
        int colon = s.value().indexOf(':');
        String mode = (colon < 0 ? s.value() : s.value().substring(0, colon)).strip();
        Rw rw = switch (mode) {
            case "read" -> Rw.READ;
            case "write" -> Rw.WRITE;
            case "randread" -> Rw.RANDREAD;
            case "randwrite" -> Rw.RANDWRITE;
            case "randrw" -> Rw.RANDRW;
            case "readwrite", "rw" -> Rw.READWRITE;
            case "trim" -> Rw.TRIM;
            case "randtrim" -> Rw.RANDTRIM;
            case "trimwrite" -> Rw.TRIMWRITE;
            case "randtrimwrite" -> Rw.RANDTRIMWRITE;
            default -> null;
        };
        if (rw == null) {
            throw fail(s, "'" + s.value() + "' is not one of read, write, randread, randwrite, randrw, readwrite, rw,"
                    + " trim, randtrim, trimwrite, randtrimwrite (each may take fio's offset modifier, read:8k or"
                    + " randread:8)");
        }
        return rw;
    }

    private IoEngine ioengine() throws JobSpecException {
        return choice("ioengine", IoEngine.PSYNC, IoEngine.names(), IoEngine::byFioName);
    }

    /** Refuses an option of one engine in a job of another engine, at its line. */
    private void checkEngineKeys(IoEngine engine) throws JobSpecException {
        for (Map.Entry<String, IoEngine> e : ENGINE_KEYS.entrySet()) {
            Setting s = settings.get(e.getKey());
            IoEngine owner = e.getValue();
            if (s != null && owner != engine) {
                throw fail(s, "an option of ioengine=" + owner.fioName() + ", but this job's ioengine is "
                        + engine.fioName() + " (fio refuses an option its engine lacks); drop it, or set ioengine="
                        + owner.fioName());
            }
        }
    }

    /** {@code inject}: the lab's contention points ({@link Inject}); none when absent. */
    private List<Inject> inject() throws JobSpecException {
        Setting s = settings.get("inject");
        if (s == null) {
            return List.of();
        }
        try {
            return Inject.parse(s.value());
        } catch (IllegalArgumentException e) {
            throw fail(s, e.getMessage());
        }
    }

    /**
     * Reads', writes' and trims' sizes: {@code bs} ({@code READ,WRITE}: trims take the writes'; a
     * third part is not read), unless {@code bsrange} or
     * {@code bssplit} says otherwise; either takes {@code READ,WRITE[,TRIM]}: one value for all,
     * and a last value not ended by a comma applies to the types after it (fio's {@code bs=8k,32k}
     * is 32k for writes and trims); an empty {@code bssplit} part keeps {@code bs}.
     */
    private BlockSizes[] blockSizes(int[] bs) throws JobSpecException {
        Setting range = settings.get("bsrange");
        Setting split = settings.get("bssplit");
        BlockSizes[] out = {BlockSizes.fixed(bs[0]), BlockSizes.fixed(bs[1]), BlockSizes.fixed(bs[1])};
        if (range != null && split != null) {
            throw fail(later("bsrange", "bssplit"), "bsrange and bssplit both set; fio would take its sizes from"
                    + " bssplit and its bounds from whichever came last: set one");
        }
        Setting s = range != null ? range : split;
        if (s == null) {
            return out;
        }
        String[] parts = s.value().split(",", -1);
        if (parts.length > 3) {
            throw fail(s, "'" + s.value() + "' has more than three parts (READ,WRITE,TRIM)");
        }
        try {
            for (int i = 0; i < parts.length; i++) {
                String part = parts[i].strip();
                if (part.isEmpty() && range == null) {
                    continue;
                }
                BlockSizes b = range != null ? BlockSizes.range(part, MAX_BS) : BlockSizes.split(part, MAX_BS);
                for (int d = i; d < (i == parts.length - 1 ? 3 : i + 1); d++) {
                    out[d] = b;
                }
            }
        } catch (IllegalArgumentException e) {
            throw fail(s, e.getMessage());
        }
        return out;
    }

    /**
     * The job's {@code [reads, writes]} sizes: a job that only trims issues its trims in the
     * non-read direction ({@link Job#writeBs}: trims' sizes there); {@code trimwrite} writes what it
     * trimmed, so the lab needs the two sizes to agree (fio writes {@code last_pos - last_start}
     * of the trim with {@code randtrimwrite}, and walks the two apart with {@code trimwrite}).
     */
    private BlockSizes[] trimSizes(Rw rw, BlockSizes[] sizes) throws JobSpecException {
        if (!rw.trims()) {
            return new BlockSizes[] {sizes[0], sizes[1]};
        }
        if (rw.writes() && !sizes[1].equals(sizes[2])) {
            throw fail(later("rw", settings.containsKey("bssplit") ? "bssplit" : "bsrange"), "trimwrite with different"
                    + " sizes for writes and trims is not implemented by the lab: give both the same");
        }
        for (String k : List.of("percentage_random", "blockalign", "rate", "rate_iops", "rate_min", "rate_iops_min")) {
            if (settings.containsKey(k)) {
                throw fail(later("rw", k), k + " in a job that trims is not implemented by the lab yet (fio reads its"
                        + " trim part there)");
            }
        }
        return new BlockSizes[] {sizes[0], sizes[2]};
    }

    /** The smallest size of the directions {@code rw} issues. */
    private static int minOf(Rw rw, BlockSizes[] sizes) {
        if (rw.reads() && rw.writes()) {
            return Math.min(sizes[0].min(), sizes[1].min());
        }
        return sizes[rw.reads() ? 0 : 1].min();
    }

    /** Combinations of sizes the lab does not run as fio does: refused at the later key's line. */
    private void checkSizes(Rw rw, BlockSizes[] sizes, long size, boolean norandommap, RandomGenerator generator,
            String bsKey) throws JobSpecException {
        // the map is kept where blocks differ in size (IoSequence): fio's map counts the smaller's
        boolean mixed = sizes[0].min() != sizes[1].min() || (rw.reads() && rw.writes()
                ? !sizes[0].isFixed() || !sizes[1].isFixed()
                : !sizes[rw.reads() ? 0 : 1].isFixed());
        if (!mixed) {
            return;
        }
        boolean map = !norandommap && generator != RandomGenerator.LFSR;
        if (rw.random() && map && size / Math.min(sizes[0].min(), sizes[1].min()) > MAX_MAP_BLOCKS) {
            throw fail(later(bsKey, "size"), "the random map of " + size + " bytes in blocks of the smallest size"
                    + " would exceed " + MAX_MAP_BLOCKS + " bits; set norandommap");
        }
    }

    private RandomGenerator randomGenerator() throws JobSpecException {
        return choice("random_generator", RandomGenerator.TAUSWORTHE, "tausworthe, lfsr, tausworthe64", v -> switch (v) {
            case "tausworthe" -> RandomGenerator.TAUSWORTHE;
            case "lfsr" -> RandomGenerator.LFSR;
            case "tausworthe64" -> RandomGenerator.TAUSWORTHE64;
            default -> null;
        });
    }

    /** {@code percentage_random=R[,W[,T]]}: one value for all, each 0..100; the trim part is checked and unused. */
    private int[] percentageRandom() throws JobSpecException {
        Job.PerDir v = perDir("percentage_random", 100, part -> {
            long x = FioUnits.count(part);
            if (x > 100) {
                throw new IllegalArgumentException("'" + part + "' is out of range [0, 100]");
            }
            return x;
        });
        return new int[] {(int) v.read(), (int) v.write()};
    }

    /**
     * {@code verify}; without it, {@code verify_pattern} alone makes it {@code pattern}, as fio's
     * {@code str_verify_pattern_cb} (fio's kind there also writes its header; the lab's
     * {@code pattern} has none). {@code verify=pattern} needs a {@code verify_pattern}.
     */
    private Verify verify() throws JobSpecException {
        Verify v = choice("verify", Verify.NONE, "none, crc32c, crc32c-intel, crc32, md5, sha1, sha256, meta, pattern",
                x -> Verify.of(x).orElse(null));
        Setting pattern = settings.get("verify_pattern");
        if (pattern != null && !settings.containsKey("verify")) {
            return Verify.PATTERN;
        }
        if (v == Verify.PATTERN && pattern == null) {
            throw fail(settings.get("verify"), "verify=pattern checks each block against verify_pattern, which this"
                    + " job does not set");
        }
        return v;
    }

    /**
     * {@code nrfiles} (alias {@code nr_files}): files per clone, fio's default 1. More than one
     * only for files the lab makes: a {@code directory} and no {@code filename} (fio caps
     * {@code nrfiles} at the number of files {@code filename} names, and would make them in the
     * working directory without {@code directory}; the lab makes files only in a folder the job
     * names).
     */
    private int nrfiles() throws JobSpecException {
        int n = (int) count("nrfiles", 1, 1, MAX_NRFILES);
        if (n == 1) {
            return n;
        }
        Setting s = settings.get("nrfiles");
        if (settings.containsKey("filename")) {
            throw fail(later("nrfiles", "filename"), "nrfiles=" + n + " with filename: fio uses only the files"
                    + " filename names (nrfiles is capped at their number); drop filename and set directory, where"
                    + " the lab makes the job's " + n + " files");
        }
        if (!settings.containsKey("directory")) {
            throw fail(s, "nrfiles=" + n + " needs directory=, the folder where the lab makes the job's files"
                    + " (fio would make them in the working directory)");
        }
        return n;
    }

    /**
     * {@code file_service_type}: {@code roundrobin} or {@code sequential}, each with an optional
     * {@code :N} batch, as fio's {@code str_fst_cb()}; the random kinds are refused.
     */
    private Job.FileService fileService() throws JobSpecException {
        Setting s = settings.get("file_service_type");
        if (s == null) {
            return Job.FileService.ROUNDROBIN;
        }
        String v = s.value();
        int colon = v.indexOf(':');
        String kind = colon < 0 ? v : v.substring(0, colon);
        boolean sequential = switch (kind) {
            case "roundrobin" -> false;
            case "sequential" -> true;
            case "random", "zipf", "pareto", "normal", "gauss" -> throw fail(s, "file_service_type=" + kind
                    + " is not supported by the lab: it picks files in order (roundrobin or sequential), not by a"
                    + " random distribution");
            default -> throw fail(s, "'" + v + "' is not one of roundrobin, sequential (fio's random, zipf, pareto"
                    + " and normal are refused)");
        };
        int batch = 1;
        if (colon >= 0) {
            try {
                batch = Integer.parseInt(v.substring(colon + 1));
            } catch (NumberFormatException e) {
                batch = 0;
            }
            if (batch < 1) {
                throw fail(s, "'" + v.substring(colon + 1) + "' is not a positive count of I/Os per file");
            }
        }
        return new Job.FileService(sequential, batch);
    }

    /** {@code ioscheduler}: a scheduler's name as the kernel lists it; null when absent. */
    private String ioscheduler() throws JobSpecException {
        Setting s = settings.get("ioscheduler");
        if (s != null && !s.value().matches("[A-Za-z0-9_-]+")) {
            throw fail(s, "'" + s.value() + "' is not a scheduler name (none, mq-deadline, kyber, bfq...)");
        }
        return s == null ? null : s.value();
    }

    /** {@code directory}: one folder (fio's ':'-separated list is refused); null when absent. */
    private String directory() throws JobSpecException {
        Setting s = settings.get("directory");
        if (s == null) {
            return null;
        }
        if (s.value().contains(":")) {
            throw fail(s, "'" + s.value() + "' names several directories (fio spreads files over them); the lab"
                    + " takes one");
        }
        return s.value();
    }

    /** {@code cpus_allowed} or {@code cpumask}, the later one written, and the policy ({@link Cpus}). */
    private Cpus cpus() throws JobSpecException {
        boolean split = choice("cpus_allowed_policy", false, "shared, split", v -> switch (v) {
            case "shared" -> Boolean.FALSE;
            case "split" -> Boolean.TRUE;
            default -> null;
        });
        Setting list = settings.get("cpus_allowed");
        Setting mask = settings.get("cpumask");
        if (list == null && mask == null) {
            return new Cpus(List.of(), split);
        }
        Setting last = list == null ? mask : mask == null ? list : later("cpus_allowed", "cpumask");
        try {
            return new Cpus(last == list ? Cpus.parseList(list.value(), Cpus.configured())
                    : Cpus.parseMask(mask.value(), Cpus.configured()), split);
        } catch (IllegalArgumentException e) {
            throw fail(last, e.getMessage());
        }
    }

    /** {@code verify_pattern} as written, checked ({@link VerifyPattern}); null when absent. */
    private String verifyPattern() throws JobSpecException {
        Setting s = settings.get("verify_pattern");
        if (s == null) {
            return null;
        }
        try {
            VerifyPattern.parse(s.value());
        } catch (IllegalArgumentException e) {
            throw fail(s, e.getMessage());
        }
        return s.value();
    }

    /** The value of a key that takes one of a few words; {@code lookup} answers null for others. */
    private <T> T choice(String key, T absent, String allowed, Function<String, T> lookup) throws JobSpecException {
        Setting s = settings.get(key);
        if (s == null) {
            return absent;
        }
        T value = lookup.apply(s.value());
        if (value == null) {
            throw fail(s, "'" + s.value() + "' is not one of " + allowed);
        }
        return value;
    }

    private JobSpecException fail(Setting s, String problem) {
        return new JobSpecException(file, s.line(), s.key(), problem);
    }
}
