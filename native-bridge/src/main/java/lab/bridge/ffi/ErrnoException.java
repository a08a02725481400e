package lab.bridge.ffi;

/**
 * A libc or liburing call that failed, with the errno it left: the message reads
 * {@code "open(/dev/x): ENOENT (No such file or directory)"}.
 */
public final class ErrnoException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int errno;

    /**
     * @param call  the call as the caller wants it shown, arguments included ({@code "open(/dev/x)"})
     * @param errno the error number; a negative one (liburing's {@code -errno} returns) is taken
     *              by magnitude
     */
    public ErrnoException(String call, int errno) {
        super(call + ": " + Errno.name(errno) + " (" + Errno.describe(errno) + ")");
        this.errno = Math.abs(errno);
    }

    /** The positive errno value. */
    public int errno() {
        return errno;
    }

    /** The symbolic name of {@link #errno()}, as {@link Errno#name} gives it. */
    public String errnoName() {
        return Errno.name(errno);
    }
}
