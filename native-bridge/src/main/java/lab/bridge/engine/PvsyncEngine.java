package lab.bridge.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import lab.jobspec.Job;

/**
 * fio's {@code pvsync} engine ({@code engines/sync.c}, {@code fio_pvsyncio_queue}): one
 * {@code preadv}/{@code pwritev} per I/O with a single {@code iovec}, made once per engine.
 */
public final class PvsyncEngine extends BlockingEngine {
    private final MemorySegment iov;

    private PvsyncEngine(Arena arena, Buffers buffers, int[] fds) {
        super(arena, buffers, fds);
        this.iov = arena.allocate(Libc.IOVEC);
    }

    /** Buffers and the iovec for {@code job} over {@code fd}, which stays the caller's. */
    public static PvsyncEngine open(Job job, int fd) {
        return open(job, new int[] {fd});
    }

    /** Buffers and the iovec for {@code job} over a clone's files, {@code fds[i]} for file {@code i}; they stay the caller's. */
    public static PvsyncEngine open(Job job, int[] fds) {
        Arena arena = Arena.ofShared();
        return new PvsyncEngine(arena, buffers(arena, job), fds);
    }

    @Override
    long transferOnce(int file, MemorySegment buf, boolean read, long offset, long len) throws ErrnoException {
        int fd = fds[file];
        Libc.iovec(iov, 0, buf.address(), len);
        return read ? Libc.preadv(fd, iov, 1, offset) : Libc.pwritev(fd, iov, 1, offset);
    }
}
