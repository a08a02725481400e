package lab.bridge.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;

import lab.bridge.ffi.Errno;
import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.IoUring;
import lab.bridge.ffi.Liburing;
import lab.jobspec.Job;

/**
 * fio's {@code io_uring} engine, for one worker: a ring of {@code iodepth} entries over one
 * file descriptor, {@code iodepth} buffers of {@code bs} bytes, tag = buffer index =
 * {@code user_data} (= registered-buffer index with {@code fixedbufs}).
 *
 * <p>Per I/O the hot path is: {@link #queue} fills one SQE in the shared ring (no downcall),
 * {@link #submit} makes one {@code io_uring_submit_and_get_events} downcall per batch (as fio
 * enters with GETEVENTS on each commit), {@link #reap} reads up to {@code max} CQEs straight from
 * the ring, as {@code fio_ioring_cqring_reap}, and makes a downcall only when it must wait. Nothing on that
 * path allocates.
 *
 * <p>Job options: {@code fixedbufs} registers the buffers and uses READ_FIXED/WRITE_FIXED;
 * {@code registerfiles} registers the fds as fixed files 0, 1...; {@code hipri} sets
 * IORING_SETUP_IOPOLL (the device must support polled I/O with O_DIRECT: zram does not and
 * answers every I/O with {@code -EOPNOTSUPP}); {@code sqthread_poll} sets IORING_SETUP_SQPOLL.
 *
 * <p>Error handling follows fio's {@code fio_ioring_commit}/{@code fio_ioring_getevents}:
 * {@code -EAGAIN}/{@code -EBUSY} from submit mean "the kernel is short of resources or the
 * CQ is backed up": wait for a completion (left in the ring for the next reap) and retry;
 * {@code -EINTR} from a wait is retried; anything else is a {@link BridgeIoException}.
 *
 * <h2>Sleeping</h2>
 * A reap that finds fewer than {@code min} CQEs in the ring must sleep in {@code io_uring_enter}.
 * fio 3.33 sleeps until {@code min} (by default 1) are in; the bridge sleeps until
 * {@code inflight / 16} are in, when that is more: 2 at iodepth 32, no change below 32. On a
 * device whose I/O goes to io-wq workers (zram refuses non-blocking submission), the Java loop
 * reaches an empty ring sooner than fio's C loop, whose user work per I/O is larger, and it
 * used to sleep twice as often per I/O as fio and reach 0.80-0.89x fio's IOPS at iodepth 32
 * ({@code results/bridge-vs-fio-zram-20261130}); each sleep and wake-up is CPU and latency
 * the queue does not hide on 2 cores. Waiting for two keeps the sleeps per I/O at or below
 * fio's without spinning (measured in {@code results/bridge-vs-fio-zram-20261202}). The cost:
 * the first of those completions is reaped when the second arrives, a few microseconds
 * added to its {@code clat} at a clat of about 100 us. {@code max} still caps what one reap
 * hands over; the rest stay in the ring for the next reap.
 *
 * <h2>Teardown</h2>
 * {@link #close()} never frees a buffer the kernel may still use. Exiting the ring does not wait
 * for what it has taken: an O_DIRECT read already at the device still lands in its pinned pages,
 * and an io-wq worker still copies into the user address, after {@code io_uring_queue_exit}
 * returns; freed buffers are by then another allocation's memory. So close first asks the kernel
 * to cancel everything still cancellable (one {@code IORING_OP_ASYNC_CANCEL} with
 * {@code CANCEL_ANY}), then reaps until every I/O it took has completed, within
 * {@link Drain#budgetNs()}; only then are the buffers freed. Whatever is still in flight after
 * that keeps its buffers for the rest of the process (see {@link Teardown}). {@link #teardown()}
 * says what happened. Close runs on the issuing thread, like every other call: with
 * {@code DEFER_TASKRUN} only that thread's waits post completions.
 *
 * <p>Not thread-safe: one worker per engine.
 */
public final class UringEngine implements BridgeEngine {
    /** Submit retries on EAGAIN/EBUSY before giving up (fio retries forever; a wedged ring should fail). */
    private static final int MAX_BUSY_RETRIES = 100_000;
    /**
     * A reap that must sleep sleeps until {@code inflight / SLEEP_BATCH_DIVISOR} completions are in
     * (at least its {@code min}): see the class comment, "Sleeping".
     */
    static final int SLEEP_BATCH_DIVISOR = 16;
    /** {@code user_data} of the teardown's cancel SQE; tags are small non-negative ints. */
    private static final long CANCEL_USER_DATA = -1L;

    /**
     * How {@link #close()} drains.
     *
     * @param budgetNs how long to wait for I/Os in flight before leaving their buffers allocated
     * @param cancel   whether to ask the kernel to cancel what it still can first
     */
    record Drain(long budgetNs, boolean cancel) {
        /**
         * 30 s, the SCSI layer's default command timeout: a block I/O that has not completed by
         * then is one the device or the error handler is stuck on.
         */
        static final Drain DEFAULT = new Drain(30_000_000_000L, true);
    }

    private final Arena arena;
    private final IoUring ring;
    private final Buffers buffers;
    /** The descriptor (or fixed-file index with {@code registerfiles}) of each file. */
    private final int[] fds;
    private final byte readOp;
    private final byte writeOp;
    private final byte sqeFlags;
    private final boolean fixedbufs;
    private final Drain drain;

    /** SQEs prepared and not yet taken by the kernel. */
    private int queued;
    /** I/Os taken by the kernel whose completion has not been handed over yet. */
    private int inflight;
    /** Null until {@link #close()}. */
    private Teardown teardown;

    private UringEngine(Arena arena, IoUring ring, Buffers buffers, int[] fds, boolean fixedbufs, boolean fixedFile,
                        Drain drain) {
        this.arena = arena;
        this.drain = drain;
        this.ring = ring;
        this.buffers = buffers;
        this.fixedbufs = fixedbufs;
        this.fds = new int[fds.length];
        for (int i = 0; i < fds.length; i++) {
            this.fds[i] = fixedFile ? i : fds[i];
        }
        this.sqeFlags = fixedFile ? Liburing.IOSQE_FIXED_FILE : 0;
        this.readOp = fixedbufs ? Liburing.IORING_OP_READ_FIXED : Liburing.IORING_OP_READ;
        this.writeOp = fixedbufs ? Liburing.IORING_OP_WRITE_FIXED : Liburing.IORING_OP_WRITE;
    }

    /**
     * Sets up the ring and buffers for {@code job} over {@code fd} (which stays the caller's).
     *
     * @throws BridgeIoException when liburing is missing ({@code ENOSYS}), the kernel refuses
     *         the ring, or a registration fails; the message names the call and errno
     */
    public static UringEngine open(Job job, int fd) throws BridgeIoException {
        return open(job, new int[] {fd}, Drain.DEFAULT, Arena::ofShared);
    }

    /**
     * {@link #open(Job, int)} over several files: I/O on file {@code i} goes to {@code fds[i]};
     * with {@code registerfiles} all of them are registered, file {@code i} as fixed file {@code i}.
     */
    public static UringEngine open(Job job, int[] fds) throws BridgeIoException {
        return open(job, fds, Drain.DEFAULT, Arena::ofShared);
    }

    /** {@link #open(Job, int)} with the teardown's drain chosen (tests). */
    static UringEngine open(Job job, int fd, Drain drain) throws BridgeIoException {
        return open(job, fd, drain, Arena::ofShared);
    }

    /** {@link #open(Job, int, Drain)} with the buffers' arena from {@code arenas} (tests: a poisoning one). */
    static UringEngine open(Job job, int fd, Drain drain, Supplier<Arena> arenas) throws BridgeIoException {
        return open(job, new int[] {fd}, drain, arenas);
    }

    private static UringEngine open(Job job, int[] fds, Drain drain, Supplier<Arena> arenas) throws BridgeIoException {
        if (!Liburing.available()) {
            throw new BridgeIoException(Liburing.unavailableReason(), Errno.ENOSYS, Errno.name(Errno.ENOSYS));
        }
        int setup = (job.sqthreadPoll() ? Liburing.IORING_SETUP_SQPOLL : 0)
                | (job.hipri() ? Liburing.IORING_SETUP_IOPOLL : 0);
        IoUring ring = initAsFio(job.queueDepth(), setup);
        Arena arena = arenas.get();
        try {
            Buffers buffers = new Buffers(arena, job.queueDepth(), job.maxBs());
            if (job.fixedbufs()) {
                ring.registerBuffers(buffers.addresses(), job.maxBs());
            }
            if (job.registerfiles()) {
                ring.registerFiles(fds);
            }
            return new UringEngine(arena, ring, buffers, fds, job.fixedbufs(), job.registerfiles(), drain);
        } catch (ErrnoException e) {
            ring.close();
            arena.close();
            throw wrap(e);
        } catch (RuntimeException | Error e) {
            ring.close();
            arena.close();
            throw e;
        }
    }

    /**
     * The ring as fio 3.33's io_uring engine sets it up: COOP_TASKRUN (no IPI to the submitter
     * for each completion the io-wq workers post) and SINGLE_ISSUER | DEFER_TASKRUN (completion
     * task work runs when the issuer reaps), dropping those a kernel refuses with EINVAL in fio's
     * order. The caller's thread becomes the ring's only issuer. Without these flags each
     * completion an io-wq worker posts interrupts the submitter with task work; fio sets them for
     * the same reason.
     */
    private static IoUring initAsFio(int entries, int setup) throws BridgeIoException {
        int extra = Liburing.IORING_SETUP_COOP_TASKRUN | Liburing.IORING_SETUP_SINGLE_ISSUER
                | Liburing.IORING_SETUP_DEFER_TASKRUN;
        if ((setup & Liburing.IORING_SETUP_SQPOLL) != 0) {
            extra = Liburing.IORING_SETUP_COOP_TASKRUN; // DEFER_TASKRUN is not allowed with SQPOLL
        }
        while (true) {
            try {
                return IoUring.init(entries, setup | extra);
            } catch (ErrnoException e) {
                if (e.errno() != Errno.EINVAL || extra == 0) {
                    throw wrap(e);
                }
                // fio: first DEFER_TASKRUN with SINGLE_ISSUER, then COOP_TASKRUN
                extra = (extra & Liburing.IORING_SETUP_DEFER_TASKRUN) != 0 ? Liburing.IORING_SETUP_COOP_TASKRUN : 0;
            }
        }
    }

    private static BridgeIoException wrap(ErrnoException e) {
        return BridgeIoException.of(e);
    }

    private static BridgeIoException fail(String call, int rc) {
        return new BridgeIoException(call, -rc, Errno.name(rc));
    }

    /** The ring, for callers that report its facts (entries, features). */
    public IoUring ring() {
        return ring;
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
        int fd = fds[file];
        int slot = ring.getSqe();
        if (slot < 0 && ring.sqpoll()) {
            // SQPOLL: the kernel thread frees slots by itself; wait for it, as
            // io_uring_sqring_wait would (tags bound the ring, so this is brief).
            while ((slot = ring.getSqe()) < 0) {
                Thread.onSpinWait();
            }
        }
        if (slot < 0) {
            throw new IllegalStateException("SQ ring full (" + ring.sqEntries() + " entries): more than iodepth I/Os queued");
        }
        ring.prepRw(slot, read ? readOp : writeOp, sqeFlags, fd, buffers.address(tag), len, offset,
                fixedbufs ? (short) tag : 0, tag);
        if (ioprio != 0) {
            ring.setIoprio(slot, ioprio);
        }
        queued++;
    }

    @Override
    public int submit() throws BridgeIoException {
        int done = 0;
        int busy = 0;
        while (queued > 0) {
            // fio_ioring_commit enters with GETEVENTS on every commit: finished I/Os reach the
            // CQ now, not only when the ring is full and the worker waits.
            int rc = ring.sqpoll() ? ring.submit() : ring.submitAndGetEvents();
            if (rc >= 0 && ring.sqpoll()) {
                // SQPOLL: io_uring_submit published the tail (and woke the thread if it
                // slept); the kernel thread takes every queued SQE from there.
                done += queued;
                inflight += queued;
                queued = 0;
            } else if (rc > 0) {
                int took = Math.min(rc, queued);
                done += took;
                queued -= took;
                inflight += took;
            } else if (rc == 0 || rc == -Errno.EAGAIN || rc == -Errno.EBUSY || rc == -Errno.EINTR) {
                if (++busy > MAX_BUSY_RETRIES) {
                    throw fail("io_uring_submit (still refused after " + MAX_BUSY_RETRIES + " retries)", rc == 0 ? -Errno.EAGAIN : rc);
                }
                // fio: reap then retry. The completions stay in the CQ ring for the next reap.
                if (inflight > 0 && rc != -Errno.EINTR) {
                    waitFor(Math.min(inflight, ring.cqReady() + 1));
                } else {
                    Thread.yield();
                }
            } else {
                throw fail("io_uring_submit", rc);
            }
        }
        return done;
    }

    @Override
    public int reap(int min, int max, Completion sink) throws BridgeIoException {
        int want = Math.min(min, inflight);
        int ready = ring.cqReady();
        if (ready < want || (ready == 0 && ring.iopoll() && inflight > 0)) {
            waitFor(Math.max(want, inflight / SLEEP_BATCH_DIVISOR));
            ready = ring.cqReady();
        }
        ready = Math.min(ready, Math.max(max, want));
        int head = ring.cqHead();
        int handed = 0;
        try {
            for (; handed < ready; handed++) {
                int index = head + handed;
                sink.complete((int) ring.cqeUserData(index), ring.cqeRes(index));
            }
        } finally {
            ring.cqAdvance(handed);
            inflight -= handed;
        }
        return handed;
    }

    /** Waits until {@code n} CQEs are in the ring (0: poll an IOPOLL ring once). */
    private void waitFor(int n) throws BridgeIoException {
        while (true) {
            int rc = ring.waitCqes(n);
            if (rc == 0 || (rc == -Errno.EAGAIN && n == 0)) {
                return;
            }
            if (rc != -Errno.EINTR && rc != -Errno.EAGAIN) {
                throw fail("__io_uring_get_cqe(wait_nr " + n + ")", rc);
            }
        }
    }

    /**
     * Drains what the kernel has taken (see the class comment, Teardown), exits the ring, and
     * frees the buffers unless an I/O could not be drained. Idempotent.
     */
    @Override
    public void close() {
        if (teardown != null) {
            return;
        }
        teardown = inflight == 0 ? Teardown.IDLE : drainInFlight();
        ring.close();
        if (teardown.freed()) {
            arena.close();
        }
        // else: the arena stays open, unreachable: a shared arena is freed only by close()
    }

    @Override
    public Teardown teardown() {
        return teardown;
    }

    /** I/Os taken by the kernel and not yet reaped (tests). */
    int inflight() {
        return inflight;
    }

    /**
     * Cancels what can be cancelled, then reaps, discarding results, until nothing the kernel
     * took is left or the budget is spent. SQEs queued but never submitted stay unsubmitted:
     * the ring exits without taking them, unless the cancel's submission takes them along, in
     * which case they are counted in flight like the rest.
     */
    private Teardown drainInFlight() {
        long t0 = System.nanoTime();
        int atClose = inflight;
        boolean cancelPending = drain.cancel() && submitCancel();
        atClose = Math.max(atClose, inflight);  // queued SQEs the cancel's submit took along
        int completed = 0;
        int cancelled = 0;
        long deadline = t0 + drain.budgetNs();
        while (inflight > 0 || cancelPending) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            int rc = ring.iopoll() ? ring.waitCqes(0) : ring.waitCqes(1, left);
            int ready = ring.cqReady();
            int head = ring.cqHead();
            for (int i = 0; i < ready; i++) {
                if (ring.cqeUserData(head + i) == CANCEL_USER_DATA) {
                    cancelPending = false;
                } else {
                    inflight--;
                    if (ring.cqeRes(head + i) == -Errno.ECANCELED) {
                        cancelled++;
                    } else {
                        completed++;
                    }
                }
            }
            ring.cqAdvance(ready);
            if (rc < 0 && rc != -Errno.ETIME && rc != -Errno.EINTR && rc != -Errno.EAGAIN && ready == 0) {
                break; // the ring refuses to wait: nothing more will be reaped here
            }
        }
        long leaked = inflight > 0 ? buffers.bytes() : 0;
        return new Teardown(atClose, completed, cancelled, Math.max(0, inflight), leaked, System.nanoTime() - t0);
    }

    /** Queues and submits one cancel-any SQE; whether the kernel took it. */
    private boolean submitCancel() {
        int slot = ring.getSqe();
        if (slot < 0) {
            return false; // SQ full of unsubmitted I/Os: wait without cancelling
        }
        ring.prepCancelAny(slot, CANCEL_USER_DATA);
        int before = queued;
        int rc = ring.submit();
        if (rc <= 0) {
            return false;
        }
        int ios = Math.min(rc, before);        // SQEs are consumed in order: queued I/Os first
        queued -= ios;
        inflight += ios;
        return rc > before;
    }
}
