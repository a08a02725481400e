package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lab.engine.count.SharedLineCounts;
import lab.engine.load.DataPattern;
import lab.engine.zram.GuardKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The zram model's shared-line operations per I/O, per guard, rw mode and data pattern, as
 * zram_drv.c and zsmalloc do them. Exact maps (one pool figure bounded, see below): an operation
 * added on the I/O path fails here. Device of 1 MiB, so that each case fills in a few ms.
 */
class ZramCountsTest {
    private static final long IOS = 4000;
    private static final int SIZE_MIB = 1;

    private static Map<String, Map<String, Double>> ops(String... entries) {
        Map<String, Map<String, Double>> m = new TreeMap<>();
        for (String e : entries) {
            String[] siteRest = e.split(":");
            String[] kindOps = siteRest[1].split("=");
            m.computeIfAbsent(siteRest[0], s -> new TreeMap<>()).merge(kindOps[0], Double.parseDouble(kindOps[1]), Double::sum);
        }
        return m;
    }

    /** The guard's operations per I/O. */
    private static String[] guard(String g) {
        return switch (g) {
            // down_read + up_read of zram->init_lock around each bio
            case "rwsem" -> new String[] {"zram.init_lock:rwsem-read=1"};
            // srcu_read_lock/unlock: this CPU's counters and a fence; no shared write
            case "srcu" -> new String[] {};
            // zram_meta_get: atomic_inc_not_zero (one cmpxchg); zram_meta_put: atomic_dec_and_test
            case "atomic-ref" -> new String[] {"zram.meta_ref:cas=1", "zram.meta_ref:rmw=1"};
            // today's kernel: nothing per I/O (reset refuses an open device)
            case "none" -> new String[] {};
            default -> throw new AssertionError(g);
        };
    }

    /** A write's data-path operations (over an old page of the same pattern), per write. */
    private static String[] write(String pattern) {
        return switch (pattern) {
            // same-filled: same_pages++ for the new page; zram_free_page of the old: same_pages--,
            // pages_stored--; then pages_stored++
            case "zero" -> new String[] {"zram.stats.same_pages:rmw=2", "zram.stats.pages_stored:rmw=2"};
            // incompressible, stored huge: zs_malloc and zs_free (class->lock each), a one-page zspage
            // taken and emptied (pages_allocated += 1, -= 1), compr_data_size += and -=, huge_pages
            // -- (old) ++ (new), huge_pages_since ++, pages_stored -- ++
            case "random" -> new String[] {"zs_pool.class.lock:mutex=2", "zs_pool.pages_allocated:rmw=2",
                "zram.stats.compr_data_size:rmw=2", "zram.stats.huge_pages:rmw=2",
                "zram.stats.huge_pages_since:rmw=1", "zram.stats.pages_stored:rmw=2"};
            // compressed: zs_malloc and zs_free (class->lock each), compr_data_size += and -=,
            // pages_stored -- ++ (pages_allocated: bounded below, it depends on the class's zspages)
            case "compressible50" -> new String[] {"zs_pool.class.lock:mutex=2", "zram.stats.compr_data_size:rmw=2",
                "zram.stats.pages_stored:rmw=2"};
            default -> throw new AssertionError(pattern);
        };
    }

    private static SharedLineCounts count(String g, String rw, String pattern) {
        return ZramCounts.of(g, rw, pattern, "lzo-rle", SIZE_MIB, IOS);
    }

    /** The counts less zs_pool.pages_allocated, checked to be within 0..2 per write. */
    private static Map<String, Map<String, Double>> withoutPoolPages(SharedLineCounts c, double writes) {
        Map<String, Map<String, Double>> m = new TreeMap<>();
        c.perIo().forEach((site, kinds) -> m.put(site, new TreeMap<>(kinds)));
        if ("compressible50".equals(c.point().get("pattern"))) {
            Map<String, Double> pages = m.remove("zs_pool.pages_allocated");
            double n = pages == null ? 0 : pages.get("rmw");
            // a zspage holds several objects: pages_allocated moves only when one becomes used or empty
            assertTrue(n >= 0 && n <= 2 * writes, "zs_pool.pages_allocated " + n + " per I/O");
        }
        return m;
    }

    @ParameterizedTest
    @ValueSource(strings = {"rwsem", "srcu", "atomic-ref", "none"})
    void readsCountTheGuardOnly(String g) {
        // zram_bio_read: the slot lock (not a shared line) and decompression; no statistic on success
        for (String pattern : DataPattern.ids()) {
            SharedLineCounts c = count(g, "randread", pattern);
            assertEquals(ops(guard(g)), c.perIo(), g + " randread " + pattern);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rwsem", "srcu", "atomic-ref", "none"})
    void writesCountTheGuardTheStatisticsAndThePool(String g) {
        for (String pattern : DataPattern.ids()) {
            SharedLineCounts c = count(g, "randwrite", pattern);
            String[] all = concat(guard(g), write(pattern));
            assertEquals(ops(all), withoutPoolPages(c, 1), g + " randwrite " + pattern);
        }
    }

    /** randrw: the guard on every I/O, a write's operations on the writes only (rwmixread=50). */
    @ParameterizedTest
    @ValueSource(strings = {"rwsem", "atomic-ref"})
    void mixedIoCountsTheWritesShare(String g) {
        for (String pattern : List.of("zero", "random")) {
            SharedLineCounts c = count(g, "randrw", pattern);
            double writes = c.perIo("zram.stats.pages_stored", "rmw") / 2;
            assertTrue(writes > 0.45 && writes < 0.55, "write share " + writes);
            Map<String, Map<String, Double>> expected = ops(guard(g));
            ops(write(pattern)).forEach((site, kinds) -> kinds.forEach((kind, n) ->
                    expected.computeIfAbsent(site, s -> new TreeMap<>()).put(kind, n * writes)));
            Map<String, Map<String, Double>> actual = c.perIo();
            assertEquals(expected.keySet(), actual.keySet(), g + " randrw " + pattern);
            expected.forEach((site, kinds) -> kinds.forEach((kind, n) ->
                    assertEquals(n, actual.get(site).get(kind), 1e-9, site + " " + kind)));
        }
    }

    @Test
    void everyGuardHasItsExpectedCounts() {
        assertEquals(List.of("rwsem", "srcu", "atomic-ref", "none"),
                Arrays.stream(GuardKind.values()).map(GuardKind::cliName).toList(), "add the new guard's counts here");
        assertEquals(List.of("compressible50", "zero", "random"), DataPattern.ids(), "add the new pattern's counts here");
    }

    @Test
    void aControlCountsAsItsGuard() {
        assertEquals(count("atomic-ref", "randwrite", "zero"), count("atomic-ref~aa", "randwrite", "zero"));
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * The lab switch amplified (6.1/zram-init-lock.patch, zram.lab_init_lock_count N): N read
     * sections per I/O, for rwsem N down_read/up_read pairs on init_lock (N = 4 is four times
     * N = 1), for srcu still no shared write; nothing else changes.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rwsem", "srcu"})
    void sectionsEnterTheGuardNTimesPerIo(String g) {
        SharedLineCounts one = ZramCounts.of(g, 1, "randread", "zero", "lzo-rle", SIZE_MIB, IOS);
        assertEquals(ops(guard(g)), one.perIo());
        for (int n : new int[] {2, 4}) {
            SharedLineCounts c = ZramCounts.of(g, n, "randread", "zero", "lzo-rle", SIZE_MIB, IOS);
            assertEquals(g.equals("rwsem") ? ops("zram.init_lock:rwsem-read=" + n) : ops(), c.perIo(), g + " N = " + n);
            assertEquals(Integer.toString(n), c.point().get("sections"));
        }
    }
}
