package lab.bridge.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import lab.jobspec.Job;

/** fio's {@code psync} engine: one {@code pread}/{@code pwrite} per I/O ({@link BlockingEngine}). */
public final class PsyncEngine extends BlockingEngine {

    private PsyncEngine(Arena arena, Buffers buffers, int[] fds) {
        super(arena, buffers, fds);
    }

    /** Buffers for {@code job} over {@code fd}, which stays the caller's. */
    public static PsyncEngine open(Job job, int fd) {
        return open(job, new int[] {fd});
    }

    /** Buffers for {@code job} over a clone's files, {@code fds[i]} for file {@code i}; they stay the caller's. */
    public static PsyncEngine open(Job job, int[] fds) {
        Arena arena = Arena.ofShared();
        return new PsyncEngine(arena, buffers(arena, job), fds);
    }

    @Override
    long transferOnce(int file, MemorySegment buf, boolean read, long offset, long len) throws ErrnoException {
        int fd = fds[file];
        return read ? Libc.pread(fd, buf, len, offset) : Libc.pwrite(fd, buf, len, offset);
    }
}
