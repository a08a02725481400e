package lab.engine.block;

/*
 * queue/iostats = 0: blk_do_io_stat() is false and nothing is accounted. No
 * partition lookup, no reference, no in-flight count, no tick work, no
 * quiescent-state report: the floor the accounting modes are measured from.
 * ioStart leaves Bio.acctPart null, so bio_endio never calls ioDone.
 *
 * Stateless, so one instance serves every disk.
 */

/** No I/O accounting: {@code queue/iostats} = 0. */
final class IoStatOff implements IoStat {
    static final IoStatOff INSTANCE = new IoStatOff();

    private IoStatOff() {
    }

    @Override
    public void ioStart(Gendisk disk, Bio bio) {
    }

    /** Never called: {@link #ioStart} leaves {@link Bio#acctPart} null. */
    @Override
    public void ioDone(Bio bio) {
    }

    @Override
    public String toString() {
        return "iostats=0";
    }
}
