package lab.engine.thin;

import java.util.List;
import lab.engine.block.Bio;
import lab.engine.block.BlockDevice;
import lab.engine.dm.DmTarget;
import lab.engine.dm.DmTargetIo;

/*
 * A thin device's target, struct thin_c (drivers/md/dm-thin.c).
 *
 * thin_bio_map, per bio, on the submitter's thread:
 *
 *   block = the bio's virtual block (sector >> block shift)
 *   detain the virtual cell                 prison lock pair
 *   dm_thin_find_block, non-blocking        root_lock read, btree walk
 *     WOULDBLOCK: the pool worker's lookup  (the model: the same thread,
 *                 blocking, at once)         root_lock read, walk with reads
 *     NODATA, read: zero-fill, complete; write: provision: with the pool's
 *                 worker started (PoolWorker), the cell is deferred to it and
 *                 the worker allocates, inserts and issues the bio from its own
 *                 thread, as the kernel does; without it (the thin-bufio-lock
 *                 benchmark, whose volume is provisioned first) at once, under
 *                 the cell
 *   detain the data cell                    prison lock pair
 *   inc_all_io_entry                        all_io_ds lock pair
 *   release the data cell, the virtual cell two prison lock pairs
 *   remap to the data device                DM_MAPIO_REMAPPED
 *
 * thin_endio: dm_deferred_entry_dec if the map counted the bio (all_io_ds
 * lock pair).
 *
 * Where the model simplifies: a bio must lie within one data block (dm
 * splits at ti->max_io_len; the lab's I/O is aligned 4k); no flush, discard
 * or REQ_PREFLUSH handling, no snapshots (no shared blocks), no pool modes
 * (out of data space ends the bio with an error rather than queueing it),
 * provisioning skips block zeroing (skip_block_zeroing).
 */

/** A thin device of a {@link ThinPool}: {@code dmsetup create thin --table "0 LEN thin POOL ID"}. */
public final class ThinTarget implements DmTarget {
    private final ThinPool pool;
    private final long devId;
    private final long begin;
    private final long len;

    ThinTarget(ThinPool pool, long devId, long begin, long len) {
        this.pool = pool;
        this.devId = devId;
        this.begin = begin;
        this.len = len;
    }

    @Override
    public long begin() {
        return begin;
    }

    @Override
    public long len() {
        return len;
    }

    @Override
    public String type() {
        return "thin";
    }

    public long devId() {
        return devId;
    }

    @Override
    public int map(DmTargetIo tio) {
        Bio bio = tio.clone();
        int cpu = bio.cpu;
        long offset = bio.sector - begin;
        int shift = pool.blockShift;
        long block = offset >>> shift;
        if (((offset + bio.sectors() - 1) >>> shift) != block) {
            return DM_MAPIO_KILL; // crosses a data block: dm would have split it
        }
        long vkey = BioPrison.key(true, devId, block);
        pool.prison.detain(vkey);
        long r = pool.pmd.findBlock(devId, block, false, cpu);
        if (r == ThinMetadata.WOULDBLOCK) {
            r = pool.pmd.findBlock(devId, block, true, cpu); // deferred: the worker's lookup may read
        }
        if (r == ThinMetadata.NODATA) {
            if (!bio.op.isWrite()) {
                pool.prison.release(vkey);
                Bio.zeroFill(bio); // a read of an unprovisioned block reads zeros
                Bio.bioEndio(bio);
                return DM_MAPIO_SUBMITTED;
            }
            if (pool.worker != null) {
                pool.worker.defer(this, tio, vkey); // thin_defer_cell: the worker provisions and issues it
                return DM_MAPIO_SUBMITTED;
            }
            return provisionAndRemap(tio, vkey, cpu); // the model without a worker: at once, here
        }
        return remap(tio, vkey, r >>> 24);
    }

    /**
     * {@code provision_block} then {@code remap_and_issue}'s remap: a data block for the clone's
     * virtual block, whose cell {@code vkey} the caller holds; slot {@code cpu} is the caller's.
     */
    int provisionAndRemap(DmTargetIo tio, long vkey, int cpu) {
        long block = (tio.clone().sector - begin) >>> pool.blockShift;
        long dataBlock = pool.pmd.provision(devId, block, cpu);
        if (dataBlock < 0) {
            pool.prison.release(vkey);
            return DM_MAPIO_KILL; // out of data space
        }
        return remap(tio, vkey, dataBlock);
    }

    /** Holds the data cell, counts the bio in all_io_ds, lets both cells go, points the clone at {@code dataBlock}. */
    private int remap(DmTargetIo tio, long vkey, long dataBlock) {
        Bio bio = tio.clone();
        int shift = pool.blockShift;
        long offset = bio.sector - begin;
        long dkey = BioPrison.key(false, 0, dataBlock);
        pool.prison.detain(dkey);
        pool.allIo.inc();
        tio.setPerBio(1);
        pool.prison.release(dkey);
        pool.prison.release(vkey);
        tio.setDev(pool.data);
        bio.flags &= ~Bio.BIO_REMAPPED;
        bio.bdev = null;
        bio.sector = (dataBlock << shift) | (offset & ((1L << shift) - 1));
        return DM_MAPIO_REMAPPED;
    }

    @Override
    public int endIo(DmTargetIo tio) {
        if (tio.perBio() != 0) {
            pool.allIo.dec();
            tio.setPerBio(0);
        }
        return DM_ENDIO_DONE;
    }

    @Override
    public String status() {
        return "pool " + devId;
    }

    @Override
    public List<BlockDevice> devices() {
        return List.of(pool.data);
    }
}
