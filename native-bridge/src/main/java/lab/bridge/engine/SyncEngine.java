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
 * <p>The position belongs to an open file description. The run gives each clone descriptions of
 * its own, as fio's clones have; the engine does not rely on that and opens each file again for
 * itself ({@link Descriptions#reopen}), closing them with the engine.
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
        int[] own;
        try {
            own = Descriptions.reopen(fds);
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
            Descriptions.close(fds, fds.length);
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
