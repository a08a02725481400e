package lab.bridge.ffi;

/**
 * Names and descriptions of the Linux x86-64 errno values the bridge meets: the classic
 * range {@code EPERM..ERANGE} (1..34) and the ones io_uring and block devices answer with
 * ({@code EOPNOTSUPP} 95, {@code ETIME} 62, {@code ECANCELED} 125, ...). Descriptions are
 * glibc's {@code strerror} text. {@code ENOTSUP} and {@code EWOULDBLOCK} share the values of
 * {@code EOPNOTSUPP} and {@code EAGAIN}; the table names the latter, as the kernel headers do.
 *
 * <p>Pure table lookups; no downcalls, so the names are available even where libc cannot be
 * linked.
 */
public final class Errno {
    public static final int EPERM = 1, ENOENT = 2, ESRCH = 3, EINTR = 4, EIO = 5, ENXIO = 6,
            E2BIG = 7, ENOEXEC = 8, EBADF = 9, ECHILD = 10, EAGAIN = 11, ENOMEM = 12, EACCES = 13,
            EFAULT = 14, ENOTBLK = 15, EBUSY = 16, EEXIST = 17, EXDEV = 18, ENODEV = 19,
            ENOTDIR = 20, EISDIR = 21, EINVAL = 22, ENFILE = 23, EMFILE = 24, ENOTTY = 25,
            ETXTBSY = 26, EFBIG = 27, ENOSPC = 28, ESPIPE = 29, EROFS = 30, EMLINK = 31,
            EPIPE = 32, EDOM = 33, ERANGE = 34, EDEADLK = 35, ENAMETOOLONG = 36, ENOLCK = 37,
            ENOSYS = 38, ENOTEMPTY = 39, ELOOP = 40, ENODATA = 61, ETIME = 62, EOVERFLOW = 75,
            EILSEQ = 84, ENOBUFS = 105, ETIMEDOUT = 110, EALREADY = 114, EREMOTEIO = 121, EDQUOT = 122,
            EOPNOTSUPP = 95, ENOTSUP = EOPNOTSUPP, EWOULDBLOCK = EAGAIN, ECANCELED = 125;

    private static final int MAX = 126;
    private static final String[] NAMES = new String[MAX + 1];
    private static final String[] TEXTS = new String[MAX + 1];

    static {
        entry(EPERM, "EPERM", "Operation not permitted");
        entry(ENOENT, "ENOENT", "No such file or directory");
        entry(ESRCH, "ESRCH", "No such process");
        entry(EINTR, "EINTR", "Interrupted system call");
        entry(EIO, "EIO", "Input/output error");
        entry(ENXIO, "ENXIO", "No such device or address");
        entry(E2BIG, "E2BIG", "Argument list too long");
        entry(ENOEXEC, "ENOEXEC", "Exec format error");
        entry(EBADF, "EBADF", "Bad file descriptor");
        entry(ECHILD, "ECHILD", "No child processes");
        entry(EAGAIN, "EAGAIN", "Resource temporarily unavailable");
        entry(ENOMEM, "ENOMEM", "Cannot allocate memory");
        entry(EACCES, "EACCES", "Permission denied");
        entry(EFAULT, "EFAULT", "Bad address");
        entry(ENOTBLK, "ENOTBLK", "Block device required");
        entry(EBUSY, "EBUSY", "Device or resource busy");
        entry(EEXIST, "EEXIST", "File exists");
        entry(EXDEV, "EXDEV", "Invalid cross-device link");
        entry(ENODEV, "ENODEV", "No such device");
        entry(ENOTDIR, "ENOTDIR", "Not a directory");
        entry(EISDIR, "EISDIR", "Is a directory");
        entry(EINVAL, "EINVAL", "Invalid argument");
        entry(ENFILE, "ENFILE", "Too many open files in system");
        entry(EMFILE, "EMFILE", "Too many open files");
        entry(ENOTTY, "ENOTTY", "Inappropriate ioctl for device");
        entry(ETXTBSY, "ETXTBSY", "Text file busy");
        entry(EFBIG, "EFBIG", "File too large");
        entry(ENOSPC, "ENOSPC", "No space left on device");
        entry(ESPIPE, "ESPIPE", "Illegal seek");
        entry(EROFS, "EROFS", "Read-only file system");
        entry(EMLINK, "EMLINK", "Too many links");
        entry(EPIPE, "EPIPE", "Broken pipe");
        entry(EDOM, "EDOM", "Numerical argument out of domain");
        entry(ERANGE, "ERANGE", "Numerical result out of range");
        entry(EDEADLK, "EDEADLK", "Resource deadlock avoided");
        entry(ENAMETOOLONG, "ENAMETOOLONG", "File name too long");
        entry(ENOLCK, "ENOLCK", "No locks available");
        entry(ENOSYS, "ENOSYS", "Function not implemented");
        entry(ENOTEMPTY, "ENOTEMPTY", "Directory not empty");
        entry(ELOOP, "ELOOP", "Too many levels of symbolic links");
        entry(ENODATA, "ENODATA", "No data available");
        entry(ETIME, "ETIME", "Timer expired");
        entry(EOVERFLOW, "EOVERFLOW", "Value too large for defined data type");
        entry(EILSEQ, "EILSEQ", "Invalid or incomplete multibyte or wide character");
        entry(EOPNOTSUPP, "EOPNOTSUPP", "Operation not supported");
        entry(ENOBUFS, "ENOBUFS", "No buffer space available");
        entry(ETIMEDOUT, "ETIMEDOUT", "Connection timed out");
        entry(EALREADY, "EALREADY", "Operation already in progress");
        entry(EREMOTEIO, "EREMOTEIO", "Remote I/O error");
        entry(EDQUOT, "EDQUOT", "Disk quota exceeded");
        entry(ECANCELED, "ECANCELED", "Operation canceled");
    }

    private Errno() {
    }

    private static void entry(int errno, String name, String text) {
        NAMES[errno] = name;
        TEXTS[errno] = text;
    }

    /**
     * The symbolic name of {@code errno} ({@code "ENOENT"}); a negative value, as io_uring
     * puts in a CQE's {@code res}, is named by its magnitude. Unknown values read
     * {@code "errno 200"}.
     */
    public static String name(int errno) {
        int e = Math.abs(errno);
        return e <= MAX && NAMES[e] != null ? NAMES[e] : "errno " + e;
    }

    /** glibc's {@code strerror} text for {@code errno} (sign ignored), or {@code "Unknown error N"}. */
    public static String describe(int errno) {
        int e = Math.abs(errno);
        return e <= MAX && TEXTS[e] != null ? TEXTS[e] : "Unknown error " + e;
    }
}
