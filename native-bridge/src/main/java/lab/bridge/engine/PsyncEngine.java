package lab.bridge.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import lab.jobspec.Job;

/**
 * fio's {@code psync} engine: each queued I/O is one {@code pread}/{@code pwrite} done in
 * {@link #submit}, so "submission" blocks for the whole I/O and {@link #reap} only hands the
 * results over. Same buffers and tags as {@link UringEngine}.
 *
 * <p>A short transfer is retried for the remainder, as fio's {@code td_io_queue} does with
 * {@code io_u->resid}, until the I/O is done, an error occurs, or a call moves 0 bytes (end of
 * file), in which case {@code res} reports the bytes done so far. An error gives
 * {@code res = -errno} (or the bytes done, if a part already went through, as a short I/O). Nothing on the path allocates except on errors.
 *
 * <p>Not thread-safe: one worker per engine.
 */
public final class PsyncEngine implements BridgeEngine {
    private final Arena arena;
    private final Buffers buffers;
    private final int fd;

    // Queued I/Os, in queue order.
    private final int[] qTag;
    private final boolean[] qRead;
    private final long[] qOffset;
    private final int[] qLen;
    private int queued;

    // Completed I/Os not yet reaped, in completion order.
    private final int[] cTag;
    private final int[] cRes;
    private int completed;

    private PsyncEngine(Arena arena, Buffers buffers, int fd) {
        this.arena = arena;
        this.buffers = buffers;
        this.fd = fd;
        int depth = buffers.count();
        this.qTag = new int[depth];
        this.qRead = new boolean[depth];
        this.qOffset = new long[depth];
        this.qLen = new int[depth];
        this.cTag = new int[depth];
        this.cRes = new int[depth];
    }

    /** Buffers for {@code job} over {@code fd} (which stays the caller's): {@link Job#queueDepth()}, i.e. one. */
    public static PsyncEngine open(Job job, int fd) {
        Arena arena = Arena.ofShared();
        return new PsyncEngine(arena, new Buffers(arena, job.queueDepth(), job.bs()), fd);
    }

    @Override
    public MemorySegment buffer(int tag) {
        return buffers.segment(tag);
    }

    @Override
    public void queue(int tag, boolean read, long offset, int len) {
        buffers.check(tag, len);
        if (queued + completed >= qTag.length) {
            throw new IllegalStateException("more than iodepth (" + qTag.length + ") I/Os outstanding");
        }
        qTag[queued] = tag;
        qRead[queued] = read;
        qOffset[queued] = offset;
        qLen[queued] = len;
        queued++;
    }

    @Override
    public int submit() {
        int n = queued;
        for (int i = 0; i < n; i++) {
            cTag[completed] = qTag[i];
            cRes[completed] = transfer(buffers.segment(qTag[i]), qRead[i], qOffset[i], qLen[i]);
            completed++;
        }
        queued = 0;
        return n;
    }

    /** One I/O, retried for the remainder of a short transfer; bytes done or -errno. */
    private int transfer(MemorySegment buf, boolean read, long offset, int len) {
        int done = 0;
        try {
            while (done < len) {
                MemorySegment rest = done == 0 ? buf : buf.asSlice(done);
                long n = read
                        ? Libc.pread(fd, rest, len - done, offset + done)
                        : Libc.pwrite(fd, rest, len - done, offset + done);
                if (n == 0) {
                    break; // end of file: a short I/O
                }
                done += (int) n;
            }
            return done;
        } catch (ErrnoException e) {
            return done > 0 ? done : -e.errno();
        }
    }

    @Override
    public int reap(int min, Completion sink) {
        int n = completed;
        completed = 0;
        for (int i = 0; i < n; i++) {
            sink.complete(cTag[i], cRes[i]);
        }
        return n;
    }

    @Override
    public void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
