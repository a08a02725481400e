package lab.jobspec;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * What a job writes, with the meaning fio 3.33 gives its buffer options ({@code io_u.c}
 * {@code fill_io_buffer()} and {@code small_content_scramble()}, {@code lib/rand.c}
 * {@code __fill_random_buf_percentage()}):
 *
 * <ul>
 * <li>{@code buffer_compress_percentage=N}, 0 &lt; N &lt; 100: every 512-byte chunk
 *     ({@code buffer_compress_chunk}'s default) is (100-N)% random bytes then zeros, refilled
 *     before every write (fio turns {@code refill_buffers} on with it). N = 100 is zeros, as in
 *     fio. Takes precedence over {@code zero_buffers}, as in fio.</li>
 * <li>{@code zero_buffers}: zeros; never scrambled.</li>
 * <li>otherwise random bytes, filled once at allocation. {@code refill_buffers} fills fresh ones
 *     before every write. Else, with {@code scramble_buffers=1} (the default) and no
 *     {@code verify}, each write stamps every whole 512-byte block: its byte offset into one of
 *     the block's eight 64-byte lines, chosen per write, and two words at bytes 48..63. fio puts
 *     the issue time in those two words; the lab puts a per-worker write count and a per-worker
 *     constant, so runs repeat. Blocks shorter than 512 bytes are not stamped, as in fio. With
 *     {@code scramble_buffers=0} the buffer is written as it is.</li>
 * <li>{@code dedupe_percentage=P} ({@link Job.Dedupe}): buffers are refilled before every write
 *     and never scrambled, as fio's; P% of them (a 1..100 draw per write) repeat earlier content:
 *     with {@code dedupe_mode=repeat} the last unique buffer's, with {@code working_set} one of the
 *     first {@code dedupe_working_set_percentage} of the region's pages (of the smallest write)
 *     the clone writes uniquely, picked at random, as fio's working set replays its first
 *     buffers' seeds; 100% repeats the first buffer for ever. A repeat is made as the original
 *     was (compression included), from the same point of the content stream. With
 *     {@code dedupe_global} a job's set is spread over every clone's first buffers, its own and
 *     then the others' in fio's thread order, as fio's ({@link #forThread}).</li>
 * </ul>
 *
 * <p>As in fio, a buffer that a read has overwritten is written with what the read left unless
 * it is refilled. One instance per worker thread; not thread-safe; {@link #prepareWrite}
 * allocates nothing.
 */
public final class BufferPattern {
    private static final int BLOCK = 512;
    private static final int CACHE_LINE = 64;
    private static final long STAMP_AT = CACHE_LINE - 2L * Long.BYTES;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final MemorySegment ZEROS = MemorySegment.ofArray(new byte[64 << 10]);

    private enum Fill { ZERO, RANDOM, COMPRESS }

    private final Fill fill;
    private final boolean refill;
    private final boolean scramble;
    private final int randomPerChunk;
    private final SplitMix rng;
    private final long workerStamp;
    private long writes;
    /** {@code dedupe_percentage}; 0 for none. */
    private final int dedupe;
    private final SplitMix dedupeDraw;
    private final SplitMix setPick;
    /** {@code working_set}: where the content stream stood at each of the set's pages; null for {@code repeat}. */
    private final long[] workingSet;
    /** Where the content stream stood before the last unique buffer ({@code repeat}'s source). */
    private long previous;

    private BufferPattern(Fill fill, boolean refill, boolean scramble, int compressPercentage, long seed, Job job,
                          int jobIndex, long[] threadSeeds, int thread) {
        this.fill = fill;
        this.refill = refill;
        this.scramble = scramble;
        this.randomPerChunk = BLOCK * (100 - compressPercentage) / 100;
        this.rng = new SplitMix(seed);
        this.workerStamp = SplitMix.mix(~seed);
        Job.Dedupe d = job.dedupe();
        this.dedupe = d.percentage();
        this.dedupeDraw = new SplitMix(SplitMix.seed(job, jobIndex, SplitMix.STREAM_DEDUPE));
        this.setPick = new SplitMix(SplitMix.seed(job, jobIndex, SplitMix.STREAM_DEDUPE_SET));
        this.previous = seed;
        if (dedupe > 0 && d.workingSet()) {
            int minWrite = job.writeBs().min();
            long pages = Math.max(1, job.size() * d.workingSetPercentage() / 100 / minWrite);
            this.workingSet = workingSet((int) Math.min(pages, 1 << 24), seed, drawsPerBuffer(minWrite),
                    d.global() ? threadSeeds : null, thread);
        } else {
            this.workingSet = null;
        }
    }

    /**
     * fio's {@code init_dedupe_working_set_seeds()}: where the content stream stands at each of the
     * set's {@code pages}, each page {@code step} draws on from the one before, from this clone's
     * own start. With {@code dedupe_global} ({@code ring}: every clone's start, in fio's thread
     * order), every {@code pages / clones} pages the set moves on to the next clone's start, so a
     * job's set is its own first buffers and then each other clone's first buffers in turn, which
     * those clones write as their unique ones: the jobs' repeats are one another's pages.
     */
    private static long[] workingSet(int pages, long seed, long step, long[] ring, int thread) {
        long[] set = new long[pages];
        int n = ring == null ? 1 : ring.length;
        long perSeed = Math.max(pages / n, 1);
        long at = seed;
        int t = thread;
        for (int i = 0; i < pages; i++) {
            if (i > 0) {
                at = SplitMix.advance(at, step);
                if (ring != null && i % perSeed == 0) {
                    t = (t + 1) % n;
                    at = ring[t];
                }
            }
            set[i] = at;
        }
        return set;
    }

    /** Content draws one buffer of {@code len} bytes takes from the stream: what a working-set page advances by. */
    private long drawsPerBuffer(long len) {
        if (fill == Fill.ZERO) {
            return 0;
        }
        if (fill == Fill.RANDOM) {
            return (len + Long.BYTES - 1) / Long.BYTES;
        }
        long draws = 0;
        for (long p = 0; p < len; p += BLOCK) {
            draws += (Math.min(randomPerChunk, Math.min(BLOCK, len - p)) + Long.BYTES - 1) / Long.BYTES;
        }
        return draws;
    }

    /**
     * One per worker thread; not thread-safe. jobIndex = which clone of numjobs (fio seeds each
     * clone differently). A clone alone: {@code dedupe_global}'s set is its own, as one thread's in fio.
     */
    public static BufferPattern forJob(Job job, int jobIndex) {
        return forThread(job, jobIndex, null, 0);
    }

    /**
     * {@link #forJob} for the clone that is {@code thread} of its run's {@link #threadSeeds}, so
     * that {@code dedupe_global} shares its working set with the run's other clones, as fio's.
     */
    public static BufferPattern forThread(Job job, int jobIndex, long[] threadSeeds, int thread) {
        int percent = job.bufferCompressPercentage();
        Fill fill = percent == 100 || (percent == 0 && job.zeroBuffers()) ? Fill.ZERO
                : percent > 0 ? Fill.COMPRESS : Fill.RANDOM;
        boolean refill = job.refillBuffers() || fill == Fill.COMPRESS || job.dedupe().percentage() > 0;
        boolean scramble = fill == Fill.RANDOM && !refill && job.scrambleBuffers() && job.verify() == Verify.NONE;
        return new BufferPattern(fill, refill, scramble, percent,
                SplitMix.seed(job, jobIndex, SplitMix.STREAM_BUFFER), job, jobIndex, threadSeeds, thread);
    }

    /**
     * Where each clone's content stream starts, for the run's {@code jobs}, in fio's thread order
     * (the jobs in order, each job's clones in turn): the ring {@link #forThread} takes.
     */
    public static long[] threadSeeds(List<Job> jobs) {
        long[] out = new long[jobs.stream().mapToInt(Job::numjobs).sum()];
        int t = 0;
        for (Job j : jobs) {
            for (int c = 0; c < j.numjobs(); c++) {
                out[t++] = SplitMix.seed(j, c, SplitMix.STREAM_BUFFER);
            }
        }
        return out;
    }

    /** Fills the whole of buf as fio fills an io buffer when it allocates it. */
    public void fillInitial(MemorySegment buf) {
        fill(buf, buf.byteSize());
    }

    /** Prepares the first len bytes of buf for the next write at byte offset `offset`, as fio does before each write. */
    public void prepareWrite(MemorySegment buf, int len, long offset) {
        writes++;
        if (dedupe > 0) {
            dedupeFill(buf, len);
        } else if (refill) {
            fill(buf, len);
        } else if (scramble) {
            scramble(buf, len, offset);
        }
    }

    /** fio's {@code get_buf_state()} and {@code save_buf_state()}: a repeat from a saved point, or a unique buffer. */
    private void dedupeFill(MemorySegment buf, long len) {
        if (dedupe < 100 && dedupeDraw.percent() > dedupe) {
            previous = rng.state(); // unique: the next repeat replays it
            fill(buf, len);
            return;
        }
        long at = rng.state();
        rng.reset(workingSet != null ? workingSet[(int) (setPick.nextDouble() * workingSet.length)] : previous);
        fill(buf, len);
        rng.reset(at); // a repeat leaves the stream where it was
    }

    private void fill(MemorySegment buf, long len) {
        switch (fill) {
            case ZERO -> zero(buf, 0, len);
            case RANDOM -> rng.fill(buf, 0, len);
            case COMPRESS -> compressible(buf, len);
        }
    }

    private void compressible(MemorySegment buf, long len) {
        for (long p = 0; p < len; p += BLOCK) {
            long chunk = Math.min(BLOCK, len - p);
            long random = Math.min(randomPerChunk, chunk);
            rng.fill(buf, p, random);
            zero(buf, p + random, chunk - random);
        }
    }

    private static void zero(MemorySegment buf, long from, long len) {
        for (long done = 0; done < len; ) {
            long n = Math.min(len - done, ZEROS.byteSize());
            MemorySegment.copy(ZEROS, 0, buf, from + done, n);
            done += n;
        }
    }

    /** fio's small_content_scramble(), with the write count in place of the issue time. */
    private void scramble(MemorySegment buf, int len, long offset) {
        long line = ((writes ^ offset) & 7) * CACHE_LINE;
        long blockOffset = offset;
        for (long p = 0; p + BLOCK <= len; p += BLOCK, blockOffset += BLOCK) {
            buf.set(WORD, p + line, blockOffset);
            buf.set(WORD, p + STAMP_AT, writes);
            buf.set(WORD, p + STAMP_AT + Long.BYTES, workerStamp);
        }
    }
}
