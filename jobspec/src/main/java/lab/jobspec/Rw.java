package lab.jobspec;

/**
 * fio's {@code rw=} modes that the lab accepts. {@code readwrite} and {@code rw} are both {@link #READWRITE}.
 * A job that trims ({@link #trims()}) issues fio's {@code DDIR_TRIM}: a discard of the range; with
 * {@code trimwrite} each trim is followed by a write of the same range.
 */
public enum Rw {
    READ(false, true, false, false),
    WRITE(false, false, true, false),
    RANDREAD(true, true, false, false),
    RANDWRITE(true, false, true, false),
    RANDRW(true, true, true, false),
    READWRITE(false, true, true, false),
    TRIM(false, false, false, true),
    RANDTRIM(true, false, false, true),
    TRIMWRITE(false, false, true, true),
    RANDTRIMWRITE(true, false, true, true);

    private final boolean random;
    private final boolean reads;
    private final boolean writes;
    private final boolean trims;

    Rw(boolean random, boolean reads, boolean writes, boolean trims) {
        this.random = random;
        this.reads = reads;
        this.writes = writes;
        this.trims = trims;
    }

    /** Offsets are drawn at random (rather than sequential). */
    public boolean random() { return random; }

    /** The job issues reads. */
    public boolean reads() { return reads; }

    /** The job issues writes (fio's {@code td_write()}: {@code trimwrite} does, {@code trim} does not). */
    public boolean writes() { return writes; }

    /** The job issues trims (fio's {@code td_trim()}). */
    public boolean trims() { return trims; }

    /** The job changes what is on its target: it writes or trims. */
    public boolean modifies() { return writes || trims; }

    /** Both reads and writes, mixed by {@code rwmixread}. */
    public boolean mixed() { return reads && writes; }
}
