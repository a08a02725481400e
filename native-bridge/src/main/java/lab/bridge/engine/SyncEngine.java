package lab.bridge.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import lab.jobspec.Job;

/**
 * fio's {@code sync} engine ({@code engines/sync.c}, {@code fio_syncio_prep}): {@code read}/{@code write}
 * at the file position, with an {@code lseek} first only when the I/O does not start where the
 * last one ended, so a sequential job makes one system call per I/O and a random one two. The
 * position is remembered per engine, as fio remembers it per file ({@code f->last_pos}); after an
 * error it is unknown and the next I/O seeks.
 *
 * <p>The position belongs to an open file description, which the descriptor the run passes in
 * shares with every clone of the job; fio opens the file once per job. So the engine opens the
 * file again for itself, through {@code /proc/self/fd/N} with the descriptor's own flags
 * ({@code O_DIRECT} kept; never {@code O_EXCL}, which the run's claim holds, nor {@code O_CREAT}
 * or {@code O_TRUNC}), and closes it with the engine.
 */
public final class SyncEngine extends BlockingEngine {
    /** Where the file position is, or -1 when unknown. */
    private long position = -1;
    private long seeks;

    private SyncEngine(Arena arena, Buffers buffers, int fd) {
        super(arena, buffers, fd);
    }

    /**
     * Buffers for {@code job} over a descriptor of its own for the file of {@code fd} (which stays
     * the caller's).
     *
     * @throws BridgeIoException when the file cannot be opened again (the message names the call)
     */
    public static SyncEngine open(Job job, int fd) throws BridgeIoException {
        int own;
        try {
            int flags = Libc.statusFlags(fd) & ~(Libc.O_CREAT | Libc.O_EXCL | Libc.O_TRUNC);
            own = Libc.open("/proc/self/fd/" + fd, flags | Libc.O_CLOEXEC);
        } catch (ErrnoException e) {
            throw BridgeIoException.of(e);
        }
        Arena arena = Arena.ofShared();
        return new SyncEngine(arena, buffers(arena, job), own);
    }

    /** Frees the buffers and closes the engine's own descriptor. */
    @Override
    public void close() {
        boolean open = arena.scope().isAlive();
        super.close();
        if (open) {
            try {
                Libc.close(fd);
            } catch (ErrnoException e) {
                // close reports a deferred write-back error only on network file systems; each I/O's
                // own result was already handed over
            }
        }
    }

    @Override
    long transferOnce(MemorySegment buf, boolean read, long offset, long len) throws ErrnoException {
        try {
            if (position != offset) {
                Libc.lseek(fd, offset);
                seeks++;
            }
            long n = read ? Libc.read(fd, buf, len) : Libc.write(fd, buf, len);
            position = offset + n;
            return n;
        } catch (ErrnoException e) {
            position = -1;
            throw e;
        }
    }

    /** {@code lseek} calls made so far (tests: one per non-contiguous I/O). */
    long seeks() {
        return seeks;
    }
}
