package lab.engine.block;

/**
 * The operation of a bio, {@code enum req_op} in include/linux/blk_types.h. The model carries only
 * the two data operations the lab's jobs issue.
 */
public enum ReqOp {
    /** {@code REQ_OP_READ} (0): device to the bio's pages. */
    READ,
    /** {@code REQ_OP_WRITE} (1): the bio's pages to the device. */
    WRITE;

    /** {@code op_is_write()}. */
    public boolean isWrite() {
        return this == WRITE;
    }
}
