package lab.engine.block;

import java.lang.foreign.Arena;

/**
 * A pool of bios, {@code struct bio_set} (block/bio.c) with its per-cpu bio cache
 * ({@code struct bio_alloc_cache}, {@code bio_alloc_percpu_cache()}).
 *
 * <p>Each per-cpu slot has a free list of its own: {@link #alloc} pops from the caller's slot
 * and {@link #free} pushes onto the slot the bio was allocated on. Both touch only that slot, with
 * plain accesses and no lock, so both must run on the thread that owns the slot (see
 * {@code lab.engine.sync}: "per-cpu" means per worker). An empty list allocates a new bio, with
 * its own pages when the bioset carries data pages: that happens only until a worker's list holds
 * as many bios as the worker keeps in flight (warm-up); after that the hot path allocates nothing.
 * The kernel's bioset falls back to a mempool instead; the model has no memory pressure.
 *
 * <p>Ownership: the bioset owns every bio it made and the off-heap pages behind them (one shared
 * {@link Arena}). {@link #close} frees the pages; no bio of this set may be in flight then.
 */
public final class Bioset implements AutoCloseable {

    /** Pad before the hot fields, so that two slots never share a cache line (128 bytes: adjacent-line prefetch). */
    @SuppressWarnings("unused")
    static class CachePad {
        long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    }

    /** The hot fields of one slot; written only by the slot's owner (plain). */
    static class CacheFields extends CachePad {
        /** Top of the free list, linked through {@link Bio#next}. */
        Bio freeList;
        /** Bios on {@link #freeList}. */
        int nr;
        /** Bios this slot ever created (warm-up allocations). */
        int created;
    }

    /** One slot's cache, {@code struct bio_alloc_cache}; padded on both sides. */
    @SuppressWarnings("unused")
    static final class BioCache extends CacheFields {
        long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
    }

    /** Per-cpu caches, one per slot; the array itself is read-only after construction. */
    private final BioCache[] cache;
    /** Bytes of data pages each bio of this set carries; 0 for a clone-only set (like dm's). */
    private final int vecBytes;
    /** The pages' memory; shared, because bios travel between threads. */
    private final Arena arena = Arena.ofShared();

    /**
     * @param nrCpus   per-cpu slots (workers) that will allocate from this set
     * @param vecBytes bytes of data pages each bio carries (the largest I/O it will hold), or 0
     *                 when the set only makes clones
     */
    public Bioset(int nrCpus, int vecBytes) {
        if (nrCpus < 1 || vecBytes < 0) {
            throw new IllegalArgumentException("nrCpus " + nrCpus + ", vecBytes " + vecBytes);
        }
        this.vecBytes = vecBytes;
        this.cache = new BioCache[nrCpus];
        for (int i = 0; i < nrCpus; i++) {
            cache[i] = new BioCache();
        }
    }

    /**
     * {@code bio_alloc_bioset()}: a reset bio on its own pages, owned by slot {@code cpu}, which
     * will call {@code endIo} when done. Must run on the thread that owns {@code cpu}.
     */
    public Bio alloc(int cpu, BioEndIo endIo) {
        BioCache c = cache[cpu];
        Bio bio = c.freeList;
        if (bio == null) {
            bio = new Bio(this, vecBytes == 0 ? null : BioVec.alloc(arena, vecBytes));
            c.created++;
        } else {
            c.freeList = bio.next;
            c.nr--;
        }
        bio.reset(cpu);
        bio.endIo = endIo;
        return bio;
    }

    /**
     * {@code bio_alloc_clone()}: a bio that shares {@code src}'s vector and copies its iterator,
     * op and partition (and {@link Bio#BIO_REMAPPED}), with {@link Bio#BIO_CLONED} set and {@link Bio#parent} = {@code src}.
     * The blkcg association is not copied (the {@code dm-blkcg-clone} fix decides). {@code src}
     * must outlive the clone (see {@link Bio}). Must run on the thread that owns {@code cpu}.
     */
    public Bio allocClone(Bio src, int cpu, BioEndIo endIo) {
        BioCache c = cache[cpu];
        Bio clone = c.freeList;
        if (clone == null) {
            clone = new Bio(this, vecBytes == 0 ? null : BioVec.alloc(arena, vecBytes));
            c.created++;
        } else {
            c.freeList = clone.next;
            c.nr--;
        }
        clone.initClone(src, cpu, endIo); // __bio_clone(): each field once
        return clone;
    }

    /**
     * {@code bio_put()}: returns {@code bio} to the free list of the slot that allocated it.
     * Must run on the thread that owns {@code bio.cpu}; the bio must not be in flight.
     */
    public void free(Bio bio) {
        BioCache c = cache[bio.cpu];
        bio.vec = bio.inlineVec;
        bio.parent = null;
        bio.endIo = null;
        bio.privateData = null;
        bio.blkcgAssociation = null;
        bio.next = c.freeList;
        c.freeList = bio;
        c.nr++;
    }

    /** Bios on slot {@code cpu}'s free list; read it only from the owner, or once all is quiet. */
    public int cached(int cpu) {
        return cache[cpu].nr;
    }

    /** Bios slot {@code cpu} ever created; stops growing after warm-up. Same rule as {@link #cached}. */
    public int created(int cpu) {
        return cache[cpu].created;
    }

    /** Per-cpu slots of this set. */
    public int nrCpus() {
        return cache.length;
    }

    /** Frees the pages of every bio of this set; none may be in flight. */
    @Override
    public void close() {
        arena.close();
    }
}
