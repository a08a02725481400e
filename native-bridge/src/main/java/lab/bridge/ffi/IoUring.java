package lab.bridge.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static lab.bridge.ffi.Liburing.IORING_SETUP_IOPOLL;
import static lab.bridge.ffi.Liburing.IORING_SETUP_SQPOLL;
import static lab.bridge.ffi.Liburing.IO_URING;
import static lab.bridge.ffi.Liburing.IO_URING_CQE;
import static lab.bridge.ffi.Liburing.IO_URING_PARAMS;
import static lab.bridge.ffi.Liburing.IO_URING_SQE;
import static lab.bridge.ffi.Liburing.IOVEC;
import static lab.bridge.ffi.Liburing.field;

/**
 * One io_uring instance: liburing's {@code struct io_uring} in a Java-allocated segment, set
 * up and torn down by liburing, with liburing 2.3's {@code static inline} ring accessors
 * redone in Java over the memory liburing mapped.
 *
 * <h2>Who touches what, and the ordering between them</h2>
 * The SQ and CQ rings are shared with the kernel; each index has one writer:
 * <ul>
 *   <li>{@code sq->ktail}: written by us (through liburing's {@code __io_uring_flush_sq} in
 *       {@code io_uring_submit}, which stores {@code sqe_tail} with release under SQPOLL,
 *       {@code WRITE_ONCE} otherwise, since then the {@code io_uring_enter} syscall that
 *       follows orders it); read by the kernel.
 *   <li>{@code sq->khead}: written by the kernel as it consumes SQEs
 *       ({@code smp_store_release} in {@code io_commit_sqring}); read here by
 *       {@link #getSqe()}.
 *   <li>{@code cq->ktail}: written by the kernel after it fills CQEs
 *       ({@code smp_store_release} in {@code io_commit_cqring}); read here with acquire
 *       by {@link #cqReady()}, so the CQE bodies read after it are complete.
 *   <li>{@code cq->khead}: written here only, with release ({@link #cqAdvance}), after the
 *       CQE bodies are read, so the kernel cannot overwrite a slot still being read.
 * </ul>
 * The {@code sq->sqe_head}/{@code sq->sqe_tail} fields of the user struct are liburing's,
 * private to the issuing thread: {@link #getSqe()} advances {@code sqe_tail}, and
 * {@code io_uring_submit} flushes {@code sqe_head..sqe_tail}.
 *
 * <p>Access modes map liburing's macros one to one: {@code io_uring_smp_load_acquire} is
 * {@link VarHandle#getAcquire}, {@code io_uring_smp_store_release} is
 * {@link VarHandle#setRelease}, {@code IO_URING_READ_ONCE} is {@link VarHandle#getOpaque},
 * and a plain C dereference is a plain {@code get}. On x86-64 all of them are plain moves;
 * what they pin is the compiler's ordering.
 *
 * <p>Not thread-safe: one issuing thread per ring, as liburing requires. Nothing on the
 * submit/reap path allocates: the out-pointer of {@code __io_uring_get_cqe} is preallocated
 * and every view of the ring is made once, here.
 *
 * <p>Lifetime: every view is scoped to this object's arena, closed by {@link #close()} after
 * {@code io_uring_queue_exit} unmaps the rings; a use after close fails with
 * {@link IllegalStateException}, never by touching unmapped memory.
 */
public final class IoUring implements AutoCloseable {
    /** {@code (MemorySegment, long offset) -> int}: the ring's 32-bit indices. */
    private static final VarHandle U32 = JAVA_INT.varHandle().withInvokeExactBehavior();

    private static final VarHandle SQ_KHEAD = field(IO_URING, "sq", "khead");
    private static final VarHandle SQ_KFLAGS = field(IO_URING, "sq", "kflags");
    private static final VarHandle SQ_SQES = field(IO_URING, "sq", "sqes");
    private static final VarHandle SQ_SQE_TAIL = field(IO_URING, "sq", "sqe_tail");
    private static final VarHandle SQ_RING_MASK = field(IO_URING, "sq", "ring_mask");
    private static final VarHandle SQ_RING_ENTRIES = field(IO_URING, "sq", "ring_entries");
    private static final VarHandle CQ_KHEAD = field(IO_URING, "cq", "khead");
    private static final VarHandle CQ_KTAIL = field(IO_URING, "cq", "ktail");
    private static final VarHandle CQ_CQES = field(IO_URING, "cq", "cqes");
    private static final VarHandle CQ_RING_MASK = field(IO_URING, "cq", "ring_mask");
    private static final VarHandle CQ_RING_ENTRIES = field(IO_URING, "cq", "ring_entries");
    private static final VarHandle RING_FLAGS = field(IO_URING, "flags");
    private static final VarHandle RING_FD = field(IO_URING, "ring_fd");
    private static final VarHandle RING_FEATURES = field(IO_URING, "features");

    private static final VarHandle P_FLAGS = field(IO_URING_PARAMS, "flags");

    private static final VarHandle SQE_OPCODE = field(IO_URING_SQE, "opcode");
    private static final VarHandle SQE_FLAGS = field(IO_URING_SQE, "flags");
    private static final VarHandle SQE_IOPRIO = field(IO_URING_SQE, "ioprio");
    private static final VarHandle SQE_FD = field(IO_URING_SQE, "fd");
    private static final VarHandle SQE_OFF = field(IO_URING_SQE, "off");
    private static final VarHandle SQE_ADDR = field(IO_URING_SQE, "addr");
    private static final VarHandle SQE_LEN = field(IO_URING_SQE, "len");
    private static final VarHandle SQE_RW_FLAGS = field(IO_URING_SQE, "rw_flags");
    private static final VarHandle SQE_USER_DATA = field(IO_URING_SQE, "user_data");
    private static final VarHandle SQE_BUF_INDEX = field(IO_URING_SQE, "buf_index");
    private static final VarHandle SQE_PERSONALITY = field(IO_URING_SQE, "personality");
    private static final VarHandle SQE_FILE_INDEX = field(IO_URING_SQE, "file_index");
    private static final VarHandle SQE_ADDR3 = field(IO_URING_SQE, "addr3");
    private static final VarHandle SQE_PAD2 = field(IO_URING_SQE, "__pad2");

    private static final VarHandle CQE_USER_DATA = field(IO_URING_CQE, "user_data");
    private static final VarHandle CQE_RES = field(IO_URING_CQE, "res");

    private static final long SQE_SIZE = IO_URING_SQE.byteSize();
    private static final long CQE_SIZE = IO_URING_CQE.byteSize();

    private final Arena arena;
    /** {@code struct io_uring}. */
    private final MemorySegment ring;
    /** {@code struct io_uring_cqe *} out-parameter of {@code __io_uring_get_cqe}, reused. */
    private final MemorySegment cqePtr;
    /** {@code struct __kernel_timespec} of {@link #waitCqes(int, long)}, reused. */
    private final MemorySegment timeout;

    // Views of the kernel-shared memory (4-byte indices, and the SQE and CQE arrays).
    private final MemorySegment sqKhead;
    private final MemorySegment sqKflags;
    private final MemorySegment sqes;
    private final MemorySegment cqKhead;
    private final MemorySegment cqKtail;
    private final MemorySegment cqes;

    private final int sqMask;
    private final int sqEntries;
    private final int cqMask;
    private final int cqEntries;
    private final int flags;
    private final int features;
    private final int ringFd;

    /** Mirror of {@code ring->sq.sqe_tail}: only this thread writes the field. */
    private int sqeTail;
    private boolean closed;

    private IoUring(Arena arena, MemorySegment ring) {
        this.arena = arena;
        this.ring = ring;
        this.cqePtr = arena.allocate(ADDRESS);
        this.timeout = arena.allocate(Liburing.KERNEL_TIMESPEC);
        this.sqMask = (int) SQ_RING_MASK.get(ring, 0L);
        this.sqEntries = (int) SQ_RING_ENTRIES.get(ring, 0L);
        this.cqMask = (int) CQ_RING_MASK.get(ring, 0L);
        this.cqEntries = (int) CQ_RING_ENTRIES.get(ring, 0L);
        this.flags = (int) RING_FLAGS.get(ring, 0L);
        this.features = (int) RING_FEATURES.get(ring, 0L);
        this.ringFd = (int) RING_FD.get(ring, 0L);
        this.sqeTail = (int) SQ_SQE_TAIL.get(ring, 0L);
        this.sqKhead = view((MemorySegment) SQ_KHEAD.get(ring, 0L), Integer.BYTES);
        this.sqKflags = view((MemorySegment) SQ_KFLAGS.get(ring, 0L), Integer.BYTES);
        this.sqes = view((MemorySegment) SQ_SQES.get(ring, 0L), sqEntries * SQE_SIZE);
        this.cqKhead = view((MemorySegment) CQ_KHEAD.get(ring, 0L), Integer.BYTES);
        this.cqKtail = view((MemorySegment) CQ_KTAIL.get(ring, 0L), Integer.BYTES);
        this.cqes = view((MemorySegment) CQ_CQES.get(ring, 0L), cqEntries * CQE_SIZE);
    }

    private MemorySegment view(MemorySegment pointer, long size) {
        return pointer.reinterpret(size, arena, null);
    }

    /**
     * {@code io_uring_queue_init_params(entries, ring, p)} with {@code p.flags = setupFlags}
     * ({@link Liburing#IORING_SETUP_SQPOLL}, {@link Liburing#IORING_SETUP_IOPOLL}).
     */
    public static IoUring init(int entries, int setupFlags) throws ErrnoException {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment ring = arena.allocate(IO_URING);
            MemorySegment params = arena.allocate(IO_URING_PARAMS);
            P_FLAGS.set(params, 0L, setupFlags);
            int rc = Liburing.queueInitParams(entries, ring, params);
            if (rc < 0) {
                throw new ErrnoException("io_uring_queue_init_params(" + entries + ", flags 0x"
                        + Integer.toHexString(setupFlags) + ")", -rc);
            }
            return new IoUring(arena, ring);
        } catch (ErrnoException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    // ---- submission side --------------------------------------------------------------------

    /**
     * liburing 2.3's {@code _io_uring_get_sqe}: the slot index of a vacant SQE, or -1 when the
     * SQ ring is full. Advances {@code ring->sq.sqe_tail} in the struct, so that the next
     * {@code io_uring_submit} publishes it.
     */
    public int getSqe() {
        int head;
        if ((flags & IORING_SETUP_SQPOLL) == 0) {
            // IO_URING_READ_ONCE(*sq->khead): only io_uring_enter on this thread moves it.
            head = (int) U32.getOpaque(sqKhead, 0L);
        } else {
            // io_uring_smp_load_acquire(sq->khead): pairs with the SQPOLL thread's
            // smp_store_release of sq.head in io_commit_sqring; the slot is free once seen.
            head = (int) U32.getAcquire(sqKhead, 0L);
        }
        int next = sqeTail + 1;
        if (Integer.compareUnsigned(next - head, sqEntries) > 0) {
            return -1;
        }
        int slot = sqeTail & sqMask;
        sqeTail = next;
        SQ_SQE_TAIL.set(ring, 0L, next); // plain: read back by __io_uring_flush_sq on this thread
        return slot;
    }

    /**
     * liburing's {@code io_uring_prep_rw} plus the fields fio sets: fills all 64 bytes of SQE
     * {@code slot}. Plain stores; {@code io_uring_submit} publishes them with the tail.
     *
     * @param sqeFlags {@code IOSQE_*}, e.g. {@link Liburing#IOSQE_FIXED_FILE} (then {@code fd}
     *                 is an index into the registered files)
     * @param bufIndex registered-buffer index for {@code *_FIXED} opcodes, 0 otherwise
     */
    public void prepRw(int slot, byte opcode, byte sqeFlags, int fd, long addr, int len, long offset,
            short bufIndex, long userData) {
        long base = slot * SQE_SIZE;
        SQE_OPCODE.set(sqes, base, opcode);
        SQE_FLAGS.set(sqes, base, sqeFlags);
        SQE_IOPRIO.set(sqes, base, (short) 0);
        SQE_FD.set(sqes, base, fd);
        SQE_OFF.set(sqes, base, offset);
        SQE_ADDR.set(sqes, base, addr);
        SQE_LEN.set(sqes, base, len);
        SQE_RW_FLAGS.set(sqes, base, 0);
        SQE_USER_DATA.set(sqes, base, userData);
        SQE_BUF_INDEX.set(sqes, base, bufIndex);
        SQE_PERSONALITY.set(sqes, base, (short) 0);
        SQE_FILE_INDEX.set(sqes, base, 0);
        SQE_ADDR3.set(sqes, base, 0L);
        SQE_PAD2.set(sqes, base, 0L);
    }

    /** Sets SQE {@code slot}'s {@code ioprio} (class << 13 | level), after {@link #prepRw}: the request's own I/O priority. */
    public void setIoprio(int slot, int ioprio) {
        SQE_IOPRIO.set(sqes, slot * SQE_SIZE, (short) ioprio);
    }

    /**
     * liburing's {@code io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ALL |
     * IORING_ASYNC_CANCEL_ANY)}: SQE {@code slot} asks the kernel to cancel every request of this
     * ring still cancellable (queued for io-wq, or armed for poll; not one a worker or the device
     * already runs). Its own CQE carries {@code userData} and, in {@code res}, how many it
     * cancelled, or {@code -ENOENT} for none; each cancelled request completes with
     * {@code -ECANCELED}. Needs 5.19; older kernels answer {@code -EINVAL}.
     */
    public void prepCancelAny(int slot, long userData) {
        long base = slot * SQE_SIZE;
        prepRw(slot, Liburing.IORING_OP_ASYNC_CANCEL, (byte) 0, -1, 0L, 0, 0L, (short) 0, userData);
        SQE_RW_FLAGS.set(sqes, base, Liburing.IORING_ASYNC_CANCEL_ALL | Liburing.IORING_ASYNC_CANCEL_ANY);
    }

    /** {@code io_uring_submit}: the number of SQEs the kernel took, or {@code -errno}. */
    public int submit() {
        return Liburing.submit(ring);
    }

    /** {@code io_uring_submit_and_get_events}: submit, and post whatever has completed. */
    public int submitAndGetEvents() {
        return Liburing.submitAndGetEvents(ring);
    }

    /** SQEs prepared but not yet taken by the kernel ({@code sqe_tail - *sq->khead}). */
    public int sqPending() {
        return sqeTail - (int) U32.getOpaque(sqKhead, 0L);
    }

    /** Whether the SQPOLL thread sleeps and needs an {@code io_uring_enter} wake-up. */
    public boolean sqNeedsWakeup() {
        // IO_URING_READ_ONCE(*ring->sq.kflags), as sq_ring_needs_enter does (after its smp_mb).
        return ((int) U32.getOpaque(sqKflags, 0L) & Liburing.IORING_SQ_NEED_WAKEUP) != 0;
    }

    // ---- completion side --------------------------------------------------------------------

    /** CQEs ready to read: {@code __io_uring_peek_cqe}'s {@code tail - head}. */
    public int cqReady() {
        // io_uring_smp_load_acquire(cq->ktail): pairs with the kernel's smp_store_release of
        // cq.tail in io_commit_cqring; every CQE below the tail read here is fully written.
        int tail = (int) U32.getAcquire(cqKtail, 0L);
        // *cq->khead, plain: this thread is its only writer.
        int head = (int) U32.get(cqKhead, 0L);
        return tail - head;
    }

    /** {@code *cq->khead}, plain (only this thread writes it). */
    public int cqHead() {
        return (int) U32.get(cqKhead, 0L);
    }

    /** {@code user_data} of the CQE at ring index {@code index} (unmasked head + i). */
    public long cqeUserData(int index) {
        return (long) CQE_USER_DATA.get(cqes, (index & cqMask) * CQE_SIZE);
    }

    /** {@code res} of the CQE at ring index {@code index}: bytes done, or {@code -errno}. */
    public int cqeRes(int index) {
        return (int) CQE_RES.get(cqes, (index & cqMask) * CQE_SIZE);
    }

    /** liburing's {@code io_uring_cq_advance}: hands {@code n} CQE slots back to the kernel. */
    public void cqAdvance(int n) {
        if (n != 0) {
            // io_uring_smp_store_release(cq->khead, *cq->khead + nr): the CQE reads above
            // happen before the kernel, reading cq.head (READ_ONCE in io_cqring_event_overflow
            // and __io_cqring_events), may reuse those slots.
            U32.setRelease(cqKhead, 0L, (int) U32.get(cqKhead, 0L) + n);
        }
    }

    /**
     * Waits until at least {@code waitNr} CQEs are in the ring, submitting nothing:
     * {@code __io_uring_get_cqe(ring, &cqe, 0, waitNr, NULL)}, as {@code io_uring_wait_cqes}
     * without a timeout. With {@code waitNr == 0} on an IOPOLL ring it polls the device once.
     * Returns 0 or {@code -errno} ({@code -EINTR}: retry; {@code -EAGAIN}: nothing yet).
     */
    public int waitCqes(int waitNr) {
        return Liburing.getCqe(ring, cqePtr, 0, waitNr);
    }

    /**
     * {@code io_uring_wait_cqes(ring, &cqe, waitNr, &ts, NULL)}: waits until {@code waitNr} CQEs
     * are in the ring, or {@code timeoutNs} has passed. Returns 0, {@code -ETIME} on timeout,
     * {@code -EINTR}, or another {@code -errno}. Submits nothing (the timeout travels as
     * {@code IORING_FEAT_EXT_ARG}, 5.11).
     */
    public int waitCqes(int waitNr, long timeoutNs) {
        timeout.set(JAVA_LONG, 0, timeoutNs / 1_000_000_000L);
        timeout.set(JAVA_LONG, 8, timeoutNs % 1_000_000_000L);
        return Liburing.waitCqes(ring, cqePtr, waitNr, timeout);
    }

    /** {@code io_uring_submit_and_wait(ring, waitNr)}: submits pending SQEs, then waits. */
    public int submitAndWait(int waitNr) {
        return Liburing.submitAndWait(ring, waitNr);
    }

    // ---- registration -------------------------------------------------------------------------

    /** {@code io_uring_register_buffers}: buffer {@code i} is {@code [addrs[i], addrs[i] + len)}. */
    public void registerBuffers(long[] addrs, long len) throws ErrnoException {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment iovecs = tmp.allocate(IOVEC, addrs.length);
            for (int i = 0; i < addrs.length; i++) {
                MemorySegment iov = iovecs.asSlice(i * IOVEC.byteSize(), IOVEC);
                iov.set(ADDRESS, 0, MemorySegment.ofAddress(addrs[i]));
                iov.set(JAVA_LONG, ADDRESS.byteSize(), len);
            }
            check(Liburing.registerBuffers(ring, iovecs, addrs.length), "io_uring_register_buffers");
        }
    }

    /** {@code io_uring_register_files}: fixed-file index {@code i} is {@code fds[i]}. */
    public void registerFiles(int... fds) throws ErrnoException {
        try (Arena tmp = Arena.ofConfined()) {
            check(Liburing.registerFiles(ring, tmp.allocateFrom(JAVA_INT, fds), fds.length),
                    "io_uring_register_files");
        }
    }

    private static void check(int rc, String call) throws ErrnoException {
        if (rc < 0) {
            throw new ErrnoException(call, -rc);
        }
    }

    // ---- facts ----------------------------------------------------------------------------------

    /** {@code IORING_SETUP_*} flags the ring was created with. */
    public int flags() {
        return flags;
    }

    public boolean iopoll() {
        return (flags & IORING_SETUP_IOPOLL) != 0;
    }

    public boolean sqpoll() {
        return (flags & IORING_SETUP_SQPOLL) != 0;
    }

    /** {@code IORING_FEAT_*} the kernel reported. */
    public int features() {
        return features;
    }

    public int sqEntries() {
        return sqEntries;
    }

    public int cqEntries() {
        return cqEntries;
    }

    /** The io_uring file descriptor (closed by {@link #close()}). */
    public int ringFd() {
        return ringFd;
    }

    /** {@code io_uring_queue_exit}: unmaps the rings and closes the ring fd; idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Liburing.queueExit(ring);
            arena.close();
        }
    }
}
