package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import lab.jobspec.report.FioOptions;
import org.junit.jupiter.api.Test;

/** cpus_allowed, cpumask and cpus_allowed_policy: fio's parsing, its bound, and split. */
class CpusTest {

    private static Job job(String lines) throws JobSpecException {
        return JobFileParser.parse(Path.of("c.fio"), "[j]\nsize=1m\n" + lines + "\n").jobs().getFirst();
    }

    private static void assertRefused(String lines, int line, String key, String words) {
        TestJobs.assertRefused("[j]\nsize=1m\n" + lines + "\n", line, key, words);
    }

    @Test
    void listsRangesAndMasks() {
        assertEquals(List.of(0, 2, 3, 4, 7), Cpus.parseList("7,2-4, 0", 8));
        assertEquals(List.of(1), Cpus.parseList("1", 2));
        assertEquals(List.of(0, 1, 5), Cpus.parseMask("0x23", 8));
        assertEquals(List.of(1), Cpus.parseMask("2", 8));
        assertEquals("0,2-4,7", new Cpus(List.of(0, 2, 3, 4, 7), false).format());
    }

    @Test
    void badValuesSayWhy() {
        assertThrows(IllegalArgumentException.class, () -> Cpus.parseList("3-1", 8));
        assertThrows(IllegalArgumentException.class, () -> Cpus.parseList("1,,2", 8));
        assertThrows(IllegalArgumentException.class, () -> Cpus.parseList("one", 8));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cpus.parseList("0-8", 8)).getMessage()
                .contains("CPU 8 too large (max=7"));
        assertThrows(IllegalArgumentException.class, () -> Cpus.parseMask("0", 8));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cpus.parseMask("0x100000000", 64))
                .getMessage().contains("above 31"));
        assertRefused("cpus_allowed=100000", 3, "cpus_allowed", "too large");
        assertRefused("cpumask=0x1\ncpus_allowed=x", 4, "cpus_allowed", "not a CPU");
        assertRefused("cpus_allowed_policy=spread", 3, "cpus_allowed_policy", "shared, split");
    }

    /** fio's fio_cpus_split: run-wide clone n gets the (n mod count)-th allowed CPU. */
    @Test
    void splitGivesEachCloneOneCpuInTurn() {
        Cpus split = new Cpus(List.of(1, 4, 6), true);
        assertEquals(BitSet.valueOf(new long[] {1L << 1}), split.forClone(0));
        assertEquals(BitSet.valueOf(new long[] {1L << 4}), split.forClone(1));
        assertEquals(BitSet.valueOf(new long[] {1L << 6}), split.forClone(2));
        assertEquals(BitSet.valueOf(new long[] {1L << 1}), split.forClone(3));
        assertEquals(BitSet.valueOf(new long[] {(1L << 1) | (1L << 4) | (1L << 6)}),
                new Cpus(List.of(1, 4, 6), false).forClone(5));
        assertTrue(Cpus.ANY.forClone(0).isEmpty());
    }

    @Test
    void theLaterOfCpumaskAndCpusAllowedWinsAndIsEchoed() throws Exception {
        assumeTrue(Cpus.configured() >= 2, "needs 2 CPUs configured");
        Job j = job("cpus_allowed=0-1\ncpumask=2\ncpus_allowed_policy=split");
        assertEquals(new Cpus(List.of(1), true), j.cpus());
        assertEquals(List.of(0, 1), job("cpumask=2\ncpus_allowed=0-1").cpus().allowed());
        assertEquals("1", FioOptions.of(j).get("cpus_allowed"));
        assertEquals("split", FioOptions.of(j).get("cpus_allowed_policy"));
        assertFalse(job("").cpus().pinned());
        assertFalse(FioOptions.of(job("")).containsKey("cpus_allowed"));
    }
}
