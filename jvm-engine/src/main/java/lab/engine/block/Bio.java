package lab.engine.block;

/**
 * A block I/O, {@code struct bio} (include/linux/blk_types.h, block/bio.c): where ({@link #sector},
 * {@link #size}), what ({@link #op}), the data ({@link #vec}), who to tell ({@link #endIo}), and the
 * context later fixes switch on ({@link #blkcgAssociation}, {@link #cpu}).
 *
 * <h2>Ownership and lifetime</h2>
 * A bio is a plain struct: its fields are plain and it is owned by one thread at a time.
 * <ol>
 * <li>{@link Bioset#alloc} hands a bio to the allocating thread, which owns the per-cpu slot
 *     {@link #cpu}. The owner fills it in.</li>
 * <li>{@code submitBio} hands it to the device. The submitter must not touch it (nor its pages)
 *     until it comes back.</li>
 * <li>The device calls {@link #bioEndio}, which calls {@link #endIo}: the bio is the owner's
 *     again. The owner frees it with {@link Bioset#free} on the thread that owns {@link #cpu}.</li>
 * </ol>
 * A device that completes on another thread than the submitter publishes the bio with a release
 * and the completer reads it with an acquire; the model's devices complete on the submitter's own
 * thread (see {@link NullBlk}), so no such pair is needed today.
 *
 * <h2>Clones</h2>
 * A clone ({@link Bioset#allocClone}, {@code bio_alloc_clone}) shares its source's page vector and
 * copies only the iterator: it has {@link #BIO_CLONED} set and {@link #parent} pointing at the
 * source. The source owns the vector: it must outlive every clone, that is, its owner must not
 * free it, nor reuse its pages, before every clone's {@code endIo} has run. Freeing a clone never
 * frees the vector.
 *
 * <h2>Model notes</h2>
 * No {@code bi_next} chains of requests (there is no request queue: every device here is
 * bio-based, like brd and dm); {@code bi_next} only links a bio on a free list or a device's
 * completion list. No {@code bi_remaining}/{@code bio_chain}: a clone's owner completes the parent
 * itself, as dm does in {@code clone_endio}. {@link #issueTime} and {@link #startTime} stand in
 * for {@code bi_issue} and fio's {@code io_u} start time.
 */
public final class Bio {

    /** {@code SECTOR_SHIFT}: sectors are 512 bytes whatever the device's block size. */
    public static final int SECTOR_SHIFT = 9;

    /** {@code bi_flags} bit: this bio is a clone and does not own its vector ({@code BIO_CLONED}). */
    public static final int BIO_CLONED = 1;
    /** {@code bi_flags} bit: a partition's start was already added ({@code BIO_REMAPPED}). */
    public static final int BIO_REMAPPED = 1 << 1;

    // ---- bi_iter, struct bvec_iter: where the I/O is; copied, never shared, by clones ----
    /** {@code bi_iter.bi_sector}: first 512-byte sector, relative to {@link #bdev} until remapped. */
    public long sector;
    /** {@code bi_iter.bi_size}: bytes left to transfer. */
    public int size;
    /** {@code bi_iter.bi_idx}: current entry of {@link #vec}. */
    public int idx;
    /** {@code bi_iter.bi_bvec_done}: bytes of entry {@link #idx} already done. */
    public int bvecDone;

    // ---- what and how ----
    /** {@code bio_op(bio)}. */
    public ReqOp op;
    /** The {@code REQ_*} flags of {@code bi_opf} (none defined yet; a later fix may add some). */
    public int opFlags;
    /** {@code bi_flags}: {@link #BIO_CLONED}, {@link #BIO_REMAPPED}. */
    public int flags;
    /** {@code bi_status}; {@link BlkStatus#OK} until a device says otherwise. */
    public BlkStatus status;

    // ---- where to and back ----
    /** {@code bi_bdev}: the partition the bio was submitted to; null means the whole disk. */
    public Partition bdev;
    /** {@code bi_io_vec}: this bio's own vector, or the source's for a clone. */
    public BioVec vec;
    /** {@code bi_end_io}: set once per allocation to the owner (see {@link BioEndIo}). */
    public BioEndIo endIo;
    /** {@code bi_private}: the owner's context, set and read only by the owner. */
    public Object privateData;
    /** The source of a clone (dm's {@code tio->io->orig_bio}); null for an original bio. */
    public Bio parent;

    // ---- context for later fixes ----
    /**
     * {@code bi_blkg}: the blkcg association (cgroup and io context). Null = the root group.
     * {@link Bioset#allocClone} does not copy it; whether a stacked device does is the
     * {@code dm-blkcg-clone} switch.
     */
    public Object blkcgAssociation;
    /** The per-cpu slot of the thread that allocated the bio; its free list takes it back. */
    public int cpu;
    /** {@code System.nanoTime()} when the bio was handed to {@code submitBio} (clat's start). */
    public long issueTime;
    /** {@code System.nanoTime()} when the owner began to build the I/O (lat's start). */
    public long startTime;
    /** The owner's own record of the I/O (fio's {@code io_u->offset}): its offset in the owner's file, untouched by remapping. */
    public long ioOffset;
    /** The owner's file of the I/O ({@code io_u->file}). */
    public int ioFile;

    // ---- accounting (part-acct): set by blk_account_io_start, cleared at done ----
    /** {@code rq->part}: the partition this I/O is accounted to, holding its reference; null if not accounted. */
    Partition acctPart;
    /** {@code rq->start_time}: jiffies at the start of accounting. */
    long acctStart;
    /** Sectors to account at completion (the size at submission). */
    long acctSectors;

    // ---- private to the bioset and the device holding the bio ----
    /** {@code bi_next}: free-list or device-list link; only the current holder touches it. */
    Bio next;
    /** {@code bi_inline_vecs}: the vector this object was created with, null in a clone-only bioset. */
    final BioVec inlineVec;
    /** {@code bi_pool}: the bioset this bio returns to. */
    final Bioset pool;

    Bio(Bioset pool, BioVec inlineVec) {
        this.pool = pool;
        this.inlineVec = inlineVec;
        reset(0);
    }

    /** {@code bio_init()}: an empty bio on this object's own vector, owned by slot {@code cpu}. */
    void reset(int owner) {
        sector = 0;
        size = 0;
        idx = 0;
        bvecDone = 0;
        op = ReqOp.READ;
        opFlags = 0;
        flags = 0;
        status = BlkStatus.OK;
        bdev = null;
        vec = inlineVec;
        endIo = null;
        privateData = null;
        parent = null;
        blkcgAssociation = null;
        cpu = owner;
        issueTime = 0;
        startTime = 0;
        acctPart = null;
        acctStart = 0;
        acctSectors = 0;
        next = null;
    }

    /**
     * {@code __bio_clone()} on a fresh bio: every field set once from {@code src} or to
     * {@link #reset}'s value, without resetting first (the clone path of every dm layer).
     */
    void initClone(Bio src, int owner, BioEndIo end) {
        sector = src.sector;
        size = src.size;
        idx = src.idx;
        bvecDone = src.bvecDone;
        op = src.op;
        opFlags = src.opFlags;
        flags = BIO_CLONED | (src.flags & BIO_REMAPPED);
        status = BlkStatus.OK;
        bdev = src.bdev;
        vec = src.vec;
        endIo = end;
        privateData = null;
        parent = src;
        blkcgAssociation = null;
        cpu = owner;
        issueTime = 0;
        startTime = 0;
        acctPart = null;
        acctStart = 0;
        acctSectors = 0;
        next = null;
    }

    /** Bytes the I/O covers, in 512-byte sectors ({@code bio_sectors()}). */
    public long sectors() {
        return size >>> SECTOR_SHIFT;
    }

    /** The sector after the last one ({@code bio_end_sector()}). */
    public long endSector() {
        return sector + sectors();
    }

    /**
     * {@code bio_advance()}: moves the iterator {@code bytes} forward (sector, size, vector
     * position), as a split or a partial completion does.
     */
    public static void bioAdvance(Bio bio, int bytes) {
        bio.sector += bytes >>> SECTOR_SHIFT;
        bio.size -= bytes;
        int done = bio.bvecDone + bytes;
        while (done > 0 && bio.idx < bio.vec.len.length && done >= bio.vec.len[bio.idx]) {
            done -= bio.vec.len[bio.idx];
            bio.idx++;
        }
        bio.bvecDone = done;
    }

    /** {@code zero_fill_bio()}: zeroes the data the bio's iterator covers (a read of a hole). */
    public static void zeroFill(Bio bio) {
        BioVec vec = bio.vec;
        int left = bio.size;
        int done = bio.bvecDone;
        for (int i = bio.idx; left > 0; i++) {
            int len = Math.min(vec.len[i] - done, left);
            vec.page[i].asSlice(vec.offset[i] + done, len).fill((byte) 0);
            left -= len;
            done = 0;
        }
    }

    /**
     * {@code bio_check_eod()} and the block layer's alignment check: true when the bio lies within
     * {@code nrSectors} and is a whole number of {@code logicalBlockSize} blocks at a multiple of it.
     */
    public static boolean bioCheck(Bio bio, long nrSectors, int logicalBlockSize) {
        long mask = logicalBlockSize - 1L;
        long bytePos = bio.sector << SECTOR_SHIFT;
        return bio.sector >= 0 && bio.size > 0
                && ((bytePos | bio.size) & mask) == 0
                && bio.endSector() <= nrSectors;
    }

    /** {@code bio_endio()}: the I/O is done; hands the bio back to its owner through {@link #endIo}. */
    public static void bioEndio(Bio bio) {
        Partition part = bio.acctPart;
        if (part != null) {
            part.disk().ioStat().ioDone(bio); // blk_account_io_done: the request's end, before its owner hears
        }
        bio.endIo.endIo(bio);
    }

    /**
     * {@code submit_bio_noacct()}'s operation check: a discard sent to a device that does none
     * ({@link BlockDevice#maxDiscardSectors} 0) ends with {@link BlkStatus#NOTSUPP} ({@code goto
     * not_supported}); true when it did, the bio then completed.
     */
    public static boolean notSupported(Bio bio, BlockDevice dev) {
        if (bio.op != ReqOp.DISCARD || dev.maxDiscardSectors() > 0) {
            return false;
        }
        bio.status = BlkStatus.NOTSUPP;
        bioEndio(bio);
        return true;
    }

    /** {@code bio_io_error()}: completes the bio with {@link BlkStatus#IOERR}. */
    public static void bioIoError(Bio bio) {
        bio.status = BlkStatus.IOERR;
        bioEndio(bio);
    }
}
