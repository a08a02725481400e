package lab.engine.load;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import lab.engine.block.BlkStatus;
import lab.engine.blkcg.Blkcg;
import lab.engine.blkcg.CssForward;
import lab.engine.block.Bio;
import lab.engine.block.BioVec;
import lab.engine.block.BioEndIo;
import lab.engine.block.Bioset;
import lab.engine.block.BlockDevice;
import lab.engine.block.ReqOp;
import lab.jobspec.BufferPattern;
import lab.jobspec.IoSequence;
import lab.engine.inject.InjectPoint;
import lab.engine.inject.Injection;
import lab.engine.sync.Rcu;
import lab.jobspec.Inject;
import lab.jobspec.Job;
import lab.jobspec.stats.CloneControl;
import lab.jobspec.stats.JobWindow;
import lab.jobspec.stats.LatencyTarget;
import lab.jobspec.stats.Pacing;
import lab.jobspec.stats.StartGate;
import lab.jobspec.stats.WorkerStats;

/**
 * One clone of a job, fio's {@code struct thread_data} and its {@code thread_main()} loop: owns
 * per-cpu slot {@link #cpu}, keeps up to {@code iodepth} bios in flight on the device, and counts
 * what completes.
 *
 * <h2>The loop</h2>
 * Prepare up to {@code iodepth_batch_submit} bios (op, offset and length from {@link IoSequence}, write
 * data from {@link BufferPattern}), submit them one after another, and when {@code iodepth} are in
 * flight reap at least {@code iodepth_batch_complete_min} by polling the device. Stop issuing at
 * {@code ramp_time + runtime}, or, unless {@code time_based}, once the sequence says the job is
 * done ({@code size}, {@code io_size}, {@code number_ios}); then reap what is in flight. Statistics start over when {@code ramp_time} ends (I/O
 * completed after that counts). An I/O that completes with an error stops the clone, as fio stops
 * a job without {@code continue_on_error}.
 *
 * <p>Threading: everything here is touched by the clone's own thread only, including
 * {@link #endIo}, since the engine's devices complete on the submitter's thread. The results are
 * read by the {@link Workload} after {@code join()}. No allocation in the loop after warm-up.
 */
final class JobThread implements BioEndIo, StartGate.Clone {

    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    /** ETIMEDOUT, the error of a clone that misses its latency_target at depth 1 (fio's). */
    private static final int ETIMEDOUT = 110;

    final Job job;
    /** Which clone of {@code numjobs} (seeds the I/O sequence and the data pattern). */
    final int clone;
    /** The per-cpu slot this thread owns. */
    final int cpu;
    /** What this clone measured; read by the {@link Workload} after {@code join()}. */
    final WorkerStats stats;

    private final BlockDevice dev;
    private final Bioset bioset;
    /** The run's cgroup and how this clone's bios hold it ({@code bio_associate_blkg}). */
    private final Blkcg cgroup;
    private final CssForward css;
    /** The job's injections at submit and at completion. */
    private final InjectPoint injectSubmit;
    private final InjectPoint injectComplete;
    private final IoSequence seq;
    /** {@code rate}, {@code thinktime}, {@code startdelay} ({@link Pacing}). */
    private final Pacing pacing;
    /** {@code latency_target}: the depth the clone may use now ({@link LatencyTarget}). */
    private final LatencyTarget latency;
    /** Where each of the job's files ({@code nrfiles}) starts in the model's one region, less {@code offset}. */
    private final long[] fileBase;
    /** Bios prepared and not yet submitted ({@code iodepth_batch_submit} of them at most). */
    private final Bio[] batch;
    /** Which of {@link #batch} are {@code verify_only}'s dry writes. */
    private final boolean[] dry;

    /** This clone's flow, exitall and steady state ({@link CloneControl}); set by {@link Workload} before the start. */
    CloneControl control = CloneControl.alone();

    /**
     * What this clone writes ({@link BufferPattern}); set by {@link Workload} before the start, from
     * the run's clones, so that {@code dedupe_global} spans them; until then this clone's alone.
     */
    BufferPattern pattern;

    /** Set at the start barrier; owner-only. */
    private JobWindow window;
    private int inflight;
    private boolean ramped;
    private boolean stopping;
    private long statsStart;
    private long usr0;
    private long cpu0;
    private long ctx0;

    /** The run's RCU (of the dm stack and the per-cpu css counts): this thread is online in it while it runs. */
    private final Rcu rcu;

    JobThread(Job job, int clone, int cpu, BlockDevice dev, Bioset bioset, Rcu rcu, Blkcg cgroup, Injection inject) {
        this.rcu = rcu;
        this.job = job;
        this.clone = clone;
        this.cpu = cpu;
        this.dev = dev;
        this.bioset = bioset;
        this.cgroup = cgroup;
        this.css = cgroup.forward();
        this.injectSubmit = inject.at(Inject.Stage.SUBMIT);
        this.injectComplete = inject.at(Inject.Stage.COMPLETE);
        this.seq = IoSequence.forJob(job, clone);
        this.pacing = new Pacing(job, clone);
        this.latency = new LatencyTarget(job);
        this.fileBase = fileBases(job);
        this.pattern = BufferPattern.forJob(job, clone);
        this.batch = new Bio[Math.max(1, Math.min(job.iodepthBatchSubmit(), job.iodepth()))];
        this.dry = new boolean[batch.length];
        this.stats = new WorkerStats(job, cpu);
    }

    @Override
    public String threadName() {
        return "lab-" + job.name() + "." + clone;
    }

    /** fio's {@code init_io_u()}: makes this slot's {@code iodepth} bios and fills their buffers once. */
    @Override
    public void warmUp() {
        Bio[] bios = new Bio[job.iodepth()];
        for (int i = 0; i < bios.length; i++) {
            bios[i] = bioset.alloc(cpu, this);
            pattern.fillInitial(bios[i].vec.buffer());
        }
        for (Bio bio : bios) {
            bioset.free(bio);
        }
    }

    /** {@code thread_main()} from the start barrier at {@code t0} ({@code System.nanoTime()}). */
    @Override
    public void run(long t0) {
        rcu.online(cpu); // this thread is slot cpu's CPU until the loop ends
        dev.cpuOnline(cpu);
        try {
            loop(t0);
        } finally {
            dev.cpuOffline(cpu);
            if (rcu.isOnline(cpu)) {
                rcu.offline(cpu);
            }
        }
    }

    private void loop(long t0) {
        if (pacing.startDelayNs() > 0) {
            sleepOffline(pacing.startDelayNs()); // startdelay: the window opens after it
            t0 = System.nanoTime();
        }
        window = new JobWindow(job, t0);
        pacing.start(t0);
        latency.start(t0);
        control.start(t0);
        int depth = job.iodepth();
        boolean issuing = true;
        if (window.rampEnds(t0)) {
            rampDone(t0);
        }
        while (issuing || inflight > 0) {
            long now = System.nanoTime();
            if (window.rampEnds(now)) {
                rampDone(now);
            }
            if (stopping || window.over(now) || control.stopped(now)) {
                issuing = false;
            }
            if (issuing && pacing.paces() && paused(now)) {
                continue;
            }
            int cap = Math.min(depth, latency.depth()); // latency_target's depth now
            if (issuing && inflight < cap) {
                if (control.flowAhead()) {
                    waited(pacing.flowBlocked(inflight), now, false);
                    continue;
                }
                if (inflight > 0 && seq.waits()) {
                    reap(1); // the next read-back's write is in flight
                    continue;
                }
                issuing = submitBatch(pacing.paces() || control.inFlow() ? 1 : Math.min(batch.length, cap - inflight)) > 0;
            } else if (inflight > 0) {
                reap(issuing ? Math.min(job.iodepthBatchCompleteMin(), inflight) : 1);
            }
            if (ramped && pacing.hasMinimum()) {
                String missed = pacing.belowMinimum(System.nanoTime());
                if (missed != null && !stopping) {
                    stats.error(BlkStatus.IOERR.errno()); // fio's check_min_rate(): the job stops with EIO
                    stopping = true;
                }
            }
            if (latency.active() && ramped && latencyStep()) {
                issuing = false;
            }
        }
        if (latency.active()) {
            stats.latencyDepth(latency.depth());
        }
        finish(System.nanoTime());
        control.finished();
    }

    /** As the bridge's clone ({@code BridgeWorker.latencyStep}): judge the window, drain, restart the statistics; true when done. */
    private boolean latencyStep() {
        latency.check(System.nanoTime());
        if (latency.takeQuiesce() && inflight > 0) {
            reap(inflight);
        }
        if (latency.takeReset()) {
            rampDone(System.nanoTime());
        }
        return latency.done();
    }

    /**
     * Before the next I/O of a paced job ({@link Pacing#before}): the think time, or the rate's
     * wait. True when it drained, reaped or paused.
     */
    private boolean paused(long now) {
        if (!window.nextInPass(seq)) {
            return false;
        }
        boolean read = seq.nextWillRead();
        return waited(pacing.before(now, read, inflight, window.untilEnd(now)), now, read);
    }

    /** Carries out {@code step} ({@link Pacing.Step}), as the bridge's clone does; false for GO. */
    private boolean waited(Pacing.Step step, long now, boolean read) {
        switch (step) {
            case GO -> {
                return false;
            }
            case DRAIN -> reap(inflight);
            case REAP -> reap(1);
            case THINK -> {
                rcu.offline(cpu); // the pause is idle time: an extended quiescent state
                try {
                    pacing.think(now, window.untilEnd(now), read);
                } finally {
                    rcu.online(cpu);
                }
            }
            case SLEEP -> sleepOffline(pacing.pauseNs());
            case SPIN -> Thread.onSpinWait();
        }
        return true;
    }

    /** A pause: this slot's CPU is idle meanwhile, an extended quiescent state for the model's RCU. */
    private void sleepOffline(long ns) {
        rcu.offline(cpu);
        try {
            Pacing.sleepNs(ns);
        } finally {
            rcu.online(cpu);
        }
    }

    /** Prepares up to {@code n} bios, then submits them; 0 when the pass is done and not {@code time_based}. */
    private int submitBatch(int n) {
        int k = 0;
        for (; k < n; k++) {
            if (!window.nextInPass(seq) || (k > 0 && seq.waits())) {
                break;
            }
            batch[k] = prepBio();
            dry[k] = seq.dry();
        }
        for (int i = 0; i < k; i++) {
            Bio bio = batch[i];
            batch[i] = null;
            inflight++;                     // before submitBio: endIo may run inside it
            css.associate(bio, cgroup, cpu);
            injectSubmit.hit(cpu);
            bio.issueTime = System.nanoTime();
            pacing.issued(bio.op == ReqOp.READ, bio.size);
            if (dry[i]) {
                bio.status = BlkStatus.OK; // verify_only: counted as done, not submitted (fio's do_dry_run())
                endIo(bio);
            } else {
                dev.submitBio(bio);
            }
        }
        return k;
    }

    /**
     * The model has no files: a job's {@code nrfiles} files lie end to end in its one region, each
     * from a page boundary ({@link #regionBytes}), so that the files' offsets stay apart.
     */
    static long[] fileBases(Job job) {
        long[] base = new long[job.nrfiles()];
        for (int f = 1; f < base.length; f++) {
            base[f] = base[f - 1] + pageUp(job.fileIoSize(f - 1));
        }
        return base;
    }

    /** Bytes of the model's region for {@code job} from {@code offset}: {@code size}, or its files end to end. */
    static long regionBytes(Job job) {
        if (job.nrfiles() == 1) {
            return job.size();
        }
        return fileBases(job)[job.nrfiles() - 1] + job.fileIoSize(job.nrfiles() - 1);
    }

    private static long pageUp(long bytes) {
        return (bytes + BioVec.PAGE_SIZE - 1) / BioVec.PAGE_SIZE * BioVec.PAGE_SIZE;
    }

    /** fio's {@code get_io_u()} + {@code fill_io_u()}: the next I/O as a bio. */
    private Bio prepBio() {
        long start = System.nanoTime();
        boolean isRead = seq.nextIsRead();
        long offset = seq.offset() + fileBase[seq.file()];
        int len = seq.length();             // bsrange/bssplit: each I/O its own size, at most job.maxBs()
        Bio bio = bioset.alloc(cpu, this);
        bio.startTime = start;
        bio.ioOffset = seq.offset();
        bio.ioFile = seq.file();
        bio.op = isRead ? ReqOp.READ : seq.trim() ? ReqOp.DISCARD : ReqOp.WRITE; // fio's trim: blkdev_issue_discard
        bio.sector = offset >>> Bio.SECTOR_SHIFT;
        bio.size = len;
        if (bio.op == ReqOp.WRITE) {
            pattern.prepareWrite(bio.vec.buffer(), len, offset);
        }
        return bio;
    }

    /** {@code io_u_queued_complete()}: polls the device until {@code min} bios have completed. */
    private void reap(int min) {
        int got = 0;
        int idle = 0;
        while (got < min) {
            int n = dev.poll(cpu);
            got += n;
            if (n > 0) {
                idle = 0;
            } else if ((++idle & 63) == 0) {
                Thread.yield();             // two cores, more workers: let the others run
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** The bio's completion, on this thread: count it and give it back to the bioset. */
    @Override
    public void endIo(Bio bio) {
        long now = System.nanoTime();
        injectComplete.hit(cpu);
        inflight--;
        if (bio.status != BlkStatus.OK && bio.op == ReqOp.WRITE) {
            seq.writeFailed(bio.ioFile, bio.ioOffset); // its block is not read back
        } else {
            seq.completed(bio.op == ReqOp.READ, bio.ioFile, bio.ioOffset); // read-backs wait for their writes
        }
        if (bio.status != BlkStatus.OK && job.onError().nonFatal(bio.op == ReqOp.READ, bio.status.errno())) {
            stats.error(bio.status.errno()); // continue_on_error: counted, the clone goes on
        } else if (bio.status != BlkStatus.OK) {
            stats.error(bio.status.errno());
            stopping = true;
        } else {
            pacing.completed(bio.op == ReqOp.READ, bio.size);
            control.completed(bio.size);
            if (latency.completed(now - bio.startTime, now) && !stopping) {
                stats.error(ETIMEDOUT); // latency_target missed at depth 1
                stopping = true;
            }
            if (ramped) {
                (bio.op == ReqOp.DISCARD ? stats.trim() : stats.dir(bio.op == ReqOp.READ)).add(
                        bio.issueTime - bio.startTime, now - bio.issueTime, now - bio.startTime, bio.size);
            }
        }
        css.disassociate(bio, cpu); // bio_uninit
        bioset.free(bio);
    }

    /** {@code ramp_time} is over: statistics and CPU times start here. */
    private void rampDone(long now) {
        pacing.rampDone(now);
        ramped = true;
        statsStart = now;
        stats.rampDone();
        usr0 = MX.getCurrentThreadUserTime();
        cpu0 = MX.getCurrentThreadCpuTime();
        ctx0 = contextSwitches();
    }

    private void finish(long now) {
        if (ramped) {
            long usr = MX.getCurrentThreadUserTime() - usr0;
            long cpu = MX.getCurrentThreadCpuTime() - cpu0;
            stats.finish(now, now - statsStart, usr, cpu - usr, Math.max(0, contextSwitches() - ctx0), 0, 0);
        } else {
            stats.finish(now, 0, 0, 0, 0, 0, 0);
        }
    }

    /** Voluntary + involuntary context switches of the calling thread (Linux); 0 elsewhere. */
    private static long contextSwitches() {
        try {
            long sum = 0;
            for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
                if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                    sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            return sum;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
