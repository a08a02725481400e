package lab.engine.block;

/**
 * The operation of a bio, {@code enum req_op} in include/linux/blk_types.h. The model carries the
 * two data operations and the discard that the lab's jobs issue (fio's trims).
 */
public enum ReqOp {
    /** {@code REQ_OP_READ} (0): device to the bio's pages. */
    READ,
    /** {@code REQ_OP_WRITE} (1): the bio's pages to the device. */
    WRITE,
    /**
     * {@code REQ_OP_DISCARD} (3): the sectors' contents may be dropped; the bio carries no data.
     * Refused with {@link BlkStatus#NOTSUPP} by a device whose queue has no discard limit
     * ({@link BlockDevice#maxDiscardSectors}), as {@code submit_bio_noacct()} does.
     */
    DISCARD;

    /** {@code op_is_write()}: the low bit of the op, set for a discard too (it is accounted as a write). */
    public boolean isWrite() {
        return this != READ;
    }
}
