package lab.engine.thin;

import java.util.Objects;
import lab.engine.block.Bio;
import lab.engine.block.BlockDevice;
import lab.engine.bufio.BufioLocking;
import lab.engine.count.SharedLines;

/**
 * A thin pool, {@code struct pool} (drivers/md/dm-thin.c): a metadata device (its
 * {@link ThinMetadata}), a data device cut into blocks of {@code blockSectors}, the bio prison
 * and the deferred set every thin device's I/O goes through. {@code dmsetup create pool --table
 * "0 LEN thin-pool META DATA BLOCK_SECTORS 0 1 skip_block_zeroing"} with the bufio client's lock
 * chosen here: the switch of thin-bufio-lock. Thin devices ({@link ThinTarget}) are made from it;
 * their I/O is remapped straight to the data device, as the kernel's is.
 */
public final class ThinPool implements AutoCloseable {
    /** {@code DATA_DEV_BLOCK_SIZE_MIN_SECTORS}: 64 KiB, LVM's default chunk. */
    public static final int MIN_BLOCK_SECTORS = 128;

    final ThinMetadata pmd;
    final BlockDevice data;
    final int blockShift;
    final BioPrison prison;
    final DeferredSet allIo;
    private final long nrDataBlocks;
    /** The pool's worker, once {@link #startWorker}; null: writes to unprovisioned blocks are provisioned by the submitter. */
    volatile PoolWorker worker;

    /**
     * {@code pool_ctr}: formats {@code metadata} for the blocks of {@code data}; the metadata cache
     * holds {@code cacheBlocks} blocks and is locked as {@code locking} says.
     */
    public ThinPool(BlockDevice metadata, BlockDevice data, int blockSectors, int cacheBlocks, BufioLocking locking, int nrCpus,
            SharedLines lines) {
        this(metadata, data, blockSectors, cacheBlocks, locking, 0, nrCpus, lines);
    }

    /**
     * As above, the metadata cache with the lab kernel's switch dm_bufio.lab_client_lock on at
     * {@code clientLockCount} (0: off; {@link BufioLocking#STRIPED} only).
     */
    public ThinPool(BlockDevice metadata, BlockDevice data, int blockSectors, int cacheBlocks, BufioLocking locking,
            int clientLockCount, int nrCpus, SharedLines lines) {
        this.data = Objects.requireNonNull(data, "data");
        if (blockSectors < MIN_BLOCK_SECTORS || Integer.bitCount(blockSectors) != 1) {
            throw new IllegalArgumentException("thin-pool: block size " + blockSectors + " sectors is not a power of two from "
                    + MIN_BLOCK_SECTORS + " (the model supports powers of two only)");
        }
        this.blockShift = Integer.numberOfTrailingZeros(blockSectors);
        this.nrDataBlocks = data.capacitySectors() >>> blockShift;
        if (nrDataBlocks < 1) {
            throw new IllegalArgumentException("thin-pool: data device " + data.name() + " is smaller than one block");
        }
        this.pmd = new ThinMetadata(metadata, nrDataBlocks, cacheBlocks, locking, clientLockCount, nrCpus, lines);
        this.prison = new BioPrison(lines);
        this.allIo = new DeferredSet(lines);
    }

    /** {@code dmsetup message pool 0 "create_thin ID"}, then the table {@code 0 LEN thin POOL ID}: a target of {@code lenSectors}. */
    public ThinTarget createThin(long devId, long lenSectors, int cpu) {
        if (lenSectors <= 0 || (lenSectors & ((1L << blockShift) - 1)) != 0) {
            throw new IllegalArgumentException("thin: length " + lenSectors + " is not a whole number of " + (1 << blockShift)
                    + "-sector blocks");
        }
        pmd.createThin(devId, cpu);
        return new ThinTarget(this, devId, 0, lenSectors);
    }

    /**
     * Starts the pool's worker ({@code pool->wq}) on per-cpu slot {@code cpu} of the pool: from
     * now on a write to an unprovisioned block is deferred to it and issued from its thread (a
     * kernel thread: the root cgroup). Before any I/O; once.
     */
    public void startWorker(int cpu) {
        if (worker != null) {
            throw new IllegalStateException("thin-pool: worker already started");
        }
        worker = new PoolWorker(this, cpu, "thin-pool-worker");
    }

    public ThinMetadata metadata() {
        return pmd;
    }

    public BlockDevice dataDevice() {
        return data;
    }

    /** Sectors per data block. */
    public int blockSectors() {
        return 1 << blockShift;
    }

    public long dataBlocks() {
        return nrDataBlocks;
    }

    /** Bytes per data block. */
    public int blockBytes() {
        return (1 << blockShift) << Bio.SECTOR_SHIFT;
    }

    /** Frees the metadata cache; nothing may be in flight. */
    @Override
    public void close() {
        PoolWorker w = worker;
        if (w != null) {
            w.stop();
        }
        pmd.close();
    }
}
