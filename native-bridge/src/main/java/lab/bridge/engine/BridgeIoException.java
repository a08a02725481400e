package lab.bridge.engine;

import lab.bridge.ffi.ErrnoException;

/** A submission or wait that the kernel refused: names the call and the errno by name. */
public final class BridgeIoException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int errno;

    public BridgeIoException(String call, int errno, String errnoName) {
        super(call + ": " + errnoName + " (errno " + errno + ")");
        this.errno = errno;
    }

    /** The same failure as {@code e}, which stays its cause. */
    static BridgeIoException of(ErrnoException e) {
        BridgeIoException b = new BridgeIoException(e.getMessage(), e.errno(), e.errnoName());
        b.initCause(e);
        return b;
    }

    public int errno() { return errno; }
}
