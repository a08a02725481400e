package lab.bridge.ffi;

import org.junit.jupiter.api.Assumptions;

/** Test predicates: skip, with the reason, where liburing or io_uring is not there. */
public final class UringSupport {
    private UringSupport() {
    }

    /** Skips the calling test unless liburing loads and the kernel grants a ring. */
    public static void assumeIoUring() {
        Assumptions.assumeTrue(Liburing.available(), () -> "liburing unavailable: " + Liburing.unavailableReason());
        try (IoUring ring = IoUring.init(2, 0)) {
            Assumptions.assumeTrue(ring.sqEntries() >= 2, "io_uring ring too small");
        } catch (ErrnoException e) {
            Assumptions.abort("io_uring refused by this kernel: " + e.getMessage());
        }
    }
}
