package lab.engine.block;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import lab.engine.work.CpuWork;

/**
 * The RAM disk, drivers/block/brd.c: a sparse store of 4 KiB pages, allocated on first write;
 * reads of a page never written return zeros. Every bio is copied to or from its pages with a real
 * memcpy ({@link MemorySegment#copy}) and completed inside {@code submitBio}, on the submitter's
 * thread, as brd does.
 *
 * <h2>The page table</h2>
 * brd keeps its pages in an xarray indexed by {@code sector >> PAGE_SECTORS_SHIFT}. The model
 * uses a two-level radix: {@link #dir} holds leaves of {@link #LEAF} page slots, both created on
 * first write. Lookups take no lock: a page is published with a release store
 * ({@code setRelease} in {@link #insertPage}) paired with the acquire load in {@link #lookupPage},
 * so a reader that sees the page sees it zero-filled; likewise for a leaf. Inserting takes the
 * disk's lock ({@code brd_insert_page()} takes the xarray lock), only on the first write of a page.
 * Concurrent I/O to the same page is not ordered against itself, as in brd.
 *
 * <p>A disk made with a {@link CpuWork} ({@code base_ns}) spends it once per bio in
 * {@code submitBio}, after the checks and before the copy.
 *
 * <p>Page memory is one mapping of the disk's capacity, advised for huge pages ({@link DirectMap}: where
 * the kernel's pages live, and why), page {@code i} at {@code i * 4096}; it lives until {@link #close}.
 * brd frees pages on discard, which the model does not issue; brd's page allocation can fail
 * ({@code -ENOMEM}, an I/O error), the model's cannot.
 */
public final class RamDisk implements BlockDevice, AutoCloseable {

    /** {@code PAGE_SECTORS_SHIFT}: sectors per page, as a shift. */
    private static final int PAGE_SECTORS_SHIFT = 3;
    /** Page slots per leaf of the radix. */
    private static final int LEAF_SHIFT = 9;
    private static final int LEAF = 1 << LEAF_SHIFT;

    /** {@code ZERO_PAGE}: what a read of a page never written copies (no slice per read). */
    private static final MemorySegment ZERO_PAGE = Arena.global().allocate(BioVec.PAGE_SIZE, BioVec.PAGE_SIZE);

    private static final VarHandle DIR = MethodHandles.arrayElementVarHandle(MemorySegment[][].class);
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(MemorySegment[].class);

    private final String name;
    private final long nrSectors;
    /** Leaves of the page table; an entry is null until a page under it is written. Guard: see class doc. */
    private final MemorySegment[][] dir;
    /** The pages' memory; a page is handed out from under {@code this}'s lock. */
    private final DirectMap memory;
    /** {@code base_ns}: spent per bio in {@code submitBio}. */
    private final CpuWork work;

    /** A disk of {@code capacityBytes} (rounded down to whole pages), 512-byte logical blocks, no page yet. */
    public RamDisk(String name, long capacityBytes) {
        this(name, capacityBytes, CpuWork.NONE);
    }

    /** {@link #RamDisk(String, long)} spending {@code work} per bio ({@code base_ns}). */
    public RamDisk(String name, long capacityBytes, CpuWork work) {
        long pages = capacityBytes / BioVec.PAGE_SIZE;
        if (pages < 1) {
            throw new IllegalArgumentException("brd " + name + ": capacity " + capacityBytes + " < one page");
        }
        this.name = name;
        this.nrSectors = pages << PAGE_SECTORS_SHIFT;
        this.work = Objects.requireNonNull(work, "work");
        this.dir = new MemorySegment[(int) ((pages + LEAF - 1) >>> LEAF_SHIFT)][];
        this.memory = new DirectMap(name, pages * BioVec.PAGE_SIZE);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long capacitySectors() {
        return nrSectors;
    }

    @Override
    public int logicalBlockSize() {
        return 1 << Bio.SECTOR_SHIFT;
    }

    /** {@code brd_submit_bio()}: copies each segment of the bio, then completes it. */
    @Override
    public void submitBio(Bio bio) {
        if (!Bio.bioCheck(bio, nrSectors, logicalBlockSize())) {
            Bio.bioIoError(bio);
            return;
        }
        work.spend();
        BioVec vec = bio.vec;
        long pos = bio.sector << Bio.SECTOR_SHIFT;
        int left = bio.size;
        int done = bio.bvecDone;
        for (int i = bio.idx; left > 0; i++) {
            int len = Math.min(vec.len[i] - done, left);
            brdRwBvec(bio.op, vec.page[i], vec.offset[i] + done, len, pos);
            pos += len;
            left -= len;
            done = 0;
        }
        Bio.bioEndio(bio);
    }

    /** {@code brd_rw_bvec()}: one segment, split where it crosses a disk page. */
    private void brdRwBvec(ReqOp op, MemorySegment mem, long memOff, int len, long pos) {
        while (len > 0) {
            long pageIdx = pos / BioVec.PAGE_SIZE;
            int inPage = (int) (pos % BioVec.PAGE_SIZE);
            int chunk = Math.min(len, BioVec.PAGE_SIZE - inPage);
            if (op.isWrite()) {
                MemorySegment page = lookupPage(pageIdx);
                if (page == null) {
                    page = insertPage(pageIdx);
                }
                MemorySegment.copy(mem, memOff, page, inPage, chunk);
            } else {
                MemorySegment page = lookupPage(pageIdx);
                if (page == null) {
                    MemorySegment.copy(ZERO_PAGE, 0, mem, memOff, chunk);
                } else {
                    MemorySegment.copy(page, inPage, mem, memOff, chunk);
                }
            }
            pos += chunk;
            memOff += chunk;
            len -= chunk;
        }
    }

    /** {@code brd_lookup_page()}: the page at {@code idx}, or null if never written. Lock-free. */
    private MemorySegment lookupPage(long idx) {
        MemorySegment[] leaf = (MemorySegment[]) DIR.getAcquire(dir, (int) (idx >>> LEAF_SHIFT)); // pairs with setRelease in insertPage
        if (leaf == null) {
            return null;
        }
        return (MemorySegment) SLOT.getAcquire(leaf, (int) (idx & (LEAF - 1)));          // pairs with setRelease in insertPage
    }

    /** {@code brd_insert_page()}: the page at {@code idx} (zeroed), unless another writer inserted it first. */
    private synchronized MemorySegment insertPage(long idx) {
        int d = (int) (idx >>> LEAF_SHIFT);
        MemorySegment[] leaf = dir[d];
        if (leaf == null) {
            leaf = new MemorySegment[LEAF];
            DIR.setRelease(dir, d, leaf);                  // pairs with getAcquire in lookupPage
        }
        int s = (int) (idx & (LEAF - 1));
        MemorySegment page = leaf[s];
        if (page == null) {
            page = memory.page(idx);                       // zero until written
            SLOT.setRelease(leaf, s, page);                // pairs with getAcquire in lookupPage
        }
        return page;
    }

    /** What each bio spends in {@code submitBio} ({@code base_ns}). */
    public CpuWork work() {
        return work;
    }

    /** Pages allocated so far (written at least once). Takes the insert lock. */
    public synchronized long nrPages() {
        long n = 0;
        for (MemorySegment[] leaf : dir) {
            if (leaf != null) {
                for (MemorySegment page : leaf) {
                    n += page == null ? 0 : 1;
                }
            }
        }
        return n;
    }

    /** Frees every page; no I/O may be in flight. */
    @Override
    public void close() {
        memory.close();
    }

    /** Whether the pages' mapping was advised for huge pages ({@link DirectMap}). */
    public boolean hugePages() {
        return memory.hugePages();
    }
}
