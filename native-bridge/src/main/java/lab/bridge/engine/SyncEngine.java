package lab.bridge.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import lab.jobspec.Job;

/**
 * fio's {@code sync} engine ({@code engines/sync.c}, {@code fio_syncio_prep}): {@code read}/{@code write}
 * at the file position, with an {@code lseek} first only when the I/O does not start where the
 * last one ended, so a sequential job makes one system call per I/O and a random one two. The
 * position is remembered per file, as fio remembers it ({@code f->last_pos}); after an
 * error it is unknown and the next I/O to that file seeks.
 *
 * <p>The position belongs to an open file description, which the descriptor the run passes in
 * shares with every clone of the job; fio opens the file once per job. So the engine opens the
 * file again for itself, through {@code /proc/self/fd/N} with the descriptor's own flags
 * ({@code O_DIRECT} kept; never {@code O_EXCL}, which the run's claim holds, nor {@code O_CREAT}
 * or {@code O_TRUNC}), one descriptor per file of the clone, and closes them with the engine.
 */
public final class SyncEngine extends BlockingEngine {
    /** Where each file's position is, or -1 when unknown. */
    private final long[] positions;
    private long seeks;

    private SyncEngine(Arena arena, Buffers buffers, int[] own) {
        super(arena, buffers, own);
        this.positions = new long[own.length];
        Arrays.fill(positions, -1);
    }

    /**
     * Buffers for {@code job} over a descriptor of its own for the file of {@code fd} (which stays
     * the caller's).
     *
     * @throws BridgeIoException when the file cannot be opened again (the message names the call)
     */
    public static SyncEngine open(Job job, int fd) throws BridgeIoException {
        return open(job, new int[] {fd});
    }

    /** {@link #open(Job, int)} over a clone's files: a descriptor of its own for each of {@code fds}. */
    public static SyncEngine open(Job job, int[] fds) throws BridgeIoException {
        int[] own = new int[fds.length];
        int opened = 0;
        try {
            for (; opened < fds.length; opened++) {
                int flags = Libc.statusFlags(fds[opened]) & ~(Libc.O_CREAT | Libc.O_EXCL | Libc.O_TRUNC);
                own[opened] = Libc.open("/proc/self/fd/" + fds[opened], flags | Libc.O_CLOEXEC);
            }
        } catch (ErrnoException e) {
            closeAll(own, opened);
            throw BridgeIoException.of(e);
        }
        Arena arena = Arena.ofShared();
        return new SyncEngine(arena, buffers(arena, job), own);
    }

    private static void closeAll(int[] fds, int n) {
        for (int i = 0; i < n; i++) {
            try {
                Libc.close(fds[i]);
            } catch (ErrnoException e) {
                // close reports a deferred write-back error only on network file systems; each I/O's
                // own result was already handed over
            }
        }
    }

    /** Frees the buffers and closes the engine's own descriptor. */
    @Override
    public void close() {
        boolean open = arena.scope().isAlive();
        super.close();
        if (open) {
            closeAll(fds, fds.length);
        }
    }

    @Override
    long transferOnce(int file, MemorySegment buf, boolean read, long offset, long len) throws ErrnoException {
        int fd = fds[file];
        try {
            if (positions[file] != offset) {
                Libc.lseek(fd, offset);
                seeks++;
            }
            long n = read ? Libc.read(fd, buf, len) : Libc.write(fd, buf, len);
            positions[file] = offset + n;
            return n;
        } catch (ErrnoException e) {
            positions[file] = -1;
            throw e;
        }
    }

    /** {@code lseek} calls made so far (tests: one per non-contiguous I/O). */
    long seeks() {
        return seeks;
    }
}
