package lab.jobspec;

import java.util.List;

/**
 * One job of a job file, with {@code [global]} already merged in and fio's defaults applied.
 * Sizes are bytes, times nanoseconds. Immutable; produced only by {@link JobFileParser}.
 *
 * <p>Defaults follow fio 3.33: rw=read, rwmixread=50, bs=4096, offset=0, numjobs=1, iodepth=1,
 * iodepth_batch_submit=1, iodepth_batch_complete_min=1, iodepth_batch_complete_max=iodepth_batch_complete_min, runtime=0 (none), time_based=0,
 * ramp_time=0, direct=0 (buffered=1, its inverse), ioengine=psync, zero_buffers=0, scramble_buffers=1,
 * buffer_compress_percentage=0 (unset), refill_buffers=0, randrepeat=1, randseed=0x89 (fio's default seed),
 * group_reporting=0, thread=0, fixedbufs=0, registerfiles=0, hipri=0, sqthread_poll=0, userspace_reap=0,
 * verify=none (pattern when only verify_pattern is set);
 * and the lab's own keys base_ns=0 and inject= (none); then bsrange and bssplit unset (every I/O
 * of either direction is {@code bs}), percentage_random=100,100, norandommap=0,
 * random_generator=tausworthe, allrandrepeat=0, io_size=0 (= size) and number_ios=0 (no limit);
 * then stonewall=0, new_group=0, wait_for= (none), exitall=0, exit_what=group, no CPU set,
 * cpus_allowed_policy=shared; then nrfiles=1, file_service_type=roundrobin; then loops=1, no offset
 * modifier on rw, blockalign = the smallest size of the direction, random_distribution=random
 * ({@link Walk}); then no rate, rate_process=linear, rate_cycle=1000 (ms), io_submit_mode=inline,
 * thinktime=0, thinktime_blocks=1, thinktime_blocks_type=complete, startdelay=0, flow=0,
 * flow_id=0, ss_dur=0 (no steady-state check) ({@link Pace}); then no NUMA node, no priority
 * class, cmdprio_percentage=0 with cmdprio_class=1 and cmdprio=0 ({@link Placement}).
 *
 * @param name        the section name, or {@code name=} if given
 * @param filename    target file or device, or null when the job file names none
 * @param size        bytes of the region the job covers (from {@code offset}); {@code size}, capped by
 *                    {@code filesize}; with several files, the total over them (fio's {@code setup_files()}
 *                    caps {@code size} at the sum of the files' I/O sizes)
 * @param runtimeNs   0 when the job runs until {@code size} is done once
 * @param baseNs      {@code base_ns}, a lab key (not fio's): ns of uncontended CPU the JVM engine's
 *                    device spends per I/O, for the kernel's own per-I/O work; 0 for none
 * @param inject      {@code inject}, a lab key (not fio's): contention points the JVM engine adds
 *                    on the bio's path ({@link Inject}); empty for none
 * @param readBs      sizes of reads: {@code bs}, or what {@code bsrange}/{@code bssplit} give ({@link BlockSizes})
 * @param writeBs     sizes of writes, likewise; in a job that only trims ({@code rw=trim},
 *                    {@code randtrim}), of its trims, which take the non-read direction's place
 *                    ({@code bsrange}'s and {@code bssplit}'s trim part)
 * @param percentageRandomRead  {@code percentage_random} of reads: of a random job's reads, the
 *                    percentage at a random offset; the others continue from the last I/O
 * @param percentageRandomWrite {@code percentage_random} of writes, likewise
 * @param norandommap random offsets may repeat within a pass
 * @param randomGenerator {@code random_generator} ({@link RandomGenerator})
 * @param allrandrepeat {@code allrandrepeat}: every stream seeded from fio's default, whatever
 *                    {@code randseed} and {@code randrepeat} say
 * @param ioSize      {@code io_size}: bytes to do in all, looping over the region; 0 for {@code size}
 * @param numberIos   {@code number_ios}: stop after this many I/Os (never extends the job); 0 for none
 * @param nrfiles     {@code nrfiles}: files per clone ({@link #fileIoSize}); more than 1 only with a
 *                    {@code directory} and no {@code filename}
 * @param fileService {@code file_service_type} ({@link FileService})
 * @param walk        {@code loops}, {@code rw}'s offset modifier, {@code blockalign} and
 *                    {@code random_distribution} ({@link Walk})
 * @param pace        {@code rate} and its kin, {@code thinktime} and {@code startdelay} ({@link Pace})
 * @param placement   {@code numa_cpu_nodes}, {@code numa_mem_policy}, {@code prioclass}, {@code prio}
 *                    and io_uring's and libaio's {@code cmdprio_*} ({@link Placement})
 * @param sizeOfTarget neither {@code size} nor {@code filesize} is set: as fio, the job covers its
 *                    target from {@code offset} to the end, known only once the target is; until
 *                    {@link #withTargetSize} says, {@code size} is the smallest block size
 * @param line        line of the section header in {@code source}, for later error messages
 * @param source      the job file, as given on the command line
 */
public record Job(
        String name,
        String filename,
        Rw rw,
        int rwmixread,
        int bs,
        long size,
        long offset,
        int numjobs,
        int iodepth,
        int iodepthBatchSubmit,
        int iodepthBatchCompleteMin,
        int iodepthBatchCompleteMax,
        long runtimeNs,
        boolean timeBased,
        long rampTimeNs,
        boolean direct,
        IoEngine ioengine,
        boolean zeroBuffers,
        boolean scrambleBuffers,
        int bufferCompressPercentage,
        boolean refillBuffers,
        boolean randrepeat,
        long randseed,
        boolean groupReporting,
        boolean thread,
        boolean fixedbufs,
        boolean registerfiles,
        boolean hipri,
        boolean sqthreadPoll,
        boolean userspaceReap,
        Verify verify,
        long baseNs,
        List<Inject> inject,
        BlockSizes readBs,
        BlockSizes writeBs,
        int percentageRandomRead,
        int percentageRandomWrite,
        boolean norandommap,
        RandomGenerator randomGenerator,
        boolean allrandrepeat,
        long ioSize,
        long numberIos,
        String source,
        int line,
        Order order,
        String verifyPattern,
        Cpus cpus,
        String directory,
        long filesize,
        String ioscheduler,
        int nrfiles,
        FileService fileService,
        Walk walk,
        Pace pace,
        Placement placement,
        boolean sizeOfTarget,
        Checks checks,
        OnError onError,
        Dedupe dedupe) {

    /**
     * fio 3.33's deduplicable write buffers ({@code io_u.c}: {@code get_buf_state()};
     * {@code dedupe.c}): {@code percentage} of the writes repeat earlier content, the last unique
     * buffer's ({@code repeat}) or one of a working set of {@code workingSetPercentage} of the
     * region's pages ({@code working_set}) ({@link BufferPattern}).
     *
     * @param percentage           {@code dedupe_percentage}; 0 for none
     * @param workingSet           {@code dedupe_mode=working_set} (else {@code repeat}, fio's default)
     * @param workingSetPercentage {@code dedupe_working_set_percentage} (fio's default 5)
     * @param global               {@code dedupe_global}: the working set is shared by the jobs that set it
     */
    public record Dedupe(int percentage, boolean workingSet, int workingSetPercentage, boolean global) {
        /** fio's defaults: no deduplicable buffers. */
        public static final Dedupe NONE = new Dedupe(0, false, 5, false);
    }

    /**
     * Which I/O errors a clone goes on after: fio 3.33's {@code continue_on_error} and
     * {@code ignore_error} ({@code td_error.c}: {@code td_error_type()}, {@code td_non_fatal_error()}).
     * An error is of the verify class when it is EILSEQ, else of its I/O's direction (a trim's is
     * the write class); it is not fatal when {@code continue_on_error} names its class and the
     * class's list holds it: {@code ignore_error}'s list for the class, by default EIO and EILSEQ.
     * A list given in {@code ignore_error} also turns its class on, as fio's parser does.
     *
     * @param classes the classes {@code continue_on_error} names: {@link #READ}, {@link #WRITE}, {@link #VERIFY} bits
     * @param read    {@code ignore_error}'s read list; empty for fio's default
     * @param write   its write list; empty for the default
     * @param verify  its verify list; empty for the default
     */
    public record OnError(int classes, List<Integer> read, List<Integer> write, List<Integer> verify) {
        public static final int READ = 1, WRITE = 2, VERIFY = 4;
        /** EIO and EILSEQ: fio's {@code __NON_FATAL_ERR}, each class's list unless {@code ignore_error} gives one. */
        static final List<Integer> DEFAULT_LIST = List.of(5, 84);
        /** fio's default: every error stops the clone. */
        public static final OnError NONE = new OnError(0, List.of(), List.of(), List.of());

        /** Whether a clone goes on after {@code errno} on a read ({@code isRead}), or a write or trim. */
        public boolean nonFatal(boolean isRead, int errno) {
            int cls = errno == 84 ? VERIFY : isRead ? READ : WRITE;
            if ((classes & cls) == 0) {
                return false;
            }
            List<Integer> list = cls == VERIFY ? verify : cls == READ ? read : write;
            return (list.isEmpty() ? DEFAULT_LIST : list).contains(errno);
        }
    }

    /**
     * How a writing job reads back and checks what it wrote ({@code verify} other than
     * {@code none}), with fio 3.33's meaning ({@code backend.c}: {@code do_io()}, {@code do_verify()};
     * {@code io_u.c}: {@code check_get_verify()}; {@code iolog.c}: {@code log_io_piece()}): each write
     * is logged; after each pass its blocks are read back and checked ({@code do_verify}); with
     * {@code verify_backlog} some are read back during the pass ({@link VerifyLog}).
     *
     * @param doVerify     {@code do_verify}: read back after each pass (fio's default 1)
     * @param backlog      {@code verify_backlog}: once this many written blocks wait to be checked,
     *                     check some during the pass; 0 for none
     * @param backlogBatch {@code verify_backlog_batch}: how many then; 0 for {@code backlog}
     * @param interval     {@code verify_interval} as written: each write carries a header every this
     *                     many bytes; 0 for fio's default ({@link Job#verifyInterval()})
     * @param fatal        {@code verify_fatal}: stop at the first bad piece of a block
     * @param async        {@code verify_async}: fio's verify threads; the lab checks on the clone's own thread
     * @param only         {@code verify_only}: a writing job's writes are walked and counted but not
     *                     issued (fio's {@code do_dry_run()}), and then read back: it checks what an
     *                     earlier run of the same job wrote
     * @param offset       {@code verify_offset}: each piece's header is swapped with the bytes this
     *                     far into the piece before the write, and back before the check (fio's
     *                     {@code memswp()}); 0 for none
     */
    public record Checks(boolean doVerify, long backlog, long backlogBatch, int interval, boolean fatal, int async,
                         boolean only, int offset) {
        /** fio's defaults. */
        public static final Checks DEFAULT = new Checks(true, 0, 0, 0, false, 0, false, 0);

        /** {@code verify_only} on a job with {@code verify} that writes: its writes are dry ({@link IoSequence#dry()}). */
        public boolean dryWrites(Job job) {
            return only && job.verify() != Verify.NONE && job.rw().writes();
        }
    }

    /**
     * fio's {@code verify_interval} as it checks: a header every this many bytes of a write
     * ({@code fixup_options()}): {@code verify_interval} capped at the smallest write (or read, for a
     * job that reads), and replaced by the gcd of the smallest and largest write sizes when unset
     * or not a factor of both; the smallest write size with several sizes and none set.
     */
    public int verifyInterval() {
        int min = writeBs.min();
        int max = writeBs.max();
        long v = checks.interval();
        if (max != min && v == 0) {
            v = min;
        }
        if (v > min) {
            v = min;
        } else if (rw.reads() && v > readBs.min()) {
            v = readBs.min();
        }
        if (v == 0 || min % v != 0 || max % v != 0) {
            v = gcd(min, max);
        }
        return (int) v;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /**
     * Where and at what priority a clone's I/O runs: fio's NUMA and I/O-priority options. The
     * bridge applies them to the clone's thread and requests; the JVM engine, which has no NUMA
     * placement of its own and no I/O scheduler, says once per run that it does not.
     *
     * @param cpuNodes     {@code numa_cpu_nodes}: run on the CPUs of these nodes (replacing
     *                     {@code cpus_allowed}, as libnuma's {@code numa_run_on_node_mask()}); empty for none
     * @param memPolicy    {@code numa_mem_policy}'s mode: {@code default}, {@code prefer}, {@code bind},
     *                     {@code interleave} or {@code local}; null for none
     * @param memNodes     its node list (one node for {@code prefer}); empty for the modes without
     * @param prioClass    {@code prioclass}: 1 real-time, 2 best-effort, 3 idle; 0 for none
     * @param prio         {@code prio}: the level in the class, 0..7 (fio's default 0 with a class, 4
     *                     for best-effort without one)
     * @param cmdprioPercentage {@code cmdprio_percentage}: of the I/Os of each direction, the
     *                     percentage sent with their own priority ({@code cmdprioClass}, {@code cmdprio})
     * @param cmdprioClass {@code cmdprio_class}: that priority's class (fio's default 1, real-time)
     * @param cmdprio      {@code cmdprio}: that priority's level (fio's default 0)
     */
    public record Placement(List<Integer> cpuNodes, String memPolicy, List<Integer> memNodes, int prioClass, int prio,
                            PerDir cmdprioPercentage, PerDir cmdprioClass, PerDir cmdprio,
                            List<PrioSplit> cmdprioSplitRead, List<PrioSplit> cmdprioSplitWrite) {
        /** fio's defaults: none of it. */
        public static final Placement NONE = new Placement(List.of(), null, List.of(), 0, 0, PerDir.NONE,
                new PerDir(1, 1), PerDir.NONE, List.of(), List.of());

        /** Whether any of it is set. */
        public boolean any() {
            return !cpuNodes.isEmpty() || memPolicy != null || prioClass != 0 || cmdprioPercentage.any()
                    || !cmdprioSplitRead.isEmpty() || !cmdprioSplitWrite.isEmpty();
        }

        /** {@code cmdprio_bssplit}'s entries for reads ({@code read}) or writes; empty without it. */
        public List<PrioSplit> cmdprioSplit(boolean read) {
            return read ? cmdprioSplitRead : cmdprioSplitWrite;
        }

        /** The value of an I/O priority as {@code ioprio_set(2)} and the request fields take it: class << 13 | level. */
        public static int ioprio(long cls, long level) {
            return (int) (cls << 13 | level);
        }
    }

    /**
     * fio's steady-state options: the job stops once its IOPS or bandwidth has kept within a limit
     * over the last {@code ss_dur} seconds.
     *
     * @param bw      the criterion reads bandwidth (bytes per second), else IOPS
     * @param slope   the criterion is the least-squares slope of the samples, else their largest
     *                deviation from their mean
     * @param limit   the criterion must stay below it: a percentage of the mean when {@code percent}
     * @param percent the limit is a percentage of the samples' mean
     * @param seconds {@code ss_dur} in whole seconds: samples in the window, one a second
     * @param rampNs  {@code ss_ramp}: samples start a second after it
     */
    public record Steady(boolean bw, boolean slope, double limit, boolean percent, int seconds, long rampNs) {
    }

    /** A value per direction: fio's {@code READ,WRITE[,TRIM]} options (the trim part is checked and unused). */
    public record PerDir(long read, long write) {
        /** None for either direction. */
        public static final PerDir NONE = new PerDir(0, 0);

        /** The value of reads ({@code read}) or writes. */
        public long of(boolean read) {
            return read ? this.read : write;
        }

        /** Either direction has one. */
        public boolean any() {
            return read != 0 || write != 0;
        }
    }

    /**
     * When a clone may issue, beyond {@code iodepth} ({@link lab.jobspec.stats.Pacing}): fio's rate
     * control, think time and start delay.
     *
     * @param rate          {@code rate}: bytes per second per direction; 0 for none
     * @param rateIops      {@code rate_iops}: I/Os per second (fio turns it into bytes per second
     *                      with the direction's smallest block size); used where {@code rate} is 0
     * @param rateMin       {@code rate_min} (alias {@code ratemin}): bytes per second the job must
     *                      keep over each {@code rate_cycle}, after 2 s, or it stops with EIO
     * @param rateIopsMin   {@code rate_iops_min}: likewise in I/Os per second
     * @param rateCycleNs   {@code rate_cycle} (alias {@code ratecycle}): the window of those checks
     * @param poisson       {@code rate_process=poisson}: exponential gaps of the same mean (else linear)
     * @param offload       {@code io_submit_mode=offload}: fio submits from worker threads and does
     *                      not drain the queue before a rate pause; inline (the default) drains it
     * @param rateIgnoreThinktime {@code rate_ignore_thinktime}: think time does not hold the rate back
     * @param thinktimeNs   {@code thinktime}: pause after every {@code thinktime_blocks} I/Os
     * @param thinktimeSpinNs {@code thinktime_spin}: of that pause, the part spent spinning
     * @param thinktimeBlocks {@code thinktime_blocks}: I/Os between pauses (fio's default 1)
     * @param thinktimeBlocksSet whether {@code thinktime_blocks} was written (fio skips the block
     *                      count with {@code thinktime_iotime} unless it was)
     * @param thinktimeIssue {@code thinktime_blocks_type=issue}: count I/Os issued, not completed
     * @param thinktimeIotimeNs {@code thinktime_iotime}: also pause after this much issuing time
     * @param startDelayNs  {@code startdelay}: wait before the first I/O; the low end of a range
     * @param startDelayMaxNs the high end of a {@code startdelay} range (fio picks at random in it),
     *                      else equal to {@code startDelayNs}
     * @param flow          {@code flow}: this clone's weight among the clones of its {@code flow_id}
     *                      ({@link lab.jobspec.stats.Flows}); 0 for none
     * @param flowId        {@code flow_id}: which flow (fio's default 0)
     * @param flowSleepNs   {@code flow_sleep}: the pause when the clone is ahead of its share
     *                      (drained first); 0 to retry at once
     * @param steadyState   {@code steadystate} (alias {@code ss}): the criterion, once a second over
     *                      the last {@code ss_dur} ({@link lab.jobspec.stats.SteadyState}); null when
     *                      {@code ss_dur} is 0 (fio then does not check)
     * @param latency       {@code latency_target} and its kin ({@link Latency})
     */
    public record Pace(PerDir rate, PerDir rateIops, PerDir rateMin, PerDir rateIopsMin, long rateCycleNs,
                       boolean poisson, boolean offload, boolean rateIgnoreThinktime, long thinktimeNs,
                       long thinktimeSpinNs, long thinktimeBlocks, boolean thinktimeBlocksSet,
                       boolean thinktimeIssue, long thinktimeIotimeNs, long startDelayNs, long startDelayMaxNs,
                       long flow, long flowId, long flowSleepNs, Steady steadyState, Latency latency) {
        /** fio's defaults: none of it; {@code rate_cycle} 1000 ms, {@code thinktime_blocks} 1. */
        public static final Pace NONE = new Pace(PerDir.NONE, PerDir.NONE, PerDir.NONE, PerDir.NONE, 1_000_000_000L,
                false, false, false, 0, 0, 1, false, false, 0, 0, 0, 0, 0, 0, null, Latency.NONE);

        /** {@code rate} or {@code rate_iops} for either direction. */
        public boolean rated() {
            return rate.any() || rateIops.any();
        }

        /** {@code rate_min} or {@code rate_iops_min} for either direction. */
        public boolean hasMinimum() {
            return rateMin.any() || rateIopsMin.any();
        }
    }

    /**
     * How a clone walks its region, beyond {@code rw} and the block sizes ({@link IoSequence}).
     *
     * @param loops        {@code loops}: the job runs this many times over (fio's default 1)
     * @param seqAdd       {@code rw=read:N} and the like, for a sequential job: bytes added to each
     *                     offset after the end of the last I/O; negative walks backwards; 0 for none
     * @param seqNr        {@code rw=randread:N} and the like, for a random job: a new random offset
     *                     every N I/Os, the others sequential (fio's {@code ddir_seq_nr}); 1 for none
     * @param blockAlignRead  {@code blockalign} of reads: random offsets are multiples of it; 0 for
     *                     fio's default, the job's smallest block size
     * @param blockAlignWrite {@code blockalign} of writes, likewise
     * @param distribution {@code random_distribution} ({@link RandomDistribution})
     * @param offsetIncrement {@code offset_increment}: clone {@code c} of {@code numjobs} starts its
     *                     region at {@code offset + c * offsetIncrement} ({@link Job#offset(int)}); 0 for none
     * @param fillDevice   {@code fill_device} (alias {@code fill_fs}): a write that fails with ENOSPC or
     *                     EDQUOT ends the clone without an error, as fio's; a size-less job on a
     *                     regular file then covers it and the free space of its file system
     */
    public record Walk(long loops, long seqAdd, int seqNr, int blockAlignRead, int blockAlignWrite,
                       RandomDistribution distribution, long offsetIncrement, boolean fillDevice) {
        /** fio's defaults. */
        public static final Walk DEFAULT = new Walk(1, 0, 1, 0, 0, RandomDistribution.RANDOM, 0, false);
    }

    /**
     * Where clone {@code clone} (0 up to {@code numjobs} - 1) starts its region in each of its files:
     * {@code offset + clone * offset_increment} (fio's {@code get_start_offset()}, whose
     * {@code subjob_number} is the clone's index in its job).
     */
    public long offset(int clone) {
        return offset + clone * walk.offsetIncrement();
    }

    /**
     * One entry of {@code cmdprio_bssplit} (fio's {@code cmdprio_bsprio}): of the I/Os of
     * {@code bs} bytes, {@code percent} go with priority class {@code cls}, level {@code level}
     * (the job's {@code cmdprio_class} and {@code cmdprio} in the short form {@code bs/percent}).
     */
    public record PrioSplit(int bs, int percent, int cls, int level) {
    }

    /**
     * fio's latency-target mode ({@link lab.jobspec.stats.LatencyTarget}): the clone looks for the
     * deepest queue at which {@code percentile} of its I/Os complete within {@code targetNs},
     * window by window.
     *
     * @param targetNs   {@code latency_target} (bare numbers microseconds); 0 for none
     * @param windowNs   {@code latency_window}: how long each depth is tried (bare numbers microseconds)
     * @param percentile {@code latency_percentile}: the share of I/Os that must meet the target (fio's default 100)
     * @param run        {@code latency_run}: go on at the depth found, rather than end after one more window there
     */
    public record Latency(long targetNs, long windowNs, double percentile, boolean run) {
        /** fio's defaults: no target. */
        public static final Latency NONE = new Latency(0, 0, 100.0, false);
    }

    /**
     * This job with its region set from its target's size, as fio's {@code setup_files()} sets a
     * size-less job's: {@code targetBytes - offset} (itself unchanged unless {@link #sizeOfTarget}). The caller (the bridge, which has stat'ed
     * the target) refuses a target no block fits in. With {@code offset_increment} fio gives each
     * clone the rest of the target from its own offset; the lab gives every clone the last one's.
     *
     * @throws IllegalArgumentException when {@code offset} leaves less than one smallest block
     */
    public Job withTargetSize(long targetBytes) {
        if (!sizeOfTarget) {
            return this;
        }
        long region = targetBytes - offset(numjobs - 1); // offset_increment: the last clone's region, for every clone
        if (region < minBs()) {
            throw new IllegalArgumentException("job '" + name + "' (" + source + ":" + line + ") has no size, and its"
                    + " target of " + targetBytes + " bytes leaves " + Math.max(0, region)
                    + " bytes from offset " + offset(numjobs - 1) + (numjobs > 1 && walk.offsetIncrement() > 0
                    ? " (the last clone's, offset_increment)" : "") + ", less than one " + minBs() + "-byte block");
        }
        return new Job(name, filename, rw, rwmixread, bs, region, offset, numjobs, iodepth, iodepthBatchSubmit,
                iodepthBatchCompleteMin, iodepthBatchCompleteMax, runtimeNs, timeBased, rampTimeNs, direct, ioengine,
                zeroBuffers, scrambleBuffers, bufferCompressPercentage, refillBuffers, randrepeat, randseed,
                groupReporting, thread, fixedbufs, registerfiles, hipri, sqthreadPoll, userspaceReap, verify, baseNs,
                inject, readBs, writeBs, percentageRandomRead, percentageRandomWrite, norandommap, randomGenerator,
                allrandrepeat, ioSize, numberIos, source, line, order, verifyPattern, cpus, directory, filesize,
                ioscheduler, nrfiles, fileService, walk, pace, placement, false, checks, onError, dedupe);
    }

    /**
     * {@code file_service_type}: how a clone with several files ({@code nrfiles}) picks the file of
     * its next I/O, as fio's {@code __get_next_file()}: {@code roundrobin} (fio's default) moves to
     * the next file after every {@code batch} I/Os; {@code sequential} stays on one file until it
     * is done. Either way a file whose region is done is skipped for the rest of the pass.
     *
     * @param sequential {@code sequential}, else {@code roundrobin}
     * @param batch      the {@code :N} postfix: I/Os on one file before the next (1 by default)
     */
    public record FileService(boolean sequential, int batch) {
        /** fio's default, {@code roundrobin}. */
        public static final FileService ROUNDROBIN = new FileService(false, 1);

        /** As fio's option is written: {@code roundrobin}, {@code roundrobin:N}, {@code sequential}. */
        @Override
        public String toString() {
            return (sequential ? "sequential" : "roundrobin") + (batch == 1 ? "" : ":" + batch);
        }
    }

    /**
     * Whether each clone has files of its own: a {@code directory} and no {@code filename}, so
     * that fio's default {@code filename_format}, {@code $jobname.$jobnum.$filenum}, names
     * {@code nrfiles} files per clone ({@link #path(int, int)}).
     */
    public boolean filePerClone() {
        return directory != null && filename == null;
    }

    /**
     * The file or device clone {@code clone} runs on: {@code filename}, in {@code directory} when
     * both are set (unless {@code filename} is absolute); with a directory alone fio's default
     * name {@code NAME.CLONE.0} in it; null when the job names neither.
     */
    public String path(int clone) {
        if (directory == null) {
            return filename;
        }
        if (filename != null) {
            return filename.startsWith("/") ? filename : directory + "/" + filename;
        }
        return directory + "/" + name + "." + clone + ".0";
    }


    /**
     * The path of file {@code file} (0-based, below {@link #nrfiles}) of clone {@code clone}: fio's
     * default {@code filename_format} {@code $jobname.$jobnum.$filenum} in {@code directory};
     * {@link #path(int)} when the job has one file.
     */
    public String path(int clone, int file) {
        if (nrfiles == 1) {
            return path(clone);
        }
        return directory + "/" + name + "." + clone + "." + file;
    }

    /**
     * Bytes of file {@code file}'s region, from {@code offset}, as fio's {@code setup_files()}
     * gives each file's {@code io_size}: {@code filesize - offset} when {@code filesize} is set,
     * else {@code size / nrfiles}, the first {@code (size - that * nrfiles) / minBs} files one
     * smallest block more. With one file, {@link #size()}.
     */
    public long fileIoSize(int file) {
        if (nrfiles == 1) {
            return size;
        }
        if (filesize > 0) {
            return filesize - offset;
        }
        long each = size / nrfiles;
        long extra = (size - each * nrfiles) / minBs();
        return each + (file < extra ? minBs() : 0);
    }

    /** {@code verify_pattern}'s bytes ({@link VerifyPattern}), or null when the job sets none. */
    public byte[] verifyPatternBytes() {
        return verifyPattern == null ? null : VerifyPattern.parse(verifyPattern);
    }

    /**
     * fio's job-ordering options of one job; {@link JobOrder} turns a file's into start rules and
     * reporting groups.
     *
     * @param stonewall {@code stonewall} (alias {@code wait_for_previous}): start only once every
     *                  job before this one has finished, in a new reporting group
     * @param newGroup  {@code new_group}: a new reporting group, without waiting
     * @param waitFor   {@code wait_for=NAME}: start only once the job named so (an earlier one)
     *                  has finished; null for none
     * @param exitall   {@code exitall}: fio 3.33 reads it as a switch for the whole run (a global
     *                  {@code exitall_on_terminate}): once any job of a file sets it, every clone that
     *                  ends stops others by its {@code exit_what} ({@link lab.jobspec.stats.Exits})
     * @param exitWhat  {@code exit_what}: which clones an ending clone stops
     */
    public record Order(boolean stonewall, boolean newGroup, String waitFor, boolean exitall, ExitWhat exitWhat) {
        /** fio's defaults: start with the others, in the group before. */
        public static final Order NONE = new Order(false, false, null);

        /** Without {@code exitall}. */
        public Order(boolean stonewall, boolean newGroup, String waitFor) {
            this(stonewall, newGroup, waitFor, false, ExitWhat.GROUP);
        }
    }

    /** {@code exit_what} (fio's {@code TERMINATE_*}): the clones an ending clone stops under {@code exitall}. */
    public enum ExitWhat {
        /** Those of its reporting group (fio's default). */
        GROUP,
        /** Those running now (fio: {@code runstate >= TD_RUNNING}), of whatever group. */
        STONEWALL,
        /** Every clone of the run, those not started yet included. */
        ALL
    }

    /**
     * The I/Os the engine can really keep in flight: {@code iodepth}, or 1 for a synchronous
     * engine, whose I/O is done by the time it is queued. fio caps sync engines the same way and
     * says so ({@code backend.c}: "note: both iodepth >= 1 and synchronous I/O engine are
     * selected, queue depth will be capped at 1"); {@code iodepth} itself keeps the value written,
     * as fio's JSON does.
     */
    public int queueDepth() {
        return ioengine.synchronous() ? 1 : iodepth;
    }

    /** {@code iodepth_batch_submit} within {@link #queueDepth()}: at least 1. */
    public int submitBatch() {
        return Math.max(1, Math.min(iodepthBatchSubmit, queueDepth()));
    }

    /** {@code iodepth_batch_complete_min} within {@link #queueDepth()}: at least 1. */
    public int completeMin() {
        return Math.max(1, Math.min(iodepthBatchCompleteMin, queueDepth()));
    }

    /** {@code iodepth_batch_complete_max} within {@link #queueDepth()}: at least {@link #completeMin()}. */
    public int completeMax() {
        return Math.max(completeMin(), Math.min(iodepthBatchCompleteMax, queueDepth()));
    }

    /**
     * The unit of random offsets of reads ({@code read}) or writes: {@code blockalign}, or fio's
     * default, the direction's smallest block size.
     */
    public int blockAlign(boolean read) {
        int ba = read ? walk.blockAlignRead() : walk.blockAlignWrite();
        return ba > 0 ? ba : blockSizes(read).min();
    }

    /** The sizes of reads ({@code read}) or writes. */
    public BlockSizes blockSizes(boolean read) {
        return read ? readBs : writeBs;
    }

    /** The smallest I/O the job can issue, over the directions it issues (fio's {@code td_min_bs}). */
    public int minBs() {
        if (rw.reads() && rw.writes()) {
            return Math.min(readBs.min(), writeBs.min());
        }
        return rw.reads() ? readBs.min() : writeBs.min();
    }

    /**
     * The largest I/O the job can issue, over the directions it issues (fio's {@code td_max_bs}):
     * what every I/O buffer must hold. Equal to {@code bs} unless {@code bsrange} or {@code bssplit}
     * is set.
     */
    public int maxBs() {
        if (rw.reads() && rw.writes()) {
            return Math.max(readBs.max(), writeBs.max());
        }
        return rw.reads() ? readBs.max() : writeBs.max();
    }

    /** Some I/Os of the job differ in size (from each other, or between reads and writes). */
    public boolean mixedSizes() {
        return minBs() != maxBs();
    }

    /**
     * {@code time_based} with a {@code runtime}: the job wraps over its region until the runtime
     * ends, and {@code size}, {@code io_size} and {@code number_ios} do not end it (fio ignores
     * the last two with {@code time_based}).
     */
    public boolean runsForRuntime() {
        return timeBased && runtimeNs > 0;
    }
}
