package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.TreeMap;
import lab.engine.block.AcctMode;
import lab.engine.count.SharedLineCounts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The part-acct model's shared-line operations per I/O and per tick, per variant and target, as
 * the kernel's code of each step does them (blk_account_io_start/done of v4.2, update_io_ticks of
 * v5.7). The maps are exact: an operation added anywhere on the accounting path fails here.
 * Sites: part0.* is the whole disk's hd_struct (the I/O's own for target disk, the extra accounting
 * for target part), part.* is partition 1's.
 */
class PartAcctCountsTest {
    private static final long IOS = 20_000;

    /** Expected ops per I/O: site -> kind -> ops, from "site:kind=ops" pairs. */
    private static Map<String, Map<String, Double>> ops(String... entries) {
        Map<String, Map<String, Double>> m = new TreeMap<>();
        for (String e : entries) {
            String[] siteRest = e.split(":");
            String[] kindOps = siteRest[1].split("=");
            m.computeIfAbsent(siteRest[0], s -> new TreeMap<>()).put(kindOps[0], Double.parseDouble(kindOps[1]));
        }
        return m;
    }

    private static void check(String variant, String target, Map<String, Map<String, Double>> perIo,
                              Map<String, Map<String, Double>> perTick) {
        SharedLineCounts c = PartAcctCounts.of(variant, target, IOS);
        assertEquals(perIo, c.perIo(), variant + " to " + target + ": per I/O");
        assertEquals(perTick, c.perTick(), variant + " to " + target + ": per tick");
        assertEquals(variant, c.variant());
        assertEquals(Map.of("target", target), c.point());
        assertEquals(IOS, c.ios());
    }

    @Test
    void atomic() {
        // hd_struct_try_get: atomic_inc_not_zero (one cmpxchg); hd_struct_put: atomic_dec_and_test (one xadd)
        // part_inc/dec_in_flight: atomic_inc + atomic_dec of part->in_flight[rw]
        // part_round_stats: part->stamp = now once a tick (the in-flight reads are reads)
        check("atomic", "disk", ops("part0.ref:cas=1", "part0.ref:rmw=1", "part0.in_flight:rmw=2"),
                ops("part0.stamp:store=1"));
        // a partition: the same on its line, and part_inc/dec_in_flight also do part0's in_flight;
        // part_round_stats rounds part0 and then the partition
        check("atomic", "part", ops("part.ref:cas=1", "part.ref:rmw=1", "part.in_flight:rmw=2", "part0.in_flight:rmw=2"),
                ops("part.stamp:store=1", "part0.stamp:store=1"));
    }

    @Test
    void percpuRef() {
        // patches 1-2: percpu_ref_tryget_live/put touch the CPU's own counter: no shared write for the
        // reference; in_flight[] is still atomic_t
        check("percpu-ref", "disk", ops("part0.in_flight:rmw=2"), ops("part0.stamp:store=1"));
        check("percpu-ref", "part", ops("part.in_flight:rmw=2", "part0.in_flight:rmw=2"),
                ops("part.stamp:store=1", "part0.stamp:store=1"));
    }

    @Test
    void percpuInflight() {
        // patches 3-4: in_flight is a per-cpu disk_stats field; only the tick's stamp store is shared
        // (part_in_flight() sums every CPU's copy: reads)
        check("percpu-ref+percpu-inflight", "disk", ops(), ops("part0.stamp:store=1"));
        check("percpu-ref+percpu-inflight", "part", ops(), ops("part.stamp:store=1", "part0.stamp:store=1"));
    }

    @Test
    void lazyTicks() {
        // update_io_ticks: one try_cmpxchg of bd_stamp per tick, the partition's then part0's
        check("lazy-ticks", "disk", ops(), ops("part0.stamp:cas=1"));
        check("lazy-ticks", "part", ops(), ops("part.stamp:cas=1", "part0.stamp:cas=1"));
    }

    @Test
    void iostatsOff() {
        // blk_do_io_stat() false: no reference, no in-flight, no tick work
        check("iostats=0", "disk", ops(), ops());
        check("iostats=0", "part", ops(), ops());
    }

    /** Every mode is covered above, so a mode added without its expected counts fails here. */
    @Test
    void everyModeHasItsExpectedCounts() {
        assertEquals(java.util.List.of("atomic", "percpu-ref", "percpu-ref+percpu-inflight", "lazy-ticks", "iostats=0"),
                AcctMode.ids(), "add the new mode's expected counts to this test");
    }

    /** The A/A control runs the same model: the same counts, under the engine's id. */
    @ParameterizedTest
    @CsvSource({"atomic,part", "lazy-ticks,disk"})
    void aControlCountsAsItsVariant(String variant, String target) {
        SharedLineCounts a = PartAcctCounts.of(variant, target, 1000);
        SharedLineCounts aa = PartAcctCounts.of(Variants.control(variant), target, 1000);
        assertEquals(a, aa);
    }

    @Test
    void perTickOpsAddToTheIoAtARateAndHz() {
        SharedLineCounts c = PartAcctCounts.of("atomic", "disk", 1000);
        // 4 per I/O; one stamp store per tick: at 1000 Hz and 10^6 I/O/s, 0.001 per I/O
        assertEquals(Map.of("cas", 1.0, "rmw", 3.0, "store", 0.001), c.byKindAt(1e6, 1000));
    }

    /**
     * Visits per I/O to each line: the start accounting (blk_account_io_start) and the end
     * (blk_account_io_done) are one visit each, the device's work between them; with the
     * submitter's work between one I/O's end and the next one's start they stay two, without it
     * they run back to back and make one.
     */
    @Test
    void visitsAreTheAccountingsTwoEndsUnlessTheyRunBackToBack() {
        assertEquals(Map.of("part0", 2.0), PartAcctCounts.of("atomic", "disk", IOS, true).visitsPerIo());
        assertEquals(Map.of("part0", 1.0), PartAcctCounts.of("atomic", "disk", IOS, false).visitsPerIo());
        assertEquals(Map.of("part", 2.0, "part0", 2.0), PartAcctCounts.of("atomic", "part", IOS, true).visitsPerIo());
        // patches 1-2 take one operation off each visit, not a visit
        assertEquals(Map.of("part0", 2.0), PartAcctCounts.of("percpu-ref", "disk", IOS, true).visitsPerIo());
        assertEquals(Map.of("part0", 1.0), PartAcctCounts.of("percpu-ref", "disk", IOS, false).visitsPerIo());
        for (String v : java.util.List.of("percpu-ref+percpu-inflight", "lazy-ticks", "iostats=0")) {
            assertEquals(Map.of(), PartAcctCounts.of(v, "disk", IOS, true).visitsPerIo(), v + ": no shared line per I/O");
        }
    }

    /**
     * The lab switch amplified (6.1/part-acct.patch, block.lab_part_acct=atomic with count N) on
     * today's lazy-ticks: N get and in_flight[rw] increments at start, N decrements at done, on the
     * accounted partition's own words: 4N per I/O at its lab_acct site, exactly, and nothing else
     * changes (the whole disk's words stay untouched for a partition's I/O).
     */
    @ParameterizedTest
    @CsvSource({"disk,part0", "part,part"})
    void ampAddsFourNSharedAtomicsPerIoOnTheAccountedPartition(String target, String site) {
        SharedLineCounts none = PartAcctCounts.of("lazy-ticks", 0, target, IOS, false);
        for (int n : new int[] {1, 4}) {
            SharedLineCounts amp = PartAcctCounts.of("lazy-ticks", n, target, IOS, false);
            Map<String, Map<String, Double>> expected = new TreeMap<>(none.perIo());
            expected.put(site + ".lab_acct", Map.of("rmw", 4.0 * n));
            assertEquals(expected, amp.perIo(), "N = " + n + " to " + target);
            assertEquals(none.perTick(), amp.perTick());
            assertEquals(Map.of("target", target, "amp", Integer.toString(n)), amp.point());
        }
    }
}
