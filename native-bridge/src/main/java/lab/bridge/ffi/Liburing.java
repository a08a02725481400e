package lab.bridge.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The exported core of liburing 2.3 ({@code liburing.so.2}) through Panama FFM, with the
 * structs of its ABI as named layouts. liburing 2.3 exports 51 functions; everything
 * {@code static inline} in {@code liburing.h} ({@code io_uring_get_sqe}, the
 * {@code io_uring_prep_*} family, {@code io_uring_peek_cqe}, {@code io_uring_cq_advance})
 * is done in Java by {@link IoUring}, over the ring memory liburing mapped.
 *
 * <p>ABI notes, checked against the installed 2.3 binary: {@code struct io_uring_sq} is 104
 * bytes ({@code sqe_head} at 64, {@code sqe_tail} at 68, {@code ring_mask} at 88),
 * {@code struct io_uring_cq} 88, {@code struct io_uring} 216 ({@code flags} at 192,
 * {@code features} at 200). {@code io_uring_queue_init_params} maps the rings and fills
 * {@code sq->array} with the identity; {@code io_uring_submit}'s {@code __io_uring_flush_sq}
 * publishes {@code sq->sqe_tail} to {@code *sq->ktail}, so the Java get-sqe must keep
 * {@code sqe_tail} in the struct up to date. 2.4+ keeps the same leading fields.
 *
 * <p>Every call here is a non-critical downcall: each may enter {@code io_uring_enter(2)} or
 * {@code io_uring_register(2)}, which sleep (waits for completions, quiescing the ring on
 * register). They return liburing's convention, {@code -errno}, rather than setting errno.
 *
 * <p>The library is looked up once, when this class initialises; {@link #available()} says
 * whether that worked, and {@link #unavailableReason()} why not, so tests can skip.
 */
public final class Liburing {
    // ---- constants (liburing/io_uring.h) ---------------------------------------------------

    public static final int IORING_SETUP_IOPOLL = 1 << 0;
    public static final int IORING_SETUP_SQPOLL = 1 << 1;
    /** Completions of task work wait for the next kernel entry instead of an IPI (5.19). */
    public static final int IORING_SETUP_COOP_TASKRUN = 1 << 8;
    /** Only the creating task submits (6.0). */
    public static final int IORING_SETUP_SINGLE_ISSUER = 1 << 12;
    /** Task work runs only when the issuer waits for completions (6.1; needs SINGLE_ISSUER). */
    public static final int IORING_SETUP_DEFER_TASKRUN = 1 << 13;

    public static final byte IORING_OP_NOP = 0;
    public static final byte IORING_OP_READ_FIXED = 4;
    public static final byte IORING_OP_WRITE_FIXED = 5;
    /** Cancels requests in flight; {@code sqe->addr} names one by its user_data, unless ANY. */
    public static final byte IORING_OP_ASYNC_CANCEL = 14;
    public static final byte IORING_OP_READ = 22;
    public static final byte IORING_OP_WRITE = 23;

    /** {@code sqe->cancel_flags} (the {@code rw_flags} union): cancel every match, not the first (5.19). */
    public static final int IORING_ASYNC_CANCEL_ALL = 1 << 0;
    /** Match any request, whatever its user_data (5.19). */
    public static final int IORING_ASYNC_CANCEL_ANY = 1 << 2;

    public static final byte IOSQE_FIXED_FILE = 1 << 0;

    public static final int IORING_SQ_NEED_WAKEUP = 1 << 0;
    public static final int IORING_FEAT_SINGLE_MMAP = 1 << 0;
    public static final int IORING_FEAT_NODROP = 1 << 1;

    // ---- struct layouts ---------------------------------------------------------------------

    /** {@code struct io_uring_sq} (liburing 2.3), 104 bytes. */
    public static final StructLayout IO_URING_SQ = MemoryLayout.structLayout(
            ADDRESS.withName("khead"),
            ADDRESS.withName("ktail"),
            ADDRESS.withName("kring_mask"),
            ADDRESS.withName("kring_entries"),
            ADDRESS.withName("kflags"),
            ADDRESS.withName("kdropped"),
            ADDRESS.withName("array"),
            ADDRESS.withName("sqes"),
            JAVA_INT.withName("sqe_head"),
            JAVA_INT.withName("sqe_tail"),
            JAVA_LONG.withName("ring_sz"),
            ADDRESS.withName("ring_ptr"),
            JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"),
            sequenceLayout(2, JAVA_INT).withName("pad")).withName("io_uring_sq");

    /** {@code struct io_uring_cq} (liburing 2.3), 88 bytes. */
    public static final StructLayout IO_URING_CQ = MemoryLayout.structLayout(
            ADDRESS.withName("khead"),
            ADDRESS.withName("ktail"),
            ADDRESS.withName("kring_mask"),
            ADDRESS.withName("kring_entries"),
            ADDRESS.withName("kflags"),
            ADDRESS.withName("koverflow"),
            ADDRESS.withName("cqes"),
            JAVA_LONG.withName("ring_sz"),
            ADDRESS.withName("ring_ptr"),
            JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"),
            sequenceLayout(2, JAVA_INT).withName("pad")).withName("io_uring_cq");

    /** {@code struct io_uring} (liburing 2.3), 216 bytes; lives in a Java-allocated segment. */
    public static final StructLayout IO_URING = MemoryLayout.structLayout(
            IO_URING_SQ.withName("sq"),
            IO_URING_CQ.withName("cq"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("ring_fd"),
            JAVA_INT.withName("features"),
            JAVA_INT.withName("enter_ring_fd"),
            JAVA_BYTE.withName("int_flags"),
            sequenceLayout(3, JAVA_BYTE).withName("pad"),
            JAVA_INT.withName("pad2")).withName("io_uring");

    /** {@code struct io_sqring_offsets}, 40 bytes. */
    public static final StructLayout IO_SQRING_OFFSETS = MemoryLayout.structLayout(
            JAVA_INT.withName("head"),
            JAVA_INT.withName("tail"),
            JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("dropped"),
            JAVA_INT.withName("array"),
            JAVA_INT.withName("resv1"),
            JAVA_LONG.withName("resv2")).withName("io_sqring_offsets");

    /** {@code struct io_cqring_offsets}, 40 bytes. */
    public static final StructLayout IO_CQRING_OFFSETS = MemoryLayout.structLayout(
            JAVA_INT.withName("head"),
            JAVA_INT.withName("tail"),
            JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"),
            JAVA_INT.withName("overflow"),
            JAVA_INT.withName("cqes"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("resv1"),
            JAVA_LONG.withName("resv2")).withName("io_cqring_offsets");

    /** {@code struct io_uring_params}, 120 bytes. */
    public static final StructLayout IO_URING_PARAMS = MemoryLayout.structLayout(
            JAVA_INT.withName("sq_entries"),
            JAVA_INT.withName("cq_entries"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("sq_thread_cpu"),
            JAVA_INT.withName("sq_thread_idle"),
            JAVA_INT.withName("features"),
            JAVA_INT.withName("wq_fd"),
            sequenceLayout(3, JAVA_INT).withName("resv"),
            IO_SQRING_OFFSETS.withName("sq_off"),
            IO_CQRING_OFFSETS.withName("cq_off")).withName("io_uring_params");

    /**
     * {@code struct io_uring_sqe}, 64 bytes; each union is named by the member the bridge
     * uses ({@code off}, {@code addr}, {@code rw_flags}, {@code buf_index}, {@code file_index}).
     */
    public static final StructLayout IO_URING_SQE = MemoryLayout.structLayout(
            JAVA_BYTE.withName("opcode"),
            JAVA_BYTE.withName("flags"),
            JAVA_SHORT.withName("ioprio"),
            JAVA_INT.withName("fd"),
            JAVA_LONG.withName("off"),
            JAVA_LONG.withName("addr"),
            JAVA_INT.withName("len"),
            JAVA_INT.withName("rw_flags"),
            JAVA_LONG.withName("user_data"),
            JAVA_SHORT.withName("buf_index"),
            JAVA_SHORT.withName("personality"),
            JAVA_INT.withName("file_index"),
            JAVA_LONG.withName("addr3"),
            JAVA_LONG.withName("__pad2")).withName("io_uring_sqe");

    /** {@code struct io_uring_cqe} without CQE32, 16 bytes. */
    public static final StructLayout IO_URING_CQE = MemoryLayout.structLayout(
            JAVA_LONG.withName("user_data"),
            JAVA_INT.withName("res"),
            JAVA_INT.withName("flags")).withName("io_uring_cqe");

    /** {@code struct __kernel_timespec}, 16 bytes: 64-bit seconds and nanoseconds on every ABI. */
    public static final StructLayout KERNEL_TIMESPEC = MemoryLayout.structLayout(
            JAVA_LONG.withName("tv_sec"),
            JAVA_LONG.withName("tv_nsec")).withName("__kernel_timespec");

    /** {@code struct iovec}, 16 bytes. */
    public static final StructLayout IOVEC = MemoryLayout.structLayout(
            ADDRESS.withName("iov_base"),
            JAVA_LONG.withName("iov_len")).withName("iovec");

    static {
        check(IO_URING_SQ, 104);
        check(IO_URING_CQ, 88);
        check(IO_URING, 216);
        check(IO_URING_PARAMS, 120);
        check(IO_URING_SQE, 64);
        check(IO_URING_CQE, 16);
        check(KERNEL_TIMESPEC, 16);
    }

    private static void check(MemoryLayout layout, long size) {
        if (layout.byteSize() != size) {
            throw new AssertionError(layout.name().orElseThrow() + " is " + layout.byteSize() + " bytes, not " + size);
        }
    }

    // ---- the library ----------------------------------------------------------------------

    private static final String[] NAMES = {"liburing.so.2", "liburing.so"};
    private static final SymbolLookup LIB;
    private static final String UNAVAILABLE;

    static {
        SymbolLookup lib = null;
        StringBuilder why = new StringBuilder();
        for (String name : NAMES) {
            try {
                lib = SymbolLookup.libraryLookup(name, Arena.global());
                break;
            } catch (IllegalArgumentException e) {
                why.append(name).append(": ").append(e.getMessage()).append("; ");
            }
        }
        LIB = lib;
        UNAVAILABLE = lib == null ? "liburing not loadable (" + why + ")" : null;
    }

    private Liburing() {
    }

    /** Whether liburing was found; io_uring itself may still be refused at setup. */
    public static boolean available() {
        return LIB != null;
    }

    /** Why {@link #available()} is false, or null. */
    public static String unavailableReason() {
        return UNAVAILABLE;
    }

    private static MethodHandle uring(String name, FunctionDescriptor desc) {
        if (LIB == null) {
            throw new UnsatisfiedLinkError(UNAVAILABLE);
        }
        return Native.downcall(LIB, name, desc);
    }

    // ---- holders: one per function --------------------------------------------------------

    /** {@code int io_uring_queue_init_params(unsigned entries, struct io_uring *ring, struct io_uring_params *p);} */
    private static final class io_uring_queue_init_params {
        static final MethodHandle HANDLE = uring("io_uring_queue_init_params",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    }

    /** {@code void io_uring_queue_exit(struct io_uring *ring);} */
    private static final class io_uring_queue_exit {
        static final MethodHandle HANDLE = uring("io_uring_queue_exit",
                FunctionDescriptor.ofVoid(ADDRESS));
    }

    /** {@code int io_uring_submit(struct io_uring *ring);} */
    private static final class io_uring_submit {
        static final MethodHandle HANDLE = uring("io_uring_submit",
                FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }

    /** {@code int io_uring_submit_and_get_events(struct io_uring *ring);} (2.3) */
    private static final class io_uring_submit_and_get_events {
        static final MethodHandle HANDLE = uring("io_uring_submit_and_get_events",
                FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }

    /** {@code int io_uring_submit_and_wait(struct io_uring *ring, unsigned wait_nr);} */
    private static final class io_uring_submit_and_wait {
        static final MethodHandle HANDLE = uring("io_uring_submit_and_wait",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    }

    /**
     * {@code int __io_uring_get_cqe(struct io_uring *ring, struct io_uring_cqe **cqe_ptr,
     * unsigned submit, unsigned wait_nr, sigset_t *sigmask);}
     */
    private static final class __io_uring_get_cqe {
        static final MethodHandle HANDLE = uring("__io_uring_get_cqe",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));
    }

    /**
     * {@code int io_uring_wait_cqes(struct io_uring *ring, struct io_uring_cqe **cqe_ptr,
     * unsigned wait_nr, struct __kernel_timespec *ts, sigset_t *sigmask);}
     */
    private static final class io_uring_wait_cqes {
        static final MethodHandle HANDLE = uring("io_uring_wait_cqes",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
    }

    /** {@code int io_uring_register_buffers(struct io_uring *ring, const struct iovec *iovecs, unsigned nr_iovecs);} */
    private static final class io_uring_register_buffers {
        static final MethodHandle HANDLE = uring("io_uring_register_buffers",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    }

    /** {@code int io_uring_register_files(struct io_uring *ring, const int *files, unsigned nr_files);} */
    private static final class io_uring_register_files {
        static final MethodHandle HANDLE = uring("io_uring_register_files",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    }

    // ---- calls: liburing's own convention, 0 or a count on success, -errno on failure ------

    public static int queueInitParams(int entries, MemorySegment ring, MemorySegment params) {
        try {
            return (int) io_uring_queue_init_params.HANDLE.invokeExact(entries, ring, params);
        } catch (Throwable t) {
            throw Libc.unreachable(t);
        }
    }

    public static void queueExit(MemorySegment ring) {
        try {
            io_uring_queue_exit.HANDLE.invokeExact(ring);
        } catch (Throwable t) {
            throw Libc.unreachable(t);
        }
    }

    /** Flushes {@code sq->sqe_head..sqe_tail} to the kernel; returns how many SQEs it consumed. */
    public static int submit(MemorySegment ring) {
        try {
            return (int) io_uring_submit.HANDLE.invokeExact(ring);
        } catch (Throwable t) {
            throw Libc.unreachable(t);
        }
    }

    /**
     * Flushes the SQ and enters the kernel with IORING_ENTER_GETEVENTS (min_complete 0), as fio's
     * {@code fio_ioring_commit} does on every commit: with DEFER_TASKRUN this also runs the task
     * work that posts finished I/Os to the CQ, without waiting for any.
     */
    public static int submitAndGetEvents(MemorySegment ring) {
        try {
            return (int) io_uring_submit_and_get_events.HANDLE.invokeExact(ring);
        } catch (Throwable t) {
            throw Libc.unreachable(t);
        }
    }

    /** Submits, then waits until at least {@code waitNr} CQEs are in the ring. */
    public static int submitAndWait(MemorySegment ring, int waitNr) {
        try {
            return (int) io_uring_submit_and_wait.HANDLE.invokeExact(ring, waitNr);
        } catch (Throwable t) {
            throw Libc.unreachable(t);
        }
    }

    /**
     * liburing's internal wait: peeks, and enters the kernel with GETEVENTS unless
     * {@code waitNr} CQEs are already there; {@code cqePtr} (8 bytes) receives the first CQE.
     * With {@code waitNr == 0} and nothing ready it enters once only where the ring needs it
     * (IOPOLL), and then answers {@code -EAGAIN}.
     */
    public static int getCqe(MemorySegment ring, MemorySegment cqePtr, int submit, int waitNr) {
        try {
            return (int) __io_uring_get_cqe.HANDLE.invokeExact(ring, cqePtr, submit, waitNr, MemorySegment.NULL);
        } catch (Throwable t) {
            throw Libc.unreachable(t);
        }
    }

    /**
     * Waits until {@code waitNr} CQEs are in the ring or the relative timeout {@code ts}
     * ({@link #KERNEL_TIMESPEC}) has passed: 0, {@code -ETIME} on timeout, or {@code -errno}.
     * With {@code IORING_FEAT_EXT_ARG} (5.11) the timeout travels with {@code io_uring_enter}
     * and no SQE is used.
     */
    public static int waitCqes(MemorySegment ring, MemorySegment cqePtr, int waitNr, MemorySegment ts) {
        try {
            return (int) io_uring_wait_cqes.HANDLE.invokeExact(ring, cqePtr, waitNr, ts, MemorySegment.NULL);
        } catch (Throwable t) {
            throw Libc.unreachable(t);
        }
    }

    public static int registerBuffers(MemorySegment ring, MemorySegment iovecs, int count) {
        try {
            return (int) io_uring_register_buffers.HANDLE.invokeExact(ring, iovecs, count);
        } catch (Throwable t) {
            throw Libc.unreachable(t);
        }
    }

    public static int registerFiles(MemorySegment ring, MemorySegment fds, int count) {
        try {
            return (int) io_uring_register_files.HANDLE.invokeExact(ring, fds, count);
        } catch (Throwable t) {
            throw Libc.unreachable(t);
        }
    }

    /** A VarHandle {@code (MemorySegment, long base)} for a field of one of the layouts above. */
    static VarHandle field(MemoryLayout layout, String... path) {
        return Libc.field(layout, path);
    }

    /** Byte offset of a field, for pointer arithmetic in the mapped ring. */
    static long offset(MemoryLayout layout, String... path) {
        return layout.byteOffset(Libc.path(path));
    }
}
