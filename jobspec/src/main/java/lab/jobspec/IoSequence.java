package lab.jobspec;

/**
 * Which operation comes next and where, with fio 3.33's meaning.
 *
 * <ul>
 * <li>Sequential modes walk from {@code offset} in {@code bs} steps and wrap at
 *     {@code offset + size}. {@code rw=readwrite} keeps one position per direction, as fio keeps
 *     {@code last_pos} per direction.</li>
 * <li>Random modes visit every {@code bs} block of {@code [offset, offset+size)} exactly once per
 *     pass, without a bitmap: a keyed bijection of the next power-of-two range, walked from
 *     0, 1, 2... and applied again while it lands past the last block (cycle walking). This is
 *     fio's random-map guarantee with {@code random_generator=lfsr}'s cost. Each pass uses a
 *     new key, as fio's default generator gives a new order each loop.</li>
 * <li>Mixed modes draw 1..100 per I/O and read when it is at most {@code rwmixread}, as fio's
 *     {@code get_rand_ddir()}; fio additionally keeps a direction for a few I/Os, the lab does
 *     not.</li>
 * </ul>
 *
 * <p>A pass is {@code size / bs} I/Os; a partial last block is never used. Seeds come from
 * {@code randseed}, the section and {@code jobIndex} (see {@link SplitMix#seed}). One instance
 * per worker; not thread-safe; no allocation after construction.
 */
public final class IoSequence {
    private final long base;
    private final long bs;
    private final long blocks;
    private final boolean random;
    private final boolean mixed;
    private final boolean reads;
    private final int rwmixread;
    private final SplitMix rwmix;
    private final long blockSeed;
    private final long mask;
    private final int shift;

    private long k0;
    private long k1;
    private long k2;
    private long m0;
    private long m1;
    private long m2;
    private long pass;
    private long cursor;
    private long readPos;
    private long writePos;
    private long issued;
    private long current;

    private IoSequence(Job job, int jobIndex) {
        base = job.offset();
        bs = job.bs();
        blocks = job.size() / job.bs();
        random = job.rw().random();
        mixed = job.rw().mixed();
        reads = job.rw().reads();
        rwmixread = job.rwmixread();
        rwmix = new SplitMix(SplitMix.seed(job, jobIndex, SplitMix.STREAM_RWMIX));
        blockSeed = SplitMix.seed(job, jobIndex, SplitMix.STREAM_BLOCK);
        int bits = 64 - Long.numberOfLeadingZeros(blocks - 1);
        mask = bits == 64 ? -1L : (1L << bits) - 1;
        shift = Math.max(1, (bits + 1) / 2);
        rekey();
    }

    public static IoSequence forJob(Job job, int jobIndex) {  // one per worker, not thread-safe
        return new IoSequence(job, jobIndex);
    }

    /** Advances and returns true when the next I/O is a read (false = write). */
    public boolean nextIsRead() {
        boolean read = mixed ? rwmix.percent() <= rwmixread : reads;
        current = base + bs * (random ? nextRandomBlock() : nextSequentialBlock(read));
        issued++;
        return read;
    }

    /** Byte offset of the I/O just chosen by nextIsRead(); aligned to bs, within [offset, offset+size). */
    public long offset() {
        return current;
    }

    /**
     * True once the I/O issued in the current pass cover {@code size} (rounded down to {@code bs});
     * a job that is not {@code time_based} ends there. Further calls wrap into a new order.
     */
    public boolean passDone() {
        return issued >= blocks;
    }

    /** Starts a new pass: sequential positions go back to {@code offset}, random order takes a new key. */
    public void resetPass() {
        issued = 0;
        startPass();
    }

    private long nextSequentialBlock(boolean read) {
        long pos = read ? readPos : writePos;
        long next = pos + 1 == blocks ? 0 : pos + 1;
        if (read) {
            readPos = next;
        } else {
            writePos = next;
        }
        return pos;
    }

    private long nextRandomBlock() {
        if (cursor == blocks) {
            startPass();
        }
        long x = cursor++;
        do {
            x = permute(x);
        } while (x >= blocks);
        return x;
    }

    private void startPass() {
        cursor = 0;
        readPos = 0;
        writePos = 0;
        pass++;
        rekey();
    }

    private void rekey() {
        long s = SplitMix.mix(blockSeed + pass);
        k0 = SplitMix.mix(s + 1);
        k1 = SplitMix.mix(s + 2);
        k2 = SplitMix.mix(s + 3);
        m0 = SplitMix.mix(s + 4) | 1;
        m1 = SplitMix.mix(s + 5) | 1;
        m2 = SplitMix.mix(s + 6) | 1;
    }

    /** A bijection of [0, mask]: xor, add and odd multiply modulo 2^bits, and right xorshifts. */
    private long permute(long x) {
        x = ((x ^ k0) * m0) & mask;
        x ^= x >>> shift;
        x = ((x + k1) * m1) & mask;
        x ^= x >>> shift;
        x = ((x ^ k2) * m2) & mask;
        return x ^ (x >>> shift);
    }
}
