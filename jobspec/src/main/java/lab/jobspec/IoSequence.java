package lab.jobspec;

import java.util.Arrays;

/**
 * Which operation comes next, where, and how long, and when the job has issued enough, with fio
 * 3.33's meaning ({@code io_u.c}: {@code get_next_offset()}, {@code get_next_buflen()};
 * {@code backend.c}: {@code do_io()}, {@code keep_running()}).
 *
 * <h2>Direction</h2>
 * Mixed modes draw 1..100 per I/O and read when it is at most {@code rwmixread}, as fio's
 * {@code get_rand_ddir()}; fio additionally keeps a direction for a few I/Os, the lab does not.
 *
 * <h2>Offset</h2>
 * <ul>
 * <li>Sequential: each direction continues where its last I/O ended (fio's {@code last_pos},
 *     one per direction, so {@code rw=readwrite} keeps two positions), from {@code offset}.</li>
 * <li>Random, with {@code percentage_random=P}: P% of a direction's I/Os (a 1..100 draw per I/O,
 *     as fio's {@code should_do_random()}) take a random offset, the others continue
 *     sequentially from that direction's last I/O, random or not; a sequential I/O at the end of
 *     the region takes a random offset instead, as fio does.</li>
 * <li>{@code rw}'s offset modifier: {@code read:N} adds N bytes after the end of each I/O but the
 *     first (a negative N walks backwards), wrapping at the region's ends as fio's
 *     {@code get_next_seq_offset()}; {@code randread:N} takes a random offset only every Nth I/O
 *     (fio's {@code ddir_seq_nr}), the others sequential from the last.</li>
 * <li>{@code random_distribution} other than {@code random} ({@link RandomDistribution}): zipf,
 *     pareto and normal draw a block from the distribution, no map (blocks repeat, as in fio);
 *     zoned and zoned_abs draw a zone, then a uniform block in it (with {@code norandommap}).</li>
 * <li>Random offsets are aligned to {@code blockalign} (fio's {@code ba}; by default the
 *     direction's smallest block size, {@link Job#blockAlign}) and chosen, by
 *     {@code random_generator} and {@code norandommap}:
 *     <ul>
 *     <li>one size (the random map, or {@code lfsr}): every block once per pass, without a bitmap:
 *         a keyed bijection of the next power-of-two range, walked from 0, 1, 2... and applied
 *         again while it lands past the last block (cycle walking). This is what fio's random map
 *         guarantees with tausworthe, and what its LFSR gives; each pass takes a new key (fio with
 *         {@code randrepeat=1} reseeds and repeats the first pass's order instead);</li>
 *     <li>several sizes with the random map (tausworthe, fio's default): fio's own scheme, with
 *         the lab's generator: a uniform block, or, when the map has it, the next free block after
 *         it (wrapping); the I/O's length is then cut at the first block already done
 *         ({@code mark_random_map()}), so no byte is done twice per pass and short I/Os are more
 *         frequent than the sizes' shares alone would give. The map is a bitmap of the region in
 *         blocks of the smallest size (fio's axmap), allocated once here. Where reads and writes
 *         have different smallest sizes, fio's units are kept as fio mixes them: the map counts
 *         blocks of the smaller, a direction draws among its own blocks, checks and marks the bits
 *         of its own index and size, and takes the next free bit of all when its own is taken, so
 *         that an offset past the region ends the pass early;</li>
 *     <li>{@code lfsr} with several sizes: the bijection, no map: I/Os may overlap, as fio's
 *         HOWTO warns; with different smallest sizes it walks blocks of the smaller, each at the
 *         direction's alignment, and one past the region ends the pass, as fio's;</li>
 *     <li>{@code norandommap} (tausworthe): a uniform block of the direction's smallest size per
 *         I/O: blocks may repeat or be missed.</li>
 *     </ul></li>
 * </ul>
 *
 * <h2>Length</h2>
 * {@link BlockSizes}: a fixed size; a range, {@code min + max * u} rounded down to a multiple of
 * {@code min} and capped at {@code max}; a split, the first entry (in fio's order) whose
 * cumulative share covers the draw and that fits. Every length is drawn again until it fits before
 * the end of the region, as fio's {@code io_u_fits()} loop does; when not even the smallest fits,
 * the pass ends. (fio would loop for ever when the only sizes that fit have a share of 0; the lab
 * ends the pass.)
 *
 * <h2>Passes and the end</h2>
 * A pass ends once its I/Os reach {@code size} bytes (or {@code max(size, io_size)} for a random
 * job that writes with {@code norandommap}, as fio's {@code do_io()}), or when no offset or length
 * is left (region done, random map full, bijection walked). The job ends when its bytes reach
 * {@code io_size} (default {@code size}) or its I/Os {@code number_ios}; after a pass it starts
 * another only when {@code io_size} is set and at least the largest block size is left to do
 * ({@code keep_running()}), or when {@code loops} asks for another pass (fio decrements
 * {@code loops} before any limit; the byte and I/O limits are {@code loops} times theirs, as
 * {@code io_bytes_exceeded()}). So {@code io_size} larger than {@code size} loops over the region, and
 * {@code number_ios} never extends a job. A {@code time_based} job ({@link Job#runsForRuntime()})
 * ignores all three, as fio does: a sequential direction wraps at the end, and a full random map
 * or walked bijection starts over (fio's {@code fio_file_reset()}).
 *
 * <h2>Files</h2>
 * With {@code nrfiles} above 1 each file has a region of its own ({@link Job#fileIoSize}) and
 * keeps its own offset state, as fio keeps per-file {@code last_pos} and random maps: sequential
 * positions, random map, and random order (a bijection keyed per file). The file of each I/O
 * ({@link #file()}) follows {@code file_service_type} as fio's {@code __get_next_file()}:
 * {@code roundrobin[:N]} takes the next file not yet done after every N I/Os; {@code sequential}
 * stays on a file until it is done. A file is done for the pass when no I/O fits in it (fio's
 * {@code set_io_u_file()} marks it so); the pass ends when every file is done or its bytes reach
 * {@code size}, the total over the files. The direction, size and random-or-sequential draws are
 * the job's, shared by its files (fio's are the thread's too); a new pass resets every file.
 *
 * <h2>Trims</h2>
 * A job that only trims ({@code rw=trim}, {@code randtrim}) walks as a write job would, each I/O
 * a trim ({@link #trim()}), with the trims' sizes ({@link Job#writeBs}). {@code trimwrite} and
 * {@code randtrimwrite} follow each trim with a write of the same range (fio's
 * {@code set_rw_ddir()} and {@code get_next_block()}): the pair is one step of the walk, so the
 * pass, {@code size}, {@code io_size} and {@code number_ios} count it once, as fio doubles its
 * limits for {@code trimwrite} ({@code do_io()}); {@code io_size}'s decision to start another
 * pass sums both ({@code keep_running()}).
 *
 * <h2>Read-back ({@code verify})</h2>
 * A job that writes with {@code verify} and {@code do_verify} logs each write ({@link VerifyLog})
 * and reads it back, as fio's {@code do_io()} and {@code do_verify()}: after each pass (before the
 * next, or the end) every logged piece is read, in the log's order; with {@code verify_backlog=N},
 * during the pass, whenever the log holds a multiple of N pieces and the last completed I/O was
 * not a read, the next {@code verify_backlog_batch} (default N) I/Os are read-backs, each taken
 * only when its write has completed (else the pass's own I/O goes first, as fio). A read-back
 * ({@link #checks()}) counts toward neither the pass nor {@code size} and {@code io_size}'s
 * limits (fio's {@code td_io_queue()} leaves {@code IO_U_F_VER_LIST} out of
 * {@code io_issue_bytes}), but toward {@code io_size}'s decision to start another pass
 * ({@code keep_running()} sums {@code io_bytes}, read-backs included) and {@code number_ios}
 * ({@code io_blocks}). At the end of a pass the loops ask
 * {@link #waits()}: the next read-back's write is still in flight, reap first. The loops report
 * every completion ({@link #completed}): the log's in-flight marks and fio's {@code last_ddir}
 * come from them. A {@code time_based} job reads back only by its backlog, never after a pass
 * (measured with fio 3.33: a timed write or read-write job reads nothing back without
 * {@code verify_backlog}, and with it all its writes but the last few).
 *
 * <p>Seeds come from {@code randseed}, the section and {@code jobIndex} (see {@link SplitMix#seed}),
 * one stream per purpose as fio keeps one state per purpose. The next I/O is chosen one call
 * ahead, so that {@link #passDone()} knows whether one is left. One instance per worker; not
 * thread-safe; no allocation after construction.
 */
public final class IoSequence {
    /** fio's {@code rand_max()} of its 32-bit tausworthe. */
    private static final long FRAND_MAX = 0xFFFF_FFFFL;
    private static final double TWO_32 = 4294967296.0;

    /** One direction's sizes and streams (its positions are per file: {@link Region}). */
    private static final class Dir {
        final int min;
        final int max;
        /** Split sizes in fio's order, positive shares only; null for a fixed size or a range. */
        final int[] sizes;
        /** Cumulative shares of {@link #sizes}. */
        final long[] cum;
        /** The smallest size in {@link #sizes}, rounded as fio rounds it. */
        final int smallest;
        final int percentRandom;
        /** {@code blockalign}: random offsets are multiples of it. */
        final int align;
        final SplitMix bs;
        final SplitMix seqRand;

        Dir(BlockSizes b, int align, int percentRandom, SplitMix bs, SplitMix seqRand) {
            this.align = align;
            this.min = b.min();
            this.max = b.max();
            this.percentRandom = percentRandom;
            this.bs = bs;
            this.seqRand = seqRand;
            int[] s = b.split().stream().filter(x -> x.percent() > 0).mapToInt(BlockSizes.Split::bs).toArray();
            if (s.length == 0) {
                sizes = null;
                cum = null;
                smallest = min;
            } else {
                sizes = s;
                cum = new long[s.length];
                long sum = 0;
                int k = 0;
                for (BlockSizes.Split x : b.split()) {
                    if (x.percent() > 0) {
                        sum += x.percent();
                        cum[k++] = sum;
                    }
                }
                int low = Arrays.stream(s).min().orElseThrow();
                smallest = Math.min(max, low - low % min);
            }
        }
    }

    /** One file's region and offset state (fio's per-file {@code last_pos}, random map and LFSR). */
    private static final class Region {
        final int index;
        final long size;
        /** The file's size in bytes (fio's {@code real_file_size}), where a holed walk wraps. */
        long fileEnd;
        /** Blocks of each direction's {@code blockalign} a uniform draw picks from (fio's {@code last_block()}). */
        final long readLastBlock;
        final long writeLastBlock;
        /** Draws blocks by {@code random_distribution}; null for {@code random}. */
        final RandomDistribution.Picker picker;
        /** Blocks of the job's random unit in the region. */
        final long blocks;
        final long mask;
        final int shift;
        /** The random map, one bit per block, bits past {@link #blocks} set; null when not kept. */
        final long[] map;
        long mapFree;
        long readPos;
        long writePos;
        boolean done;
        long pass;
        long cursor;
        long k0;
        long k1;
        long k2;
        long m0;
        long m1;
        long m2;

        Region(int index, long size, Dir rd, Dir wr, long unit, boolean keepMap, RandomDistribution.Picker picker) {
            this.index = index;
            this.size = size;
            this.readLastBlock = lastBlock(size, rd);
            this.writeLastBlock = lastBlock(size, wr);
            this.picker = picker;
            this.blocks = size / unit;
            this.map = keepMap ? new long[(int) ((blocks + 63) >>> 6)] : null;
            int bits = 64 - Long.numberOfLeadingZeros(blocks - 1);
            this.mask = bits == 64 ? -1L : (1L << bits) - 1;
            this.shift = Math.max(1, (bits + 1) / 2);
        }

        long pos(boolean read) {
            return read ? readPos : writePos;
        }

        /** fio's {@code last_block()}: blocks of {@code blockalign}, less what a smallest I/O past the last would overrun. */
        private static long lastBlock(long size, Dir d) {
            return (size - Math.max(0, d.min - d.align)) / d.align;
        }
    }

    private final long base;
    private final boolean random;
    private final boolean mixed;
    private final boolean reads;
    private final boolean forRuntime;
    private final int rwmixread;
    private final SplitMix rwmix;
    private final Dir rd;
    private final Dir wr;

    /** Random blocks come from the bijection (else from uniform draws). */
    private final boolean bijective;
    /**
     * The random block unit: the smallest size the job issues; with sizes or alignments that differ
     * between reads and writes, fio's {@code rw_min_bs}, the smaller smallest size, in which the
     * map's bits and the LFSR's blocks are counted.
     */
    private final long unit;
    /** Reads and writes have one smallest size and align to it: a block of either direction is one {@link #unit}. */
    private final boolean oneUnit;
    private final SplitMix uniform;
    private final long blockSeed;

    private final Region[] files;
    private final boolean serviceSequential;
    private final int serviceBatch;
    /** The file {@code file_service_type} serves now (fio's {@code file_service_file}); -1 for none. */
    private int serviceFile = -1;
    private int serviceLeft;
    /** Where the round-robin search starts (fio's {@code next_file}). */
    private int nextRr;
    private int doneFiles;

    /** {@code rw=read:N}: bytes added to each sequential offset (negative: backwards); 0 for none. */
    private final long seqAdd;
    /** {@code rw=randread:N}: a random offset every N I/Os (fio's {@code ddir_seq_nr}); 1 for every one. */
    private final int seqNr;
    private int seqLeft;
    /** {@code loops}: passes left to start after the current one, beyond what {@code io_size} asks. */
    private long loopsLeft;

    private final long passLimit;
    private final long totalLimit;
    private final long ioSize;
    private final long numberIos;
    private final int maxBs;
    private long passBytes;
    private long totalBytes;
    private long ios;

    /** fio's {@code io_hist}: writes waiting to be read back; null when the job reads none back. */
    private final VerifyLog log;
    /** {@code verify} on a job that only reads: each of its reads is checked (fio: {@code !td_rw()}). */
    private final boolean checksReads;
    private final long backlog;
    private final long backlogBatch;
    /** fio's {@code verify_batch}: read-backs still owed by the backlog. */
    private long verifyBatch;
    /** fio's {@code last_ddir}: the last completed I/O was a read (fio's zeroed field is {@code DDIR_READ}). */
    private boolean lastRead = true;
    /** The I/O just taken is a read-back from the log. */
    private boolean readBack;
    /** The I/O just taken is a read. */
    private boolean takenRead;
    /** The job trims ({@code rw=trim}, {@code trimwrite}...): its non-read I/Os from the walk are trims. */
    private final boolean trims;
    /** {@code trimwrite}: each trim is followed by a write of its range. */
    private final boolean trimWrite;
    /** The I/O just taken is a trim. */
    private boolean takenTrim;
    /** {@code verify_only}: the job's writes are dry. */
    private final boolean dryWrites;
    /** {@code trimwrite}: the write of the last trim's range comes next. */
    private boolean pairWrite;
    private long readBackBytes;

    private boolean pending;
    private boolean nextRead;
    private long nextOffset;
    private int nextLen;
    private int nextFile;
    private long current;
    private int length;
    private int file;

    private IoSequence(Job job, int jobIndex, long[] fileBytes) {
        base = job.offset(jobIndex); // offset_increment: each clone its own start
        long size = job.size();
        random = job.rw().random();
        mixed = job.rw().mixed();
        reads = job.rw().reads();
        forRuntime = job.runsForRuntime();
        rwmixread = job.rwmixread();
        rwmix = new SplitMix(SplitMix.seed(job, jobIndex, SplitMix.STREAM_RWMIX));
        rd = new Dir(job.readBs(), job.blockAlign(true), job.percentageRandomRead(),
                new SplitMix(SplitMix.seed(job, jobIndex, SplitMix.STREAM_BS_READ)),
                new SplitMix(SplitMix.seed(job, jobIndex, SplitMix.STREAM_SEQ_RAND_READ)));
        wr = new Dir(job.writeBs(), job.blockAlign(false), job.percentageRandomWrite(),
                new SplitMix(SplitMix.seed(job, jobIndex, SplitMix.STREAM_BS_WRITE)),
                new SplitMix(SplitMix.seed(job, jobIndex, SplitMix.STREAM_SEQ_RAND_WRITE)));
        boolean lfsr = job.randomGenerator() == RandomGenerator.LFSR;
        RandomDistribution dist = job.walk().distribution();
        boolean uniformDist = dist.kind() == RandomDistribution.Kind.RANDOM;
        // fio counts its map's and LFSR's blocks in the smallest size of any direction (rw_min_bs)
        // and places a direction's block b at b * its blockalign: one unit only when they agree
        oneUnit = rd.min == wr.min && rd.align == rd.min && wr.align == wr.min;
        bijective = uniformDist && (lfsr || (!job.norandommap() && !job.mixedSizes() && oneUnit));
        boolean countsBlocks = lfsr || !job.norandommap(); // a map or an LFSR
        unit = oneUnit || !countsBlocks ? job.blockAlign(reads) : Math.min(rd.min, wr.min);
        boolean keepMap = uniformDist && random && !lfsr && !job.norandommap() && !bijective;
        SplitMix zone = new SplitMix(SplitMix.seed(job, jobIndex, SplitMix.STREAM_ZONE));
        files = new Region[job.nrfiles()];
        for (int i = 0; i < files.length; i++) {
            long fileSize = job.fileIoSize(i);
            RandomDistribution.Picker picker = uniformDist || !random ? null : new RandomDistribution.Picker(dist,
                    (fileSize + job.minBs() - 1) / job.minBs(),
                    new SplitMix(SplitMix.mix(SplitMix.seed(job, jobIndex, SplitMix.STREAM_DIST) + i)), zone);
            files[i] = new Region(i, fileSize, rd, wr, unit, keepMap, picker);
            boolean known = fileBytes != null && i < fileBytes.length && fileBytes[i] > 0; // 0: not known
            files[i].fileEnd = known ? fileBytes[i] : base + fileSize;
        }
        seqAdd = job.walk().seqAdd();
        seqNr = job.walk().seqNr();
        seqLeft = seqNr;
        loopsLeft = job.walk().loops() - 1;
        serviceSequential = job.fileService().sequential();
        serviceBatch = job.fileService().batch();
        blockSeed = SplitMix.seed(job, jobIndex, SplitMix.STREAM_BLOCK);
        uniform = new SplitMix(blockSeed);
        passLimit = random && job.rw().writes() && job.norandommap() ? Math.max(size, job.ioSize()) : size;
        ioSize = job.ioSize();
        long loops = job.walk().loops();
        // fio's io_bytes_exceeded(), exceeds_number_ios(): the limits times loops
        totalLimit = multiply(ioSize > 0 ? ioSize : size, loops);
        numberIos = multiply(job.numberIos(), loops);
        maxBs = job.maxBs();
        trims = job.rw().trims();
        dryWrites = job.checks().dryWrites(job);
        trimWrite = trims && job.rw().writes();
        boolean verifies = job.verify() != Verify.NONE;
        checksReads = verifies && reads && !job.rw().writes();
        backlog = job.checks().backlog();
        backlogBatch = job.checks().backlogBatch();
        log = verifies && job.rw().writes() && job.checks().doVerify() && (!forRuntime || backlog > 0)
                ? new VerifyLog(job, logUnit(job), VerifyLog.listed(job)) : null;
        for (Region r : files) {
            clearRegion(r);
            rekey(r);
        }
        prepare();
    }

    public static IoSequence forJob(Job job, int jobIndex) {  // one per worker, not thread-safe
        return new IoSequence(sized(job), jobIndex, null);
    }

    private static Job sized(Job job) {
        if (job.sizeOfTarget()) {
            throw new IllegalArgumentException("job '" + job.name() + "' (" + job.source() + ":" + job.line()
                    + ") has no size yet: Job.withTargetSize first");
        }
        return job;
    }

    /**
     * {@link #forJob(Job, int)} on files of {@code fileBytes[i]} bytes each (fio's
     * {@code real_file_size}): a holed sequential walk ({@code rw=write:12k}) wraps at the file's
     * end, not its region's, as fio's {@code get_next_seq_offset()}, and a pass whose next I/O
     * falls past the region ends. Without them each file ends where the clone's region does, as
     * a file the lab lays out for the job (and so does a size of 0, not known).
     */
    public static IoSequence forJob(Job job, int jobIndex, long[] fileBytes) {
        return new IoSequence(sized(job), jobIndex, fileBytes);
    }

    /** A divisor of every offset and length the job writes: its sizes, alignments, offset step and regions. */
    private static long logUnit(Job job) {
        long g = gcd(job.writeBs().min(), job.readBs().min());
        g = gcd(g, job.blockAlign(true));
        g = gcd(g, job.blockAlign(false));
        g = gcd(g, Math.abs(job.walk().seqAdd()));
        for (int i = 0; i < job.nrfiles(); i++) {
            g = gcd(g, job.fileIoSize(i));
        }
        return g;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private static long multiply(long a, long b) {
        return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }

    /**
     * Takes the next I/O and returns true when it is a read (false = a write, or a trim:
     * {@link #trim()}); {@link #offset()},
     * {@link #length()} and {@link #file()} tell the rest. Past the end of a pass
     * ({@link #passDone()}) it starts a new pass itself.
     */
    public boolean nextIsRead() {
        readBack = false;
        takenTrim = false;
        if (pairWrite) {
            pairWrite = false; // trimwrite: the trim's range, written (current, length and file stay)
            takenRead = false;
            if (log != null) {
                log.log(file, current - base, length);
            }
            return false;
        }
        if (log != null && (passOver() ? takeReadBack() : backlogReadBack())) {
            readBack = true;
            takenRead = true;
            current = base + log.offset();
            length = log.length();
            file = log.file();
            readBackBytes += length;
            ios++; // fio's number_ios counts io_blocks, read-backs included
            return true;
        }
        if (!pending) {
            startPass();
            pending = draw();
            if (!pending) {
                throw new IllegalStateException("no I/O fits the region");
            }
        }
        boolean read = nextRead;
        takenRead = read;
        current = base + nextOffset;
        length = nextLen;
        file = nextFile;
        Region r = files[nextFile];
        if (read) {
            r.readPos = nextOffset + nextLen;
        } else {
            r.writePos = nextOffset + nextLen;
        }
        passBytes += nextLen;
        totalBytes += nextLen;
        ios++;
        takenTrim = trims && !read;
        pairWrite = trimWrite && !read;
        if (!read && !trims && log != null) {
            log.log(nextFile, nextOffset, nextLen);
        }
        prepare();
        return read;
    }

    /**
     * Whether the I/O just taken is a dry write ({@code verify_only}, fio's {@code do_dry_run()}):
     * the loops count it as a completed write without issuing it; its piece is logged, landed at
     * once, for the read-back after the pass.
     */
    public boolean dry() {
        return dryWrites && !takenRead && !takenTrim;
    }

    /** Whether the I/O just taken is a trim ({@link #nextIsRead()} said false: not a read, nor a write). */
    public boolean trim() {
        return takenTrim;
    }

    /** The pass has no I/O of its own left: what follows is its read-back. */
    private boolean passOver() {
        return !forRuntime && (!pending || limitReached());
    }

    /** fio's {@code do_verify()}: the next logged piece; its write must have completed ({@link #waits()}). */
    private boolean takeReadBack() {
        if (!log.take()) {
            throw new IllegalStateException("the next read-back's write is in flight: ask waits() and reap first");
        }
        return true;
    }

    /** fio's {@code check_get_verify()}: a read-back during the pass, when the backlog asks and its write has landed. */
    private boolean backlogReadBack() {
        if (backlog == 0 || log.isEmpty()) {
            return false;
        }
        boolean get = verifyBatch > 0;
        if (!get && backlogFull()) {
            verifyBatch = backlogBatch > 0 ? backlogBatch : backlog;
            get = true;
        }
        if (get && log.take()) {
            verifyBatch--;
            return true;
        }
        return false;
    }

    /** fio's trigger of a batch: the log holds a multiple of {@code verify_backlog} and the last completion was not a read. */
    private boolean backlogFull() {
        return log.size() % backlog == 0 && !lastRead;
    }

    /**
     * Whether the I/O just taken is a read to check ({@code verify}): a read-back of the job's own
     * write, or any read of a job that only reads (fio checks a mixed job's own reads against
     * nothing).
     */
    public boolean checks() {
        return readBack || (checksReads && takenRead);
    }

    /**
     * Whether the next I/O is a read-back whose write has not completed yet: the loop reaps before
     * taking it (fio's {@code do_verify()} starts after the pass's I/O has completed).
     */
    public boolean waits() {
        return !pairWrite && log != null && passOver() && log.headInFlight();
    }

    /**
     * An I/O this sequence gave has completed ({@code offset} as {@link #offset()} gave it): fio's
     * {@code last_ddir}, and a logged write's piece may be read back now.
     */
    public void completed(boolean read, int file, long offset) {
        lastRead = read;
        if (!read && log != null) {
            log.landed(file, offset - base);
        }
    }

    /**
     * A write this sequence gave failed (a trim's failure is {@link #completed}): fio's
     * {@code io_completed()} unlogs its piece ({@code unlog_io_piece()}), so the block is not
     * read back. Instead of {@link #completed} for that write.
     */
    public void writeFailed(int file, long offset) {
        lastRead = false;
        if (log != null) {
            log.unlog(file, offset - base);
        }
    }

    /**
     * Whether the I/O {@link #nextIsRead()} will take next is a read, without taking it (fio's
     * {@code rate_ddir()} looks at the direction before it waits); call after {@link #hasNext()}
     * answered true.
     */
    public boolean nextWillRead() {
        if (pairWrite) {
            return false;
        }
        if (log != null && (passOver() || (backlog > 0 && !log.isEmpty() && !log.headInFlight()
                && (verifyBatch > 0 || backlogFull())))) {
            return true;
        }
        return nextRead;
    }

    /**
     * Byte offset of the I/O just taken, in its file; within [offset, offset + the file's region),
     * aligned to the direction's smallest size.
     */
    public long offset() {
        return current;
    }

    /** Bytes of the I/O just taken; {@code offset() + length()} stays within the file's region. */
    public int length() {
        return length;
    }

    /** The file of the I/O just taken: 0 up to {@code nrfiles} - 1 ({@link Job#path(int, int)}). */
    public int file() {
        return file;
    }

    /** True when the current pass has no further I/O ({@link #hasNext()} also applies the job's limits). */
    public boolean passDone() {
        return !pending;
    }

    /** Starts a new pass now: sequential positions back at {@code offset}, random maps cleared, new random orders. */
    public void resetPass() {
        startPass();
        prepare();
    }

    /**
     * Whether the job issues another I/O, with fio's end rules (class comment): after a pass it
     * starts the next one when {@code io_size} asks for more. Called before each {@link #nextIsRead()}.
     */
    public boolean hasNext() {
        if (pairWrite) {
            return true;
        }
        if (forRuntime) {
            return pending;
        }
        if (pending && !limitReached()) {
            return true;
        }
        if (log != null && !log.isEmpty()) {
            return true; // fio's do_verify(): the pass's writes read back before anything else
        }
        if (limitReached()) {
            return false;
        }
        if (loopsLeft > 0) {
            loopsLeft--; // fio's keep_running(): td->o.loops-- before any limit
            resetPass();
            return pending;
        }
        // keep_running() sums every direction's bytes, a writing job's read-backs included
        if (ioSize == 0 || totalLimit - totalBytes * (trimWrite ? 2 : 1) - readBackBytes < maxBs) {
            return false;
        }
        resetPass();
        return pending;
    }

    private boolean limitReached() {
        return (numberIos > 0 && ios >= numberIos) || totalBytes >= totalLimit;
    }

    /** Chooses the next I/O, or none when the pass or the job is over. */
    private void prepare() {
        if (!forRuntime && passBytes >= passLimit) {
            pending = false;
            return;
        }
        pending = draw();
        if (!pending && forRuntime) {
            startPass();
            pending = draw();
        }
    }

    /**
     * fio's {@code set_io_u_file()}: the file {@code file_service_type} picks, and an I/O in it; a
     * file with none left is done for the pass and the next one is tried. False when all are done.
     */
    private boolean draw() {
        while (doneFiles < files.length) {
            Region r = files[pickFile()];
            if (drawIn(r)) {
                nextFile = r.index;
                return true;
            }
            r.done = true;
            doneFiles++;
        }
        return false;
    }

    /** fio's {@code __get_next_file()} with {@code roundrobin} or {@code sequential}: a file not done. */
    private int pickFile() {
        if (serviceFile >= 0 && !files[serviceFile].done) {
            if (serviceSequential) {
                return serviceFile;
            }
            if (serviceLeft > 0) {
                serviceLeft--;
                return serviceFile;
            }
        }
        int f = nextRr;
        while (files[f].done) {
            f = f + 1 == files.length ? 0 : f + 1;
        }
        nextRr = f + 1 == files.length ? 0 : f + 1;
        serviceFile = f;
        serviceLeft = serviceBatch - 1;
        return f;
    }

    /** fio's {@code fill_io_u()} in file {@code r}: direction, offset and length; false when none is left in it. */
    private boolean drawIn(Region r) {
        boolean read = mixed ? rwmix.percent() <= rwmixread : reads;
        Dir d = read ? rd : wr;
        long off;
        boolean mark = false;
        boolean hit = true;
        if (seqNr > 1 && --seqLeft == 0) {
            seqLeft = seqNr; // fio's get_next_offset(): ddir_seq_nr counts down to a random offset
        } else if (seqNr > 1) {
            hit = false;
        }
        if (random && hit && (d.percentRandom == 100 || d.seqRand.percent() <= d.percentRandom)) {
            off = randomOffset(r, read);
            mark = true;
        } else {
            off = sequentialOffset(r, read);
            if (off < 0 && random) {
                off = randomOffset(r, read); // fio: not marked in the map (IO_U_F_BUSY_OK)
            }
        }
        if (off < 0) {
            return false;
        }
        int len = bufLen(d, r.size - off);
        if (len == 0) {
            return false;
        }
        if (mark && r.map != null) {
            len = markMap(r, off, len, read);
        }
        nextRead = read;
        nextOffset = off;
        nextLen = len;
        return true;
    }

    /**
     * fio's {@code get_next_seq_offset()}, positions relative to the region's start {@code base}
     * (fio's {@code file_offset}) and {@code r.fileEnd} absolute ({@code real_file_size}), as fio
     * mixes them: where the direction's last I/O ended, plus {@code rw}'s modifier once an I/O has
     * been done; a step at or past the file's end wraps, forwards to {@code base} (fio's relative
     * position takes {@code file_offset}'s value), backwards to the region's (or the file's) end
     * less the step; a backward walk from a non-zero {@code offset} starts at that end. -1 when
     * the position is past the file's end; an I/O that no longer fits in the region ends the pass
     * in {@link #bufLen} (fio's {@code io_u_fits()}).
     */
    private long sequentialOffset(Region r, boolean read) {
        if (forRuntime && r.pos(read) >= r.size) {
            if (read) {
                r.readPos = 0;
            } else {
                r.writePos = 0;
            }
        }
        long pos = r.pos(read);
        if (base + pos >= r.fileEnd) {
            return -1;
        }
        long end = Math.min(r.size, r.fileEnd);
        if (pos == 0 && base != 0 && seqAdd < 0) {
            pos = end - base; // fio rewinds last_pos to io_size (absolute) at file_offset
        }
        if (pos != 0 && seqAdd != 0) {
            pos += seqAdd;
            if (pos < 0 || pos >= r.fileEnd) {
                pos = seqAdd > 0 ? base : end + seqAdd;
            }
        }
        return pos < 0 ? -1 : pos;
    }

    /** A random offset in {@code r} relative to {@code offset}, or -1 when none is left in this pass. */
    private long randomOffset(Region r, boolean read) {
        if (r.picker != null) {
            return distributedOffset(r, read);
        }
        if (bijective) {
            if (r.cursor == r.blocks) {
                if (!forRuntime) {
                    return -1;
                }
                resetRegion(r);
            }
            long x = r.cursor++;
            do {
                x = permute(r, x);
            } while (x >= r.blocks);
            return oneUnit ? x * unit : placed(r, x, read);
        }
        if (r.map == null) {
            Dir d = read ? rd : wr;
            return (long) ((read ? r.readLastBlock : r.writeLastBlock) * uniform.nextDouble()) * d.align;
        }
        if (r.mapFree == 0) {
            if (!forRuntime) {
                return -1;
            }
            resetRegion(r);
        }
        long b = (long) ((read ? r.readLastBlock : r.writeLastBlock) * uniform.nextDouble());
        if ((r.map[(int) (b >>> 6)] & (1L << b)) != 0) {
            b = nextFree(r, b);
        }
        return placed(r, b, read);
    }

    /**
     * Block {@code b} of the map or LFSR at the direction's alignment, or -1 when that is past the
     * region: fio's {@code get_next_offset()} fails there and {@code set_io_u_file()} marks the file
     * done. With two units (reads of 64k, writes of 1m) the map's bits are of the smaller, and a
     * write that finds its drawn bit taken gets the next free one of all, so a pass can end well
     * before its bytes are done, as fio's does.
     */
    private long placed(Region r, long b, boolean read) {
        long off = b * (read ? rd : wr).align;
        return off < r.size ? off : -1;
    }

    /**
     * {@code random_distribution} other than {@code random} (no map, no bijection, as fio): the
     * picker's block times {@code blockalign}; -1 when a {@code zoned_abs} zone ends past the region.
     */
    private long distributedOffset(Region r, boolean read) {
        Dir d = read ? rd : wr;
        RandomDistribution.Picker p = r.picker;
        long b = p.byZone() ? p.zoned(read ? r.readLastBlock : r.writeLastBlock, d.align, uniform.nextDouble())
                : p.shaped();
        return b < 0 ? -1 : b * d.align;
    }

    /** fio's {@code get_next_buflen()} for {@code room} bytes left before the end of the region; 0 when nothing fits. */
    private static int bufLen(Dir d, long room) {
        if (d.min == d.max) {
            return d.min <= room ? d.min : 0;
        }
        if (d.min > room || (d.sizes != null && d.smallest > room)) {
            return 0;
        }
        long len;
        do {
            long r = d.bs.next32();
            if (d.sizes == null) {
                len = d.min + (long) ((double) d.max * (r / TWO_32));
            } else {
                len = d.sizes[d.sizes.length - 1];
                for (int i = 0; i < d.sizes.length; i++) {
                    len = d.sizes[i];
                    if (r / d.cum[i] <= FRAND_MAX / 100 && len <= room) {
                        break;
                    }
                }
            }
            len -= len % d.min;
            if (len > d.max) {
                len = d.max;
            }
        } while (len > room);
        return (int) len;
    }

    /** fio's {@code mark_random_map()}: marks the I/O's free blocks from its first, cutting it at the first done one. */
    private int markMap(Region r, long off, int len, boolean read) {
        long[] map = r.map;
        long bs = (read ? rd : wr).min; // fio's min_bs[ddir], the unit of the bits this I/O sets
        long b = off / bs;
        long n = (len + bs - 1) / bs;
        long set = 0;
        while (set < n && b + set < r.blocks) {
            long bit = b + set;
            int w = (int) (bit >>> 6);
            if ((map[w] & (1L << bit)) != 0) {
                break;
            }
            map[w] |= 1L << bit;
            set++;
        }
        r.mapFree -= set;
        return (int) Math.min(len, set * bs);
    }

    /** fio's {@code axmap_next_free()}: the first free block after {@code b}, wrapping; one exists. */
    private static long nextFree(Region r, long b) {
        long from = b + 1 == r.blocks ? 0 : b + 1;
        long x = firstFree(r.map, from);
        return x >= 0 ? x : firstFree(r.map, 0);
    }

    /** The first free block at or after {@code from}, or -1 (bits past the last block are set). */
    private static long firstFree(long[] map, long from) {
        int w = (int) (from >>> 6);
        long word = ~map[w] & (-1L << from);
        while (word == 0) {
            if (++w == map.length) {
                return -1;
            }
            word = ~map[w];
        }
        return ((long) w << 6) + Long.numberOfTrailingZeros(word);
    }

    /** A new pass: every file reset and not done, the round robin back at the first file. */
    private void startPass() {
        passBytes = 0;
        for (Region r : files) {
            resetRegion(r);
        }
        doneFiles = 0;
        serviceFile = -1;
        nextRr = 0;
    }

    /** fio's {@code fio_file_reset()}: one file's positions and map cleared, a new random order. */
    private void resetRegion(Region r) {
        r.pass++;
        r.done = false;
        clearRegion(r);
        rekey(r);
    }

    private static void clearRegion(Region r) {
        r.cursor = 0;
        r.readPos = 0;
        r.writePos = 0;
        if (r.map != null) {
            Arrays.fill(r.map, 0);
            int tail = (int) (r.blocks & 63);
            if (tail != 0) {
                r.map[r.map.length - 1] = -1L << tail;
            }
            r.mapFree = r.blocks;
        }
    }

    /** The file's keys for its pass; file 0's are those of a one-file job. */
    private void rekey(Region r) {
        long s = SplitMix.mix(blockSeed + r.pass);
        if (r.index > 0) {
            s = SplitMix.mix(s ^ (r.index * 0x9E37_79B9_7F4A_7C15L));
        }
        r.k0 = SplitMix.mix(s + 1);
        r.k1 = SplitMix.mix(s + 2);
        r.k2 = SplitMix.mix(s + 3);
        r.m0 = SplitMix.mix(s + 4) | 1;
        r.m1 = SplitMix.mix(s + 5) | 1;
        r.m2 = SplitMix.mix(s + 6) | 1;
    }

    /** A bijection of [0, mask]: xor, add and odd multiply modulo 2^bits, and right xorshifts. */
    private static long permute(Region r, long x) {
        long mask = r.mask;
        int shift = r.shift;
        x = ((x ^ r.k0) * r.m0) & mask;
        x ^= x >>> shift;
        x = ((x + r.k1) * r.m1) & mask;
        x ^= x >>> shift;
        x = ((x ^ r.k2) * r.m2) & mask;
        return x ^ (x >>> shift);
    }
}
