package lab.bridge.run;

/**
 * A run that cannot start: no target, a missing or unreadable device, a device too small, an
 * O_DIRECT misalignment, a write to a device the lab does not own, a ring that cannot be set up.
 * Thrown before any I/O is submitted and before any output is written; the message names the
 * job, the target, what is wrong and how to fix it. The CLI exits 2 on it.
 */
public final class BridgeSetupException extends Exception {
    private static final long serialVersionUID = 1L;

    public BridgeSetupException(String message) {
        super(message);
    }

    public BridgeSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
