package lab.bridge.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

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
 * {@link #submit} makes one {@code io_uring_submit_and_get_events} downcall per batch (as fio enters with GETEVENTS on each commit), {@link #reap} reads
 * CQEs straight from the ring and makes a downcall only when it must wait. Nothing on that
 * path allocates.
 *
 * <p>Job options: {@code fixedbufs} registers the buffers and uses READ_FIXED/WRITE_FIXED;
 * {@code registerfiles} registers the fd as fixed file 0; {@code hipri} sets
 * IORING_SETUP_IOPOLL (the device must support polled I/O with O_DIRECT: zram does not and
 * answers every I/O with {@code -EOPNOTSUPP}); {@code sqthread_poll} sets IORING_SETUP_SQPOLL.
 *
 * <p>Error handling follows fio's {@code fio_ioring_commit}/{@code fio_ioring_getevents}:
 * {@code -EAGAIN}/{@code -EBUSY} from submit mean "the kernel is short of resources or the
 * CQ is backed up": wait for a completion (left in the ring for the next reap) and retry;
 * {@code -EINTR} from a wait is retried; anything else is a {@link BridgeIoException}.
 *
 * <p>Not thread-safe: one worker per engine.
 */
public final class UringEngine implements BridgeEngine {
    /** Submit retries on EAGAIN/EBUSY before giving up (fio retries forever; a wedged ring should fail). */
    private static final int MAX_BUSY_RETRIES = 100_000;

    private final Arena arena;
    private final IoUring ring;
    private final Buffers buffers;
    private final int fd;
    private final byte readOp;
    private final byte writeOp;
    private final byte sqeFlags;
    private final boolean fixedbufs;

    /** SQEs prepared and not yet taken by the kernel. */
    private int queued;
    /** I/Os taken by the kernel whose completion has not been handed over yet. */
    private int inflight;

    private UringEngine(Arena arena, IoUring ring, Buffers buffers, int fd, boolean fixedbufs, boolean fixedFile) {
        this.arena = arena;
        this.ring = ring;
        this.buffers = buffers;
        this.fixedbufs = fixedbufs;
        this.fd = fixedFile ? 0 : fd;
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
        if (!Liburing.available()) {
            throw new BridgeIoException(Liburing.unavailableReason(), Errno.ENOSYS, Errno.name(Errno.ENOSYS));
        }
        int setup = (job.sqthreadPoll() ? Liburing.IORING_SETUP_SQPOLL : 0)
                | (job.hipri() ? Liburing.IORING_SETUP_IOPOLL : 0);
        IoUring ring = initAsFio(job.iodepth(), setup);
        Arena arena = Arena.ofShared();
        try {
            Buffers buffers = new Buffers(arena, job.iodepth(), job.bs());
            if (job.fixedbufs()) {
                ring.registerBuffers(buffers.addresses(), job.bs());
            }
            if (job.registerfiles()) {
                ring.registerFiles(fd);
            }
            return new UringEngine(arena, ring, buffers, fd, job.fixedbufs(), job.registerfiles());
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
        BridgeIoException b = new BridgeIoException(e.getMessage(), e.errno(), e.errnoName());
        b.initCause(e);
        return b;
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
    public void queue(int tag, boolean read, long offset, int len) {
        buffers.check(tag, len);
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
    public int reap(int min, Completion sink) throws BridgeIoException {
        int want = Math.min(min, inflight);
        int ready = ring.cqReady();
        if (ready < want || (ready == 0 && ring.iopoll() && inflight > 0)) {
            waitFor(want);
            ready = ring.cqReady();
        }
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

    @Override
    public void close() {
        ring.close();
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
