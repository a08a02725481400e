package lab.engine.zram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import lab.engine.count.LineCounter;
import lab.engine.count.LineOp;
import lab.engine.count.SharedLines;

/*
 * struct zram_stats: the device's counters, each an atomic64_t updated with a locked
 * read-modify-write on every page I/O that changes it, and all of them next to each other.
 *
 *   stats[COMPR_DATA_SIZE .. MAX_USED_PAGES]   one long[], adjacent like the struct's fields
 *
 * Deliberately NOT per-cpu: the kernel's are shared atomics, so every writing CPU bounces the
 * same one or two cache lines (a write touches pages_stored and compr_data_size or same_pages,
 * and reads pages_allocated and max_used_pages). That cost is part of zram's per-I/O price and
 * none of the init_lock fixes touched it, so the model keeps it faithfully shared, unpadded.
 *
 * Only the counters the model updates are here: no writeback, recompression, miss_free or
 * writestall counters; notify_free counts discards.
 *
 * Counting (lab.engine.count): each add is one rmw at the site zram.stats.<field>, each attempt
 * of update_used_max's CAS loop one cas at zram.stats.max_used_pages; reads are not counted.
 */

/** zram's {@code atomic64_t} statistics, shared by every CPU. */
final class ZramStats {
    static final int COMPR_DATA_SIZE = 0;
    static final int FAILED_READS = 1;
    static final int FAILED_WRITES = 2;
    static final int NOTIFY_FREE = 3;
    static final int SAME_PAGES = 4;
    static final int HUGE_PAGES = 5;
    static final int HUGE_PAGES_SINCE = 6;
    static final int PAGES_STORED = 7;
    static final int MAX_USED_PAGES = 8;
    private static final int NR_STATS = 9;
    /** The fields' names in struct zram_stats, by index: the sites they are counted at. */
    private static final String[] NAMES = {"compr_data_size", "failed_reads", "failed_writes", "notify_free",
        "same_pages", "huge_pages", "huge_pages_since", "pages_stored", "max_used_pages"};

    private static final VarHandle STAT = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] stats = new long[NR_STATS];
    /** Each field's atomic64_add, by index. */
    private final LineCounter[] rmw = new LineCounter[NR_STATS];
    /** update_used_max's compare-and-exchange. */
    private final LineCounter maxUsedCas;

    /** Statistics that report nothing. */
    ZramStats() {
        this(SharedLines.NONE);
    }

    /** Statistics reporting their atomics to {@code lines}, at {@code zram.stats.<field>}. */
    ZramStats(SharedLines lines) {
        for (int i = 0; i < NR_STATS; i++) {
            rmw[i] = lines.counter("zram.stats." + NAMES[i], LineOp.RMW);
        }
        maxUsedCas = lines.counter("zram.stats." + NAMES[MAX_USED_PAGES], LineOp.CAS);
    }

    /** atomic64_add: a locked xadd on the shared line. */
    void add(int stat, long delta) {
        rmw[stat].add();
        long unused = (long) STAT.getAndAdd(stats, stat, delta);
    }

    /** atomic64_inc. */
    void inc(int stat) {
        add(stat, 1);
    }

    /** atomic64_dec. */
    void dec(int stat) {
        add(stat, -1);
    }

    /** atomic64_read. */
    long read(int stat) {
        return (long) STAT.getOpaque(stats, stat);
    }

    /** update_used_max: raise max_used_pages to {@code pages} with a CAS loop, if it is higher. */
    void updateUsedMax(long pages) {
        long cur = read(MAX_USED_PAGES);
        while (pages > cur) {
            maxUsedCas.add();
            long witness = (long) STAT.compareAndExchange(stats, MAX_USED_PAGES, cur, pages);
            if (witness == cur) {
                return;
            }
            cur = witness;
        }
    }

    /** memset(&zram->stats, 0): at reset, with no I/O inside. */
    void reset() {
        for (int i = 0; i < NR_STATS; i++) {
            STAT.setRelease(stats, i, 0L);
        }
    }
}
