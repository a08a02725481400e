package lab.engine.zram;

/**
 * The reader/writer protocol that keeps a {@link Zram}'s meta alive while an I/O uses it.
 *
 * <p>Reader side, around every page I/O ({@code zram_submit_bio}):
 * <pre>
 *   int token = guard.enter(cpu);
 *   if (token &lt; 0) fail the I/O;           // not initialised: bio_io_error
 *   ... use the meta ...
 *   guard.exit(cpu, token);
 * </pre>
 * Writer side, in {@code zram_reset_device}: {@link #beginReset()}, free the meta, and later, once
 * {@code disksize_store} has allocated a new one, {@link #endReset()}.
 *
 * <p>Contract:
 * <ul>
 * <li>{@link #beginReset()} returns only when no reader that saw the device initialised is still
 *     between its {@code enter} and {@code exit}, and every later {@code enter} returns
 *     {@link #NOT_INITIALISED} until {@link #endReset()}.</li>
 * <li>{@link #endReset()} publishes (release) everything its caller wrote before it, in particular
 *     the new meta, to every reader whose {@code enter} then succeeds (acquire).</li>
 * <li>A new guard starts "not initialised": the first {@code endReset()} comes from the first init.</li>
 * <li>{@code cpu} is the caller's per-cpu slot, owned by it (see {@code lab.engine.sync}).
 *     {@code beginReset}/{@code endReset} are serialised by the caller.</li>
 * </ul>
 */
public interface MetaGuard {
    /** What {@link #enter} returns when the device is not initialised; the I/O then fails. */
    int NOT_INITIALISED = -1;

    /** Reader side: returns a token for {@link #exit} (the srcu index, else 0), or {@link #NOT_INITIALISED}. */
    int enter(int cpu);

    /** Leaves the read side entered with {@code token} (never called after a failed enter). */
    void exit(int cpu, int token);

    /** Writer side: after it returns no reader is inside and new readers see "not initialised". */
    void beginReset();

    /** After init again: readers may enter, and see everything written before this call. */
    void endReset();
}
