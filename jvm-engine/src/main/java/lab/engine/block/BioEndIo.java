package lab.engine.block;

/**
 * A bio's completion callback, {@code bio_end_io_t} in include/linux/blk_types.h.
 *
 * <p>Implemented once per bio owner (a workload thread, a dm target instance), never as a lambda
 * made per I/O: the owner stores itself in {@link Bio#endIo} when it allocates the bio. Called by
 * {@link Bio#bioEndio} exactly once per submission, on the thread that completes the bio (see the
 * device's javadoc for which one); ownership of the bio passes back to the callee with the call.
 */
@FunctionalInterface
public interface BioEndIo {

    /** The bio is done; {@link Bio#status} says how. The callee owns the bio again and frees it. */
    void endIo(Bio bio);
}
