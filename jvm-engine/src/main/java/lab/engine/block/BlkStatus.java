package lab.engine.block;

/**
 * A bio's completion status, {@code blk_status_t} in include/linux/blk_types.h, with the errno
 * {@code blk_status_to_errno()} gives for it (what fio reports as a job's {@code error}).
 */
public enum BlkStatus {
    /** {@code BLK_STS_OK}. */
    OK(0),
    /** {@code BLK_STS_NOTSUPP}: the device does not do this operation. */
    NOTSUPP(95),
    /** {@code BLK_STS_IOERR}: beyond the end of the device, misaligned, or a device error. */
    IOERR(5);

    private final int errno;

    BlkStatus(int errno) {
        this.errno = errno;
    }

    /** {@code blk_status_to_errno()}, as a positive errno ({@code EIO} = 5); 0 for {@link #OK}. */
    public int errno() {
        return errno;
    }
}
