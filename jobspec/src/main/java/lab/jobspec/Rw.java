package lab.jobspec;

/** fio's {@code rw=} modes that the lab accepts. {@code readwrite} and {@code rw} are both {@link #READWRITE}. */
public enum Rw {
    READ(false, true, false),
    WRITE(false, false, true),
    RANDREAD(true, true, false),
    RANDWRITE(true, false, true),
    RANDRW(true, true, true),
    READWRITE(false, true, true);

    private final boolean random;
    private final boolean reads;
    private final boolean writes;

    Rw(boolean random, boolean reads, boolean writes) {
        this.random = random;
        this.reads = reads;
        this.writes = writes;
    }

    /** Offsets are drawn at random (rather than sequential). */
    public boolean random() { return random; }

    /** The job issues reads. */
    public boolean reads() { return reads; }

    /** The job issues writes. */
    public boolean writes() { return writes; }

    /** Both reads and writes, mixed by {@code rwmixread}. */
    public boolean mixed() { return reads && writes; }
}
