package lab.fix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** {@code ./lab coverage}'s parts that are not the simulation itself: the grid, the rows, the Wilson interval. */
class CoverageSimTest {
    /**
     * 95 of 100, z = 1.95996 (z² = 3.84146): d = 1 + z²/n = 1.0384146; centre (0.95 + 0.0192073) / d =
     * 0.933352; half z √(0.000475 + 0.0000960) / d = 1.95996 × 0.0238962 / 1.0384146 = 0.045103:
     * 0.888250–0.978456. 0 of 2000: the centre equals the half, so 0 to z² / (n + z²) = 3.84146 /
     * 2003.84146 = 0.0019170. 20 of 20: up to 1 exactly, from (1 + z²/40 − √(z⁴/1600)) / d =
     * 1 / (1 + z²/20) = 0.838875.
     */
    @Test
    void wilsonIntervalsWorkedByHand() {
        assertArrayEquals(new double[] {0.888250, 0.978456}, CoverageSim.wilson(95, 100), 1e-6);
        assertArrayEquals(new double[] {0, 0.0019170}, CoverageSim.wilson(0, 2000), 1e-7);
        assertArrayEquals(new double[] {0.838875, 1}, CoverageSim.wilson(20, 20), 1e-6);
        assertThrows(IllegalArgumentException.class, () -> CoverageSim.wilson(3, 2));
        assertThrows(IllegalArgumentException.class, () -> CoverageSim.wilson(0, 0));
    }

    /** The issue's settings: quick and full x five spreads x normal and t3 at 1 + M/2, four at truth 1, four nested; every name its own. */
    @Test
    void theGridIsTheIssuesSettingsEachNamedApart() {
        List<CoverageSim.Case> grid = CoverageSim.grid();
        assertEquals(28, grid.size());
        assertEquals(28, new HashSet<>(grid.stream().map(CoverageSim.Case::name).toList()).size(), "names apart");
        assertEquals("quick normal 0.010 truth 1.025", grid.getFirst().name());
        assertEquals("quick normal 0.045 truth 1.025", grid.get(3).name(), "0.045 is not printed as 0.04 or 0.05");
        assertEquals("full t3 0.060 truth 1.010", grid.get(19).name());
        assertEquals("full t3 0.030 truth 1.000", grid.get(23).name());
        assertEquals("boots 5x3 t3 0.030 truth 1.020", grid.getLast().name());
    }

    /**
     * The designs as Adaptive and Stein set them: quick 1 own round, a pilot of 4, ±5%, 30 s of
     * 10 s rounds, limit 24, 1 fork x 5, h = ln(1.05) / 2 = 0.048790 / 2 = 0.02440; full 3 own, 8,
     * ±2%, 900 s of 30 s, 24, 3 x 5, h = ln(1.02) / 2 = 0.019803 / 2 = 0.00990.
     */
    @Test
    void designRowsSayWhatAdaptiveAndSteinSet() {
        assertEquals(List.of("quick\t1\t4\t0.05\t30\t10\t24\t1\t5\t0.02440", "full\t3\t8\t0.02\t900\t30\t24\t3\t5\t0.00990"),
                CoverageSim.designRows());
        assertEquals(10, CoverageSim.DESIGN_HEADER.split("\t").length);
    }

    /** A nested setting's row: every column of the header, n/a where the A/A and verdicts do not apply, the coverage nestedCoverage gives. */
    @Test
    void aNestedRowFillsEveryColumn() {
        CoverageSim.Nested n = new CoverageSim.Nested(3, 3, 0.03, false, 1.02);
        String[] cells = n.row(50, 5, null).tsv().split("\t", -1);
        String[] header = CoverageSim.ROW_HEADER.split("\t");
        assertEquals(header.length, cells.length);
        double cov = CoverageSim.nestedCoverage(3, 3, 0.03, false, 1.02, 50, 5)[0];
        assertEquals(String.format(Locale.ROOT, "%.4f", cov), cells[List.of(header).indexOf("coverage")]);
        for (String c : List.of("aa_false_change", "wrong_effect", "verdicts", "aa_false_lo", "aa_false_hi")) {
            assertEquals(CoverageSim.NA, cells[List.of(header).indexOf(c)], c);
        }
        assertEquals("9.00", cells[List.of(header).indexOf("mean_rounds")], "3 boots x 3 rounds");
        assertEquals("boots 3x3", cells[List.of(header).indexOf("design")]);
        double lo = Double.parseDouble(cells[List.of(header).indexOf("coverage_lo")]);
        double hi = Double.parseDouble(cells[List.of(header).indexOf("coverage_hi")]);
        assertTrue(lo <= cov && cov <= hi, lo + " " + cov + " " + hi);
    }
}
