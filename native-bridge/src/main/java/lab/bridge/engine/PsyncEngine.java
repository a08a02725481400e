package lab.bridge.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import lab.jobspec.Job;

/** fio's {@code psync} engine: one {@code pread}/{@code pwrite} per I/O ({@link BlockingEngine}). */
public final class PsyncEngine extends BlockingEngine {

    private PsyncEngine(Arena arena, Buffers buffers, int fd) {
        super(arena, buffers, fd);
    }

    /** Buffers for {@code job} over {@code fd}, which stays the caller's. */
    public static PsyncEngine open(Job job, int fd) {
        Arena arena = Arena.ofShared();
        return new PsyncEngine(arena, buffers(arena, job), fd);
    }

    @Override
    long transferOnce(MemorySegment buf, boolean read, long offset, long len) throws ErrnoException {
        return read ? Libc.pread(fd, buf, len, offset) : Libc.pwrite(fd, buf, len, offset);
    }
}
