package lab.bridge.engine;

import java.lang.foreign.MemorySegment;
import lab.jobspec.Job;

/**
 * One worker's I/O engine over its open file descriptors (one per file of the clone): fio's {@code ioengine_ops}
 * ({@code queue}, {@code commit}, {@code getevents}/{@code event}) for a single issuer.
 * Not thread-safe: each worker owns its engine, as each fio job owns its ring.
 *
 * <p>Buffers belong to the engine ({@code iodepth} of them, {@code bs} bytes each, aligned
 * for O_DIRECT); an I/O is named by the index of its buffer, its {@code tag}. A tag is busy
 * from {@link #queue} until its completion is handed to {@link Completion#complete}.
 */
public interface BridgeEngine extends AutoCloseable {

    /** Receives one completion: the tag queued and the result (bytes done, or -errno). */
    @FunctionalInterface
    interface Completion {
        void complete(int tag, int res);
    }

    /** The buffer of {@code tag}: {@code bs} bytes, aligned to the device's needs. */
    MemorySegment buffer(int tag);

    /**
     * Queues one I/O on buffer {@code tag} to file {@code file}, the index of its descriptor among
     * those the engine was opened over ({@link BridgeEngines#open(Job, int[])}); nothing reaches
     * the kernel before {@link #submit}.
     */
    void queue(int tag, int file, boolean read, long offset, int len);

    /**
     * {@link #queue(int, int, boolean, long, int)} with the request's own I/O priority
     * ({@code ioprio}: class << 13 | level; 0 for the thread's): io_uring's {@code sqe->ioprio},
     * libaio's {@code aio_reqprio}, as fio's {@code cmdprio_*}. The blocking engines have no
     * per-request priority (fio registers {@code cmdprio_*} for io_uring and libaio only).
     */
    default void queue(int tag, int file, boolean read, long offset, int len, int ioprio) {
        if (ioprio != 0) {
            throw new IllegalStateException("this engine has no per-request I/O priority");
        }
        queue(tag, file, read, offset, len);
    }

    /** {@link #queue(int, int, boolean, long, int)} to the first (or only) file. */
    default void queue(int tag, boolean read, long offset, int len) {
        queue(tag, 0, read, offset, len);
    }

    /** Sends every queued I/O to the kernel; returns how many. */
    int submit() throws BridgeIoException;

    /**
     * fio's {@code getevents(min, max)}: waits until at least {@code min} completions are in (0: do
     * not wait), hands at most {@code max} of them (never fewer than {@code min} when that many are
     * in flight) to {@code sink} in completion order, and returns how many. What is left stays for
     * the next call.
     */
    int reap(int min, int max, Completion sink) throws BridgeIoException;

    /** {@link #reap(int, int, Completion)} with no cap: every completion that is in. */
    default int reap(int min, Completion sink) throws BridgeIoException {
        return reap(min, Integer.MAX_VALUE, sink);
    }

    /**
     * Releases the ring and buffers; the file descriptor stays the caller's. With I/Os still in
     * flight it waits for them first, and never frees a buffer the kernel may still use
     * ({@link Teardown}).
     */
    @Override
    void close();

    /**
     * What {@link #close()} found in flight and did: null before close, for an engine that can
     * have I/Os in flight at close; {@link Teardown#IDLE} for one that never has (psync).
     */
    default Teardown teardown() {
        return Teardown.IDLE;
    }
}
