package lab.bridge.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import lab.bridge.ffi.Aio;
import lab.bridge.ffi.Errno;
import lab.bridge.ffi.ErrnoException;
import lab.jobspec.Job;

/**
 * fio's {@code libaio} engine ({@code engines/libaio.c}), for one worker: one AIO context of
 * {@code iodepth} slots over one file descriptor, {@code iodepth} buffers of {@code bs} bytes,
 * tag = buffer index = control-block slot = {@code aio_data}.
 *
 * <p>Per I/O: {@link #queue} fills the tag's {@code iocb} (no system call); {@link #submit} makes
 * one {@code io_submit} per batch, as {@code fio_libaio_commit}; {@link #reap} makes one
 * {@code io_getevents(min, max)}, as {@code fio_libaio_getevents}, or, with {@code userspace_reap=1} and nothing to wait for, reads
 * the completion ring in user memory instead ({@link Aio#reapUser}). Nothing on that path
 * allocates.
 *
 * <p>Errors: {@code io_submit} answering {@code -EAGAIN} with I/Os in flight means the context is
 * out of requests: as fio, reap (here one completion, kept for the next {@link #reap}) and retry;
 * {@code -EINTR} is retried. Any other error refuses the first control block of the array (the
 * kernel starts none after it): that I/O completes with the error, the rest are submitted again,
 * so a read on a write-only descriptor reaches the worker as {@code res = -EBADF}, as it does
 * from io_uring; fio would stop the job at the commit instead, and the worker stops at the
 * completion. Only an O_DIRECT I/O
 * is asynchronous in the kernel; a buffered one is done inside {@code io_submit}, as with fio.
 *
 * <h2>Teardown</h2>
 * {@link #close()} waits for what the kernel took, as {@link UringEngine} does, within
 * {@link UringEngine.Drain#budgetNs()}: a block device's AIO cannot be cancelled
 * ({@code io_cancel} works only for the few drivers that register a cancel callback), so it
 * reaps until nothing is in flight, then destroys the context ({@code io_destroy} also waits for
 * the context's I/Os). Should the budget run out, the context and the buffers are left for the
 * process's exit ({@link Teardown}), rather than blocking in {@code io_destroy} or freeing memory
 * the kernel may still write.
 *
 * <p>Not thread-safe: one worker per engine.
 */
public final class LibaioEngine implements BridgeEngine {
    /** Submit retries on EAGAIN before giving up (fio gives up after 30 s of EAGAIN with nothing queued). */
    private static final int MAX_BUSY_RETRIES = 100_000;

    private final Arena arena;
    private final Aio aio;
    private final Buffers buffers;
    /** The descriptor of each file, set per iocb ({@code aio_fildes}). */
    private final int[] fds;
    private final boolean userspaceReap;
    private final long drainBudgetNs;

    /** Tags queued and not yet taken by {@code io_submit}, in queue order, from {@link #submitted}. */
    private int queued;
    /** Of the submission array, the entries the kernel has taken. */
    private int submitted;
    /** I/Os taken by the kernel whose completion has not been handed over yet. */
    private int inflight;
    /** Events read into the array by a submit's EAGAIN wait, not yet handed over (indices 0..stashed-1). */
    private int stashed;
    private long userReaps;
    private Teardown teardown;

    private LibaioEngine(Arena arena, Aio aio, Buffers buffers, int[] fds, boolean userspaceReap, long drainBudgetNs) {
        this.arena = arena;
        this.aio = aio;
        this.buffers = buffers;
        this.fds = fds.clone();
        this.userspaceReap = userspaceReap && aio.userRingUsable();
        this.drainBudgetNs = drainBudgetNs;
    }

    /**
     * Sets up the context and buffers for {@code job} over {@code fd} (which stays the caller's).
     *
     * @throws BridgeIoException when the kernel refuses the context ({@code io_setup}: EAGAIN when
     *         {@code fs.aio-max-nr} is used up, ENOSYS without AIO), naming the call and errno
     */
    public static LibaioEngine open(Job job, int fd) throws BridgeIoException {
        return open(job, new int[] {fd}, UringEngine.Drain.DEFAULT.budgetNs());
    }

    /** {@link #open(Job, int)} over several files: I/O on file {@code i} goes to {@code fds[i]}. */
    public static LibaioEngine open(Job job, int[] fds) throws BridgeIoException {
        return open(job, fds, UringEngine.Drain.DEFAULT.budgetNs());
    }

    /** {@link #open(Job, int)} with the teardown's drain budget chosen (tests). */
    static LibaioEngine open(Job job, int fd, long drainBudgetNs) throws BridgeIoException {
        return open(job, new int[] {fd}, drainBudgetNs);
    }

    private static LibaioEngine open(Job job, int[] fds, long drainBudgetNs) throws BridgeIoException {
        int depth = job.queueDepth();
        Aio aio;
        try {
            aio = Aio.setup(depth, depth);
        } catch (ErrnoException e) {
            throw BridgeIoException.of(e);
        }
        Arena arena = Arena.ofShared();
        try {
            return new LibaioEngine(arena, aio, new Buffers(arena, depth, job.maxBs()), fds, job.userspaceReap(),
                    drainBudgetNs);
        } catch (RuntimeException | Error e) {
            aio.close();
            arena.close();
            throw e;
        }
    }

    @Override
    public MemorySegment buffer(int tag) {
        return buffers.segment(tag);
    }

    @Override
    public void queue(int tag, int file, boolean read, long offset, int len) {
        queue(tag, file, read, offset, len, 0);
    }

    @Override
    public void queue(int tag, int file, boolean read, long offset, int len, int ioprio) {
        buffers.check(tag, len);
        if (queued + inflight >= aio.slots()) {
            throw new IllegalStateException("more than iodepth (" + aio.slots() + ") I/Os outstanding");
        }
        aio.prep(tag, read, fds[file], buffers.address(tag), len, offset, tag);
        if (ioprio != 0) {
            aio.setIoprio(tag, ioprio);
        }
        aio.order(submitted + queued, tag);
        queued++;
    }

    @Override
    public int submit() throws BridgeIoException {
        int done = 0;
        int busy = 0;
        while (queued > 0) {
            int rc = aio.submit(submitted, queued);
            if (rc > 0) {
                done += rc;
                queued -= rc;
                submitted += rc;
                inflight += rc;
            } else if (rc == 0 || rc == -Errno.EAGAIN || rc == -Errno.EINTR) {
                if (++busy > MAX_BUSY_RETRIES) {
                    throw fail("io_submit (still refused after " + MAX_BUSY_RETRIES + " retries)",
                            rc == 0 ? -Errno.EAGAIN : rc);
                }
                if (rc == -Errno.EAGAIN && inflight > stashed && stashed < aio.maxEvents()) {
                    // fio: let the caller reap; here one completion is read now and kept for reap().
                    int got = aio.getevents(stashed, 1, aio.maxEvents() - stashed, -1);
                    if (got > 0) {
                        stashed += got;
                    }
                } else {
                    Thread.yield();
                }
            } else if (stashed < aio.maxEvents()) {
                // The kernel refused the first iocb outright (EBADF, EINVAL...) and took none of
                // the rest: that I/O completes with the error, as io_uring would post it in a CQE.
                aio.putEvent(stashed++, aio.orderedData(submitted), rc);
                done++;
                queued--;
                submitted++;
                inflight++;
            } else {
                throw fail("io_submit", rc);
            }
        }
        submitted = 0;
        return done;
    }

    /**
     * {@code fio_libaio_getevents}: calls until {@code min} events are in (at least one call), each
     * for at most what is left of {@code max}; a call with nothing left to wait for reads the
     * user-space ring under {@code userspace_reap}. Events a submit's EAGAIN wait read come first,
     * all of them, even past {@code max}.
     */
    @Override
    public int reap(int min, int max, Completion sink) throws BridgeIoException {
        int want = Math.min(min, inflight);
        max = Math.max(want, Math.min(Math.min(max, aio.maxEvents()), inflight));
        int n = stashed;
        stashed = 0;
        do {
            if (n >= max) {
                break;
            }
            int rc;
            if (userspaceReap && n >= want) {
                rc = aio.reapUser(n, max - n);
                userReaps++;
            } else {
                rc = aio.getevents(n, Math.max(0, want - n), max - n, -1);
                if (rc == -Errno.EINTR) {
                    continue;
                }
                if (rc < 0) {
                    stashed = n;
                    throw fail("io_getevents(min " + (want - n) + ")", rc);
                }
            }
            n += rc;
        } while (n < want);
        int handed = 0;
        try {
            for (; handed < n; handed++) {
                sink.complete((int) aio.eventData(handed), (int) aio.eventRes(handed));
            }
        } finally {
            inflight -= handed;
        }
        return handed;
    }

    private static BridgeIoException fail(String call, int rc) {
        return new BridgeIoException(call, -rc, Errno.name(rc));
    }

    /** Reaps (discarding results) until nothing is in flight or the budget is spent; then frees. Idempotent. */
    @Override
    public void close() {
        if (teardown != null) {
            return;
        }
        int atClose = inflight;
        if (inflight == 0) {
            teardown = Teardown.IDLE;
        } else {
            long t0 = System.nanoTime();
            long deadline = t0 + drainBudgetNs;
            int completed = Math.min(stashed, inflight);
            inflight -= completed;
            stashed = 0;
            while (inflight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                int rc = aio.getevents(0, 1, Math.min(inflight, aio.maxEvents()), left);
                if (rc > 0) {
                    inflight -= rc;
                    completed += rc;
                } else if (rc < 0 && rc != -Errno.EINTR) {
                    break;
                }
            }
            long leaked = inflight > 0 ? buffers.bytes() : 0;
            teardown = new Teardown(atClose, completed, 0, inflight, leaked, System.nanoTime() - t0);
        }
        if (teardown.freed()) {
            aio.close();
            arena.close();
        }
        // else: the context and the buffers stay until the process exits (exit_aio waits for them)
    }

    @Override
    public Teardown teardown() {
        return teardown;
    }

    /** I/Os taken by the kernel and not yet reaped (tests). */
    int inflight() {
        return inflight;
    }

    /** Reaps done from the user-space ring (tests). */
    long userReaps() {
        return userReaps;
    }
}
