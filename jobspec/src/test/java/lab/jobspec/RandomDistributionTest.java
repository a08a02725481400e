package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code random_distribution}'s values read as fio 3.33's {@code str_random_distribution_cb()} reads them. */
class RandomDistributionTest {

    @Test
    void zonesWithoutASizeShareWhatTheOthersLeave() {
        RandomDistribution d = RandomDistribution.parse("zoned:50/5:30/15:20/");
        assertEquals(RandomDistribution.Kind.ZONED, d.kind());
        assertEquals(List.of(new RandomDistribution.Zone(50, 5), new RandomDistribution.Zone(30, 15),
                new RandomDistribution.Zone(20, 80)), d.zones());
        // two without: (100 - 10) / 2 each
        assertEquals(45, RandomDistribution.parse("zoned:20/10:40/:40/0").zones().get(2).size());
    }

    /** Measured with fio 3.33: zoned:100/ puts every I/O at block 0 ((100 - 100) / 1 = 0 percent). */
    @Test
    void aLoneZoneWithoutASizeHasNone() {
        assertEquals(List.of(new RandomDistribution.Zone(100, 0)), RandomDistribution.parse("zoned:100/").zones());
    }

    @Test
    void absoluteZonesAreBytes() {
        RandomDistribution d = RandomDistribution.parse("zoned_abs:70/1m:30/3m");
        assertEquals(List.of(new RandomDistribution.Zone(70, 1 << 20), new RandomDistribution.Zone(30, 3 << 20)),
                d.zones());
    }

    @Test
    void shapesTakeFiosDefaultsAndACenter() {
        assertEquals(1.1, RandomDistribution.parse("zipf").value());
        assertEquals(0.2, RandomDistribution.parse("pareto").value());
        RandomDistribution n = RandomDistribution.parse("normal:10:0.25");
        assertEquals(RandomDistribution.Kind.NORMAL, n.kind());
        assertEquals(10, n.value());
        assertEquals(0.25, n.center());
        assertEquals(RandomDistribution.Kind.NORMAL, RandomDistribution.parse("gauss").kind());
        assertEquals(RandomDistribution.RANDOM, RandomDistribution.parse("random"));
    }

    @Test
    void badValuesSayWhy() {
        assertRefusal("zoned:60/10:30/10", "add up to 90, not 100");
        assertRefusal("zoned:60/60:40/60", "more than 100");
        assertRefusal("zoned:50/5,50/5", "per direction");
        assertRefusal("zipf:1", "differ from 1.0");
        assertRefusal("pareto:0", "out of range (0, 1)");
        assertRefusal("normal:100", "out of range [0, 100)");
        assertRefusal("zipf:1.2:1.5", "center");
        assertRefusal("zipf:x", "not a number");
        assertRefusal("cauchy", "not one of");
    }

    /** Every block a picker gives is within the region, for each kind. */
    @Test
    void pickersStayInTheRegion() {
        for (String v : List.of("zipf:1.2", "pareto:0.9:0.5", "normal:20", "zipf:0.5:0.9")) {
            RandomDistribution.Picker p = new RandomDistribution.Picker(RandomDistribution.parse(v), 1000,
                    new SplitMix(7), new SplitMix(8));
            for (int i = 0; i < 100_000; i++) {
                long b = p.shaped();
                assertTrue(b >= 0 && b < 1000, v + ": " + b);
            }
        }
        RandomDistribution.Picker z = new RandomDistribution.Picker(RandomDistribution.parse("zoned:50/5:50/95"), 0,
                new SplitMix(7), new SplitMix(8));
        int low = 0;
        for (int i = 0; i < 10_000; i++) {
            long b = z.zoned(1000, 4096, (i % 100) / 100.0);
            assertTrue(b >= 0 && b < 1000, "zoned: " + b);
            low += b < 50 ? 1 : 0;
        }
        assertEquals(0.5, low / 10_000.0, 0.03, "half the draws in the first 5% of blocks");
    }

    private static void assertRefusal(String value, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RandomDistribution.parse(value));
        assertTrue(e.getMessage().contains(why), value + ": " + e.getMessage());
    }
}
