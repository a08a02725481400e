package lab.bridge.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * One Linux native AIO context ({@code aio_context_t}) and its control blocks, through the raw
 * system calls: {@code io_setup}, {@code io_submit}, {@code io_getevents} and {@code io_destroy}
 * by number through glibc's {@code syscall(2)}, so that libaio itself need not be installed (it
 * is a thin wrapper over the same four calls; fio links it for them and for
 * {@code io_prep_pread}/{@code io_prep_pwrite}, which only fill an {@code iocb}, done here in
 * Java).
 *
 * <h2>Layout</h2>
 * One {@code struct iocb} (64 bytes, {@code <linux/aio_abi.h>}) per slot, made once;
 * {@link #prep} fills slot {@code i} and {@link #submit} hands the kernel an array of pointers to
 * the slots queued, in queue order. {@code aio_data} carries the caller's tag back in the
 * {@code struct io_event} (32 bytes) of its completion. Events land in one array of
 * {@code maxEvents}, read with {@link #eventData}/{@link #eventRes}.
 *
 * <h2>The completion ring in user memory</h2>
 * The context id is the address of the kernel's completion ring, mapped into the process
 * ({@code struct aio_ring}: {@code id, nr, head, tail, magic, compat_features,
 * incompat_features, header_length}, then {@code nr} events). {@link #reapUser} reads it without
 * a system call, as fio's {@code userspace_reap} does: {@code tail} with acquire (paired with the
 * kernel's {@code smp_wmb()} before it publishes {@code tail} in {@code aio_complete}), the
 * events, then {@code head} with release (paired with the kernel's read of {@code head} in
 * {@code aio_read_events_ring}, under its ring lock). It does so only while the ring's
 * {@code magic} is {@code AIO_RING_MAGIC}, as fio checks; otherwise {@link #userRingUsable()} is
 * false and the caller uses {@link #getevents}.
 *
 * <p>Every call here is a non-critical downcall ({@code io_getevents} sleeps; {@code io_submit}
 * of a buffered write does the whole I/O), and returns {@code -errno} rather than throwing, like
 * liburing, so that the hot path allocates nothing. Not thread-safe: one owner.
 */
public final class Aio implements AutoCloseable {
    /** x86-64 system call numbers ({@code arch/x86/entry/syscalls/syscall_64.tbl}). */
    static final long SYS_IO_SETUP = 206, SYS_IO_DESTROY = 207, SYS_IO_GETEVENTS = 208, SYS_IO_SUBMIT = 209;

    /** {@code aio_lio_opcode}s. */
    public static final short IOCB_CMD_PREAD = 0, IOCB_CMD_PWRITE = 1;

    /** {@code AIO_RING_MAGIC} ({@code fs/aio.c}). */
    static final int AIO_RING_MAGIC = 0xa10a10a1;

    /** {@code struct iocb} (x86-64, little endian: {@code aio_key} before {@code aio_rw_flags}). */
    static final StructLayout IOCB = MemoryLayout.structLayout(
            JAVA_LONG.withName("aio_data"),
            JAVA_INT.withName("aio_key"),
            JAVA_INT.withName("aio_rw_flags"),
            JAVA_SHORT.withName("aio_lio_opcode"),
            JAVA_SHORT.withName("aio_reqprio"),
            JAVA_INT.withName("aio_fildes"),
            JAVA_LONG.withName("aio_buf"),
            JAVA_LONG.withName("aio_nbytes"),
            JAVA_LONG.withName("aio_offset"),
            JAVA_LONG.withName("aio_reserved2"),
            JAVA_INT.withName("aio_flags"),
            JAVA_INT.withName("aio_resfd")).withName("iocb");

    /** {@code struct io_event}. */
    static final StructLayout IO_EVENT = MemoryLayout.structLayout(
            JAVA_LONG.withName("data"),
            JAVA_LONG.withName("obj"),
            JAVA_LONG.withName("res"),
            JAVA_LONG.withName("res2")).withName("io_event");

    /** {@code struct aio_ring}'s header (32 bytes); its {@code nr} events follow it. */
    static final StructLayout AIO_RING = MemoryLayout.structLayout(
            JAVA_INT.withName("id"),
            JAVA_INT.withName("nr"),
            JAVA_INT.withName("head"),
            JAVA_INT.withName("tail"),
            JAVA_INT.withName("magic"),
            JAVA_INT.withName("compat_features"),
            JAVA_INT.withName("incompat_features"),
            JAVA_INT.withName("header_length")).withName("aio_ring");

    private static final VarHandle CB_DATA = Libc.field(IOCB, "aio_data");
    private static final VarHandle CB_KEY = Libc.field(IOCB, "aio_key");
    private static final VarHandle CB_RW_FLAGS = Libc.field(IOCB, "aio_rw_flags");
    private static final VarHandle CB_REQPRIO = Libc.field(IOCB, "aio_reqprio");
    private static final VarHandle CB_RESERVED2 = Libc.field(IOCB, "aio_reserved2");
    private static final VarHandle CB_FLAGS = Libc.field(IOCB, "aio_flags");
    private static final VarHandle CB_RESFD = Libc.field(IOCB, "aio_resfd");
    private static final VarHandle CB_OPCODE = Libc.field(IOCB, "aio_lio_opcode");
    private static final VarHandle CB_FILDES = Libc.field(IOCB, "aio_fildes");
    private static final VarHandle CB_BUF = Libc.field(IOCB, "aio_buf");
    private static final VarHandle CB_NBYTES = Libc.field(IOCB, "aio_nbytes");
    private static final VarHandle CB_OFFSET = Libc.field(IOCB, "aio_offset");
    private static final VarHandle EV_DATA = Libc.field(IO_EVENT, "data");
    private static final VarHandle EV_RES = Libc.field(IO_EVENT, "res");
    private static final VarHandle RING_NR = Libc.field(AIO_RING, "nr");
    private static final VarHandle RING_HEAD = Libc.field(AIO_RING, "head");
    private static final VarHandle RING_TAIL = Libc.field(AIO_RING, "tail");
    private static final VarHandle RING_MAGIC = Libc.field(AIO_RING, "magic");
    private static final long IOCB_SIZE = IOCB.byteSize();
    private static final long EVENT_SIZE = IO_EVENT.byteSize();

    // ---- holders: syscall(2) with each call's argument count (variadic after the number) ----

    private static MethodHandle syscall(FunctionDescriptor desc) {
        return Native.downcall(Native.LINKER.defaultLookup(), "syscall", desc, Native.CAPTURE_ERRNO,
                Linker.Option.firstVariadicArg(1));
    }

    /** {@code long syscall(SYS_io_setup, unsigned nr_events, aio_context_t *ctxp);} */
    private static final class io_setup {
        static final MethodHandle HANDLE = syscall(FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
    }

    /** {@code long syscall(SYS_io_destroy, aio_context_t ctx);} */
    private static final class io_destroy {
        static final MethodHandle HANDLE = syscall(FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));
    }

    /** {@code long syscall(SYS_io_submit, aio_context_t ctx, long nr, struct iocb **iocbpp);} */
    private static final class io_submit {
        static final MethodHandle HANDLE = syscall(
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
    }

    /**
     * {@code long syscall(SYS_io_getevents, aio_context_t ctx, long min_nr, long nr,
     * struct io_event *events, struct timespec *timeout);}
     */
    private static final class io_getevents {
        static final MethodHandle HANDLE = syscall(
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
    }

    private final Arena arena;
    private final long ctx;
    private final MemorySegment iocbs;
    private final MemorySegment pointers;
    private final MemorySegment events;
    private final MemorySegment timeout;
    private final int slots;
    private final int maxEvents;
    /** The completion ring, or null when its magic is not the kernel's. */
    private final MemorySegment ring;
    private final int ringNr;
    private boolean destroyed;

    private Aio(Arena arena, long ctx, int slots, int maxEvents) {
        this.arena = arena;
        this.ctx = ctx;
        this.slots = slots;
        this.maxEvents = maxEvents;
        this.iocbs = arena.allocate(IOCB_SIZE * slots, 64);
        this.pointers = arena.allocate(JAVA_LONG.byteSize() * slots, 8);
        this.events = arena.allocate(EVENT_SIZE * maxEvents, 8);
        this.timeout = arena.allocate(Libc.TIMESPEC);
        MemorySegment header = MemorySegment.ofAddress(ctx).reinterpret(AIO_RING.byteSize());
        if ((int) RING_MAGIC.get(header, 0L) == AIO_RING_MAGIC) {
            this.ringNr = (int) RING_NR.get(header, 0L);
            this.ring = header.reinterpret(AIO_RING.byteSize() + EVENT_SIZE * ringNr);
        } else {
            this.ringNr = 0;
            this.ring = null;
        }
    }

    /**
     * {@code io_setup(slots)}: a context for up to {@code slots} I/Os in flight, with
     * {@code slots} control blocks and room for {@code maxEvents} events per reap.
     *
     * @throws ErrnoException {@code EAGAIN} when {@code /proc/sys/fs/aio-max-nr} is exhausted,
     *         {@code ENOSYS} on a kernel without AIO
     */
    public static Aio setup(int slots, int maxEvents) throws ErrnoException {
        if (slots < 1 || maxEvents < 1) {
            throw new IllegalArgumentException("slots " + slots + ", maxEvents " + maxEvents);
        }
        Arena arena = Arena.ofShared();
        try {
            MemorySegment ctxp = arena.allocate(JAVA_LONG);
            MemorySegment capture = Native.capture();
            long rc;
            try {
                rc = (long) io_setup.HANDLE.invokeExact(capture, SYS_IO_SETUP, (long) slots, ctxp);
            } catch (Throwable t) {
                throw Libc.unreachable(t);
            }
            if (rc < 0) {
                throw new ErrnoException("io_setup(" + slots + ")", Native.errno(capture));
            }
            return new Aio(arena, ctxp.get(JAVA_LONG, 0), slots, maxEvents);
        } catch (ErrnoException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /** Fills control block {@code slot}: a read or write of {@code len} bytes at {@code buf}, carrying {@code data}. */
    public void prep(int slot, boolean read, int fd, long buf, long len, long offset, long data) {
        long at = slot * IOCB_SIZE;
        CB_KEY.set(iocbs, at, 0);
        CB_RW_FLAGS.set(iocbs, at, 0);
        CB_REQPRIO.set(iocbs, at, (short) 0);
        CB_RESERVED2.set(iocbs, at, 0L);
        CB_FLAGS.set(iocbs, at, 0);
        CB_RESFD.set(iocbs, at, 0);
        CB_DATA.set(iocbs, at, data);
        CB_OPCODE.set(iocbs, at, read ? IOCB_CMD_PREAD : IOCB_CMD_PWRITE);
        CB_FILDES.set(iocbs, at, fd);
        CB_BUF.set(iocbs, at, buf);
        CB_NBYTES.set(iocbs, at, len);
        CB_OFFSET.set(iocbs, at, offset);
    }

    /** {@code IOCB_FLAG_IOPRIO}: {@code aio_reqprio} holds the request's I/O priority. */
    static final int IOCB_FLAG_IOPRIO = 1 << 1;

    /** Gives control block {@code slot}, after {@link #prep}, its own I/O priority (class << 13 | level). */
    public void setIoprio(int slot, int ioprio) {
        long at = slot * IOCB_SIZE;
        CB_REQPRIO.set(iocbs, at, (short) ioprio);
        CB_FLAGS.set(iocbs, at, IOCB_FLAG_IOPRIO);
    }

    /** Puts control block {@code slot} at position {@code index} of the next submission's array. */
    public void order(int index, int slot) {
        pointers.setAtIndex(JAVA_LONG, index, iocbs.address() + slot * IOCB_SIZE);
    }

    /** {@code io_submit} of the array's entries {@code [from, from + n)}: how many the kernel took, or {@code -errno}. */
    public int submit(int from, int n) {
        // the whole array from 0, as nearly always: no slice object on the hot path
        MemorySegment array = from == 0 ? pointers : pointers.asSlice(from * JAVA_LONG.byteSize());
        MemorySegment capture = Native.capture();
        long rc;
        try {
            rc = (long) io_submit.HANDLE.invokeExact(capture, SYS_IO_SUBMIT, ctx, (long) n, array);
        } catch (Throwable t) {
            throw Libc.unreachable(t);
        }
        return rc < 0 ? -Native.errno(capture) : (int) rc;
    }

    /**
     * {@code io_getevents(min, max)} into the event array from index {@code at}, waiting without a
     * time limit for {@code min} ({@code timeoutNs < 0}) or at most {@code timeoutNs}: the events
     * read, or {@code -errno} ({@code EINTR} when a signal came first).
     */
    public int getevents(int at, int min, int max, long timeoutNs) {
        MemorySegment ts = MemorySegment.NULL;
        if (timeoutNs >= 0) {
            timeout.set(JAVA_LONG, 0, timeoutNs / 1_000_000_000L);
            timeout.set(JAVA_LONG, 8, timeoutNs % 1_000_000_000L);
            ts = timeout;
        }
        MemorySegment into = at == 0 ? events : events.asSlice(at * EVENT_SIZE);
        MemorySegment capture = Native.capture();
        long rc;
        try {
            rc = (long) io_getevents.HANDLE.invokeExact(capture, SYS_IO_GETEVENTS, ctx, (long) min, (long) max, into, ts);
        } catch (Throwable t) {
            throw Libc.unreachable(t);
        }
        return rc < 0 ? -Native.errno(capture) : (int) rc;
    }

    /** {@code aio_data} of the control block at position {@code index} of the submission array. */
    public long orderedData(int index) {
        long address = pointers.getAtIndex(JAVA_LONG, index);
        return (long) CB_DATA.get(iocbs, address - iocbs.address());
    }

    /** Whether {@link #reapUser} may read the completion ring (its magic is the kernel's). */
    public boolean userRingUsable() {
        return ring != null;
    }

    /**
     * fio's {@code user_io_getevents}: up to {@code max} events copied from the mapped completion
     * ring into the event array from index {@code at}, without a system call; never waits.
     */
    public int reapUser(int at, int max) {
        int n = 0;
        int head = (int) RING_HEAD.getOpaque(ring, 0L);
        int tail = (int) RING_TAIL.getAcquire(ring, 0L);
        while (n < max && head != tail) {
            MemorySegment.copy(ring, AIO_RING.byteSize() + head * EVENT_SIZE, events, (at + n) * EVENT_SIZE,
                    EVENT_SIZE);
            head = head + 1 == ringNr ? 0 : head + 1;
            n++;
        }
        if (n > 0) {
            RING_HEAD.setRelease(ring, 0L, head);
        }
        return n;
    }

    /**
     * Writes event {@code i} of the array as the kernel would have: {@code io_submit} refuses an
     * {@code iocb} it cannot start (a read on a write-only descriptor: {@code EBADF}) by returning
     * the error instead of posting an event; the caller records it as that I/O's completion.
     */
    public void putEvent(int i, long data, long res) {
        events.asSlice(i * EVENT_SIZE, EVENT_SIZE).fill((byte) 0);
        EV_DATA.set(events, i * EVENT_SIZE, data);
        EV_RES.set(events, i * EVENT_SIZE, res);
    }

    /** {@code aio_data} of event {@code i} of the array. */
    public long eventData(int i) {
        return (long) EV_DATA.get(events, i * EVENT_SIZE);
    }

    /** {@code res} of event {@code i}: bytes done, or {@code -errno}. */
    public long eventRes(int i) {
        return (long) EV_RES.get(events, i * EVENT_SIZE);
    }

    public int slots() {
        return slots;
    }

    public int maxEvents() {
        return maxEvents;
    }

    /**
     * {@code io_destroy}: the kernel waits for every I/O of the context to complete first (since
     * Linux 4.x, {@code fs/aio.c}'s "wait until all IO for the context are done"), then the
     * control blocks are freed. Idempotent.
     */
    @Override
    public void close() {
        if (destroyed) {
            return;
        }
        destroyed = true;
        MemorySegment capture = Native.capture();
        try {
            // Fails only for a context that is not this process's (EINVAL): nothing to undo then.
            long rc = (long) io_destroy.HANDLE.invokeExact(capture, SYS_IO_DESTROY, ctx);
        } catch (Throwable t) {
            throw Libc.unreachable(t);
        }
        arena.close();
    }
}
