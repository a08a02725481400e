package lab.jobspec;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * SplitMix64: a fast 64-bit generator with one long of state, used for I/O order, read/write
 * mix and buffer contents. Not thread-safe; allocates nothing per call.
 *
 * <p>Seeds follow fio's {@code setup_random_seeds()}: {@code randseed} multiplied by
 * {@code 0x9e370001} four times, then once more per stream, times the thread number plus the
 * stream index. The lab's thread number is {@code jobIndex + 1} (the clone of {@code numjobs});
 * the section's line is mixed in too, so that two sections with the same {@code randseed} do not
 * repeat each other, as fio's global thread numbers keep them apart.
 */
public final class SplitMix {
    /** What each stream seeds; fio keeps one {@code frand_state} per purpose likewise. */
    static final int STREAM_BLOCK = 0;
    static final int STREAM_RWMIX = 1;
    static final int STREAM_BUFFER = 2;
    static final int STREAM_BS_READ = 3;
    static final int STREAM_BS_WRITE = 4;
    static final int STREAM_SEQ_RAND_READ = 5;
    static final int STREAM_SEQ_RAND_WRITE = 6;
    /** {@code random_distribution}'s zipf, pareto and normal draws (fio's per-file {@code zipf.rand}, {@code gauss.r}). */
    static final int STREAM_DIST = 7;
    /** {@code random_distribution}'s zone draws (fio's {@code zone_state}). */
    static final int STREAM_ZONE = 8;
    /** {@code rate_process=poisson}'s gaps, reads and writes (fio's {@code poisson_state[]}). */
    public static final int STREAM_POISSON_READ = 9;
    public static final int STREAM_POISSON_WRITE = 10;
    /** {@code startdelay}'s pick within its range (fio's {@code delay_state}). */
    public static final int STREAM_START_DELAY = 11;
    /** {@code cmdprio_percentage}'s draws (fio's {@code prio_state}). */
    public static final int STREAM_PRIO = 12;
    /** {@code dedupe_percentage}'s draws (fio's {@code dedupe_state}). */
    static final int STREAM_DEDUPE = 13;
    /** {@code dedupe_mode=working_set}'s page picks (fio's {@code dedupe_working_set_index_state}). */
    static final int STREAM_DEDUPE_SET = 14;

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final long FIO_SEED_MUL = 0x9e370001L;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    private long state;

    public SplitMix(long seed) {
        this.state = seed;
    }

    /**
     * The seed of {@code stream} for clone {@code jobIndex} of {@code job}. The random offsets'
     * stream ignores {@code randseed} under {@code randrepeat=1} (fio's default), as fio's
     * {@code td_fill_rand_seeds_internal()} seeds it from the thread number alone then: two
     * seeds of one job differ in directions and sizes, not in where their random I/Os land.
     */
    static long seed(Job job, int jobIndex, int stream) {
        long seed = stream == STREAM_BLOCK && job.randrepeat() ? JobBuilder.DEFAULT_RANDSEED : job.randseed();
        for (int i = 0; i < 4 + stream; i++) {
            seed *= FIO_SEED_MUL;
        }
        return mix(seed * (jobIndex + 1L) + stream) ^ mix(GOLDEN * job.line());
    }

    /** A stream of clone {@code jobIndex} of {@code job} for a purpose outside this package ({@code STREAM_POISSON_READ}...). */
    public static SplitMix of(Job job, int jobIndex, int stream) {
        return new SplitMix(seed(job, jobIndex, stream));
    }

    /** The SplitMix64 finaliser: a bijection of 64-bit values with good avalanche. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Where the stream stands: {@link #reset} to it replays what followed (fio's {@code frand_copy()}). */
    long state() {
        return state;
    }

    /** Moves the stream to {@code state}, a value {@link #state} gave. */
    void reset(long state) {
        this.state = state;
    }

    /** Where the stream stands {@code draws} values after {@code state}. */
    static long advance(long state, long draws) {
        return state + draws * GOLDEN;
    }

    /** The next value of the stream. */
    public long nextLong() {
        state += GOLDEN;
        return mix(state);
    }

    /** The next value's top 32 bits, as fio's 32-bit {@code __rand()}: uniform in [0, 2^32). */
    long next32() {
        return nextLong() >>> 32;
    }

    /** Uniform in [0, 1) with 53 bits. */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /** Uniform in 1..100, as fio's {@code rand_between(state, 1, 100)}. */
    int percent() {
        return (int) (((nextLong() >>> 32) * 100) >>> 32) + 1;
    }

    /** Fills {@code len} bytes of {@code seg} from {@code from} with fresh random bytes. */
    void fill(MemorySegment seg, long from, long len) {
        long end = from + len;
        long p = from;
        for (; p + Long.BYTES <= end; p += Long.BYTES) {
            seg.set(WORD, p, nextLong());
        }
        if (p < end) {
            long tail = nextLong();
            for (; p < end; p++, tail >>>= 8) {
                seg.set(ValueLayout.JAVA_BYTE, p, (byte) tail);
            }
        }
    }
}
