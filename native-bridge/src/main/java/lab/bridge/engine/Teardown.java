package lab.bridge.engine;

/**
 * What an engine's {@code close()} found in flight and what became of it. An I/O the kernel has
 * taken keeps using its buffer until its completion is posted, whatever happens to the ring: a
 * read may still land in it, a write may still be reading it. So {@code close()} first waits for
 * every such I/O (after asking the kernel to cancel what it still can); any it cannot wait for
 * keeps its buffers alive for the rest of the process, leaked on purpose, rather than handing
 * memory the kernel may write to back to the allocator.
 *
 * @param inFlight    I/Os the kernel had taken and not completed when {@code close()} began
 * @param completed   of those, completed normally while draining
 * @param cancelled   of those, completed with {@code -ECANCELED}
 * @param abandoned   of those, still in flight when draining gave up
 * @param leakedBytes bytes of buffers left allocated because {@code abandoned > 0}; else 0
 * @param drainNs     time spent draining
 */
public record Teardown(int inFlight, int completed, int cancelled, int abandoned, long leakedBytes, long drainNs) {

    /** Nothing was in flight: buffers freed at once. */
    public static final Teardown IDLE = new Teardown(0, 0, 0, 0, 0, 0);

    /** Whether the buffers were freed (nothing abandoned). */
    public boolean freed() {
        return abandoned == 0;
    }

    /** One line for the run's notes; null when nothing was in flight. */
    public String describe() {
        if (inFlight == 0) {
            return null;
        }
        String drained = inFlight + " I/O(s) in flight at teardown: " + completed + " completed and " + cancelled
                + " cancelled while draining (" + drainNs / 1_000_000 + " ms)";
        if (abandoned == 0) {
            return drained + "; buffers freed after the last completion";
        }
        return drained + "; " + abandoned + " never completed, so their " + leakedBytes
                + " bytes of buffers are left allocated (leaked) rather than freed under the kernel";
    }
}
