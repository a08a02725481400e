package lab.engine.zram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import lab.engine.count.LineCounter;
import lab.engine.count.LineOp;
import lab.engine.count.SharedLines;
import lab.engine.sync.PaddedLong;

/*
 * zsmalloc (mm/zsmalloc.c), reduced to what the cost of a zram page I/O depends on.
 *
 *   classes[NR_CLASSES]     class i holds objects of (i + 1) * ZS_SIZE_CLASS_DELTA bytes
 *     SizeClass {
 *       lock                 class->lock: a spinlock on its own padded line
 *       zspages: byte[][]    each pagesPerZspage * PAGE_SIZE bytes, objsPerZspage objects back to back
 *       inuse: int[]         allocated objects per zspage (zspage->inuse)
 *       free: int[], top     free object ids, a LIFO stack (the zspages' free lists)
 *       allocated: long[]    one bit per object id: OBJ_ALLOCATED_TAG
 *     }
 *   pagesAllocated           pool->pages_allocated: atomic_long_t, shared by every class
 *
 *   handle = (class + 1) << 32 | objId,   objId = zspage * objsPerZspage + index in the zspage
 *   0 is "no handle", as in zram's table.
 *
 * malloc takes the class's lock, pops a free object (growing the class by one zspage only when
 * none is free) and sets its allocated tag; free clears the tag and pushes it back. map needs no
 * lock: it reads the class's zspage array (acquire, paired with the release that publishes a
 * grown one) and indexes it. A zspage's bytes are allocated once and reused for as long as the
 * pool lives, so once every class has grown to its working set a write allocates nothing.
 *
 * mem_used: pagesAllocated counts the pages of every zspage that holds at least one object,
 * which is what zs_get_total_pages reports; a zspage whose last object is freed stops counting,
 * as the kernel frees it, but its bytes stay in the class for reuse.
 *
 * Where the model simplifies zsmalloc:
 *  - class granularity is 32 bytes (the kernel's ZS_SIZE_CLASS_DELTA is PAGE_SIZE >> CLASS_BITS,
 *    16 bytes with 4 KiB pages), and classes with the same objects-per-zspage are not merged;
 *  - a zspage is up to ZS_MAX_PAGES_PER_ZSPAGE = 4 pages, chosen by get_pages_per_zspage's
 *    least-waste rule (newer kernels allow longer chains, CONFIG_ZSMALLOC_CHAIN_SIZE);
 *  - the handle encodes the object's location: the kernel allocates an indirect handle from a
 *    kmem_cache on every zs_malloc so that compaction and page migration can move the object;
 *    there is no compaction, no migration and no fullness grouping here (the free list is LIFO
 *    rather than "fill the fullest zspage first");
 *  - a zspage's pages are one contiguous array, so an object that straddles two of its pages
 *    could be read in place; zram's read path copies such objects into the stream's local
 *    buffer anyway (spansPages), as the kernel must;
 *  - no memory limit (zram's mem_limit) and no allocation failure.
 *
 * Counting (lab.engine.count): each class lock taken is one mutex (a spin_lock + spin_unlock pair)
 * at the site zs_pool.class.lock, whichever the class: the threads writing pages of similar
 * compressibility share one class and its lock; each change of pages_allocated is one rmw at
 * zs_pool.pages_allocated.
 *
 * Poisoning: destroy() (zs_destroy_pool) sets a flag that malloc, map and free check with one
 * opaque load each; a use of a destroyed pool is counted by ZramMeta.useAfterFree() and throws.
 */

/** A zsmalloc-like pool: size classes of 32 bytes, {@code malloc(size)} returns a handle, {@code map}, {@code free}. */
final class ZsPool {
    /** Objects are sized in steps of this many bytes. */
    static final int ZS_SIZE_CLASS_DELTA = 32;
    /** The largest zspage, in pages. */
    static final int ZS_MAX_PAGES_PER_ZSPAGE = 4;
    static final int NR_CLASSES = Zram.PAGE_SIZE / ZS_SIZE_CLASS_DELTA;

    private static final int CLASS_SHIFT = 32;
    private static final long OBJ_ID_MASK = (1L << CLASS_SHIFT) - 1;
    private static final VarHandle DESTROYED;

    static {
        try {
            DESTROYED = MethodHandles.lookup().findVarHandle(ZsPool.class, "destroyed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SizeClass[] classes = new SizeClass[NR_CLASSES];
    /** pool->pages_allocated: pages of the zspages that hold objects. */
    private final AtomicLong pagesAllocated = new AtomicLong();
    /** 1 once destroyed. Written once with a volatile store, read opaque. */
    private int destroyed;

    ZsPool() {
        this(SharedLines.NONE);
    }

    /** An empty pool reporting its class locks and pages_allocated to {@code lines}. */
    ZsPool(SharedLines lines) {
        LineCounter lock = lines.counter("zs_pool.class.lock", LineOp.MUTEX);
        LineCounter pages = lines.counter("zs_pool.pages_allocated", LineOp.RMW);
        for (int i = 0; i < NR_CLASSES; i++) {
            classes[i] = new SizeClass((i + 1) * ZS_SIZE_CLASS_DELTA, pagesAllocated, lock, pages);
        }
    }

    /** zs_malloc: a handle to an object of at least {@code size} bytes (1..PAGE_SIZE). */
    long malloc(int size) {
        checkLive("zs_malloc");
        if (size < 1 || size > Zram.PAGE_SIZE) {
            throw new IllegalArgumentException("zs_malloc: size " + size + " not in 1.." + Zram.PAGE_SIZE);
        }
        int ci = (size - 1) / ZS_SIZE_CLASS_DELTA;
        return ((long) (ci + 1) << CLASS_SHIFT) | classes[ci].allocObj();
    }

    /** zs_free. */
    void free(long handle) {
        checkLive("zs_free");
        classOf(handle).freeObj(objId(handle));
    }

    /** zs_map_object: the zspage holding the object; it starts at {@link #offset}. No lock. */
    byte[] map(long handle) {
        checkLive("zs_map_object");
        return classOf(handle).zspage(objId(handle));
    }

    /** Where the object of {@code handle} starts in the array {@link #map} returns. */
    int offset(long handle) {
        return classOf(handle).offset(objId(handle));
    }

    /** Whether an object at {@code offset} of its zspage crosses a page boundary there. */
    static boolean spansPages(int offset, int size) {
        return (offset & (Zram.PAGE_SIZE - 1)) + size > Zram.PAGE_SIZE;
    }

    /** zs_get_total_pages: pages held by zspages in use (atomic_long_read). */
    long totalPages() {
        return pagesAllocated.getOpaque();
    }

    /** zs_destroy_pool: every later malloc, map or free is a use after free. */
    void destroy() {
        DESTROYED.setVolatile(this, 1);
    }

    private void checkLive(String what) {
        if ((int) DESTROYED.getOpaque(this) != 0) {
            ZramMeta.reportUseAfterFree(what + " on a destroyed pool");
        }
    }

    private SizeClass classOf(long handle) {
        long ci = (handle >>> CLASS_SHIFT) - 1;
        if (ci < 0 || ci >= NR_CLASSES) {
            throw new IllegalStateException("bad zsmalloc handle 0x" + Long.toHexString(handle));
        }
        return classes[(int) ci];
    }

    private static int objId(long handle) {
        return (int) (handle & OBJ_ID_MASK);
    }

    /** get_pages_per_zspage: the zspage length, 1..4 pages, that wastes the least of its tail. */
    static int pagesPerZspage(int size) {
        int best = 1;
        int bestUsedPc = 0;
        for (int pages = 1; pages <= ZS_MAX_PAGES_PER_ZSPAGE; pages++) {
            int zspageSize = pages * Zram.PAGE_SIZE;
            int usedPc = (zspageSize - zspageSize % size) * 100 / zspageSize;
            if (usedPc > bestUsedPc) {
                bestUsedPc = usedPc;
                best = pages;
            }
        }
        return best;
    }

    /*
     * One size class. Everything but `zspages` is read and written only under `lock`; `zspages`
     * is replaced (grown) under the lock with a release store and read by map() without it.
     */
    private static final class SizeClass {
        private static final VarHandle ZSPAGES;

        static {
            try {
                ZSPAGES = MethodHandles.lookup().findVarHandle(SizeClass.class, "zspages", byte[][].class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final int size;
        final int pagesPerZspage;
        final int objsPerZspage;
        /** class->lock: 0 free, 1 held. */
        private final PaddedLong lock = new PaddedLong(0);
        private final AtomicLong pagesAllocated;
        /** Lock + unlock pairs of {@link #lock}. */
        private final LineCounter lockPairs;
        /** Changes of {@link #pagesAllocated}. */
        private final LineCounter pagesRmw;
        /** The zspages; slots past nrZspages are null. Accessed through ZSPAGES. */
        private byte[][] zspages = new byte[0][];
        private int nrZspages;
        private int[] inuse = new int[0];
        private int[] free = new int[0];
        private int freeTop;
        private long[] allocated = new long[0];

        SizeClass(int size, AtomicLong pagesAllocated, LineCounter lockPairs, LineCounter pagesRmw) {
            this.size = size;
            this.pagesPerZspage = pagesPerZspage(size);
            this.objsPerZspage = pagesPerZspage * Zram.PAGE_SIZE / size;
            this.pagesAllocated = pagesAllocated;
            this.lockPairs = lockPairs;
            this.pagesRmw = pagesRmw;
        }

        int allocObj() {
            spinLock();
            try {
                if (freeTop == 0) {
                    allocZspage();
                }
                int id = free[--freeTop];
                setAllocatedTag(id);
                if (inuse[id / objsPerZspage]++ == 0) {
                    pagesRmw.add();
                    pagesAllocated.getAndAdd(pagesPerZspage);
                }
                return id;
            } finally {
                spinUnlock();
            }
        }

        void freeObj(int id) {
            spinLock();
            try {
                if (id >= nrZspages * objsPerZspage || !clearAllocatedTag(id)) {
                    throw new IllegalStateException("zs_free: object " + id + " of class " + size + " is not allocated");
                }
                free[freeTop++] = id;
                if (--inuse[id / objsPerZspage] == 0) {
                    pagesRmw.add();
                    pagesAllocated.getAndAdd(-pagesPerZspage);
                }
            } finally {
                spinUnlock();
            }
        }

        byte[] zspage(int id) {
            byte[][] zs = (byte[][]) ZSPAGES.getAcquire(this); // pairs with setRelease in allocZspage
            return zs[id / objsPerZspage];
        }

        int offset(int id) {
            return (id % objsPerZspage) * size;
        }

        /** alloc_zspage: adds one zspage and puts its objects on the free stack (lowest id on top). */
        private void allocZspage() {
            int z = nrZspages;
            byte[][] zs = zspages;
            if (z == zs.length) {
                int cap = Math.max(4, 2 * z);
                zs = Arrays.copyOf(zs, cap);
                inuse = Arrays.copyOf(inuse, cap);
                free = Arrays.copyOf(free, cap * objsPerZspage);
                allocated = Arrays.copyOf(allocated, (cap * objsPerZspage + 63) >>> 6);
            }
            zs[z] = new byte[pagesPerZspage * Zram.PAGE_SIZE];
            ZSPAGES.setRelease(this, zs); // pairs with getAcquire in zspage()
            nrZspages = z + 1;
            for (int i = objsPerZspage - 1; i >= 0; i--) {
                free[freeTop++] = z * objsPerZspage + i;
            }
        }

        private void setAllocatedTag(int id) {
            allocated[id >>> 6] |= 1L << id;
        }

        /** Clears the tag; false if it was not set (a double free). */
        private boolean clearAllocatedTag(int id) {
            long bit = 1L << id;
            long word = allocated[id >>> 6];
            allocated[id >>> 6] = word & ~bit;
            return (word & bit) != 0;
        }

        /** spin_lock(&class->lock): test and test-and-set. */
        private void spinLock() {
            lockPairs.add();
            for (int round = 0; !lock.compareAndSet(0, 1); ) { // [acquire] pairs with setRelease in spinUnlock
                while (lock.getOpaque() != 0) {
                    round = CpuRelax.cpuRelax(round);
                }
            }
        }

        private void spinUnlock() {
            lock.setRelease(0);
        }
    }
}
