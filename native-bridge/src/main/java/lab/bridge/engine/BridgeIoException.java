package lab.bridge.engine;

/** A submission or wait that the kernel refused: names the call and the errno by name. */
public final class BridgeIoException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int errno;

    public BridgeIoException(String call, int errno, String errnoName) {
        super(call + ": " + errnoName + " (errno " + errno + ")");
        this.errno = errno;
    }

    public int errno() { return errno; }
}
