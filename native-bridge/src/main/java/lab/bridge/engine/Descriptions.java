package lab.bridge.engine;

import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;

/**
 * Open file descriptions of a clone's own, as fio's clones have: fio opens each file in each
 * job's process, so no two clones share a {@code struct file}. Two things hang on it. The file
 * position, which {@code sync} moves. And the file's reference count: every {@code pread},
 * {@code io_submit} iocb and non-fixed io_uring request takes and drops a reference on the
 * {@code struct file} ({@code fget}/{@code fput}), so clones on one description bounce one
 * counter between their CPUs on every I/O.
 *
 * <p>A description is opened again through {@code /proc/self/fd/N} with the descriptor's own
 * status flags ({@code O_DIRECT} kept), never {@code O_EXCL} (the run's claim holds the device),
 * {@code O_CREAT} or {@code O_TRUNC}; always {@code O_CLOEXEC}.
 */
public final class Descriptions {
    private Descriptions() {
    }

    /**
     * A new description for the file of each of {@code fds}, in order; all or none (what was
     * opened is closed again when one fails).
     */
    public static int[] reopen(int[] fds) throws ErrnoException {
        int[] own = new int[fds.length];
        int opened = 0;
        try {
            for (; opened < fds.length; opened++) {
                int flags = Libc.statusFlags(fds[opened]) & ~(Libc.O_CREAT | Libc.O_EXCL | Libc.O_TRUNC);
                own[opened] = Libc.open("/proc/self/fd/" + fds[opened], flags | Libc.O_CLOEXEC);
            }
        } catch (ErrnoException e) {
            close(own, opened);
            throw e;
        }
        return own;
    }

    /** Closes the first {@code n} of {@code fds}, ignoring close's errors. */
    public static void close(int[] fds, int n) {
        for (int i = 0; i < n; i++) {
            try {
                Libc.close(fds[i]);
            } catch (ErrnoException e) {
                // close reports a deferred write-back error only on network file systems; each I/O's
                // own result was already handed over
            }
        }
    }
}
