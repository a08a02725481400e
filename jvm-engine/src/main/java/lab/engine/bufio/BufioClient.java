package lab.engine.bufio;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import lab.engine.block.Bio;
import lab.engine.block.BioEndIo;
import lab.engine.block.BioVec;
import lab.engine.block.Bioset;
import lab.engine.block.BlkStatus;
import lab.engine.block.BlockDevice;
import lab.engine.block.ReqOp;
import lab.engine.count.SharedLines;
import lab.engine.sync.Backoff;
import lab.engine.sync.Rwsem;

/*
 * A dm-bufio client (drivers/md/dm-bufio.c): a cache of fixed-size blocks of
 * one device, for a metadata user (dm-thin's block manager).
 *
 *   read(block)    dm_bufio_read: the block's buffer, held; read from the
 *                  device on a miss (NF_READ)
 *   get(block)     dm_bufio_get: held if cached and read, else null (NF_GET:
 *                  what dm-thin's map path uses; a miss defers the bio)
 *   fresh(block)   dm_bufio_new: held, zeroed, not read (NF_FRESH)
 *   release(b)     dm_bufio_release
 *   markDirty(b)   dm_bufio_mark_buffer_dirty
 *   writeDirtyBuffers()
 *   walkBegin/walkGet/walkPut/walkEnd
 *                  a btree walk's node reads (CacheLock): get/release, or,
 *                  under rwsem-walk, one read lock for the walk
 *
 * How the cache is locked is the CacheLock of the client's BufioLocking.
 *
 * The miss path, under the exclusive lock: look again (another thread may
 * have read the block meanwhile), take a buffer (a new one while fewer than
 * maxBuffers exist, else evict the least recently used one no one holds:
 * a second-chance sweep from the LRU's tail that spares a referenced buffer
 * once, writing a dirty victim back first), insert it READING with one
 * hold, unlock; then read the block, run the validator, and clear READING
 * with a release store; a thread that finds it READING waits (wait_on_bit).
 *
 * Where the model simplifies: dirty victims are written back synchronously
 * under the exclusive lock (the kernel writes them asynchronously and waits
 * outside it); when every buffer is held the client allocates one more
 * (the kernel waits on free_buffer_wait); a read error is kept on the
 * buffer, not freed with it; no shrinker, no prefetch, no background
 * cleanup; the device must complete metadata I/O inline (brd, null_blk).
 */

/** A block cache over one device whose lock is chosen at creation ({@link BufioLocking}). */
public final class BufioClient implements BioEndIo, AutoCloseable {
    /** The validator of a block manager ({@code struct dm_block_validator}): checked after a read, prepared before a write. */
    public interface Validator {
        /** {@code prepare_for_write}: e.g. the checksum. */
        void prepareForWrite(long block, MemorySegment data);

        /** {@code check}: false if the block read is not valid. */
        boolean check(long block, MemorySegment data);
    }

    private static final Object DONE = new Object();
    /** {@code DM_HASH_LOCKS_MAX}. */
    static final int MAX_STRIPES = 64;

    private final BlockDevice dev;
    private final int blockSize;
    private final int sectorsPerBlock;
    /** The cache's limit; under the exclusive lock. */
    private int maxBuffers;
    private final BufioLocking locking;
    private final CacheLock lock;
    private final BufferTree[] trees;
    private final int stripeMask;
    private final Validator validator;
    private final Arena arena = Arena.ofShared();
    private final Bioset bios;
    /** The LRU, most recent first; guarded by the exclusive lock (the mutex variant's hits hold it too). */
    private Buffer lruHead;
    private Buffer lruTail;
    /** Buffers made; guarded by the exclusive lock. */
    private int count;
    /** Blocks read (counted as the read is set up) and written, evictions made; guarded by the exclusive lock. */
    private long reads;
    private long writes;
    private long evictions;

    /**
     * {@code dm_bufio_client_create}: a cache of at most {@code maxBuffers} blocks of
     * {@code blockSize} bytes of {@code dev}, locked as {@code locking} says, for {@code nrCpus}
     * submitting slots.
     */
    public BufioClient(BlockDevice dev, int blockSize, int maxBuffers, BufioLocking locking, int nrCpus, Validator validator,
            SharedLines lines) {
        this(dev, blockSize, maxBuffers, locking, 0, nrCpus, validator, lines);
    }

    /**
     * As {@link #BufioClient(BlockDevice, int, int, BufioLocking, int, Validator, SharedLines)}, with
     * the lab kernel's switch dm_bufio.lab_client_lock on at count {@code clientLockCount} (0: off):
     * that many acquisitions of the client mutex per hit and per release ({@link BufioLocking#STRIPED} only).
     */
    public BufioClient(BlockDevice dev, int blockSize, int maxBuffers, BufioLocking locking, int clientLockCount, int nrCpus,
            Validator validator, SharedLines lines) {
        this.dev = Objects.requireNonNull(dev, "dev");
        if (blockSize < 512 || Integer.bitCount(blockSize) != 1 || blockSize > BioVec.PAGE_SIZE * 16) {
            throw new IllegalArgumentException("bufio: block size " + blockSize + " is not a power of two from 512");
        }
        if (maxBuffers < 1) {
            throw new IllegalArgumentException("bufio: maxBuffers " + maxBuffers);
        }
        this.blockSize = blockSize;
        this.sectorsPerBlock = blockSize >>> Bio.SECTOR_SHIFT;
        this.maxBuffers = maxBuffers;
        this.locking = Objects.requireNonNull(locking, "locking");
        this.validator = Objects.requireNonNull(validator, "validator");
        this.lock = CacheLock.of(locking, clientLockCount, lines);
        int stripes = locking == BufioLocking.STRIPED ? stripes(nrCpus) : 1;
        this.trees = new BufferTree[stripes];
        for (int i = 0; i < stripes; i++) {
            trees[i] = new BufferTree(2 * maxBuffers / stripes, locking == BufioLocking.STRIPED ? new Rwsem(lines, CacheLock.SITE_TREE) : null);
        }
        this.stripeMask = stripes - 1;
        this.bios = new Bioset(nrCpus, 0);
    }

    /** {@code dm_num_hash_locks()}: twice the CPUs, rounded up to a power of two, at most {@value #MAX_STRIPES}. */
    static int stripes(int nrCpus) {
        int n = Integer.highestOneBit(Math.max(1, nrCpus));
        if (n < nrCpus) {
            n <<= 1; // roundup_pow_of_two
        }
        return Math.min(MAX_STRIPES, n << 1);
    }

    /** {@code dm_hash_locks_index()}: the stripe of {@code block}. */
    BufferTree treeOf(long block) {
        if (stripeMask == 0) {
            return trees[0];
        }
        long h1 = (block * 4294967291L) >>> 6;
        long h2 = h1 >>> 6;
        return trees[(int) ((h1 ^ h2) & stripeMask)];
    }

    public BufioLocking locking() {
        return locking;
    }

    public int blockSize() {
        return blockSize;
    }

    /** {@code dm_bufio_read}: {@code block}'s buffer, held; reads it on a miss; throws if the read or its check failed. */
    public Buffer read(long block, int cpu) {
        Buffer b = lock.get(this, block, false);
        if (b == null) {
            b = miss(block, cpu, false);
        }
        int round = 0;
        while (b.reading()) {
            round = Backoff.pause(round); // wait_on_bit_io(B_READING)
        }
        if (b.readError) {
            release(b);
            throw new IllegalStateException(dev.name() + ": metadata block " + block + " failed its read or check");
        }
        return b;
    }

    /** {@code dm_bufio_get}: the buffer held if cached and read, else null. */
    public Buffer get(long block) {
        return lock.get(this, block, true);
    }

    /** {@code dm_bufio_new}: {@code block}'s buffer held and zeroed (a cached one is held as it is); not read. */
    public Buffer fresh(long block, int cpu) {
        return miss(block, cpu, true);
    }

    /** {@code dm_bufio_release}. */
    public void release(Buffer b) {
        lock.put(this, b);
    }

    /** {@code dm_bufio_mark_buffer_dirty}: the caller holds {@code b} and has changed its data. */
    public void markDirty(Buffer b) {
        lock.lockExclusive();
        try {
            b.state |= Buffer.B_DIRTY;
        } finally {
            lock.unlockExclusive();
        }
    }

    /** {@code dm_bufio_write_dirty_buffers}: writes every dirty buffer; true if every write succeeded. */
    public boolean writeDirtyBuffers(int cpu) {
        boolean ok = true;
        lock.lockExclusive();
        try {
            for (Buffer b = lruHead; b != null; b = b.lruNext) {
                if (b.dirty()) {
                    ok &= writeBack(b, cpu);
                }
            }
        } finally {
            lock.unlockExclusive();
        }
        return ok;
    }

    /**
     * The cache's limit now ({@code dm_bufio_cache_size}, which the kernel lets an administrator
     * change at run time): buffers no one holds are evicted, least recently used first (dirty ones
     * written back), until at most {@code max} remain or all that remain are held.
     */
    public void setMaxBuffers(int max, int cpu) {
        if (max < 1) {
            throw new IllegalArgumentException("bufio: maxBuffers " + max);
        }
        lock.lockExclusive();
        try {
            maxBuffers = max;
            for (Buffer b = lruTail; b != null && count > max;) {
                Buffer prev = b.lruPrev;
                if (b.holdCount() == 0 && !b.reading() && (!b.dirty() || writeBack(b, cpu)) && lock.evict(this, b)) {
                    lruUnlink(b);
                    evictions++;
                    count--;
                }
                b = prev;
            }
        } finally {
            lock.unlockExclusive();
        }
    }

    /** Starts a btree walk's node reads ({@link CacheLock}). */
    public void walkBegin() {
        lock.walkBegin();
    }

    /** A node of the walk, or null on a miss (the caller ends the walk and reads with {@link #read}). */
    public Buffer walkGet(long block) {
        return lock.walkGet(this, block);
    }

    /** The walk is done with {@code b}. */
    public void walkPut(Buffer b) {
        lock.walkPut(this, b);
    }

    public void walkEnd() {
        lock.walkEnd();
    }

    /** The miss path (see the notes above); {@code fresh}: NF_FRESH, else NF_READ. */
    private Buffer miss(long block, int cpu, boolean fresh) {
        Buffer b;
        lock.lockExclusive();
        try {
            b = treeOf(block).find(block);
            if (b != null) {
                lock.holdUnderExclusive(b);
                relink(b);
                return b;
            }
            b = take(cpu);
            b.block = block;
            b.readError = false;
            b.referenced = false;
            Buffer.HOLD.setOpaque(b, 1);
            if (fresh) {
                b.data.fill((byte) 0);
                b.state = 0;
            } else {
                b.state = Buffer.B_READING;
                reads++;
            }
            lruAddHead(b);
            lock.insert(this, b);
        } finally {
            lock.unlockExclusive();
        }
        if (!fresh) {
            boolean ok = io(b, ReqOp.READ, cpu) && validator.check(block, b.data);
            b.readError = !ok;
            Buffer.STATE.setRelease(b, b.state & ~Buffer.B_READING); // pairs with the acquire in Buffer.reading()
        }
        return b;
    }

    /** A buffer for a new block: a new one below maxBuffers, else a victim (under the exclusive lock). */
    private Buffer take(int cpu) {
        if (count < maxBuffers) {
            count++;
            return new Buffer(arena.allocate(blockSize, BioVec.PAGE_SIZE));
        }
        for (int pass = 0; pass < 2; pass++) {
            for (Buffer b = lruTail; b != null; b = b.lruPrev) {
                if (b.holdCount() != 0 || b.reading()) {
                    continue;
                }
                if (pass == 0 && b.referenced) {
                    b.referenced = false; // second chance
                    continue;
                }
                if (b.dirty() && !writeBack(b, cpu)) {
                    continue;
                }
                if (lock.evict(this, b)) {
                    lruUnlink(b);
                    evictions++;
                    return b;
                }
            }
        }
        count++; // every buffer held: one more (the kernel would wait for a release)
        return new Buffer(arena.allocate(blockSize, BioVec.PAGE_SIZE));
    }

    /** Writes {@code b} and clears its dirty bit (under the exclusive lock). */
    private boolean writeBack(Buffer b, int cpu) {
        validator.prepareForWrite(b.block, b.data);
        boolean ok = io(b, ReqOp.WRITE, cpu);
        if (ok) {
            b.state &= ~Buffer.B_DIRTY;
            writes++;
        }
        return ok;
    }

    /** One block of I/O to or from {@code b}'s data, completed inline. */
    private boolean io(Buffer b, ReqOp op, int cpu) {
        Bio bio = bios.alloc(cpu, this);
        bio.vec = b.vec;
        bio.op = op;
        bio.sector = b.block * sectorsPerBlock;
        bio.size = blockSize;
        dev.submitBio(bio);
        if (bio.privateData != DONE) {
            throw new IllegalStateException("bufio: " + dev.name() + " did not complete a metadata I/O inline");
        }
        boolean ok = bio.status == BlkStatus.OK;
        bios.free(bio);
        return ok;
    }

    @Override
    public void endIo(Bio bio) {
        bio.privateData = DONE;
    }

    /** {@code __relink_lru}: to the LRU's head (under the exclusive lock). */
    void relink(Buffer b) {
        if (lruHead != b) {
            lruUnlink(b);
            lruAddHead(b);
        }
    }

    private void lruAddHead(Buffer b) {
        b.lruPrev = null;
        b.lruNext = lruHead;
        if (lruHead != null) {
            lruHead.lruPrev = b;
        }
        lruHead = b;
        if (lruTail == null) {
            lruTail = b;
        }
    }

    private void lruUnlink(Buffer b) {
        if (b.lruPrev != null) {
            b.lruPrev.lruNext = b.lruNext;
        } else {
            lruHead = b.lruNext;
        }
        if (b.lruNext != null) {
            b.lruNext.lruPrev = b.lruPrev;
        } else {
            lruTail = b.lruPrev;
        }
        b.lruPrev = null;
        b.lruNext = null;
    }

    /** Counters, read once everything is quiet: buffers, reads, writes, evictions, the cached blocks. */
    public Stats stats() {
        int cached = 0;
        for (BufferTree t : trees) {
            cached += t.size();
        }
        return new Stats(count, cached, reads, writes, evictions);
    }

    /** What a client has done: buffers made, blocks cached now, blocks read, written, buffers evicted. */
    public record Stats(int buffers, int cached, long reads, long writes, long evictions) {}

    /** Frees every buffer; nothing may be held. */
    @Override
    public void close() {
        bios.close();
        arena.close();
    }
}
