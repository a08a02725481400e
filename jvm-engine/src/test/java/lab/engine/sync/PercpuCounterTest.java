package lab.engine.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PercpuCounterTest {
    @Test
    void sumAfterJoinIsExact() throws Exception {
        PercpuCounter c = new PercpuCounter(4, 0, 8);
        Workers.run(4, cpu -> {
            for (int i = 0; i < 100_003; i++) {
                c.add(cpu, cpu + 1);
                if (i % 3 == 0) {
                    c.dec(cpu);
                }
            }
        });
        long expected = 0;
        for (int cpu = 0; cpu < 4; cpu++) {
            expected += 100_003L * (cpu + 1) - (100_003 + 2) / 3;
        }
        assertEquals(expected, c.sum());
        assertTrue(Math.abs(c.read() - expected) <= 4 * (c.batch() - 1), "read() must be within nrCpus*(batch-1)");
    }

    @Test
    void smallDeltasStayInTheSlotUntilTheBatch() {
        PercpuCounter c = new PercpuCounter(2, 10, 4);
        c.add(0, 3);
        assertEquals(10, c.read());
        assertEquals(13, c.sum());
        c.add(0, 1); // |3 + 1| >= 4: folds
        assertEquals(14, c.read());
        c.add(1, -30);
        assertEquals(-16, c.read());
        assertEquals(-16, c.sum());
        assertEquals(0, c.sumPositive());
        assertEquals(0, c.readPositive());
    }
}
