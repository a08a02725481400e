package lab.engine.zram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import lab.engine.count.SharedLines;

/*
 * struct zram_meta: the slot table (struct zram_table_entry[]) and the zsmalloc pool, allocated by
 * disksize_store and freed by reset.
 *
 *   handle[i]   the zsmalloc handle of page i, 0 if none; for a ZRAM_SAME page, the element
 *               (the repeated word) instead: the kernel keeps both in one unsigned long
 *               (zram_set_element stores into ->handle), and so does the model
 *   flags[i]    bits 0..ZRAM_FLAG_SHIFT-1: the compressed size (up to PAGE_SIZE, so 13 bits);
 *               above them ZRAM_LOCK, ZRAM_SAME, ZRAM_HUGE (enum zram_pageflags, in that order,
 *               without the writeback, idle and recompression bits the model has no use for)
 *   memPool     the zsmalloc pool
 *
 * The table is two parallel arrays; the kernel's entry keeps handle and flags in one 16-byte
 * struct, so a page I/O touches one cache line of the table where the model touches two.
 *
 * zram_slot_lock(i) is bit_spin_lock(ZRAM_LOCK, &flags[i]): a CAS that sets the bit (acquire),
 * and while it is set, a spin on plain reads of the word (test and test-and-set). Every other
 * bit of flags[i], and handle[i], is read and written only by the holder of slot i's lock, so
 * the holder uses plain accesses, and zram_slot_unlock is a release store of the word without
 * the bit: no other thread can change the word while the bit is set, because their CAS expects
 * it clear. (Kernels up to 6.14 use bit_spin_lock; later ones made the slot lock sleepable.)
 * Neighbouring slots share cache lines, as in the kernel's table.
 *
 * Counting (lab.engine.count): the slot lock is not a line every thread shares. I/O to random
 * pages spreads over the table (4096 pages are 512 lines of flags here, a 1 GiB device 65536 lines
 * of the kernel's 16-byte entries), so two threads meet on one line only by chance, as on the
 * handle or the data; the count run reports no site for it. The pool's operations are counted by
 * the ZsPool (zs_pool.*).
 *
 * Poisoning (the model's KASAN): poison() sets `freed` (volatile store) after reset has freed
 * every slot, then overwrites every handle with POISON (POISON_FREE, include/linux/poison.h)
 * and destroys the pool. The JVM cannot free memory a stale reference still reaches, so a use
 * after free would silently work; instead, zram_slot_lock checks `freed` with one opaque load
 * once it holds the lock (and the pool checks its own flag on malloc, map and free, the meta
 * accesses an I/O makes outside a slot lock), and a use of a freed meta is counted in
 * useAfterFree() and throws IllegalStateException. Under a correct guard the count stays 0.
 */

/**
 * The meta of an initialised zram device: the slot table and the zsmalloc pool, with the
 * use-after-free detector that checks every access made after a reset freed it.
 */
public final class ZramMeta {
    /** Low bits of a slot's flags hold the object size, up to PAGE_SIZE inclusive: PAGE_SHIFT + 1. */
    static final int ZRAM_FLAG_SHIFT = 13;
    static final long ZRAM_LOCK = 1L << ZRAM_FLAG_SHIFT;
    /** Page filled with one repeated word, kept in handle[] as the element; nothing in the pool. */
    static final long ZRAM_SAME = 1L << (ZRAM_FLAG_SHIFT + 1);
    /** Page stored uncompressed (it compressed to at least huge_class_size). */
    static final long ZRAM_HUGE = 1L << (ZRAM_FLAG_SHIFT + 2);
    private static final long OBJ_SIZE_MASK = (1L << ZRAM_FLAG_SHIFT) - 1;
    /** POISON_FREE repeated: what a freed meta's handles read as. */
    static final long POISON = 0x6b6b6b6b6b6b6b6bL;

    private static final VarHandle FLAGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle FREED;
    /** Accesses to a freed meta, over all devices of this JVM. */
    private static final AtomicLong USE_AFTER_FREE = new AtomicLong();

    static {
        try {
            FREED = MethodHandles.lookup().findVarHandle(ZramMeta.class, "freed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The zs handle of each page, or its same-filled element. Guarded by the slot's lock. */
    private final long[] handle;
    /** Object size, flags and the slot lock bit of each page. See the file comment. */
    private final long[] flags;
    private final ZsPool memPool;
    private final int nrPages;
    /** 1 once reset has freed this meta. Written once with a volatile store, read opaque. */
    private int freed;

    /** zram_meta_alloc: a table of {@code nrPages} empty slots and an empty pool. */
    ZramMeta(int nrPages) {
        this(nrPages, SharedLines.NONE);
    }

    /** zram_meta_alloc, with a pool that reports its shared-line operations to {@code lines}. */
    ZramMeta(int nrPages, SharedLines lines) {
        if (nrPages < 1) {
            throw new IllegalArgumentException("nrPages must be positive: " + nrPages);
        }
        this.nrPages = nrPages;
        this.handle = new long[nrPages];
        this.flags = new long[nrPages];
        this.memPool = new ZsPool(lines);
    }

    /** Uses of a freed meta detected so far, in this JVM (all devices, all tests). */
    public static long useAfterFree() {
        return USE_AFTER_FREE.get();
    }

    /** Counts a use after free and throws. */
    static void reportUseAfterFree(String what) {
        USE_AFTER_FREE.incrementAndGet();
        throw new IllegalStateException("zram: use after free: " + what);
    }

    int nrPages() {
        return nrPages;
    }

    ZsPool memPool() {
        return memPool;
    }

    /** zram_slot_lock: bit_spin_lock(ZRAM_LOCK); then the poison check, one opaque load. */
    void zramSlotLock(int index) {
        for (int round = 0; ; ) {
            long f = (long) FLAGS.getOpaque(flags, index);
            if ((f & ZRAM_LOCK) == 0 && FLAGS.weakCompareAndSetAcquire(flags, index, f, f | ZRAM_LOCK)) { // pairs with setRelease in zramSlotUnlock
                break;
            }
            round = CpuRelax.cpuRelax(round);
        }
        if ((int) FREED.getOpaque(this) != 0) {
            zramSlotUnlock(index);
            reportUseAfterFree("slot " + index + " of a reset device");
        }
    }

    /** zram_slot_unlock: clear_bit_unlock, a release store (only the holder writes the word). */
    void zramSlotUnlock(int index) {
        FLAGS.setRelease(flags, index, flags[index] & ~ZRAM_LOCK);
    }

    boolean zramTestFlag(int index, long flag) {
        return (flags[index] & flag) != 0;
    }

    void zramSetFlag(int index, long flag) {
        flags[index] |= flag;
    }

    void zramClearFlag(int index, long flag) {
        flags[index] &= ~flag;
    }

    long zramGetHandle(int index) {
        return handle[index];
    }

    void zramSetHandle(int index, long h) {
        handle[index] = h;
    }

    /** The repeated word of a ZRAM_SAME page (the same storage as the handle). */
    long zramGetElement(int index) {
        return handle[index];
    }

    void zramSetElement(int index, long element) {
        handle[index] = element;
    }

    int zramGetObjSize(int index) {
        return (int) (flags[index] & OBJ_SIZE_MASK);
    }

    void zramSetObjSize(int index, int size) {
        flags[index] = (flags[index] & ~OBJ_SIZE_MASK) | size;
    }

    /** After reset freed every slot: marks the meta freed, poisons the table, destroys the pool. */
    void poison() {
        FREED.setVolatile(this, 1);
        Arrays.fill(handle, POISON);
        memPool.destroy();
    }

    boolean isFreed() {
        return (int) FREED.getOpaque(this) != 0;
    }

    @Override
    public String toString() {
        return "ZramMeta[nrPages=" + nrPages + (isFreed() ? ", freed]" : "]");
    }
}
