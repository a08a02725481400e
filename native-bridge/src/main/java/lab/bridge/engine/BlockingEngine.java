package lab.bridge.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import lab.bridge.ffi.ErrnoException;
import lab.jobspec.Job;

/**
 * fio's synchronous engines ({@code FIO_SYNCIO}): each queued I/O is done by system calls in
 * {@link #submit}, so "submission" blocks for the whole I/O and {@link #reap} only hands the
 * results over. Same buffers and tags as {@link UringEngine}. Which calls is the subclass's
 * {@link #transferOnce}: {@link PsyncEngine} ({@code pread}/{@code pwrite}), {@link SyncEngine}
 * ({@code lseek} and {@code read}/{@code write}), {@link PvsyncEngine} ({@code preadv}/{@code pwritev}).
 *
 * <p>A short transfer is retried for the remainder, as fio's {@code td_io_queue} does with
 * {@code io_u->resid}, until the I/O is done, an error occurs, or a call moves 0 bytes (end of
 * file), in which case {@code res} reports the bytes done so far. An error gives
 * {@code res = -errno} (or the bytes done, if a part already went through, as a short I/O). Nothing on the path allocates except on errors.
 *
 * <p>Not thread-safe: one worker per engine.
 */
public abstract sealed class BlockingEngine implements BridgeEngine permits PsyncEngine, SyncEngine, PvsyncEngine {
    final Arena arena;
    final Buffers buffers;
    /** The descriptor of each file. */
    final int[] fds;

    // Queued I/Os, in queue order.
    private final int[] qTag;
    private final int[] qFile;
    private final boolean[] qRead;
    private final long[] qOffset;
    private final int[] qLen;
    private int queued;

    // Completed I/Os not yet reaped, in completion order.
    private final int[] cTag;
    private final int[] cRes;
    private int completed;

    BlockingEngine(Arena arena, Buffers buffers, int[] fds) {
        this.arena = arena;
        this.buffers = buffers;
        this.fds = fds.clone();
        int depth = buffers.count();
        this.qTag = new int[depth];
        this.qFile = new int[depth];
        this.qRead = new boolean[depth];
        this.qOffset = new long[depth];
        this.qLen = new int[depth];
        this.cTag = new int[depth];
        this.cRes = new int[depth];
    }

    /** The buffers for {@code job}: {@link Job#queueDepth()} of them, i.e. one, in a new arena. */
    static Buffers buffers(Arena arena, Job job) {
        return new Buffers(arena, job.queueDepth(), job.maxBs());
    }

    /**
     * One system call's worth of an I/O: up to {@code len} bytes of {@code buf} at {@code offset}
     * of file {@code file}; the bytes moved (0 at end of file).
     */
    abstract long transferOnce(int file, MemorySegment buf, boolean read, long offset, long len) throws ErrnoException;

    @Override
    public MemorySegment buffer(int tag) {
        return buffers.segment(tag);
    }

    @Override
    public void queue(int tag, int file, boolean read, long offset, int len) {
        buffers.check(tag, len);
        if (queued + completed >= qTag.length) {
            throw new IllegalStateException("more than iodepth (" + qTag.length + ") I/Os outstanding");
        }
        qTag[queued] = tag;
        qFile[queued] = file;
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
            cRes[completed] = transfer(qFile[i], buffers.segment(qTag[i]), qRead[i], qOffset[i], qLen[i]);
            completed++;
        }
        queued = 0;
        return n;
    }

    /** One I/O, retried for the remainder of a short transfer; bytes done or -errno. */
    private int transfer(int file, MemorySegment buf, boolean read, long offset, int len) {
        int done = 0;
        try {
            while (done < len) {
                MemorySegment rest = done == 0 ? buf : buf.asSlice(done);
                long n = transferOnce(file, rest, read, offset + done, len - done);
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
    public int reap(int min, int max, Completion sink) {
        int n = Math.min(completed, Math.max(1, max));
        for (int i = 0; i < n; i++) {
            sink.complete(cTag[i], cRes[i]);
        }
        completed -= n;
        System.arraycopy(cTag, n, cTag, 0, completed);
        System.arraycopy(cRes, n, cRes, 0, completed);
        return n;
    }

    @Override
    public void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
