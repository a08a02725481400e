package lab.bridge.run;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import lab.bridge.engine.BridgeEngine;
import lab.bridge.engine.BridgeIoException;
import lab.bridge.engine.Descriptions;
import lab.bridge.engine.Teardown;
import lab.bridge.ffi.Errno;
import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import lab.bridge.ffi.Rusage;
import lab.jobspec.BufferPattern;
import lab.jobspec.IoSequence;
import lab.jobspec.Job;
import lab.jobspec.Verify;
import lab.jobspec.stats.CloneControl;
import lab.jobspec.stats.JobWindow;
import lab.jobspec.stats.LatencyTarget;
import lab.jobspec.stats.Pacing;
import lab.jobspec.stats.StartGate;
import lab.jobspec.stats.WorkerStats;

/**
 * One clone of a job on a real target, fio's {@code thread_main()} with the engine's loop
 * ({@code lab.engine.load.JobThread}) over a {@link BridgeEngine} of its own.
 *
 * <h2>The loop</h2>
 * Prepare up to {@code iodepth_batch_submit} I/Os (op, offset and length from {@link IoSequence}, write
 * data from {@link BufferPattern} into the tag's buffer, or {@code verify_pattern}, then the
 * {@link VerifyHeader} with {@code verify}), queue them, {@code submit()} once. At full depth, reap at least
 * {@code iodepth_batch_complete_min} (at least 1, as fio's {@code wait_for_completions()}) and
 * at most {@code iodepth_batch_complete_max} (by default the min: one); below it, submit again
 * without reaping. That is fio 3.33's {@code do_io()}: it reaps only when no {@code io_u} is free
 * ({@code queue_full()}), so completions the kernel posted meanwhile wait in the CQ ring and the
 * next reap at full depth finds one without sleeping. Stop issuing at {@code ramp_time + runtime},
 * or, unless {@code time_based}, once the sequence says the job is done ({@code size},
 * {@code io_size}, {@code number_ios}); then reap what is in flight. Statistics start over when
 * {@code ramp_time} ends; verify counts never do.
 *
 * <p>Pacing ({@link Pacing}): a job with {@code rate}, {@code rate_iops} or {@code thinktime}
 * issues one I/O at a time, each when its direction's rate allows (draining what is in flight
 * before a pause unless {@code io_submit_mode=offload}) and with the think time's pauses; a
 * {@code startdelay} is waited out before the window opens; a missed {@code rate_min} stops the
 * clone with EIO.
 *
 * <p>Depth: {@link Job#queueDepth()}, so a synchronous engine (psync) works at depth 1 with
 * batches of 1, whatever {@code iodepth} says, as fio does; otherwise a batch of pwrites would
 * all carry the batch's one issue time and their latencies would include each other's.
 *
 * <p>Latencies: {@code slat} = preparation to the {@code submit()} call; {@code clat} = that call
 * to the reap that saw the completion; {@code lat} = both ({@code System.nanoTime()}).
 *
 * <p>Errors: a completion with a negative result counts as an error, is named in the notes
 * (errno, operation, offset) and stops the clone, as fio stops a job without
 * {@code continue_on_error}. A short transfer is counted in {@code short_ios} (the engine
 * interface cannot queue the remainder of a buffer) and noted once. A failed
 * {@code submit}/{@code reap} stops the clone the same way; what was in flight is left to the
 * engine's {@code close()}, which waits for it before freeing any buffer ({@link Teardown}).
 *
 * <h2>A thread that behaves as fio's clone process</h2>
 * fio's clones are processes unless the job says {@code thread}; the bridge's are threads of one
 * JVM. Two kernel objects that processes hold apart, threads share, and each is an atomic touched
 * per I/O: the {@code struct file} of a descriptor (a reference per {@code pread}, iocb or
 * non-fixed io_uring request) and the {@code struct cred} (a reference per io_uring request handed
 * to io-wq, {@code io_prep_async_work}). Shared, each is one cache line bounced between the clones'
 * CPUs. So at warm-up each clone opens its files again ({@link Descriptions}: fio opens them in
 * every clone, threads included) and, unless {@code thread=1}, takes credentials of its own
 * ({@link Libc#unshareCreds()}); with {@code thread=1} its clones share the process's, as fio's
 * threads do. Measured on zram, io_uring iodepth 32 fixedbufs, 2 clones ({@code perf record -a}):
 * {@code io_prep_async_work} took 2.3% of all CPU with the credentials shared and 0.3-0.5%
 * unshared; fio 3.33 shows 0.6-0.7% with processes and 1.8% with {@code --thread}.
 *
 * <p>Threading: everything here belongs to the clone's thread, completions included (the engine
 * calls {@link #complete} inside {@code reap}); results are read after {@code join()}. No
 * allocation per I/O after warm-up, except the strings of a note.
 */
final class BridgeWorker implements StartGate.Clone, BridgeEngine.Completion {

    /** Detailed notes of one kind a clone keeps; the rest are only counted. */
    private static final int MAX_NOTES = 8;

    final Job job;
    final int clone;
    /** The clone's first (or only) file. */
    final Target target;
    /** The clone's files ({@code nrfiles}), file {@code i} at {@code [i]}. */
    private final Target[] files;
    final WorkerStats stats;

    private final EngineFactory engines;
    private final IoSequence seq;
    /** {@code rate}, {@code thinktime}, {@code startdelay} ({@link Pacing}). */
    private final Pacing pacing;
    /** {@code latency_target}: the depth the clone may use now ({@link LatencyTarget}). */
    private final LatencyTarget latency;
    /** {@code cmdprio_percentage}'s draws (fio's {@code prio_state}), and the I/Os sent with it: writes at 0, reads at 1. */
    private final lab.jobspec.SplitMix prioDraw;
    private final long[] prioIos = new long[2];
    private final VerifyHeader verify;
    private final int depth;
    /** The largest I/O of the job ({@link Job#maxBs()}): every engine buffer must hold it. */
    private final int maxBs;
    /** Tags prepared and not yet submitted. */
    private final int[] batch;
    /** Free tags, a stack. */
    private final int[] free;
    private final long[] startNs;
    private final long[] issueNs;
    private final long[] offsets;
    /** Each tag's I/O length: with {@code bsrange}/{@code bssplit} every I/O has its own. */
    private final int[] lengths;
    private final boolean[] isRead;
    /** Each tag's read is checked on completion ({@link IoSequence#checks()}). */
    private final boolean[] checks;
    /** Each tag's I/O is a trim ({@link IoSequence#trim()}). */
    private final boolean[] isTrim;
    /** BLKDISCARD's two u64s (start, length), made at warm-up; null for a job that does not trim. */
    private MemorySegment discardRange;
    /** Each tag's file ({@link IoSequence#file()}). */
    private final int[] fileOf;
    private final List<String> notes = new ArrayList<>();

    private BridgeEngine engine;
    /** The clone's own descriptions of its files, null until warm-up and after release. */
    private int[] own;
    private MemorySegment[] buffers;
    private ByteBuffer[] views;
    private int nfree;
    /** Set at the start barrier; owner-only. */
    private JobWindow window;
    private int inflight;
    /** Clock read of the completion batch being reaped; 0 until its first completion. */
    private long reapNs;
    private boolean ramped;
    private boolean stopping;
    private long statsStart;
    private Rusage usage0;
    private long writes;
    private long mismatches;
    private long unwritten;
    private long shortIos;
    private long errorNotes;

    BridgeWorker(Job job, int clone, Target target, EngineFactory engines) {
        this(job, clone, new Target[] {target}, engines);
    }

    /** A clone over its files: {@code files[i]} is file {@code i} of {@link IoSequence#file()}. */
    BridgeWorker(Job job, int clone, Target[] files, EngineFactory engines) {
        this.job = job;
        this.clone = clone;
        this.files = files.clone();
        this.target = files[0];
        this.engines = engines;
        this.stats = new WorkerStats(job, -1);
        long[] fileBytes = new long[files.length];
        for (int i = 0; i < files.length; i++) {
            fileBytes[i] = files[i].sizeBytes();
        }
        this.seq = IoSequence.forJob(job, clone, fileBytes);
        this.pacing = new Pacing(job, clone);
        this.latency = new LatencyTarget(job);
        this.prioDraw = lab.jobspec.SplitMix.of(job, clone, lab.jobspec.SplitMix.STREAM_PRIO);
        this.pattern = BufferPattern.forJob(job, clone);
        this.verify = job.verify() != Verify.NONE ? new VerifyHeader(job, clone) : null;
        this.depth = job.queueDepth();
        this.maxBs = job.maxBs();
        this.batch = new int[job.submitBatch()];
        this.free = new int[depth];
        this.startNs = new long[depth];
        this.issueNs = new long[depth];
        this.offsets = new long[depth];
        this.lengths = new int[depth];
        this.isRead = new boolean[depth];
        this.checks = new boolean[depth];
        this.isTrim = new boolean[depth];
        this.fileOf = new int[depth];
    }

    @Override
    public String threadName() {
        return "lab-bridge-" + job.name() + "." + clone;
    }

    /**
     * The CPUs this clone's thread is pinned to ({@code cpus_allowed}, {@link lab.jobspec.Cpus});
     * empty for none. Set by {@link BridgeRun} before the start.
     */
    BitSet affinity = new BitSet();

    /** This clone's flow, exitall and steady state ({@link CloneControl}); set by {@link BridgeRun} before the start. */
    CloneControl control = CloneControl.alone();

    /**
     * What this clone writes ({@link BufferPattern}); set by {@link BridgeRun} before the start, from
     * the run's clones, so that {@code dedupe_global} spans them; until then this clone's alone.
     */
    BufferPattern pattern;

    /**
     * Pins this thread ({@link #affinity}), as fio's {@code thread_main()} does before its set-up,
     * gives it credentials and descriptions of its own (see "A thread that behaves as fio's clone
     * process"), then makes the engine on it and fills its buffers once, as fio's {@code init_io_u()}.
     */
    @Override
    public void warmUp() throws Exception {
        if (!affinity.isEmpty()) {
            try {
                Libc.schedSetaffinity(affinity);
            } catch (ErrnoException e) {
                throw new BridgeSetupException("job '" + job.name() + "' clone " + clone + ": cannot pin to CPUs "
                        + affinity + " (cpus_allowed/cpumask/numa_cpu_nodes): " + e.getMessage(), e);
            }
        }
        stats.cpu(Libc.schedGetcpu());
        place(); // before the engine's buffers: numa_mem_policy decides where they come from
        if (!job.thread()) {
            try {
                Libc.unshareCreds();
            } catch (ErrnoException e) {
                throw new BridgeSetupException("job '" + job.name() + "' clone " + clone + ": cannot take credentials of"
                        + " its own, as fio's process clones have (set thread=1 to share the process's): "
                        + e.getMessage(), e);
            }
        }
        if (clone == 0 && job.queueDepth() < job.iodepth()) {
            note("ioengine=" + job.ioengine().name().toLowerCase(java.util.Locale.ROOT) + " is synchronous: iodepth="
                    + job.iodepth() + " and its batches are capped at 1, as fio caps them (\"queue depth will be"
                    + " capped at 1\")");
        }
        try {
            int[] fds = new int[files.length];
            for (int i = 0; i < fds.length; i++) {
                fds[i] = files[i].fd();
            }
            own = Descriptions.reopen(fds);
            fds = own;
            engine = fds.length == 1 ? engines.open(job, fds[0]) : engines.open(job, fds);
        } catch (Exception e) {
            throw new BridgeSetupException("job '" + job.name() + "' clone " + clone + ": cannot set up ioengine="
                    + job.ioengine().name().toLowerCase(java.util.Locale.ROOT) + " on " + target.path + ": "
                    + e.getMessage(), e);
        }
        buffers = new MemorySegment[depth];
        views = new ByteBuffer[depth];
        for (int tag = 0; tag < depth; tag++) {
            buffers[tag] = engine.buffer(tag);
            if (buffers[tag].byteSize() < maxBs) {
                throw new BridgeSetupException("job '" + job.name() + "' clone " + clone + ": ioengine="
                        + job.ioengine().name().toLowerCase(java.util.Locale.ROOT) + " gave buffers of "
                        + buffers[tag].byteSize() + " bytes, but the job's largest I/O is " + maxBs
                        + " bytes (bsrange/bssplit): the engine must allocate Job.maxBs()");
            }
            views[tag] = buffers[tag].asByteBuffer();
            if (job.rw().trims() && discardRange == null) {
                discardRange = java.lang.foreign.Arena.ofAuto().allocate(16, 8);
            }
            pattern.fillInitial(buffers[tag]);
            free[nfree++] = tag;
        }
    }

    /** Closes the engine on this thread, which drains what is in flight first, and notes what it found. */
    @Override
    public void release() {
        if (engine != null) {
            engine.close();
            Teardown t = engine.teardown();
            if (t != null && t.describe() != null) {
                note(t.describe());
            }
            engine = null;
        }
        if (own != null) {
            Descriptions.close(own, own.length);
            own = null;
        }
    }

    /**
     * fio's {@code numa_mem_policy} ({@code set_mempolicy}) and {@code prioclass}/{@code prio}
     * ({@code ioprio_set}) on this thread, each read back from the kernel into the notes.
     */
    private void place() throws BridgeSetupException {
        Job.Placement p = job.placement();
        String who = "job '" + job.name() + "' clone " + clone + ": ";
        try {
            if (p.memPolicy() != null) {
                int mode = switch (p.memPolicy()) {
                    case "prefer" -> Libc.MPOL_PREFERRED;
                    case "bind" -> Libc.MPOL_BIND;
                    case "interleave" -> Libc.MPOL_INTERLEAVE;
                    case "local" -> Libc.MPOL_LOCAL;
                    default -> Libc.MPOL_DEFAULT;
                };
                BitSet nodes = new BitSet();
                p.memNodes().forEach(nodes::set);
                Libc.setMempolicy(mode, nodes);
                int[] got = Libc.getMempolicy();
                if (clone == 0) {
                    note("numa_mem_policy=" + p.memPolicy() + (nodes.isEmpty() ? "" : ":" + nodes) + ": get_mempolicy"
                            + " says mode " + got[0] + " nodes " + java.util.Arrays.toString(
                            java.util.Arrays.copyOfRange(got, 1, got.length)));
                }
            }
            if (p.prioClass() != 0) {
                Libc.ioprioSet(Job.Placement.ioprio(p.prioClass(), p.prio()));
                int got = Libc.ioprioGet();
                if (clone == 0) {
                    note("prioclass=" + p.prioClass() + " prio=" + p.prio() + ": ioprio_get says class " + (got >> 13)
                            + " level " + (got & 7));
                }
            }
        } catch (ErrnoException e) {
            throw new BridgeSetupException(who + e.getMessage(), e);
        }
    }

    /** {@code thread_main()} from the start barrier at {@code t0}. */
    @Override
    public void run(long t0) {
        if (pacing.startDelayNs() > 0) {
            Pacing.sleepNs(pacing.startDelayNs()); // startdelay: the window opens after it
            t0 = System.nanoTime();
        }
        window = new JobWindow(job, t0);
        pacing.start(t0);
        latency.start(t0);
        control.start(t0);
        int completeMin = job.completeMin();
        int completeMax = job.completeMax();
        boolean issuing = true;
        if (window.rampEnds(t0)) {
            rampDone(t0);
        }
        try {
            while (issuing || inflight > 0) {
                long now = System.nanoTime();
                if (window.rampEnds(now)) {
                    rampDone(now);
                }
                if (stopping || window.over(now) || control.stopped(now)) {
                    issuing = false;
                }
                if (issuing && pacing.paces() && paused(now, completeMax)) {
                    continue;
                }
                int cap = latency.depth(); // iodepth, or latency_target's depth now
                if (issuing && inflight < cap) {
                    if (control.flowAhead()) {
                        waited(pacing.flowBlocked(inflight), now, false, completeMax);
                        continue;
                    }
                    if (inflight > 0 && seq.waits()) {
                        reap(1, completeMax); // the next read-back's write is in flight
                        continue;
                    }
                    int n = pacing.paces() || control.inFlow() ? 1 : Math.min(batch.length, cap - inflight);
                    issuing = submitBatch(n, now) > 0;
                } else if (inflight > 0) {
                    reap(issuing ? Math.min(completeMin, inflight) : 1, completeMax);
                }
                if (ramped && pacing.hasMinimum()) {
                    checkMinimum(System.nanoTime());
                }
                if (latency.active() && latencyStep()) {
                    issuing = false;
                }
            }
        } catch (BridgeIoException e) {
            stats.error(e.errno());
            note("stopped: " + e.getMessage() + " with " + inflight + " I/O(s) in flight");
        }
        if (latency.active()) {
            stats.latencyDepth(latency.depth());
        }
        finish(System.nanoTime());
        control.finished();
    }

    /**
     * Before the next I/O of a paced job ({@link Pacing#before}): the think time, or the rate's
     * wait. True when it drained, reaped or paused: the loop reads its clock again.
     */
    private boolean paused(long now, int completeMax) throws BridgeIoException {
        if (!window.nextInPass(seq)) {
            return false; // nothing left to issue: submitBatch ends the issuing
        }
        boolean read = seq.nextWillRead();
        return waited(pacing.before(now, read, inflight, window.untilEnd(now)), now, read, completeMax);
    }

    /** Carries out {@code step} ({@link Pacing.Step}), as the engine's clone does; false for GO. */
    private boolean waited(Pacing.Step step, long now, boolean read, int completeMax) throws BridgeIoException {
        switch (step) {
            case GO -> {
                return false;
            }
            case DRAIN -> reap(inflight, inflight);
            case REAP -> reap(1, completeMax);
            case THINK -> pacing.think(now, window.untilEnd(now), read);
            case SLEEP -> Pacing.sleepNs(pacing.pauseNs());
            case SPIN -> Thread.onSpinWait();
        }
        return true;
    }

    /**
     * fio's {@code lat_target_check()} after each turn of the loop: a new depth, drained to first
     * when it drops or the final window begins, whose statistics then start over. True when the
     * search is over and the clone issues no more.
     */
    private boolean latencyStep() throws BridgeIoException {
        long now = System.nanoTime();
        if (!ramped) {
            return false; // fio checks only after ramp_time
        }
        latency.check(now);
        if (latency.takeQuiesce() && inflight > 0) {
            reap(inflight, inflight); // fio's io_u_quiesce()
        }
        if (latency.takeReset()) {
            rampDone(System.nanoTime());
            note("latency_target: depth " + latency.depth() + " found; the statistics are its last window's");
        }
        return latency.done();
    }

    /** fio's {@code check_min_rate()}: below {@code rate_min} the clone stops with EIO, as fio's job. */
    private void checkMinimum(long now) {
        String missed = pacing.belowMinimum(now);
        if (missed != null && !stopping) {
            stats.error(Errno.EIO);
            stopping = true;
            note("stopped: " + missed + " (fio: check_min_rate, EIO)");
        }
    }

    /**
     * fio's {@code io_u_queued_complete()}: one clock read for the whole batch of completions,
     * taken at the first one, as fio stamps a completion batch once ({@code icd->time}).
     */
    private void reap(int min, int max) throws BridgeIoException {
        reapNs = 0;
        engine.reap(min, max, this);
    }

    /**
     * Prepares up to {@code n} I/Os and submits them; 0 when the pass is done and not
     * {@code time_based}. {@code start} (the loop's clock read) opens every I/O of the batch. A
     * trim, or a verify_only write, is done at once ({@link #inline}), as fio's engines do their trims.
     */
    private int submitBatch(int n, long start) throws BridgeIoException {
        int k = 0;
        int taken = 0;
        for (; taken < n; taken++) {
            if (!window.nextInPass(seq) || (taken > 0 && seq.waits())) {
                break;
            }
            int tag = free[--nfree];
            boolean read = seq.nextIsRead();
            long offset = seq.offset();
            int len = seq.length();
            int file = seq.file();
            if (seq.trim() || seq.dry()) {
                inline(tag, file, offset, len, start, seq.trim());
                continue;
            }
            isTrim[tag] = false;
            if (!read) {
                if (verify == null || !verify.fillsBlock()) {
                    pattern.prepareWrite(buffers[tag], len, offset);
                }
                if (verify != null) {
                    verify.stamp(buffers[tag], views[tag], offset, ++writes, len);
                }
            }
            startNs[tag] = start;
            offsets[tag] = offset;
            lengths[tag] = len;
            isRead[tag] = read;
            checks[tag] = verify != null && seq.checks();
            fileOf[tag] = file;
            engine.queue(tag, file, read, offset, len, cmdprio(read, len));
            pacing.issued(read, len);
            batch[k++] = tag;
        }
        if (k > 0) {
            long now = System.nanoTime();
            for (int i = 0; i < k; i++) {
                issueNs[batch[i]] = now;
            }
            inflight += k;
            engine.submit();
        }
        return taken;
    }

    /**
     * An I/O done here and now rather than by the engine. A trim is fio's {@code do_io_u_trim()}:
     * {@code ioctl(BLKDISCARD)} on the clone's own description, in line, for every engine (fio's
     * io_uring and libaio do their trims so too, {@code FIO_ASYNCIO_SYNC_TRIM}), its latency the
     * ioctl's; on a regular file the ioctl fails with ENOTTY and the clone stops, as fio's job
     * does. Otherwise a {@code verify_only} write: counted as done, nothing written (fio's
     * {@code do_dry_run()}).
     */
    private void inline(int tag, int file, long offset, int len, long start, boolean trim) {
        startNs[tag] = start;
        offsets[tag] = offset;
        lengths[tag] = len;
        isRead[tag] = false;
        isTrim[tag] = trim;
        checks[tag] = false;
        fileOf[tag] = file;
        pacing.issued(false, len);
        issueNs[tag] = System.nanoTime();
        inflight++;
        int err = trim ? Libc.blkDiscard(own[file], discardRange, offset, len) : 0;
        reapNs = 0;
        complete(tag, err == 0 ? len : -err);
    }

    /**
     * fio's {@code cmdprio_percentage}: for that share of a direction's I/Os (a 1..100 draw per
     * I/O) the request's own priority ({@code cmdprio_class}, {@code cmdprio}), else 0 (the thread's).
     */
    private int cmdprio(boolean read, int len) {
        java.util.List<Job.PrioSplit> split = job.placement().cmdprioSplit(read);
        if (!split.isEmpty()) {
            return cmdprioSplit(read, len, split);
        }
        long pct = job.placement().cmdprioPercentage().of(read);
        if (pct == 0 || prioDraw.nextDouble() * 100 >= pct) {
            return 0;
        }
        prioIos[read ? 1 : 0]++;
        return Job.Placement.ioprio(job.placement().cmdprioClass().of(read), job.placement().cmdprio().of(read));
    }

    /**
     * fio's {@code fio_cmdprio_set_ioprio()} with {@code cmdprio_bssplit}: the entries of the
     * I/O's size give its share; one 0..99 draw below it picks the entry whose cumulative share
     * covers it. An I/O of a size with no entry keeps the thread's priority.
     */
    private int cmdprioSplit(boolean read, int len, java.util.List<Job.PrioSplit> split) {
        int total = 0;
        for (int i = 0; i < split.size(); i++) {
            total += split.get(i).bs() == len ? split.get(i).percent() : 0;
        }
        if (total == 0) {
            return 0;
        }
        int draw = (int) (prioDraw.nextDouble() * 100);
        if (draw >= total) {
            return 0;
        }
        int sum = 0;
        for (int i = 0; i < split.size(); i++) {
            Job.PrioSplit e = split.get(i);
            sum += e.bs() == len ? e.percent() : 0;
            if (e.bs() == len && draw < sum) {
                prioIos[read ? 1 : 0]++;
                return Job.Placement.ioprio(e.cls(), e.level());
            }
        }
        return 0;
    }

    /** One completion, inside {@code reap} on this thread: check, count, free the tag. */
    @Override
    public void complete(int tag, int res) {
        if (reapNs == 0) {
            reapNs = System.nanoTime();
        }
        long now = reapNs;
        inflight--;
        free[nfree++] = tag;
        boolean read = isRead[tag];
        if (res < 0 && !read && !isTrim[tag]) {
            seq.writeFailed(fileOf[tag], offsets[tag]); // its block is not read back
        } else {
            seq.completed(read, fileOf[tag], offsets[tag]);
        }
        String op = isTrim[tag] ? "trim" : read ? "read" : "write";
        if (res < 0 && job.onError().nonFatal(read, -res)) {
            stats.error(-res); // fio's update_error_count(): total_err, the clone goes on
            if (errorNotes++ < MAX_NOTES) {
                note(op + " of " + lengths[tag] + " bytes at offset " + offsets[tag] + " on " + files[fileOf[tag]].path
                        + " failed: " + Errno.name(-res) + "; continue_on_error goes on");
            }
            return;
        }
        if (res < 0 && !read && job.walk().fillDevice() && (res == -Errno.ENOSPC || res == -Errno.EDQUOT)) {
            if (!stopping) {
                note("fill_device: " + op + " at offset " + offsets[tag] + " on " + files[fileOf[tag]].path + " met "
                        + Errno.name(-res) + ": the clone ends there, without an error, as fio's");
            }
            stopping = true; // fio's io_u_queued_complete(): td_clear_error(), fio_mark_td_terminate()
            return;
        }
        if (res < 0) {
            stats.error(-res);
            stopping = true;
            if (errorNotes++ < MAX_NOTES) {
                note(op + " of " + lengths[tag] + " bytes at offset " + offsets[tag] + " on "
                        + files[fileOf[tag]].path + " failed: " + Errno.name(-res) + " (" + Errno.describe(-res) + ")");
            }
            return;
        }
        if (res < lengths[tag]) {
            if (shortIos++ == 0) {
                note("short " + op + ": " + res + " of " + lengths[tag] + " bytes at offset "
                        + offsets[tag] + " on " + files[fileOf[tag]].path + " (counted in short_ios, not retried)");
            }
            if (ramped) {
                (isTrim[tag] ? stats.trim() : stats.dir(read)).addShort();
            }
        } else if (checks[tag] && !stopping) {
            verifyBlock(tag);
        }
        pacing.completed(read, res);
        control.completed(res);
        if (latency.completed(now - startNs[tag], now) && !stopping) {
            stats.error(Errno.ETIMEDOUT);
            stopping = true;
            note("stopped: latency_target " + job.pace().latency().targetNs() + " ns missed at depth 1 (fio:"
                    + " ETIMEDOUT)");
        }
        if (ramped) {
            long start = startNs[tag];
            long issue = issueNs[tag];
            (isTrim[tag] ? stats.trim() : stats.dir(read)).add(issue - start, now - issue, now - start, res);
        }
    }

    /**
     * fio's {@code verify_io_u()}: a block that fails its check, written or not, stops the clone
     * with EILSEQ, as fio stops the job (without {@code continue_on_error}); the I/Os in flight
     * then complete unchecked. With {@code continue_on_error=verify} (EILSEQ in its list) the
     * clone goes on, the failure counted (the first {@value #MAX_NOTES} named). A block with no
     * header at all is counted as unwritten, any other failure as a mismatch.
     */
    private void verifyBlock(int tag) {
        int verdict = verify.check(buffers[tag], views[tag], offsets[tag], lengths[tag]);
        if (verdict == VerifyHeader.OK) {
            return;
        }
        boolean goOn = job.onError().nonFatal(true, Errno.EILSEQ);
        boolean shown = unwritten + mismatches < MAX_NOTES;
        if (verdict == VerifyHeader.UNWRITTEN) {
            unwritten++;
            if (shown) {
                note("verify: block at offset " + offsets[tag] + " on " + files[fileOf[tag]].path
                        + " carries no header (never written by the lab, or written without verify)");
            }
        } else {
            mismatches++;
            if (shown) {
                note("verify MISMATCH on " + files[fileOf[tag]].path + ": "
                        + verify.describe(verdict, buffers[tag], views[tag], offsets[tag], lengths[tag]));
            }
        }
        if (goOn) {
            stats.error(Errno.EILSEQ); // continue_on_error=verify: counted, the clone goes on
            return;
        }
        stats.error(Errno.EILSEQ);
        stopping = true;
        note("stopped: verify failed (EILSEQ), as fio stops the job");
    }

    /** {@code ramp_time} is over: statistics and CPU times start here. */
    private void rampDone(long now) {
        pacing.rampDone(now);
        ramped = true;
        statsStart = now;
        stats.rampDone();
        usage0 = threadUsage();
    }

    private void finish(long now) {
        Job.Placement p = job.placement();
        if (!p.cmdprioSplitRead().isEmpty() || !p.cmdprioSplitWrite().isEmpty()) {
            note("cmdprio_bssplit: " + prioIos[1] + " read(s) and " + prioIos[0] + " write(s) sent with their own"
                    + " priority");
        } else if (p.cmdprioPercentage().any()) {
            note("cmdprio: " + prioIos[1] + " read(s) at class " + p.cmdprioClass().read() + " level " + p.cmdprio().read()
                    + ", " + prioIos[0] + " write(s) at class " + p.cmdprioClass().write() + " level "
                    + p.cmdprio().write() + " (cmdprio_percentage=" + p.cmdprioPercentage().read() + ","
                    + p.cmdprioPercentage().write() + ")");
        }
        if (unwritten + mismatches > MAX_NOTES) {
            note("verify: " + (unwritten + mismatches - MAX_NOTES) + " more failed block(s) not shown");
        }
        if (errorNotes > MAX_NOTES) {
            note((errorNotes - MAX_NOTES) + " more failed I/O(s) not shown");
        }
        Rusage u = ramped ? threadUsage() : null;
        if (u == null || usage0 == null) {
            stats.finish(now, ramped ? now - statsStart : 0, 0, 0, 0, 0, 0);
            return;
        }
        stats.finish(now, now - statsStart, u.utimeNs() - usage0.utimeNs(), u.stimeNs() - usage0.stimeNs(),
                (u.nvcsw() + u.nivcsw()) - (usage0.nvcsw() + usage0.nivcsw()),
                u.minflt() - usage0.minflt(), u.majflt() - usage0.majflt());
    }

    private Rusage threadUsage() {
        try {
            return Libc.getrusage(Libc.RUSAGE_THREAD);
        } catch (ErrnoException e) {
            note("getrusage(RUSAGE_THREAD): " + e.getMessage() + "; usr_cpu/sys_cpu reported as 0");
            return null;
        }
    }

    private void note(String text) {
        notes.add(job.name() + "." + clone + ": " + text);
    }

    /** This clone's notes, in order; read after {@code join()}. */
    List<String> notes() {
        return notes;
    }

    long verifyMismatches() {
        return mismatches;
    }

    long verifyUnwritten() {
        return unwritten;
    }
}
