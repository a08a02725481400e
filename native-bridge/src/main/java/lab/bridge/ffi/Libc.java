package lab.bridge.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.BitSet;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The few glibc calls the bridge needs, through Panama FFM, laid out as jextract would: one
 * holder class per function (its C prototype in the javadoc, the handle built once in a
 * {@code static final}), one named {@link StructLayout} per struct with VarHandles taken from
 * it. Failures throw {@link ErrnoException} naming the call and errno by name; errno is read
 * through {@link Linker.Option#captureCallState}, never through {@code __errno_location}
 * (the JVM may run native code of its own between two downcalls).
 *
 * <h2>Critical and non-critical downcalls</h2>
 * A {@link Linker.Option#critical critical} downcall skips the thread-state transition
 * (Java to native and back, with its safepoint poll): a few nanoseconds saved, paid for by
 * holding off every safepoint, and so every GC, for as long as the call runs. It suits only
 * calls that are short and can never block. Here:
 * <ul>
 *   <li>critical: {@code sched_getcpu} (a vDSO/rseq read, no syscall) and {@code getrusage}
 *       (a short syscall that sums the task's counters and never sleeps); both are taken
 *       around measurements, where the transition is noise worth removing. Neither allows
 *       heap segments ({@code critical(false)}).
 *   <li>non-critical: {@code open}, {@code close} (the last close of a block device flushes
 *       and may sleep; NFS close writes back), {@code pread}/{@code pwrite}, {@code read}/{@code write},
 *       {@code preadv}/{@code pwritev} (they block for the whole I/O), {@code lseek} (it takes
 *       the file's position lock), {@code fstat} (may go to a network file system), {@code ioctl}
 *       (driver code of unbounded cost), {@code sched_setaffinity} (may migrate the caller
 *       on return). Their buffers must therefore be off-heap segments: a heap array may
 *       move during a non-critical call, and the lab never uses critical(true).
 * </ul>
 * The same rule makes every liburing call non-critical: each one may enter
 * {@code io_uring_enter(2)}, which blocks (see {@link Liburing}).
 *
 * <p>Thread-safety: every method may be called from any thread; errno is captured per thread.
 */
public final class Libc {
    /** {@code <fcntl.h>} flags, Linux x86-64 values (octal as in the kernel's asm-generic/fcntl.h). */
    public static final int O_RDONLY = 0, O_WRONLY = 01, O_RDWR = 02, O_CREAT = 0100,
            O_EXCL = 0200, O_TRUNC = 01000, O_DIRECT = 040000, O_CLOEXEC = 02000000;

    /** {@code getrusage(2)}'s {@code who}. */
    public static final int RUSAGE_SELF = 0, RUSAGE_THREAD = 1;

    /** {@code _IOR(0x12, 114, size_t)}: the device size in bytes, as a {@code u64}. */
    static final long BLKGETSIZE64 = 0x80081272L;
    /** {@code _IO(0x12, 104)}: the logical block size, as an {@code int}. */
    static final long BLKSSZGET = 0x1268L;
    /** {@code _IO(0x12, 119)}: discard a byte range, given as two {@code u64}s (start, length). */
    static final long BLKDISCARD = 0x1277L;

    private static final SymbolLookup LIBC = Native.LINKER.defaultLookup();

    // ---- struct layouts -------------------------------------------------------------------

    /** {@code struct timespec} (x86-64: two longs). */
    static final StructLayout TIMESPEC = MemoryLayout.structLayout(
            JAVA_LONG.withName("tv_sec"),
            JAVA_LONG.withName("tv_nsec")).withName("timespec");

    /** {@code struct timeval} (x86-64: two longs). */
    static final StructLayout TIMEVAL = MemoryLayout.structLayout(
            JAVA_LONG.withName("tv_sec"),
            JAVA_LONG.withName("tv_usec")).withName("timeval");

    /** glibc's x86-64 {@code struct stat}, 144 bytes. */
    static final StructLayout STAT = MemoryLayout.structLayout(
            JAVA_LONG.withName("st_dev"),
            JAVA_LONG.withName("st_ino"),
            JAVA_LONG.withName("st_nlink"),
            JAVA_INT.withName("st_mode"),
            JAVA_INT.withName("st_uid"),
            JAVA_INT.withName("st_gid"),
            JAVA_INT.withName("__pad0"),
            JAVA_LONG.withName("st_rdev"),
            JAVA_LONG.withName("st_size"),
            JAVA_LONG.withName("st_blksize"),
            JAVA_LONG.withName("st_blocks"),
            TIMESPEC.withName("st_atim"),
            TIMESPEC.withName("st_mtim"),
            TIMESPEC.withName("st_ctim"),
            MemoryLayout.sequenceLayout(3, JAVA_LONG).withName("__glibc_reserved")).withName("stat");

    private static final VarHandle ST_MODE = field(STAT, "st_mode");
    private static final VarHandle ST_RDEV = field(STAT, "st_rdev");
    private static final VarHandle ST_SIZE = field(STAT, "st_size");

    /** {@code struct iovec}: the base address and the length. */
    public static final StructLayout IOVEC = MemoryLayout.structLayout(
            JAVA_LONG.withName("iov_base"),
            JAVA_LONG.withName("iov_len")).withName("iovec");

    private static final VarHandle IOV_BASE = field(IOVEC, "iov_base");
    private static final VarHandle IOV_LEN = field(IOVEC, "iov_len");

    /** {@code fcntl}'s command: get the file status flags. */
    static final int F_GETFL = 3;

    /** {@code lseek}'s {@code whence}: from the start of the file. */
    static final int SEEK_SET = 0;

    /** {@code struct rusage}, 144 bytes: two timevals and fourteen longs. */
    static final StructLayout RUSAGE = MemoryLayout.structLayout(
            TIMEVAL.withName("ru_utime"),
            TIMEVAL.withName("ru_stime"),
            JAVA_LONG.withName("ru_maxrss"),
            JAVA_LONG.withName("ru_ixrss"),
            JAVA_LONG.withName("ru_idrss"),
            JAVA_LONG.withName("ru_isrss"),
            JAVA_LONG.withName("ru_minflt"),
            JAVA_LONG.withName("ru_majflt"),
            JAVA_LONG.withName("ru_nswap"),
            JAVA_LONG.withName("ru_inblock"),
            JAVA_LONG.withName("ru_oublock"),
            JAVA_LONG.withName("ru_msgsnd"),
            JAVA_LONG.withName("ru_msgrcv"),
            JAVA_LONG.withName("ru_nsignals"),
            JAVA_LONG.withName("ru_nvcsw"),
            JAVA_LONG.withName("ru_nivcsw")).withName("rusage");

    private static final VarHandle RU_UTIME_SEC = field(RUSAGE, "ru_utime", "tv_sec");
    private static final VarHandle RU_UTIME_USEC = field(RUSAGE, "ru_utime", "tv_usec");
    private static final VarHandle RU_STIME_SEC = field(RUSAGE, "ru_stime", "tv_sec");
    private static final VarHandle RU_STIME_USEC = field(RUSAGE, "ru_stime", "tv_usec");
    private static final VarHandle RU_MINFLT = field(RUSAGE, "ru_minflt");
    private static final VarHandle RU_MAJFLT = field(RUSAGE, "ru_majflt");
    private static final VarHandle RU_NVCSW = field(RUSAGE, "ru_nvcsw");
    private static final VarHandle RU_NIVCSW = field(RUSAGE, "ru_nivcsw");

    /** {@code cpu_set_t}: 1024 bits. */
    static final int CPU_SETSIZE = 1024;

    private Libc() {
    }

    /** A VarHandle {@code (MemorySegment, long base) -> field} for the member at {@code path}. */
    static VarHandle field(MemoryLayout layout, String... path) {
        return layout.varHandle(path(path)).withInvokeExactBehavior();
    }

    /** The layout path naming nested members {@code names[0].names[1]...}. */
    static MemoryLayout.PathElement[] path(String... names) {
        MemoryLayout.PathElement[] elements = new MemoryLayout.PathElement[names.length];
        for (int i = 0; i < names.length; i++) {
            elements[i] = groupElement(names[i]);
        }
        return elements;
    }

    private static MethodHandle libc(String name, FunctionDescriptor desc, Linker.Option... options) {
        return Native.downcall(LIBC, name, desc, options);
    }

    // ---- holders: one per function --------------------------------------------------------

    /** {@code int open(const char *pathname, int flags, ...);} (mode passed as the variadic int) */
    private static final class open {
        static final MethodHandle HANDLE = libc("open",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
                Native.CAPTURE_ERRNO, Linker.Option.firstVariadicArg(2));
    }

    /** {@code int close(int fd);} */
    private static final class close {
        static final MethodHandle HANDLE = libc("close",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT), Native.CAPTURE_ERRNO);
    }

    /** {@code ssize_t pread(int fd, void *buf, size_t count, off_t offset);} */
    private static final class pread {
        static final MethodHandle HANDLE = libc("pread",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG),
                Native.CAPTURE_ERRNO);
    }

    /** {@code ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset);} */
    private static final class pwrite {
        static final MethodHandle HANDLE = libc("pwrite",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG),
                Native.CAPTURE_ERRNO);
    }

    /** {@code ssize_t read(int fd, void *buf, size_t count);} */
    private static final class read {
        static final MethodHandle HANDLE = libc("read",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), Native.CAPTURE_ERRNO);
    }

    /** {@code ssize_t write(int fd, const void *buf, size_t count);} */
    private static final class write {
        static final MethodHandle HANDLE = libc("write",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), Native.CAPTURE_ERRNO);
    }

    /** {@code off_t lseek(int fd, off_t offset, int whence);} */
    private static final class lseek {
        static final MethodHandle HANDLE = libc("lseek",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT), Native.CAPTURE_ERRNO);
    }

    /** {@code ssize_t preadv(int fd, const struct iovec *iov, int iovcnt, off_t offset);} */
    private static final class preadv {
        static final MethodHandle HANDLE = libc("preadv",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG), Native.CAPTURE_ERRNO);
    }

    /** {@code ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset);} */
    private static final class pwritev {
        static final MethodHandle HANDLE = libc("pwritev",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG), Native.CAPTURE_ERRNO);
    }

    /** {@code int fcntl(int fd, int cmd, ...);} (an int as the variadic argument, unused by F_GETFL) */
    private static final class fcntl {
        static final MethodHandle HANDLE = libc("fcntl",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                Native.CAPTURE_ERRNO, Linker.Option.firstVariadicArg(2));
    }

    /** {@code int ioctl(int fd, unsigned long request, ...);} (one pointer as the variadic argument) */
    private static final class ioctl {
        static final MethodHandle HANDLE = libc("ioctl",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS),
                Native.CAPTURE_ERRNO, Linker.Option.firstVariadicArg(2));
    }

    /** {@code int fstat(int fd, struct stat *statbuf);} (a real symbol since glibc 2.33) */
    private static final class fstat {
        static final MethodHandle HANDLE = libc("fstat",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), Native.CAPTURE_ERRNO);
    }

    /** {@code int sched_getcpu(void);} critical: a vDSO read that cannot block. */
    private static final class sched_getcpu {
        static final MethodHandle HANDLE = libc("sched_getcpu",
                FunctionDescriptor.of(JAVA_INT), Linker.Option.critical(false));
    }

    /** {@code int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *mask);} */
    private static final class sched_setaffinity {
        static final MethodHandle HANDLE = libc("sched_setaffinity",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Native.CAPTURE_ERRNO);
    }

    /** {@code int prctl(int option, unsigned long arg2, ...);} (the two arguments the lab passes) */
    private static final class prctl {
        static final MethodHandle HANDLE = libc("prctl",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), Native.CAPTURE_ERRNO, Linker.Option.firstVariadicArg(1));
    }

    /** {@code long syscall(long number, ...);} with three arguments: the calls glibc does not wrap. */
    private static final class syscall {
        static final MethodHandle HANDLE = libc("syscall",
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), Native.CAPTURE_ERRNO,
                Linker.Option.firstVariadicArg(1));
    }

    /** {@code int getrusage(int who, struct rusage *usage);} critical: short, never sleeps. */
    private static final class getrusage {
        static final MethodHandle HANDLE = libc("getrusage",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS),
                Native.CAPTURE_ERRNO, Linker.Option.critical(false));
    }

    // ---- calls ----------------------------------------------------------------------------

    /** {@code open(path, flags)}; returns the descriptor. */
    public static int open(String path, int flags) throws ErrnoException {
        return open(path, flags, 0);
    }

    /** {@code open(path, flags, mode)}: {@code mode} matters only with {@link #O_CREAT}. */
    public static int open(String path, int flags, int mode) throws ErrnoException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Native.capture();
            int fd = (int) open.HANDLE.invokeExact(capture, arena.allocateFrom(path), flags, mode);
            if (fd < 0) {
                throw new ErrnoException("open(" + path + ")", Native.errno(capture));
            }
            return fd;
        } catch (ErrnoException e) {
            throw e;
        } catch (Throwable t) {
            throw unreachable(t);
        }
    }

    public static void close(int fd) throws ErrnoException {
        MemorySegment capture = Native.capture();
        int rc;
        try {
            rc = (int) close.HANDLE.invokeExact(capture, fd);
        } catch (Throwable t) {
            throw unreachable(t);
        }
        check(rc, capture, "close", fd);
    }

    /**
     * Reads up to {@code len} bytes at {@code offset} into {@code buf} (an off-heap segment of
     * at least {@code len} bytes). Returns the bytes read: fewer than {@code len} at end of
     * file or on a short transfer, 0 at or past the end. Allocates nothing.
     */
    public static long pread(int fd, MemorySegment buf, long len, long offset) throws ErrnoException {
        return transfer(pread.HANDLE, "pread", fd, buf, len, offset);
    }

    /** Writes up to {@code len} bytes of {@code buf} at {@code offset}; returns the bytes written. */
    public static long pwrite(int fd, MemorySegment buf, long len, long offset) throws ErrnoException {
        return transfer(pwrite.HANDLE, "pwrite", fd, buf, len, offset);
    }

    /**
     * pread or pwrite through {@code handle} (same C signature); inlined into both callers, so
     * the JIT still sees a constant handle.
     */
    private static long transfer(MethodHandle handle, String call, int fd, MemorySegment buf, long len,
            long offset) throws ErrnoException {
        checkBuffer(buf, len);
        MemorySegment capture = Native.capture();
        long n;
        try {
            n = (long) handle.invokeExact(capture, fd, buf, len, offset);
        } catch (Throwable t) {
            throw unreachable(t);
        }
        return check(n, capture, call, fd);
    }

    /** {@code read(fd, buf, len)} at the file position; returns the bytes read (0 at end of file). */
    public static long read(int fd, MemorySegment buf, long len) throws ErrnoException {
        return atPosition(read.HANDLE, "read", fd, buf, len);
    }

    /** {@code write(fd, buf, len)} at the file position; returns the bytes written. */
    public static long write(int fd, MemorySegment buf, long len) throws ErrnoException {
        return atPosition(write.HANDLE, "write", fd, buf, len);
    }

    /** read or write through {@code handle} (same C signature), as {@link #transfer} for pread/pwrite. */
    private static long atPosition(MethodHandle handle, String call, int fd, MemorySegment buf, long len)
            throws ErrnoException {
        checkBuffer(buf, len);
        MemorySegment capture = Native.capture();
        long n;
        try {
            n = (long) handle.invokeExact(capture, fd, buf, len);
        } catch (Throwable t) {
            throw unreachable(t);
        }
        return check(n, capture, call, fd);
    }

    /** {@code fcntl(fd, F_GETFL)}: the descriptor's access mode and status flags ({@link #O_DIRECT}...). */
    public static int statusFlags(int fd) throws ErrnoException {
        MemorySegment capture = Native.capture();
        int rc;
        try {
            rc = (int) fcntl.HANDLE.invokeExact(capture, fd, F_GETFL, 0);
        } catch (Throwable t) {
            throw unreachable(t);
        }
        return (int) check(rc, capture, "fcntl(F_GETFL)", fd);
    }

    /** {@code lseek(fd, offset, SEEK_SET)}; returns the new position. */
    public static long lseek(int fd, long offset) throws ErrnoException {
        MemorySegment capture = Native.capture();
        long n;
        try {
            n = (long) lseek.HANDLE.invokeExact(capture, fd, offset, SEEK_SET);
        } catch (Throwable t) {
            throw unreachable(t);
        }
        return check(n, capture, "lseek", fd);
    }

    /** Sets {@code iov}'s entry {@code index} to {@code (base, len)}; {@code iov} holds {@link #IOVEC}s. */
    public static void iovec(MemorySegment iov, long index, long base, long len) {
        long at = index * IOVEC.byteSize();
        IOV_BASE.set(iov, at, base);
        IOV_LEN.set(iov, at, len);
    }

    /** {@code preadv(fd, iov, iovcnt, offset)}: {@code iov} an off-heap array of {@link #IOVEC}; returns the bytes read. */
    public static long preadv(int fd, MemorySegment iov, int iovcnt, long offset) throws ErrnoException {
        return vectored(preadv.HANDLE, "preadv", fd, iov, iovcnt, offset);
    }

    /** {@code pwritev(fd, iov, iovcnt, offset)}; returns the bytes written. */
    public static long pwritev(int fd, MemorySegment iov, int iovcnt, long offset) throws ErrnoException {
        return vectored(pwritev.HANDLE, "pwritev", fd, iov, iovcnt, offset);
    }

    private static long vectored(MethodHandle handle, String call, int fd, MemorySegment iov, int iovcnt,
            long offset) throws ErrnoException {
        checkBuffer(iov, iovcnt * IOVEC.byteSize());
        MemorySegment capture = Native.capture();
        long n;
        try {
            n = (long) handle.invokeExact(capture, fd, iov, iovcnt, offset);
        } catch (Throwable t) {
            throw unreachable(t);
        }
        return check(n, capture, call, fd);
    }

    /** {@code ioctl(fd, BLKGETSIZE64)}: the size of a block device in bytes; ENOTTY for other files. */
    public static long blkGetSize64(int fd) throws ErrnoException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            ioctl(fd, BLKGETSIZE64, out, "ioctl(BLKGETSIZE64)");
            return out.get(JAVA_LONG, 0);
        }
    }

    /** {@code ioctl(fd, BLKSSZGET)}: the logical sector size of a block device; ENOTTY for other files. */
    public static int blkSszGet(int fd) throws ErrnoException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            ioctl(fd, BLKSSZGET, out, "ioctl(BLKSSZGET)");
            return out.get(JAVA_INT, 0);
        }
    }

    /**
     * {@code ioctl(fd, BLKDISCARD, range)}, fio's {@code os_trim()}: discards {@code len} bytes at
     * {@code start} of a block device, synchronously. 0, or the errno (ENOTTY for a regular file,
     * EOPNOTSUPP where the device has no discard, EBADF without write access). {@code range} is
     * the caller's 16 off-heap bytes, reused: nothing is allocated.
     */
    public static int blkDiscard(int fd, MemorySegment range, long start, long len) {
        range.set(JAVA_LONG, 0, start);
        range.set(JAVA_LONG, 8, len);
        MemorySegment capture = Native.capture();
        int rc;
        try {
            rc = (int) ioctl.HANDLE.invokeExact(capture, fd, BLKDISCARD, range);
        } catch (Throwable t) {
            throw unreachable(t);
        }
        return rc == 0 ? 0 : Native.errno(capture);
    }

    private static void ioctl(int fd, long request, MemorySegment arg, String call) throws ErrnoException {
        MemorySegment capture = Native.capture();
        int rc;
        try {
            rc = (int) ioctl.HANDLE.invokeExact(capture, fd, request, arg);
        } catch (Throwable t) {
            throw unreachable(t);
        }
        check(rc, capture, call, fd);
    }

    public static Stat fstat(int fd) throws ErrnoException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = arena.allocate(STAT);
            MemorySegment capture = Native.capture();
            int rc;
            try {
                rc = (int) fstat.HANDLE.invokeExact(capture, fd, st);
            } catch (Throwable t) {
                throw unreachable(t);
            }
            check(rc, capture, "fstat", fd);
            return new Stat((int) ST_MODE.get(st, 0L), (long) ST_RDEV.get(st, 0L), (long) ST_SIZE.get(st, 0L));
        }
    }

    /** The CPU the calling thread runs on now (it may have moved by the time this returns). */
    public static int schedGetcpu() {
        try {
            return (int) sched_getcpu.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw unreachable(t);
        }
    }

    /** Pins the calling thread (pid 0: the caller's own task) to {@code cpu}. */
    public static void schedSetaffinity(int cpu) throws ErrnoException {
        if (cpu < 0 || cpu >= CPU_SETSIZE) {
            throw new ErrnoException("sched_setaffinity(cpu " + cpu + ")", Errno.EINVAL);
        }
        BitSet one = new BitSet();
        one.set(cpu);
        setaffinity(one, "sched_setaffinity(cpu " + cpu + ")");
    }

    /** Pins the calling thread (pid 0: the caller's own task) to the CPUs of {@code cpus}, at least one. */
    public static void schedSetaffinity(BitSet cpus) throws ErrnoException {
        if (cpus.isEmpty() || cpus.length() > CPU_SETSIZE) {
            throw new ErrnoException("sched_setaffinity(cpus " + cpus + ")", Errno.EINVAL);
        }
        setaffinity(cpus, "sched_setaffinity(cpus " + cpus + ")");
    }

    private static void setaffinity(BitSet cpus, String what) throws ErrnoException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(CPU_SETSIZE / 8, 8);
            long[] words = cpus.toLongArray();
            MemorySegment.copy(words, 0, mask, JAVA_LONG, 0, words.length);
            MemorySegment capture = Native.capture();
            int rc;
            try {
                rc = (int) sched_setaffinity.HANDLE.invokeExact(capture, 0, mask.byteSize(), mask);
            } catch (Throwable t) {
                throw unreachable(t);
            }
            check(rc, capture, what, -1);
        }
    }

    /** {@code prctl(2)} options, {@code <linux/prctl.h>}. */
    static final int PR_GET_KEEPCAPS = 7, PR_SET_KEEPCAPS = 8;

    /**
     * Gives the calling thread credentials of its own: {@code prctl(PR_SET_KEEPCAPS)} with the
     * value it already has, which the kernel implements as {@code prepare_creds()} +
     * {@code commit_creds()} for this task alone (security/commoncap.c), the same contents in a
     * new {@code struct cred}. Threads otherwise share the process's one {@code struct cred}, and
     * io_uring takes a reference on it for every request it hands to io-wq
     * ({@code io_prep_async_work}: {@code get_current_cred()}, dropped when the request is freed):
     * one atomic counter bounced between the CPUs of every clone. fio's clones are processes, each
     * with its own.
     */
    public static void unshareCreds() throws ErrnoException {
        setKeepCaps(keepCaps());
    }

    /** {@code prctl(PR_GET_KEEPCAPS)}: the calling thread's keep-capabilities flag, 0 or 1. */
    static int keepCaps() throws ErrnoException {
        return prctl(PR_GET_KEEPCAPS, 0, "prctl(PR_GET_KEEPCAPS)");
    }

    /** {@code prctl(PR_SET_KEEPCAPS, keep)} for the calling thread alone. */
    static void setKeepCaps(int keep) throws ErrnoException {
        prctl(PR_SET_KEEPCAPS, keep, "prctl(PR_SET_KEEPCAPS, " + keep + ")");
    }

    private static int prctl(int option, long arg2, String what) throws ErrnoException {
        MemorySegment capture = Native.capture();
        int rc;
        try {
            rc = (int) prctl.HANDLE.invokeExact(capture, option, arg2);
        } catch (Throwable t) {
            throw unreachable(t);
        }
        return (int) check(rc, capture, what, -1);
    }

    /** System call numbers of the calls glibc does not wrap: x86_64, else aarch64 (asm-generic). */
    private static final boolean X86_64 = System.getProperty("os.arch").equals("amd64");
    private static final long SYS_SET_MEMPOLICY = X86_64 ? 238 : 237;
    private static final long SYS_GET_MEMPOLICY = X86_64 ? 239 : 236;
    private static final long SYS_IOPRIO_SET = X86_64 ? 251 : 30;
    private static final long SYS_IOPRIO_GET = X86_64 ? 252 : 31;
    /** {@code IOPRIO_WHO_PROCESS}: with who 0, the calling thread. */
    private static final long IOPRIO_WHO_PROCESS = 1;
    /** {@code MPOL_*} modes, {@code <linux/mempolicy.h>}. */
    public static final int MPOL_DEFAULT = 0, MPOL_PREFERRED = 1, MPOL_BIND = 2, MPOL_INTERLEAVE = 3, MPOL_LOCAL = 4;
    private static final int NODEMASK_BITS = 1024;

    private static long syscall3(long nr, long a, long b, long c, String what) throws ErrnoException {
        MemorySegment capture = Native.capture();
        long rc;
        try {
            rc = (long) syscall.HANDLE.invokeExact(capture, nr, a, b, c);
        } catch (Throwable t) {
            throw unreachable(t);
        }
        return check(rc, capture, what, -1);
    }

    /** {@code ioprio_set(IOPRIO_WHO_PROCESS, 0, ioprio)}: the calling thread's I/O priority (class << 13 | level). */
    public static void ioprioSet(int ioprio) throws ErrnoException {
        syscall3(SYS_IOPRIO_SET, IOPRIO_WHO_PROCESS, 0, ioprio, "ioprio_set(" + (ioprio >> 13) + ", " + (ioprio & 7) + ")");
    }

    /** {@code ioprio_get(IOPRIO_WHO_PROCESS, 0)}: the calling thread's I/O priority as the kernel holds it. */
    public static int ioprioGet() throws ErrnoException {
        return (int) syscall3(SYS_IOPRIO_GET, IOPRIO_WHO_PROCESS, 0, 0, "ioprio_get");
    }

    /** {@code set_mempolicy(mode, nodes)} for the calling thread: where its new pages come from. */
    public static void setMempolicy(int mode, BitSet nodes) throws ErrnoException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(NODEMASK_BITS / 8, 8);
            long[] words = nodes.toLongArray();
            MemorySegment.copy(words, 0, mask, JAVA_LONG, 0, words.length);
            syscall3(SYS_SET_MEMPOLICY, mode, nodes.isEmpty() ? 0 : mask.address(), nodes.isEmpty() ? 0 : NODEMASK_BITS + 1,
                    "set_mempolicy(" + mode + ", " + nodes + ")");
        }
    }

    /** {@code get_mempolicy()} of the calling thread: its mode first, then its nodes. */
    public static int[] getMempolicy() throws ErrnoException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mode = arena.allocate(JAVA_INT);
            MemorySegment mask = arena.allocate(NODEMASK_BITS / 8, 8);
            MemorySegment capture = Native.capture();
            long rc;
            try {
                rc = (long) getMempolicy.HANDLE.invokeExact(capture, SYS_GET_MEMPOLICY, mode.address(), mask.address(),
                        (long) NODEMASK_BITS + 1, 0L, 0L);
            } catch (Throwable t) {
                throw unreachable(t);
            }
            check(rc, capture, "get_mempolicy", -1);
            BitSet nodes = BitSet.valueOf(mask.toArray(JAVA_LONG));
            int[] out = new int[1 + nodes.cardinality()];
            out[0] = mode.get(JAVA_INT, 0);
            int i = 1;
            for (int n = nodes.nextSetBit(0); n >= 0; n = nodes.nextSetBit(n + 1)) {
                out[i++] = n;
            }
            return out;
        }
    }

    /** {@code syscall(SYS_get_mempolicy, int *mode, unsigned long *nodemask, unsigned long maxnode, void *addr, unsigned long flags)}. */
    private static final class getMempolicy {
        static final MethodHandle HANDLE = libc("syscall",
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                Native.CAPTURE_ERRNO, Linker.Option.firstVariadicArg(1));
    }

    /** {@code getrusage(who)}: {@link #RUSAGE_SELF} (the process) or {@link #RUSAGE_THREAD}. */
    public static Rusage getrusage(int who) throws ErrnoException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ru = arena.allocate(RUSAGE);
            MemorySegment capture = Native.capture();
            int rc;
            try {
                rc = (int) getrusage.HANDLE.invokeExact(capture, who, ru);
            } catch (Throwable t) {
                throw unreachable(t);
            }
            check(rc, capture, "getrusage(" + who + ")", -1);
            return new Rusage(
                    nanos((long) RU_UTIME_SEC.get(ru, 0L), (long) RU_UTIME_USEC.get(ru, 0L)),
                    nanos((long) RU_STIME_SEC.get(ru, 0L), (long) RU_STIME_USEC.get(ru, 0L)),
                    (long) RU_MINFLT.get(ru, 0L), (long) RU_MAJFLT.get(ru, 0L),
                    (long) RU_NVCSW.get(ru, 0L), (long) RU_NIVCSW.get(ru, 0L));
        }
    }

    private static long nanos(long sec, long usec) {
        return sec * 1_000_000_000L + usec * 1_000L;
    }

    private static void checkBuffer(MemorySegment buf, long len) {
        if (!buf.isNative()) {
            throw new IllegalArgumentException("read and write calls need an off-heap buffer (non-critical downcall)");
        }
        if (len < 0 || len > buf.byteSize()) {
            throw new IndexOutOfBoundsException("len " + len + " outside a buffer of " + buf.byteSize() + " bytes");
        }
    }

    /** {@code rc} when it is not negative; otherwise the errno of {@code capture}, thrown. */
    private static long check(long rc, MemorySegment capture, String call, int fd) throws ErrnoException {
        if (rc < 0) {
            throw new ErrnoException(fd >= 0 ? call + "(fd " + fd + ")" : call, Native.errno(capture));
        }
        return rc;
    }

    /** A downcall handle threw: only a bug in the binding can do that. */
    static AssertionError unreachable(Throwable t) {
        return new AssertionError("downcall failed unexpectedly", t);
    }
}
