package lab.engine.block;

/*
 * queue/iostats and blk_do_io_stat(): whether a disk accounts its I/O at all,
 * and if so how. Two kinds: BlkAccount (iostats=1: blk_account_io_start and
 * blk_account_io_done with the reference, in-flight and tick strategies of
 * the disk's AcctMode) and IoStatOff (iostats=0: nothing). AcctMode picks one
 * per Gendisk; the I/O path calls it unconditionally instead of testing a
 * flag.
 */

/** A disk's I/O accounting: {@code blk_account_io_start} and {@code blk_account_io_done}. */
interface IoStat {
    /**
     * {@code blk_account_io_start(rq, new_io=true)}, for a bio already remapped to {@code disk}; a
     * kind that accounts sets {@link Bio#acctPart}, and {@link Bio#bioEndio} then calls
     * {@link #ioDone}. Owner of {@link Bio#cpu}.
     */
    void ioStart(Gendisk disk, Bio bio);

    /** {@code blk_account_io_completion() + blk_account_io_done()}, from {@link Bio#bioEndio}. */
    void ioDone(Bio bio);
}
