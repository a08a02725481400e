/**
 * The zram model: a compressed RAM block device after drivers/block/zram/zram_drv.c (v6.x),
 * built to measure what protects the device's meta from a concurrent reset, on every I/O.
 *
 * <h2>The question</h2>
 * An administrator may reset a zram device (echo 1 &gt; reset) while I/O is going on, and the
 * reset frees the slot table and the zsmalloc pool the I/O is using. The January 2015 linux-mm
 * thread "zram: remove init_lock in zram_make_request" weighed what the I/O path should pay to
 * prevent that: {@code down_read(&zram->init_lock)} per I/O ({@link lab.engine.zram.GuardKind#RWSEM}),
 * SRCU ({@link lab.engine.zram.GuardKind#SRCU}), or an atomic reference count on the meta with a
 * completion that reset waits for ({@link lab.engine.zram.GuardKind#ATOMIC_REF}). Today's kernel
 * pays nothing per I/O and refuses to reset an open device
 * ({@link lab.engine.zram.GuardKind#NONE}). {@link lab.engine.zram.Zram} takes the guard as a
 * parameter ({@link lab.engine.zram.MetaGuard}); everything else on the I/O path is the same for
 * all four, so that their difference is the guard's own cost next to what zram does anyway:
 * the slot bit lock, the same-filled check, compression with a per-cpu stream, zsmalloc's class
 * lock, and the shared atomic64 statistics.
 *
 * <h2>What is modelled</h2>
 * <ul>
 * <li>The slot table ({@link lab.engine.zram.ZramMeta}): handle, size and flags per page
 *     (ZRAM_SAME, ZRAM_HUGE, the ZRAM_LOCK bit spin lock), the element of a same-filled page.</li>
 * <li>Same-filled pages (page_same_filled): stored as the repeated word, no compression.</li>
 * <li>Per-cpu compression streams (zcomp) with real LZO1X and LZ4 compression
 *     ({@link lab.engine.zram.Compressor}); pages compressing to 3/4 of a page or more are stored
 *     uncompressed (ZRAM_HUGE).</li>
 * <li>A zsmalloc-like pool: size classes, zspages, a class spinlock, pages_allocated
 *     ({@code mem_used_total}).</li>
 * <li>zram's statistics as shared atomics, and {@link lab.engine.zram.MmStat mm_stat}.</li>
 * <li>Reset: the guard's writer side, zram_meta_free, and poisoning of the freed meta so that a
 *     use after free is detected ({@link lab.engine.zram.ZramMeta#useAfterFree()}) rather than
 *     silently served by memory the JVM keeps alive.</li>
 * </ul>
 *
 * <h2>Where the model simplifies</h2>
 * <ul>
 * <li>Bios are single pages: the benchmark issues 4 KiB I/O, so there is no bio splitting, no
 *     partial-page I/O (zram's read-modify-write of a partial page) and no multi-page discard;
 *     the block layer itself is not involved ({@link lab.engine.zram.Zram} takes a page index
 *     and a {@code byte[]} page).</li>
 * <li>No writeback to a backing device (ZRAM_WB), no recompression (ZRAM_PP_SLOT, secondary
 *     algorithms), no idle marking (ZRAM_IDLE, ac_time), no memory limit (mem_limit), no
 *     compaction or page migration in the pool, no swap-slot free notification, no
 *     per-cpu stream hot-plug.</li>
 * <li>lzo-rle is modelled by plain LZO1X-1 (the kernel adds run-length coding of zero runs);
 *     huge_class_size is 3072 bytes rather than zs_huge_class_size(pool); zsmalloc classes are 32
 *     bytes apart rather than 16 and are not merged.</li>
 * <li>The compression streams live as long as the device, not from init to reset.</li>
 * <li>"Per-CPU" means per worker thread, as everywhere in the engine (see {@code lab.engine.sync}):
 *     a caller owns its {@code cpu} slot, so zcomp_stream_get takes no lock.</li>
 * <li>init and reset are serialised by a mutex of their own for every guard; for the rwsem guard
 *     the kernel uses the same init_lock for that. Reset frees each slot under its slot lock,
 *     which the kernel does not need to (see {@link lab.engine.zram.Zram}).</li>
 * <li>The none guard's reset waits for the device's openers to go instead of failing with
 *     -EBUSY, and open() waits while a reset holds the device instead of failing.</li>
 * </ul>
 */
package lab.engine.zram;
