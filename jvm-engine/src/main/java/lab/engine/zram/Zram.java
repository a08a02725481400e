package lab.engine.zram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;
import lab.engine.count.SharedLines;
import lab.engine.sync.Mutex;
import lab.engine.work.CpuWork;

/*
 * A zram device, drivers/block/zram/zram_drv.c (v6.x), one 4 KiB page per I/O.
 *
 *   guard        what keeps the meta alive under an I/O: GuardKind, see MetaGuard
 *   meta         ZramMeta: slot table + zsmalloc pool; replaced by init, poisoned by reset
 *   comp         Zcomp: per-cpu compression streams, allocated once per device
 *   stats        ZramStats: shared atomic64 counters
 *   openers      DiskOpeners: block-device openers and zram->claim
 *   initLock     serialises init and reset (the writer side of zram->init_lock)
 *   disksize     0 while not initialised
 *   work         base_ns: the kernel's own per-I/O CPU, spent at the start of each page I/O
 *                (CpuWork.NONE by default)
 *   lines        where the guard, the stats and the pool report their shared-line operations
 *                (SharedLines.NONE by default; lab.engine.count)
 *
 * Page I/O, as zram_submit_bio -> zram_bio_read/zram_bio_write/zram_bio_discard:
 *
 *   work.spend()                      base_ns: what the kernel spends around zram's own work
 *                                     (syscall, bio, submit_bio, completion), before the guard
 *   token = guard.enter(cpu)          fail if not initialised
 *   meta  = this.meta [acquire]       the guard's acquire already orders it
 *   index in range?                   else fail (the block layer's bio_check_eod)
 *   read:    slot lock; handle 0 or ZRAM_SAME -> fill the page with the element;
 *            huge -> copy; else decompress (via the stream's local copy if the object
 *            straddles two zspage pages); slot unlock
 *   write:   same-filled? -> element, no compression; else compress into the stream's
 *            buffer, >= huge_class_size -> store the page itself; zs_malloc, copy in;
 *            then slot lock; zram_free_page (the old contents); set handle/element, size,
 *            flags; slot unlock
 *   discard: slot lock; zram_free_page; slot unlock
 *   guard.exit(cpu, token)
 *
 * huge_class_size: the kernel stores a page uncompressed when it compresses to at least
 * zs_huge_class_size(pool), the size from which a zsmalloc class holds one object per zspage
 * (about 3.2 KiB with 4 KiB pages); the model uses 3/4 of a page, 3072 bytes, for both
 * backends and every pool, so that a page is huge when compression saves less than a quarter.
 *
 * Reset, as zram_reset_device: guard.beginReset() (no I/O inside after it); zram_meta_free: free
 * every slot; poison the meta; zero the stats and disksize. The kernel frees the slots without
 * their locks, since nobody else can be inside; the model takes each slot's lock anyway (a cost
 * to reset only), so that under a broken guard an I/O racing the free is serialised with it and
 * the failure shows as a detected use after free, not as a double free inside the pool. `meta` keeps pointing at the poisoned meta until the next init, so an
 * I/O that a broken guard lets through finds the poison rather than a null. init(): a new meta,
 * published, then guard.endReset().
 *
 * Allocation: none per I/O once every size class of the pool has grown to its working set
 * (ZramIoTest checks it); init allocates the table and the pool's classes.
 */

/**
 * The zram model: a compressed RAM block device with a switchable guard between I/O and reset.
 * Each worker passes its own per-cpu slot {@code cpu} (0..nrCpus-1) to every I/O, and opens
 * the device around its I/O for the {@link GuardKind#NONE none} guard's reset to wait for.
 */
public final class Zram {
    public static final int PAGE_SIZE = 4096;
    static final int PAGE_SHIFT = 12;
    /** huge_class_size: a page compressing to this or more is stored uncompressed (ZRAM_HUGE). */
    static final int HUGE_CLASS_SIZE = PAGE_SIZE / 4 * 3;

    private static final VarHandle META;
    private static final VarHandle DISKSIZE;
    /** The page as native (little-endian) words: page_same_filled and zram_fill_page. */
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            META = l.findVarHandle(Zram.class, "meta", ZramMeta.class);
            DISKSIZE = l.findVarHandle(Zram.class, "disksize", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final GuardKind guardKind;
    private final MetaGuard guard;
    private final Compressor compressor;
    private final Zcomp comp;
    private final ZramStats stats;
    private final DiskOpeners openers = new DiskOpeners();
    /** base_ns per page I/O. */
    private final CpuWork work;
    /** Where the guard, the stats and each meta's pool report their shared-line operations. */
    private final SharedLines lines;
    /** Serialises init and reset. */
    private final Mutex initLock = new Mutex();
    /** The current meta, or the poisoned one after reset, or null before the first init. Through META. */
    private ZramMeta meta;
    /** Bytes; 0 while not initialised. Written under initLock (release), read opaque. Through DISKSIZE. */
    private long disksize;

    /** A device of no size, not initialised, with {@code nrCpus} per-cpu slots. */
    public Zram(GuardKind guard, Compressor comp, int nrCpus) {
        this(guard, null, comp, nrCpus, CpuWork.NONE, SharedLines.NONE, 1);
    }

    /**
     * A device of no size, not initialised, that spends {@code work} at the start of each page I/O
     * ({@code base_ns}: {@link CpuWork#NONE} for none) and reports its shared-line operations to
     * {@code lines} ({@link SharedLines#NONE} but in a count run).
     */
    public Zram(GuardKind guard, Compressor comp, int nrCpus, CpuWork work, SharedLines lines) {
        this(guard, null, comp, nrCpus, work, lines, 1);
    }

    /**
     * As {@link #Zram(GuardKind, Compressor, int, CpuWork, SharedLines)}, with the lab kernel's
     * zram.lab_init_lock_count {@code sections} (1: the guard alone): each I/O enters and leaves
     * the guard's read section {@code sections - 1} extra times before the one it holds
     * ({@link SectionsGuard}).
     */
    public Zram(GuardKind guard, Compressor comp, int nrCpus, CpuWork work, SharedLines lines, int sections) {
        this(guard, null, comp, nrCpus, work, lines, sections);
    }

    /** A device with a caller's guard (tests), reported as {@code kind}. */
    Zram(GuardKind kind, MetaGuard custom, Compressor comp, int nrCpus) {
        this(kind, custom, comp, nrCpus, CpuWork.NONE, SharedLines.NONE, 1);
    }

    private Zram(GuardKind kind, MetaGuard custom, Compressor comp, int nrCpus, CpuWork work, SharedLines lines, int sections) {
        this.guardKind = Objects.requireNonNull(kind, "guard");
        this.compressor = Objects.requireNonNull(comp, "comp");
        this.work = Objects.requireNonNull(work, "work");
        this.lines = Objects.requireNonNull(lines, "lines");
        this.stats = new ZramStats(lines);
        this.comp = new Zcomp(comp, nrCpus);
        MetaGuard g = custom != null ? custom : newGuard(kind, nrCpus, openers, lines);
        this.guard = sections == 1 ? g : new SectionsGuard(g, sections);
    }

    private static MetaGuard newGuard(GuardKind kind, int nrCpus, DiskOpeners openers, SharedLines lines) {
        return switch (kind) {
            case RWSEM -> new RwsemGuard(lines);
            case SRCU -> new SrcuGuard(nrCpus, lines);
            case ATOMIC_REF -> new AtomicRefGuard(lines);
            case NONE -> new NoneGuard(openers);
        };
    }

    // ---- control path: disksize_store, reset_store, open/release, mm_stat ----

    /** disksize_store: allocates the meta for {@code disksizeBytes} (rounded up to pages); the device must not be initialised. */
    public void init(long disksizeBytes) {
        if (disksizeBytes <= 0 || disksizeBytes > (long) Integer.MAX_VALUE * PAGE_SIZE) {
            throw new IllegalArgumentException("zram: invalid disksize " + disksizeBytes);
        }
        long size = (disksizeBytes + PAGE_SIZE - 1) & -PAGE_SIZE; // PAGE_ALIGN
        initLock.lock();
        try {
            if (disksizeRead() != 0) {
                throw new IllegalStateException("zram: cannot change disksize of an initialised device (-EBUSY)");
            }
            ZramMeta m = new ZramMeta((int) (size >>> PAGE_SHIFT), lines);
            META.setRelease(this, m);
            DISKSIZE.setRelease(this, size);
            guard.endReset(); // publishes the meta to the readers it lets in
        } finally {
            initLock.unlock();
        }
    }

    /**
     * zram_reset_device: waits (through the guard) until no I/O uses the meta, frees every slot,
     * poisons the meta and zeroes the stats and disksize. A no-op on a device not initialised.
     */
    public void reset() {
        initLock.lock();
        try {
            if (disksizeRead() == 0) {
                return;
            }
            guard.beginReset();
            ZramMeta m = (ZramMeta) META.getAcquire(this);
            zramMetaFree(m);
            stats.reset();
            DISKSIZE.setRelease(this, 0L);
        } finally {
            initLock.unlock();
        }
    }

    /** Opens the block device (blkdev_get); waits while a reset holds the device. */
    public void open() {
        openers.open();
    }

    /** Releases the block device (blkdev_put). */
    public void release() {
        openers.release();
    }

    /** The disk size in bytes, 0 when not initialised. */
    public long disksize() {
        return disksizeRead();
    }

    /** mm_stat: the stats and the pool's pages in use. */
    public MmStat mmStat() {
        initLock.lock();
        try {
            long memUsed = 0;
            if (disksizeRead() != 0) {
                memUsed = ((ZramMeta) META.getAcquire(this)).memPool().totalPages() << PAGE_SHIFT;
            }
            long pagesStored = stats.read(ZramStats.PAGES_STORED);
            return new MmStat(pagesStored << PAGE_SHIFT, stats.read(ZramStats.COMPR_DATA_SIZE), memUsed,
                    stats.read(ZramStats.SAME_PAGES), stats.read(ZramStats.HUGE_PAGES), pagesStored);
        } finally {
            initLock.unlock();
        }
    }

    public GuardKind guardKind() {
        return guardKind;
    }

    public Compressor compressor() {
        return compressor;
    }

    /** What each page I/O spends before the guard ({@code base_ns}). */
    public CpuWork work() {
        return work;
    }

    /** The guard itself, for tests that hold an I/O inside it. */
    MetaGuard guard() {
        return guard;
    }

    // ---- I/O path ----

    /** Reads the 4 KiB page at {@code index} into {@code page}; false is an I/O error (not initialised, out of range). */
    public boolean read(long index, byte[] page, int cpu) {
        checkPage(page);
        work.spend();
        int token = guard.enter(cpu);
        if (token < 0) {
            return false;
        }
        try {
            ZramMeta m = currentMeta();
            return validIndex(m, index) && zramReadPage(m, (int) index, page, cpu);
        } finally {
            guard.exit(cpu, token);
        }
    }

    /** Writes {@code page} to the 4 KiB page at {@code index}; false is an I/O error. */
    public boolean write(long index, byte[] page, int cpu) {
        checkPage(page);
        work.spend();
        int token = guard.enter(cpu);
        if (token < 0) {
            return false;
        }
        try {
            ZramMeta m = currentMeta();
            return validIndex(m, index) && zramWritePage(m, (int) index, page, cpu);
        } finally {
            guard.exit(cpu, token);
        }
    }

    /** Discards the page at {@code index} (zram_bio_discard of one page): frees what it holds. */
    public boolean discard(long index, int cpu) {
        work.spend();
        int token = guard.enter(cpu);
        if (token < 0) {
            return false;
        }
        try {
            ZramMeta m = currentMeta();
            if (!validIndex(m, index)) {
                return false;
            }
            zramBioDiscard(m, (int) index);
            return true;
        } finally {
            guard.exit(cpu, token);
        }
    }

    /** The meta an I/O uses (the poisoned one after a reset); package-private for tests. */
    ZramMeta currentMeta() {
        return (ZramMeta) META.getAcquire(this); // pairs with setRelease in init (the guard's acquire orders it too)
    }

    private long disksizeRead() {
        return (long) DISKSIZE.getOpaque(this);
    }

    private static boolean validIndex(ZramMeta m, long index) {
        return index >= 0 && index < m.nrPages();
    }

    private static void checkPage(byte[] page) {
        if (page.length != PAGE_SIZE) {
            throw new IllegalArgumentException("zram: a page is " + PAGE_SIZE + " bytes, not " + page.length);
        }
    }

    /** zram_read_page: the whole read under the slot lock. */
    private boolean zramReadPage(ZramMeta m, int index, byte[] page, int cpu) {
        m.zramSlotLock(index);
        try {
            if (zramReadFromZspool(m, index, page, cpu)) {
                return true;
            }
        } finally {
            m.zramSlotUnlock(index);
        }
        stats.inc(ZramStats.FAILED_READS);
        return false;
    }

    /** zram_read_from_zspool. Slot lock held. */
    private boolean zramReadFromZspool(ZramMeta m, int index, byte[] page, int cpu) {
        long handle = m.zramGetHandle(index);
        if (handle == 0 || m.zramTestFlag(index, ZramMeta.ZRAM_SAME)) {
            zramFillPage(page, handle != 0 ? m.zramGetElement(index) : 0);
            return true;
        }
        int size = m.zramGetObjSize(index);
        ZsPool pool = m.memPool();
        byte[] src = pool.map(handle);
        int off = pool.offset(handle);
        if (size == PAGE_SIZE) {
            System.arraycopy(src, off, page, 0, PAGE_SIZE); // copy_page
            return true;
        }
        Zcomp.ZcompStrm zstrm = comp.zcompStreamGet(cpu);
        if (ZsPool.spansPages(off, size)) {
            System.arraycopy(src, off, zstrm.localCopy, Zcomp.PAD, size);
            src = zstrm.localCopy;
            off = Zcomp.PAD;
        }
        return Zcomp.zcompDecompress(zstrm, src, off, size, page);
    }

    /** zram_write_page. */
    private boolean zramWritePage(ZramMeta m, int index, byte[] page, int cpu) {
        long handle = 0;
        long element = 0;
        long flags = 0;
        int compLen = 0;
        if (pageSameFilled(page)) {
            element = (long) WORDS.get(page, 0);
            flags = ZramMeta.ZRAM_SAME;
            stats.inc(ZramStats.SAME_PAGES);
        } else {
            Zcomp.ZcompStrm zstrm = comp.zcompStreamGet(cpu);
            compLen = Zcomp.zcompCompress(zstrm, page);
            if (compLen >= HUGE_CLASS_SIZE) {
                compLen = PAGE_SIZE;
            }
            ZsPool pool = m.memPool();
            handle = pool.malloc(compLen);
            stats.updateUsedMax(pool.totalPages());
            byte[] dst = pool.map(handle);
            int off = pool.offset(handle);
            if (compLen == PAGE_SIZE) {
                System.arraycopy(page, 0, dst, off, PAGE_SIZE);
            } else {
                System.arraycopy(zstrm.buffer, Zcomp.PAD, dst, off, compLen);
            }
            stats.add(ZramStats.COMPR_DATA_SIZE, compLen);
        }
        m.zramSlotLock(index);
        try {
            zramFreePage(m, index); // the old contents, before overwriting
            if (compLen == PAGE_SIZE) {
                m.zramSetFlag(index, ZramMeta.ZRAM_HUGE);
                stats.inc(ZramStats.HUGE_PAGES);
                stats.inc(ZramStats.HUGE_PAGES_SINCE);
            }
            if (flags != 0) {
                m.zramSetFlag(index, flags);
                m.zramSetElement(index, element);
            } else {
                m.zramSetHandle(index, handle);
                m.zramSetObjSize(index, compLen);
            }
        } finally {
            m.zramSlotUnlock(index);
        }
        stats.inc(ZramStats.PAGES_STORED);
        return true;
    }

    /** zram_bio_discard for one whole page. */
    private void zramBioDiscard(ZramMeta m, int index) {
        m.zramSlotLock(index);
        try {
            zramFreePage(m, index);
        } finally {
            m.zramSlotUnlock(index);
        }
        stats.inc(ZramStats.NOTIFY_FREE);
    }

    /** zram_free_page: drops what slot {@code index} holds. Slot lock held. */
    private void zramFreePage(ZramMeta m, int index) {
        if (m.zramTestFlag(index, ZramMeta.ZRAM_HUGE)) {
            m.zramClearFlag(index, ZramMeta.ZRAM_HUGE);
            stats.dec(ZramStats.HUGE_PAGES);
        }
        if (m.zramTestFlag(index, ZramMeta.ZRAM_SAME)) {
            m.zramClearFlag(index, ZramMeta.ZRAM_SAME);
            stats.dec(ZramStats.SAME_PAGES);
        } else {
            long handle = m.zramGetHandle(index);
            if (handle == 0) {
                return;
            }
            m.memPool().free(handle);
            stats.add(ZramStats.COMPR_DATA_SIZE, -m.zramGetObjSize(index));
        }
        stats.dec(ZramStats.PAGES_STORED);
        m.zramSetHandle(index, 0);
        m.zramSetObjSize(index, 0);
    }

    /** zram_meta_free: frees every slot (under its lock, see the file comment), then poisons the meta. */
    private void zramMetaFree(ZramMeta m) {
        for (int index = 0; index < m.nrPages(); index++) {
            m.zramSlotLock(index);
            try {
                zramFreePage(m, index);
            } finally {
                m.zramSlotUnlock(index);
            }
        }
        m.poison();
    }

    /** page_same_filled: every 8-byte word equal to the first (the last one is tested first, as the kernel does). */
    static boolean pageSameFilled(byte[] page) {
        long val = (long) WORDS.get(page, 0);
        if (val != (long) WORDS.get(page, PAGE_SIZE - Long.BYTES)) {
            return false;
        }
        for (int pos = Long.BYTES; pos < PAGE_SIZE - Long.BYTES; pos += Long.BYTES) {
            if ((long) WORDS.get(page, pos) != val) {
                return false;
            }
        }
        return true;
    }

    /** zram_fill_page: memset_l of the element (clear_page for 0). */
    static void zramFillPage(byte[] page, long value) {
        if (value == 0) {
            Arrays.fill(page, (byte) 0);
            return;
        }
        for (int pos = 0; pos < PAGE_SIZE; pos += Long.BYTES) {
            WORDS.set(page, pos, value);
        }
    }

    @Override
    public String toString() {
        return "Zram[" + guardKind.cliName() + ", " + compressor.cliName() + ", disksize=" + disksize() + "]";
    }
}
